//! Saving and loading again gives the same skeleton or pose: every file in `skeletons/`, random
//! skeletons, random poses; and saved files keep the `mirror` entries they were written with.

mod common;

use marionette_skeleton::{Pose, Skeleton, builtin};
use proptest::prelude::*;

fn round_trip(s: &Skeleton) -> Skeleton {
    let text = s.to_ron_string().expect("serialise");
    Skeleton::from_ron_str(&text, "saved.ron").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn every_skeleton_file_round_trips() {
    for f in common::skeleton_files() {
        let s = Skeleton::load(&f).expect("valid");
        let again = round_trip(&s);
        assert_eq!(again, s, "{}", f.display());
        // Saving is deterministic and a fixed point.
        assert_eq!(
            again.to_ron_string().expect("ser"),
            s.to_ron_string().expect("ser")
        );
    }
}

#[test]
fn saved_humanoid_keeps_its_mirrors() {
    let text = builtin::humanoid().to_ron_string().expect("serialise");
    assert!(text.contains("mirror: Some(\"left shoulder\")"), "{text}");
    assert!(
        !text.contains("\"left shoulder\": ("),
        "mirrored joints are not written out"
    );
    assert!(text.starts_with("Skeleton("));
}

#[test]
fn an_edited_mirrored_joint_is_written_out_in_full() {
    let mut s = builtin::humanoid();
    let left = s.joint_by_name("left elbow").expect("left elbow");
    let right = s.joint_by_name("right elbow").expect("right elbow");
    // An editor changes the left elbow's stiffness only: the two sides now differ.
    let mut file = s.to_file();
    let def = s.joint(right).def.clone();
    let mut edited = marionette_skeleton::mirror::mirror_def(&def);
    edited.stiffness = 0.5;
    file.joints.0.push(("left elbow".into(), edited));
    s = Skeleton::from_file(file, "edited").expect("valid");
    assert_eq!(s.joint(left).stiffness, 0.5);
    assert_eq!(
        s.joint(left).mirrored_from,
        None,
        "own entry wins over the mirror"
    );
    let again = round_trip(&s);
    assert_eq!(again, s);
    assert_eq!(again.joint(left).stiffness, 0.5);
}

#[test]
fn the_stickman_saves_as_the_format_page_describes() {
    let text = builtin::stickman().to_ron_string().expect("serialise");
    for fragment in [
        "version: 1",
        "name: \"stickman\"",
        "Group(\"Upper body\"",
        "Hinge(X, -45.0, 45.0)",
        "object: Some(Box(",
        "size: (0.3, 0.12, 0.15)",
        "\"pelvis\": (\n",
    ] {
        assert!(text.contains(fragment), "{fragment} missing in\n{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_skeletons_round_trip(file in common::skeleton_file()) {
        let s = Skeleton::from_file(file, "random").expect("valid");
        prop_assert_eq!(round_trip(&s), s);
    }

    #[test]
    fn random_poses_round_trip((s, pose) in common::skeleton_and_pose()) {
        let text = pose.to_ron_string(&s).expect("serialise");
        let again = Pose::from_ron_str(&s, &text, "pose.ron").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(again.within_limits(&s));
        for (a, b) in again.q.iter().zip(&pose.q) {
            prop_assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{} vs {}", a, b);
        }
        // Saved again after it is read, it is the same bytes (a document saved, opened and
        // saved does not change).
        prop_assert_eq!(again.to_ron_string(&s).expect("serialise"), text);
    }

    #[test]
    fn poses_at_their_limits_reload_despite_rounding((s, _) in common::skeleton_and_pose(), at_max in any::<bool>()) {
        let mut pose = Pose::rest(&s);
        for (k, d) in s.dofs().iter().enumerate() {
            if !d.unlimited {
                pose.q[3 + k] = if at_max { d.max } else { d.min };
            }
        }
        let text = pose.to_ron_string(&s).expect("serialise");
        let again = Pose::from_ron_str(&s, &text, "pose.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(again.within_limits(&s));
    }
}
