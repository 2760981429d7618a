//! No input, however broken, may panic or hang the loaders: mutated and truncated copies of every
//! real skeleton file, random bytes, and hostile nesting. Whatever loads must also save and load
//! back to the same skeleton.

mod common;

use marionette_skeleton::{Fk, Pose, Skeleton, builtin};
use proptest::prelude::*;

/// Tokens that make mutations land on the format's own syntax, not only on random bytes.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "Joint(\"x\", [])",
    "Group(\"g\", [",
    "Hinge(",
    "Slide(",
    "Axis(0, 0, 0)",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "0",
    "-180, 180",
    "mirror: Some(\"pelvis\")",
    "Some(",
    "None",
    "version: 2,",
    "offset: ",
    "dofs: [",
    "rest: [",
    "//",
    "/*",
    "\\u{0}",
    "é",
    "\n",
];

#[derive(Debug, Clone)]
enum Mutation {
    Truncate(usize),
    Delete(usize, usize),
    Insert(usize, usize),
    InsertByte(usize, u8),
    Duplicate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(a, t)| Mutation::Insert(a, t)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::InsertByte(a, b)),
        (any::<usize>(), 1usize..200).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
    ]
}

/// Applies mutations at char boundaries (the loader takes `&str`; bytes are tested separately).
fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut s = text.to_owned();
    let boundary = |s: &str, i: usize| {
        let mut i = i % (s.len() + 1);
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    for m in mutations {
        match *m {
            Mutation::Truncate(a) => {
                let a = boundary(&s, a);
                s.truncate(a);
            }
            Mutation::Delete(a, n) => {
                let a = boundary(&s, a);
                let b = boundary(&s, a + n);
                if b > a {
                    s.replace_range(a..b, "");
                }
            }
            Mutation::Insert(a, t) => {
                let a = boundary(&s, a);
                s.insert_str(a, TOKENS[t]);
            }
            Mutation::InsertByte(a, b) => {
                let a = boundary(&s, a);
                s.insert(a, char::from(b));
            }
            Mutation::Duplicate(a, n) => {
                let a = boundary(&s, a);
                let b = boundary(&s, a + n);
                if b > a {
                    let piece = s[a..b].to_owned();
                    s.insert_str(b, &piece);
                }
            }
        }
    }
    s
}

fn originals() -> Vec<String> {
    common::skeleton_files()
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect()
}

/// Whatever loads is usable: FK runs, and it saves and loads back identical.
fn check_loaded(s: &Skeleton) -> Result<(), TestCaseError> {
    let mut fk = Fk::new(s);
    fk.update(s, &Pose::rest(s).q);
    let text = s
        .to_ron_string()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let again =
        Skeleton::from_ron_str(&text, "saved").map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&again, s);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_skeleton_files_never_panic(file in 0usize..64, mutations in prop::collection::vec(mutation(), 1..6)) {
        let all = originals();
        let text = mutate(&all[file % all.len()], &mutations);
        if let Ok(s) = Skeleton::from_ron_str(&text, "mutated.ron") {
            check_loaded(&s)?;
        } else if let Err(e) = Skeleton::from_ron_str(&text, "mutated.ron") {
            prop_assert!(e.to_string().starts_with("mutated.ron"), "{}", e);
        }
    }

    #[test]
    fn mutated_pose_files_never_panic(mutations in prop::collection::vec(mutation(), 1..6)) {
        let s = builtin::humanoid();
        let mut pose = Pose::rest(&s);
        pose.q[5] = 0.3;
        let text = mutate(&pose.to_ron_string(&s).expect("serialise"), &mutations);
        if let Ok(p) = Pose::from_ron_str(&s, &text, "mutated.ron") {
            prop_assert!(p.within_limits(&s));
            prop_assert_eq!(p.q.len(), s.state_len());
        }
    }

    #[test]
    fn random_text_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Skeleton::from_ron_str(&text, "random.ron");
        let _ = Pose::from_ron_str(&builtin::stickman(), &text, "random.ron");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let hierarchy = format!("{}{}", "Joint(\"a\", [".repeat(depth), "])".repeat(depth));
    let text = format!("Skeleton(name: \"deep\", hierarchy: {hierarchy}, joints: {{}})");
    let err = Skeleton::from_ron_str(&text, "deep.ron").expect_err("too deep");
    assert!(err.to_string().contains("nested more than"), "{err}");
    let brackets = "[".repeat(depth);
    assert!(Skeleton::from_ron_str(&brackets, "deep.ron").is_err());
}

