//! Every error of docs/skeleton-format.md ("Errors a loader must report") with a broken file: each is
//! reported (never a panic, never a silent fix) and names the file and the joint, group or site.

use marionette_skeleton::{Defect, Skeleton, SkeletonError};

const FILE: &str = "broken.ron";

const GOOD: &str = r#"Skeleton(
    version: 1,
    name: "test",
    hierarchy: Joint("root", [
        Group("Arm", [Joint("upper", [Joint("lower", [])])]),
        Joint("other", []),
    ]),
    joints: {
        "root": (offset: (0.0, 1.0, 0.0), dofs: [Hinge(X, -45, 45)]),
        "upper": (offset: (-0.2, 0.0, 0.0), dofs: [Hinge(Y, -90, 90), Slide(Z, 0, 0.1)], rest: [10, 0.05],
                  object: Some(Capsule(radius: 0.04, length: 0.3)), mass: 2.0, stiffness: 0.5),
        "lower": (offset: (0.0, -0.3, 0.0), dofs: [Hinge(X, 0, 150)], mirror: Some("other")),
    },
    sites: {
        "tip": (joint: "lower", offset: (0.0, -0.3, 0.0)),
    },
)
"#;

/// `GOOD` with one replacement applied (which must match exactly once).
fn broken(from: &str, to: &str) -> String {
    assert_eq!(GOOD.matches(from).count(), 1, "{from:?} must occur once");
    GOOD.replacen(from, to, 1)
}

fn load(text: &str) -> Result<Skeleton, SkeletonError> {
    Skeleton::from_ron_str(text, FILE)
}

/// Loads `text`, expects an Invalid error containing `defect`, and a message naming `names`.
fn expect_defect(text: &str, matches: impl Fn(&Defect) -> bool, names: &[&str]) {
    let err = load(text).expect_err("must be rejected");
    assert!(
        err.defects().iter().any(matches),
        "unexpected defects: {err}"
    );
    let message = err.to_string();
    for line in message.lines() {
        assert!(
            line.starts_with(&format!("{FILE}: ")),
            "line without the file: {line}"
        );
    }
    for name in names {
        assert!(
            message.contains(&format!("\"{name}\"")),
            "{message} does not name {name}"
        );
    }
}

fn expect_syntax(text: &str, line: usize, fragment: &str) {
    match load(text).expect_err("must be rejected") {
        SkeletonError::Syntax {
            file,
            line: l,
            col,
            message,
        } => {
            assert_eq!(file, FILE);
            assert_eq!(l, line, "{message}");
            assert!(col >= 1);
            assert!(message.contains(fragment), "{message} lacks {fragment}");
        }
        other => panic!("expected a syntax error, got {other}"),
    }
}

#[test]
fn the_base_file_is_valid() {
    let s = load(GOOD).expect("valid");
    assert_eq!(s.dof_count(), 5);
    assert_eq!(
        s.group(s.group_by_name("Arm").expect("group")).joints.len(),
        2
    );
    let other = s.joint(s.joint_by_name("other").expect("other"));
    assert_eq!(other.offset.x, 0.0, "mirror of (0, -0.3, 0)");
    assert_eq!(other.def.dofs.len(), 1);
}

#[test]
fn syntax_errors_carry_file_line_and_column() {
    let err = load(&broken(
        "dofs: [Hinge(X, -45, 45)]),",
        "dofs: [Hinge(X, -45, 45)),",
    ))
    .expect_err("bad");
    let text = err.to_string();
    assert!(text.starts_with("broken.ron:9:"), "{text}");
    expect_syntax(&broken("name: \"test\",", "name: test,"), 3, "");
    expect_syntax(&GOOD[..200], 9, "");
    expect_syntax("", 1, "");
}

#[test]
fn an_unknown_field_is_an_error_not_an_extension() {
    expect_syntax(
        &broken("(offset: (0.0, 1.0, 0.0)", "(ofset: (0.0, 1.0, 0.0)"),
        9,
        "ofset",
    );
    expect_syntax(
        &broken("name: \"test\",", "name: \"test\", author: \"x\","),
        3,
        "author",
    );
    expect_syntax(
        &broken("Capsule(radius: 0.04,", "Capsule(radius: 0.04, lenght: 1,"),
        11,
        "lenght",
    );
    expect_syntax(
        &broken("(joint: \"lower\",", "(joint: \"lower\", ofset: (0,0,0),"),
        15,
        "ofset",
    );
}

