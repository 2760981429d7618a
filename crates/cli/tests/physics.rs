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

fn capture(name: &str) -> String {
    let path = Path::new("/usr/share/assimp/models/BVH").join(name);
    assert!(
        path.exists(),
        "{}: install assimp-testmodels",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn check_reads_flights_says_its_guess_and_exits_by_what_it_flags() {
    let jumps = capture("01_01.bvh");
    let o = marionette(&["physics", "check", &jumps]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("guessed: CMU's units"), "{said}");
    assert!(said.contains("10 ballistic"), "{said}");
    let report = json(&["physics", "check", &jumps, "--scale", "0.05644", "--json"]);
    assert_eq!(report["frames"], 2752);
    assert_eq!(report["com"].as_array().expect("com").len(), 2752);
    assert_eq!(report["support"].as_array().expect("support").len(), 2752);
    assert_eq!(number(&report["scale"]), 0.05644);
    assert!(report["unit_hint"].is_null());
    let spans = report["spans"].as_array().expect("spans");
    assert_eq!(spans.len(), 10);
    for s in spans {
        assert_eq!(s["kind"], "ballistic");
        // Each span's frames have no support; the frames either side have some.
        let (from, to) = (
            s["from"].as_u64().expect("from") as usize,
            s["to"].as_u64().expect("to") as usize,
        );
        for f in from..=to {
            assert_eq!(report["support"][f], 0, "frame {f}");
        }
        assert!(number(&report["support"][from - 1]) > 0.0);
        assert!(number(&report["support"][to + 1]) > 0.0);
    }
    // Read as centimetres: the flights agree on a g of about 1.7 and the unit is told.
    let wrong = json(&["physics", "check", &jumps, "--scale", "0.01", "--json"]);
    let hint = number(&wrong["unit_hint"]["scale"]);
    assert!((hint - 0.05644).abs() < 0.1 * 0.05644, "{hint}");
    // The climb's hangs flag nothing as a flight, but some of its quiet frames lean off
    // their support: exit 3.
    let climb = marionette(&["physics", "check", &capture("01_03.bvh")]);
    assert_eq!(climb.status.code(), Some(3));
}

#[test]
fn check_refuses_what_it_cannot_read_naming_it() {
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let jumps = capture("01_01.bvh");
    let dir = tempfile::tempdir().expect("a folder");
    let doc = dir.path().join("still.marionette.ron");
    std::fs::write(
        &doc,
        format!("Document(version: 1, skeleton: {humanoid:?}, locks: [], sequences: [])"),
    )
    .expect("write");
    let doc = doc.to_str().expect("path");
    for (args, expected) in [
        (vec![humanoid], "not a capture or a document"),
        (vec![&jumps, "--sequence", "x"], "are for documents"),
        (vec![&jumps, "--mass", "0"], "mass must be"),
        (vec![doc], "--sequence NAME"),
        (vec![doc, "--sequence", "jump"], "\"jump\""),
        (
            vec![doc, "--sequence", "jump", "--scale", "2"],
            "are for captures",
        ),
        (vec!["missing.bvh"], "missing.bvh"),
    ] {
        let mut all = vec!["physics", "check"];
        all.extend(&args);
        let o = marionette(&all);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn check_bakes_a_documents_sequence_and_its_locks_hold_it_up() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::create_dir(dir.path().join("skeletons")).expect("a folder");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        dir.path().join("skeletons/humanoid.ron"),
    )
    .expect("copy");
    let doc = dir.path().join("crouch.marionette.ron");
    std::fs::copy(
        repo().join("crates/fuzz/seeds/document-crouch.marionette.ron"),
        &doc,
    )
    .expect("copy");
    let doc = doc.to_str().expect("path");
    let report = json(&["physics", "check", doc, "--sequence", "crouch", "--json"]);
    assert_eq!(report["frames"], 25);
    assert_eq!(number(&report["fps"]), 24.0);
    assert!(report["scale"].is_null());
    assert!(report["spans"].as_array().expect("spans").is_empty());
    // Both heels are locked on the floor on every frame: at least two supports each frame.
    for (f, n) in report["support"]
        .as_array()
        .expect("support")
        .iter()
        .enumerate()
    {
        assert!(number(n) >= 2.0, "frame {f}: {n}");
    }
    // The crouch lowers the centre of mass.
    let com = report["com"].as_array().expect("com");
    assert!(
        number(&com[24][1]) < number(&com[0][1]) - 0.04,
        "{} {}",
        com[0],
        com[24]
    );
}