#[test]
fn a_long_but_legal_chain_loads() {
    // A tail or tentacle of 200 joints, each the child of the one before, on a test thread's
    // 2 MiB stack.
    let n = 200;
    let mut hierarchy = String::new();
    for i in 0..n {
        hierarchy += &format!("Joint(\"j{i}\", [");
    }
    hierarchy += &"])".repeat(n);
    let joints: String = (0..n)
        .map(|i| format!("\"j{i}\": (offset: (0, 0.1, 0), dofs: [Hinge(Z, -10, 10)]),"))
        .collect();
    let text = format!("Skeleton(name: \"chain\", hierarchy: {hierarchy}, joints: {{{joints}}})");
    let s = Skeleton::from_ron_str(&text, "chain.ron").expect("loads");
    assert_eq!(s.dof_count(), n);
}

/// A chain of `n` joints, each the child of the one before, as a skeleton file's structure (as
/// the BVH and glTF imports build them, without RON's nesting limit in the way).
fn chain_file(n: usize) -> marionette_skeleton::format::SkeletonFile {
    use marionette_skeleton::format::{JointDef, Node, SkeletonFile};
    let mut hierarchy = Node::Joint(format!("j{}", n - 1), Vec::new());
    for i in (0..n - 1).rev() {
        hierarchy = Node::Joint(format!("j{i}"), vec![hierarchy]);
    }
    let mut file: SkeletonFile =
        ron::from_str("Skeleton(name: \"chain\", hierarchy: Joint(\"x\", []), joints: {})")
            .expect("a skeleton");
    file.hierarchy = hierarchy;
    let def: JointDef = ron::from_str("(offset: (0, 0.1, 0))").expect("a joint");
    file.joints.0 = (0..n).map(|i| (format!("j{i}"), def.clone())).collect();
    file
}

#[test]
fn a_hierarchy_deeper_than_a_file_can_hold_is_refused_naming_the_joint() {
    let limit = marionette_skeleton::MAX_DEPTH;
    assert!(Skeleton::from_file(chain_file(limit), "chain").is_ok());
    // Deeper than the limit: refused, the walk stopping at the limit.
    for n in [limit + 1, 5000] {
        let err = Skeleton::from_file(chain_file(n), "chain").expect_err("too deep");
        let text = err.to_string();
        assert!(
            text.contains(&format!(
                "joint \"j{limit}\" is nested {} joints",
                limit + 1
            )),
            "{}",
            &text[..text.len().min(300)]
        );
    }
}

#[test]
fn more_joints_than_a_skeleton_may_have_are_refused() {
    use marionette_skeleton::format::Node;
    let limit = marionette_skeleton::MAX_JOINTS;
    let mut file = chain_file(1);
    let def = file.joints.0[0].1.clone();
    let leaves: Vec<Node> = (1..=limit)
        .map(|i| Node::Joint(format!("leaf{i}"), Vec::new()))
        .collect();
    file.joints
        .0
        .extend((1..=limit).map(|i| (format!("leaf{i}"), def.clone())));
    file.hierarchy = Node::Joint("j0".into(), leaves);
    let err = Skeleton::from_file(file, "wide").expect_err("too many");
    assert!(
        err.to_string().contains(&format!(
            "joint \"leaf{limit}\" is one more than the {limit} joints"
        )),
        "{err}"
    );
}