#[test]
fn a_joint_without_definition_is_reported() {
    expect_defect(
        &broken(
            "Joint(\"other\", [])",
            "Joint(\"other\", []), Joint(\"ghost\", [])",
        ),
        |d| matches!(d, Defect::MissingDefinition { joint } if joint == "ghost"),
        &["ghost"],
    );
}

#[test]
fn a_definition_or_site_off_the_hierarchy_is_reported() {
    expect_defect(
        &broken(
            "\"lower\": (",
            "\"lowr\": (offset: (0.0, 0.0, 0.0)),\n        \"lower\": (",
        ),
        |d| matches!(d, Defect::UnknownJoint { joint } if joint == "lowr"),
        &["lowr"],
    );
    expect_defect(
        &broken("(joint: \"lower\",", "(joint: \"hand\","),
        |d| matches!(d, Defect::SiteOnUnknownJoint { site, joint } if site == "tip" && joint == "hand"),
        &["tip", "hand"],
    );
}

#[test]
fn duplicate_names_are_reported() {
    expect_defect(
        &broken("Joint(\"other\", [])", "Joint(\"upper\", [])"),
        |d| matches!(d, Defect::DuplicateJoint { joint } if joint == "upper"),
        &["upper"],
    );
    expect_defect(
        &broken(
            "Joint(\"other\", [])",
            "Group(\"Arm\", [Joint(\"other\", [])])",
        ),
        |d| matches!(d, Defect::DuplicateGroup { group } if group == "Arm"),
        &["Arm"],
    );
    expect_defect(
        &broken(
            "\"tip\": (",
            "\"tip\": (joint: \"root\"),\n        \"tip\": (",
        ),
        |d| matches!(d, Defect::DuplicateSite { site } if site == "tip"),
        &["tip"],
    );
    expect_defect(
        &broken("\"lower\": (", "\"root\": (),\n        \"lower\": ("),
        |d| matches!(d, Defect::DuplicateDefinition { joint, .. } if joint == "root"),
        &["root"],
    );
    // Two mirrors producing one joint.
    expect_defect(
        &broken(
            "stiffness: 0.5),",
            "stiffness: 0.5, mirror: Some(\"other\")),",
        ),
        |d| matches!(d, Defect::DuplicateDefinition { joint, .. } if joint == "other"),
        &["other", "lower"],
    );
}

#[test]
fn limits_axes_and_rest_values_are_checked() {
    expect_defect(
        &broken("Hinge(X, 0, 150)", "Hinge(X, 150, 0)"),
        |d| matches!(d, Defect::MinAboveMax { joint, min, max, .. } if joint == "lower" && *min == 150.0 && *max == 0.0),
        &["lower"],
    );
    expect_defect(
        &broken("Hinge(X, -45, 45)", "Hinge(Axis(0, 0, 0), -45, 45)"),
        |d| matches!(d, Defect::ZeroAxis { joint, .. } if joint == "root"),
        &["root"],
    );
    expect_defect(
        &broken("rest: [10, 0.05]", "rest: [100, 0.05]"),
        |d| matches!(d, Defect::ValueOutOfLimits { joint, field: "rest", value, .. } if joint == "upper" && *value == 100.0),
        &["upper"],
    );
    expect_defect(
        &broken("rest: [10, 0.05]", "rest: [10]"),
        |d| matches!(d, Defect::ValueCount { joint, field: "rest", expected: 2, found: 1 } if joint == "upper"),
        &["upper"],
    );
}

#[test]
fn bend_hints_are_checked_like_rest_values() {
    let with_hint = |hint: &str| {
        broken(
            "rest: [10, 0.05]",
            &format!("rest: [10, 0.05], preferred: {hint}"),
        )
    };
    assert!(load(&with_hint("[20, 0.1]")).is_ok(), "a valid hint loads");
    expect_defect(
        &with_hint("[200, 0.1]"),
        |d| matches!(d, Defect::ValueOutOfLimits { joint, field: "preferred", value, .. } if joint == "upper" && *value == 200.0),
        &["upper"],
    );
    expect_defect(
        &with_hint("[20]"),
        |d| matches!(d, Defect::ValueCount { joint, field: "preferred", expected: 2, found: 1 } if joint == "upper"),
        &["upper"],
    );
    expect_defect(
        &with_hint("[20, NaN]"),
        |d| matches!(d, Defect::NonFinite { field, .. } if field == "preferred value 2"),
        &["upper"],
    );
}

