//! A prop's mass in `marionette physics check`: a figure swaying with a 20 kg ball it grips from
//! frame 12 and lets go at frame 36. The check's centre of mass must be, on every frame, the
//! test's own weighted mean of the figure alone (the same document with no grip) and the ball
//! where `marionette bake` puts it (the stage's baked prop places), the ball counted only on the
//! frames the test's own rule says it is held (12 ≤ frame < 36). A prop mass that is not one is
//! refused naming the prop. A ballistic fix of a jump with a ball in hand flies the parabola
//! with the ball counted.

use std::path::Path;

use serde_json::Value;

use super::{document_folder, fitted, flagged_json, marionette, repo};

/// The stage: one figure swaying, a ball of `mass` (the file's text, or none), and `holds`.
fn stage(mass: &str, holds: &str) -> String {
    let skeleton = repo().join("skeletons/humanoid.ron");
    let skeleton = skeleton.to_str().expect("path");
    format!(
        r#"Document(
    version: 2,
    figures: [
        Figure(
            name: "B",
            skeleton: "{skeleton}",
            pose: Some(Pose(root: (0.0, 0.0, 0.0), joints: {{"right shoulder": [60.0, 0.0, 0.0], "right elbow": [30.0]}})),
            locks: [
                Lock(name: "left foot", goal: Position(site: "left heel", target: (0.09, 0.0, -0.05))),
                Lock(name: "right foot", goal: Position(site: "right heel", target: (-0.09, 0.0, -0.05))),
            ],
            sequences: [
                Sequence(
                    name: "sway",
                    fps: 24.0,
                    keys: [
                        Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {{"right shoulder": [60.0, 0.0, 0.0], "right elbow": [30.0]}})),
                        Key(frame: 24, pose: Pose(root: (0.08, -0.06, 0.04), joints: {{"right shoulder": [20.0, 0.0, 0.0], "right elbow": [80.0]}})),
                        Key(frame: 48, pose: Pose(root: (-0.06, -0.02, -0.03), joints: {{"right shoulder": [60.0, 0.0, 0.0], "right elbow": [30.0]}})),
                    ],
                ),
            ],
        ),
    ],
    props: [
        Prop(name: "ball", shape: Sphere(radius: 0.11), at: (-0.3, 1.0, 0.4){mass}),
    ],
    cues: [
        Cue(sequence: "sway", holds: [{holds}]),
    ],
)
"#
    )
}

const HOLDS: &str = r#"Grip(prop: "ball", figure: "B", site: "right fingertips", frame: 12), Release(prop: "ball", frame: 36)"#;

fn point(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("a point");
    [0, 1, 2].map(|i| a[i].as_f64().expect("a number"))
}

