//! `marionette physics masses` as scripts see it: the JSON's numbers against the figure's own
//! forward kinematics (the built-in humanoid's hand-set masses follow de Leva, so both centres of
//! mass must agree closely), the female column and another total, a figure with no roles, and
//! bad input refused with exit 1 naming what is wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn marionette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .output()
        .expect("runs")
}

fn json(args: &[&str]) -> Value {
    let o = marionette(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

fn number(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn masses_of_the_humanoid_agree_with_its_own_centre_of_mass() {
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let masses = json(&["physics", "masses", humanoid, "--json"]);
    assert_eq!(masses["mass_model"], "de Leva male");
    assert_eq!(number(&masses["mass_kg"]), 75.0);
    let segments = masses["segments"].as_array().expect("segments");
    let shares: f64 = segments.iter().map(|s| number(&s["share_percent"])).sum();
    let kilograms: f64 = segments.iter().map(|s| number(&s["mass_kg"])).sum();
    assert!((shares - 100.0).abs() < 1e-9, "{shares}");
    assert!((kilograms - 75.0).abs() < 1e-9, "{kilograms}");
    // `fk` weighs the humanoid by its file's own masses (set from de Leva by hand).
    let fk = json(&["fk", humanoid, "--json"]);
    for axis in 0..3 {
        let (a, b) = (number(&masses["com"][axis]), number(&fk["com"][axis]));
        assert!((a - b).abs() < 0.01, "axis {axis}: {a} vs {b}");
    }
    let fraction = number(&masses["com_fraction"]);
    assert!((0.55..=0.60).contains(&fraction), "{fraction}");
    let female = json(&[
        "physics", "masses", humanoid, "--female", "--mass", "60", "--json",
    ]);
    assert_eq!(female["mass_model"], "de Leva female");
    let head = female["segments"]
        .as_array()
        .expect("segments")
        .iter()
        .find(|s| s["name"] == "head")
        .expect("a head");
    assert!(
        (number(&head["share_percent"]) - 6.68).abs() < 0.01,
        "{head}"
    );
    assert!(
        (number(&head["mass_kg"]) - 60.0 * 6.68 / 99.99).abs() < 1e-9,
        "{head}"
    );
}

#[test]
fn a_figure_without_roles_and_bad_input_are_said_so() {
    let stick = repo().join("skeletons/stickman.ron");
    let stick = stick.to_str().expect("path");
    let own = json(&["physics", "masses", stick, "--json"]);
    assert_eq!(own["mass_model"], "skeleton");
    assert!(own["no_roles"].is_string(), "{own}");
    let table = marionette(&["physics", "masses", stick]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("no humanoid roles"));
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let pose = repo().join("crates/fuzz/seeds/pose-pose.ron");
    for (args, expected) in [
        (vec![humanoid, "--mass", "0"], "mass must be"),
        (vec![humanoid, "--mass", "-3"], "mass must be"),
        (vec![humanoid, "--mass", "inf"], "mass must be"),
        (vec![humanoid, "--figure", "A"], "--figure"),
        (vec![pose.to_str().expect("path")], "not a figure"),
        (vec!["no-such-file.ron"], "no-such-file.ron"),
    ] {
        let mut all = vec!["physics", "masses"];
        all.extend(&args);
        let o = marionette(&all);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