#[test]
fn non_finite_numbers_are_rejected_anywhere() {
    for (from, to, owner) in [
        (
            "(offset: (0.0, 1.0, 0.0)",
            "(offset: (0.0, NaN, 0.0)",
            "root",
        ),
        ("Hinge(X, -45, 45)", "Hinge(X, -inf, 45)", "root"),
        (
            "Hinge(Y, -90, 90)",
            "Hinge(Axis(NaN, 1, 0), -90, 90)",
            "upper",
        ),
        ("mass: 2.0", "mass: inf", "upper"),
        ("rest: [10, 0.05]", "rest: [NaN, 0.05]", "upper"),
        (
            "offset: (0.0, -0.3, 0.0)),",
            "offset: (0.0, -inf, 0.0)),",
            "tip",
        ),
    ] {
        expect_defect(
            &broken(from, to),
            |d| matches!(d, Defect::NonFinite { .. }),
            &[owner],
        );
    }
}

#[test]
fn mass_and_stiffness_ranges_are_checked() {
    expect_defect(
        &broken("mass: 2.0", "mass: -2.0"),
        |d| matches!(d, Defect::NegativeMass { joint, .. } if joint == "upper"),
        &["upper"],
    );
    for bad in ["0.0", "1.5", "-0.1"] {
        expect_defect(
            &broken("stiffness: 0.5", &format!("stiffness: {bad}")),
            |d| matches!(d, Defect::StiffnessOutOfRange { joint, .. } if joint == "upper"),
            &["upper"],
        );
    }
    load(&broken("stiffness: 0.5", "stiffness: 1.0")).expect("1 is allowed");
}

#[test]
fn unknown_versions_are_errors_not_guesses() {
    for v in ["2", "0", "-1"] {
        let err = load(&broken("version: 1,", &format!("version: {v},"))).expect_err("bad version");
        assert!(
            matches!(err.defects(), [Defect::UnsupportedVersion { .. }]),
            "{err}"
        );
        assert!(err.to_string().contains(&format!("version {v}")));
    }
    load(&broken("version: 1,\n", "")).expect("version defaults to 1");
}

#[test]
fn a_mirror_to_an_unknown_joint_is_reported() {
    expect_defect(
        &broken("mirror: Some(\"other\")", "mirror: Some(\"left lower\")"),
        |d| matches!(d, Defect::UnknownMirror { joint, mirror } if joint == "lower" && mirror == "left lower"),
        &["lower", "left lower"],
    );
}

#[test]
fn a_group_at_the_top_is_reported() {
    let text = GOOD
        .replacen(
            "hierarchy: Joint(\"root\", [",
            "hierarchy: Group(\"All\", [Joint(\"root\", [",
            1,
        )
        .replacen(
            "        Joint(\"other\", []),\n    ]),",
            "        Joint(\"other\", []),\n    ])]),",
            1,
        );
    expect_defect(
        &text,
        |d| matches!(d, Defect::RootIsGroup { group } if group == "All"),
        &["All"],
    );
}

#[test]
fn bad_bodies_are_reported() {
    expect_defect(
        &broken(
            "Capsule(radius: 0.04, length: 0.3)",
            "Capsule(radius: -0.04, length: 0.3)",
        ),
        |d| matches!(d, Defect::BadBody { joint, .. } if joint == "upper"),
        &["upper"],
    );
    expect_defect(
        &broken(
            "Capsule(radius: 0.04, length: 0.3)",
            "Capsule(radius: 0.04, length: 0.3, axis: (0, 0, 0))",
        ),
        |d| matches!(d, Defect::BadBody { joint, .. } if joint == "upper"),
        &["upper"],
    );
}

#[test]
fn every_defect_is_listed_at_once() {
    let text =
        broken("mass: 2.0", "mass: -2.0").replacen("Hinge(X, 0, 150)", "Hinge(X, 150, 0)", 1);
    let err = load(&text).expect_err("two defects");
    assert_eq!(err.defects().len(), 2, "{err}");
    assert_eq!(err.lines().len(), 2);
}

#[test]
fn io_errors_name_the_file() {
    let err = Skeleton::load("/no/such/dir/skeleton.ron").expect_err("missing");
    assert!(
        err.to_string().starts_with("/no/such/dir/skeleton.ron: "),
        "{err}"
    );
}
