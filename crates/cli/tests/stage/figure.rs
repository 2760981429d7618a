//! `fk` and `retarget --onto` on one figure of a stage (`--figure NAME`): the figure's positions
//! where it stands on the stage, checked against the stage export's own placing of the same pose;
//! a capture put onto its skeleton; and the stage's figures listed when none or a wrong one is
//! named.

use std::path::Path;

use serde_json::Value;

use super::{distance, json, marionette, point, stage_folder, text};

#[test]
fn fk_of_a_stage_figure_is_where_the_stage_export_puts_it() {
    let (dir, stage) = stage_folder();
    let stage = stage.to_str().expect("path");
    let o = marionette(&["fk", stage, "--figure", "B", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let fk: Value = serde_json::from_str(&text(&o.stdout)).expect("fk");
    // The stage export of B's pose (no sequence) places it by the stage's own code.
    let out = dir.path().join("b-pose.json");
    let o = marionette(&[
        "export",
        stage,
        "--figure",
        "B",
        "--format",
        "json",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exported = json(&out);
    let frame = &exported["frames"][0];
    let joints = frame["joints_world"].as_object().expect("joints");
    assert!(!joints.is_empty());
    for (name, p) in joints {
        let d = distance(point(&fk["joints"][name]), point(p));
        assert!(d < 1e-9, "{name}: {d}");
    }
    for (name, p) in frame["sites"].as_object().expect("sites") {
        let d = distance(point(&fk["sites"][name]), point(p));
        assert!(d < 1e-9, "{name}: {d}");
    }
    // B stands a metre away, facing back: its pelvis is about a metre from A's along z.
    let o = marionette(&["fk", stage, "--figure", "A", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let a: Value = serde_json::from_str(&text(&o.stdout)).expect("fk");
    let (pa, pb) = (
        point(&a["joints"]["pelvis"]),
        point(&fk["joints"]["pelvis"]),
    );
    assert!((pb[2] - pa[2]).abs() > 0.5, "{pa:?} {pb:?}");
    // The table says the same numbers as the JSON.
    let o = marionette(&["fk", stage, "--figure", "B"]);
    let table = text(&o.stdout);
    let pelvis = table
        .lines()
        .find(|l| l.starts_with("pelvis "))
        .expect("pelvis row");
    let numbers: Vec<f64> = pelvis
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().expect("number"))
        .collect();
    assert!(
        distance([numbers[0], numbers[1], numbers[2]], pb) < 1e-3,
        "{pelvis}"
    );
}

#[test]
fn a_stage_figure_is_named_or_refused_listing_the_figures() {
    let (dir, stage) = stage_folder();
    let stage = stage.to_str().expect("path");
    let humanoid = super::repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    for (args, expected) in [
        (vec!["fk", stage], "--figure NAME (figures: \"A\", \"B\")"),
        (vec!["fk", stage, "--figure", "C"], "no figure \"C\""),
        (
            vec!["fk", humanoid, "--figure", "A"],
            "this is a skeleton file",
        ),
    ] {
        let o = marionette(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A capture: A's sway exported as BVH.
    let bvh = dir.path().join("a.bvh");
    let o = marionette(&[
        "export",
        stage,
        "--sequence",
        "sway",
        "--figure",
        "A",
        "--format",
        "bvh",
        "--out",
        bvh.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.path().join("b-take.marionette.ron");
    let retarget = |extra: &[&str]| {
        let mut args = vec![
            "retarget",
            bvh.to_str().expect("path"),
            "--onto",
            stage,
            "--doc-out",
            out.to_str().expect("path"),
        ];
        args.extend_from_slice(extra);
        marionette(&args)
    };
    let o = retarget(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("--figure NAME"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let o = retarget(&["--figure", "B"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let written = marionette_document::StageFile::load(&out)
        .expect("written")
        .stage;
    let doc = written.into_one_figure().expect("one figure");
    assert_eq!(doc.skeleton.name(), "humanoid");
    assert_eq!(doc.sequences.len(), 1);
    assert_eq!(doc.sequences[0].keys.len(), 49);
    assert!(Path::new(&doc.skeleton_path).exists());
}
