//! The Pose file of docs/file-formats.md: defaults, and every error it lists, naming the joint.

use marionette_skeleton::{Pose, PoseDefect, PoseError, builtin};

fn load(text: &str) -> Result<Pose, PoseError> {
    Pose::from_ron_str(&builtin::stickman(), text, "pose.ron")
}

fn defects(text: &str) -> Vec<PoseDefect> {
    match load(text).expect_err("must be rejected") {
        PoseError::Invalid { file, defects } => {
            assert_eq!(file, "pose.ron");
            defects
        }
        other => panic!("expected Invalid, got {other}"),
    }
}

#[test]
fn the_format_page_example_loads_in_radians() {
    let s = builtin::stickman();
    let pose = load(
        r#"Pose(
            root: (0.0, 0.0, 0.0),                       // optional
            joints: {
                "right arm": [-40.0, -10.0],
                "right hand": [35.0],
            },
        )"#,
    )
    .expect("valid");
    let arm = s.joint_by_name("right arm").expect("arm");
    let values = pose.joint_values(&s, arm);
    assert!((values[0] - (-40f64).to_radians()).abs() < 1e-15);
    assert!((values[1] - (-10f64).to_radians()).abs() < 1e-15);
    // Unlisted joints keep their rest values; everything is optional.
    assert_eq!(load("Pose()").expect("empty pose"), Pose::rest(&s));
    let moved = load("Pose(root: (1, 2, 3))").expect("root only");
    assert_eq!(&moved.q[..3], &[1.0, 2.0, 3.0]);
}

#[test]
fn every_listed_error_names_the_joint() {
    let d = defects(r#"Pose(joints: {"rigth arm": [1, 2]})"#);
    assert!(matches!(&d[..], [PoseDefect::UnknownJoint { joint, .. }] if joint == "rigth arm"));
    let d = defects(r#"Pose(joints: {"right arm": [1]})"#);
    assert!(
        matches!(&d[..], [PoseDefect::WrongLength { joint, expected: 2, found: 1 }] if joint == "right arm")
    );
    let d = defects(r#"Pose(joints: {"right hand": [NaN]})"#);
    assert!(
        matches!(&d[..], [PoseDefect::NonFinite { owner, index: 1 }] if owner.contains("right hand"))
    );
    let d = defects(r#"Pose(joints: {"right hand": [151]})"#);
    assert!(
        matches!(&d[..], [PoseDefect::OutOfLimits { joint, value, .. }] if joint == "right hand" && *value == 151.0)
    );
    let d = defects(r#"Pose(joints: {"right hand": [10], "right hand": [20]})"#);
    assert!(matches!(&d[..], [PoseDefect::DuplicateJoint { joint }] if joint == "right hand"));
    let d = defects("Pose(root: (0, inf, 0))");
    assert!(matches!(&d[..], [PoseDefect::NonFinite { owner, index: 2 }] if owner == "root"));
}

#[test]
fn all_errors_are_reported_together_one_line_each() {
    let err =
        load(r#"Pose(joints: {"nobody": [1], "right hand": [500]})"#).expect_err("two errors");
    let text = err.to_string();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.starts_with("pose.ron: ")));
    assert!(text.contains("\"nobody\"") && text.contains("\"right hand\""));
}

#[test]
fn syntax_errors_and_unknown_fields_have_positions() {
    let err = load("Pose(\n  jonts: {})").expect_err("typo");
    assert!(err.to_string().starts_with("pose.ron:2:"), "{err}");
    let err = load("Skeleton(name: \"x\")").expect_err("not a pose");
    assert!(err.to_string().starts_with("pose.ron:1:"), "{err}");
}

#[test]
fn unlimited_hinges_accept_any_finite_value() {
    let s = builtin::humanoid();
    let pose = Pose::from_ron_str(&s, r#"Pose(joints: {"pelvis": [270, -400, 0]})"#, "p.ron")
        .expect("valid");
    let pelvis = pose.joint_values(&s, s.root());
    assert!((pelvis[0] - 270f64.to_radians()).abs() < 1e-12);
}