#[test]
fn a_gripped_prop_weighs_in_the_centre_of_mass_while_held() {
    let dir = tempfile::tempdir().expect("a folder");
    let carrying = dir.path().join("carry.marionette.ron");
    let alone = dir.path().join("alone.marionette.ron");
    std::fs::write(&carrying, stage(", mass: Some(20.0)", HOLDS)).expect("write");
    // The ball keeps its own place: nobody grips it.
    std::fs::write(&alone, stage(", mass: Some(20.0)", "")).expect("write");
    let args = |doc: &Path| {
        flagged_json(&[
            "physics",
            "check",
            doc.to_str().expect("path"),
            "--sequence",
            "sway",
            "--json",
        ])
    };
    let (with, without) = (args(&carrying), args(&alone));
    let frames_out = dir.path().join("frames.json");
    let o = marionette(&[
        "bake",
        carrying.to_str().expect("path"),
        "--sequence",
        "sway",
        "--out",
        frames_out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let baked: Value =
        serde_json::from_str(&std::fs::read_to_string(&frames_out).expect("frames")).expect("JSON");
    let frames = baked["frames"].as_array().expect("frames");
    let (com_with, com_without) = (
        with["com"].as_array().expect("com"),
        without["com"].as_array().expect("com"),
    );
    assert_eq!(com_with.len(), frames.len());
    assert_eq!(com_without.len(), frames.len());
    let body = 75.0;
    let mut largest_shift: f64 = 0.0;
    for (i, frame) in frames.iter().enumerate() {
        let number = frame["frame"].as_i64().expect("a frame number");
        let ball = point(&frame["props"]["ball"]["position"]);
        let held = (12..36).contains(&number);
        let (c, alone) = (point(&com_with[i]), point(&com_without[i]));
        for axis in 0..3 {
            let expected = if held {
                (body * alone[axis] + 20.0 * ball[axis]) / (body + 20.0)
            } else {
                alone[axis]
            };
            assert!(
                (c[axis] - expected).abs() < 1e-9,
                "frame {number} axis {axis}: {} vs {expected}",
                c[axis]
            );
            largest_shift = largest_shift.max((c[axis] - alone[axis]).abs());
        }
    }
    assert!(
        largest_shift > 0.05,
        "the ball moves the centre of mass: {largest_shift}"
    );
    let carried = &with["carried"][0];
    assert_eq!(carried["prop"], "ball");
    assert_eq!(carried["mass_kg"].as_f64(), Some(20.0));
    assert_eq!(
        (carried["from"].as_u64(), carried["to"].as_u64()),
        (Some(12), Some(35))
    );
    assert_eq!(without["carried"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_prop_mass_that_is_not_one_is_refused_naming_the_prop() {
    let dir = tempfile::tempdir().expect("a folder");
    for mass in ["0.0", "-2.0", "20000.0"] {
        let doc = dir.path().join("bad.marionette.ron");
        std::fs::write(&doc, stage(&format!(", mass: Some({mass})"), HOLDS)).expect("write");
        let o = marionette(&[
            "physics",
            "check",
            doc.to_str().expect("path"),
            "--sequence",
            "sway",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{mass}: {err}");
        assert!(
            err.contains("ball") && err.contains("mass"),
            "{mass}: {err}"
        );
        assert!(o.stdout.is_empty(), "{mass}: nothing on standard output");
    }
}

/// The swung jump with a 20 kg ball in the right hand over the flight: `physics fix
/// --ballistic` (with `--momentum` too) puts the centre of mass of the figure and the ball on
/// the parabola under g (the
/// test's own least-squares fit of what the check reports, the ball counted). A fix of the
/// figure alone leaves that centre of mass at g 11.25 m/s², 23 mm off a parabola and
/// accelerating 0.68 m/s² across (measured 2026-11-28).
#[test]
fn a_jump_with_a_ball_in_hand_fixed_flies_at_g_with_the_ball_counted() {
    let text =
        std::fs::read_to_string(repo().join("crates/cli/tests/data/jump-ball.marionette.ron"))
            .expect("the jump");
    let (dir, doc) = document_folder("humanoid.ron", "jump-ball.marionette.ron", &text);
    let doc_arg = doc.to_str().expect("path");
    let check = |file: &str| {
        flagged_json(&[
            "physics",
            "check",
            file,
            "--sequence",
            "jump",
            "--figure",
            "B",
            "--json",
        ])
    };
    let before = check(doc_arg);
    let carried = before["carried"].as_array().expect("carried");
    assert_eq!(carried.len(), 1, "{carried:?}");
    let spans = before["spans"].as_array().expect("spans");
    assert_eq!(spans.len(), 1, "{spans:?}");
    let (a, b) = (
        spans[0]["from"].as_u64().expect("from") as usize,
        spans[0]["to"].as_u64().expect("to") as usize,
    );
    // Alone, and with the momentum held (the root turned: the ball turns with it).
    for (name, asked) in [
        ("fixed", &["--ballistic"][..]),
        ("turned", &["--ballistic", "--momentum"][..]),
    ] {
        let fixed = dir.path().join(format!("{name}.marionette.ron"));
        let span = format!("{a}..{b}");
        let mut args = vec![
            "physics",
            "fix",
            doc_arg,
            "--sequence",
            "jump",
            "--figure",
            "B",
            "--span",
            &span,
        ];
        args.extend_from_slice(asked);
        args.extend(["--out", fixed.to_str().expect("path")]);
        let o = marionette(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (g, residual, across) = fitted(&check(fixed.to_str().expect("path")), a, b);
        assert!((g - 9.81).abs() <= 0.01, "{asked:?}: {g}");
        assert!(residual <= 1e-4, "{asked:?}: {residual}");
        assert!(across <= 0.01, "{asked:?}: {across}");
    }
}
