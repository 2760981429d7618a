//! An imported character's own joint masses are de Leva's: `marionette import` writes them into
//! the skeleton file, so `marionette fk`'s centre of mass (the skeleton's own joint masses, what
//! the centre-of-mass lock weighs) is the physics assistant's (`physics masses`), and its legs
//! weigh what de Leva's thighs, shanks and feet do, not the three quarters of the body the
//! capsules put there. Counted by the test's own rule: the masses the skeleton file gives every
//! joint below the two hips. A figure with no roles keeps its capsules and says so.

use std::path::{Path, PathBuf};

use super::{capture, json, marionette, repo};

fn import(file: &str, dir: &Path) -> (PathBuf, String) {
    let skeleton = dir.join("figure.skeleton.ron");
    let doc = dir.join("figure.marionette.ron");
    let o = marionette(&[
        "import",
        repo()
            .join("crates/interchange/tests/data/characters")
            .join(file)
            .to_str()
            .expect("path"),
        "--skeleton-out",
        skeleton.to_str().expect("path"),
        "--doc-out",
        doc.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (skeleton, String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Each joint's `mass:` in the skeleton file, by name (the test's own reading of the text).
fn file_masses(skeleton: &Path) -> Vec<(String, f64)> {
    let text = std::fs::read_to_string(skeleton).expect("the skeleton");
    let mut out = Vec::new();
    let mut name = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix('"')
            && let Some((n, tail)) = rest.split_once('"')
            && tail.trim_start().starts_with(": (")
        {
            name = Some(n.to_owned());
        }
        if let Some(v) = line.strip_prefix("mass: ") {
            let v: f64 = v.trim_end_matches(',').parse().expect("a mass");
            out.push((name.clone().expect("a joint before its mass"), v));
        }
    }
    out
}

#[test]
fn an_imported_character_weighs_as_de_leva_says_in_its_own_skeleton() {
    let dir = tempfile::tempdir().expect("a folder");
    let (skeleton, said) = import("authored/mixamo_apose.glb", dir.path());
    assert!(said.contains("masses: de Leva's segments"), "{said}");
    // Below the hips: Mixamo's UpLeg, Leg, Foot, ToeBase (and any end) of both sides.
    weighs_de_leva(&skeleton, |n| {
        ["UpLeg", "Leg", "Foot", "Toe"]
            .iter()
            .any(|part| n.contains(part))
    });
}

/// A capture made a document (`marionette import take.bvh`) weighs as de Leva says too, where
/// its joints had a kilogram each: the file's masses total 75 kg, the legs (CMU's hip, knee,
/// ankle and toe joints of both sides, by the test's own reading of the file) weigh de Leva's
/// share, and `fk`'s centre of mass is the physics assistant's.
#[test]
fn an_imported_capture_weighs_as_de_leva_says_in_its_own_skeleton() {
    let dir = tempfile::tempdir().expect("a folder");
    let skeleton = dir.path().join("take.skeleton.ron");
    let o = marionette(&[
        "import",
        &capture("01_01.bvh"),
        "--scale",
        "0.05644",
        "--every",
        "50",
        "--skeleton-out",
        skeleton.to_str().expect("path"),
        "--doc-out",
        dir.path()
            .join("take.marionette.ron")
            .to_str()
            .expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("masses: de Leva's segments"), "{said}");
    // CMU's legs: (Left|Right)(UpLeg|Leg|Foot|ToeBase).
    weighs_de_leva(&skeleton, |n| {
        (n.starts_with("Left") || n.starts_with("Right"))
            && ["UpLeg", "Leg", "Foot", "ToeBase"]
                .iter()
                .any(|part| n.ends_with(part))
    });
}

/// `skeleton` (a file an import wrote) weighs as de Leva says: `fk`'s centre of mass is
/// `physics masses`', its joints' masses total 75 kg, and those of the joints `in_legs` names
/// weigh de Leva's male thighs, shanks and feet (14.16 + 4.33 + 1.37 % a side).
fn weighs_de_leva(skeleton: &Path, in_legs: impl Fn(&str) -> bool) {
    let path = skeleton.to_str().expect("path");
    let (masses, fk) = (
        json(&["physics", "masses", path, "--json"]),
        json(&["fk", path, "--json"]),
    );
    for axis in 0..3 {
        let (a, b) = (
            masses["com"][axis].as_f64().expect("com"),
            fk["com"][axis].as_f64().expect("com"),
        );
        assert!((a - b).abs() < 1e-9, "axis {axis}: {a} vs {b}");
    }
    let joints = file_masses(skeleton);
    let total: f64 = joints.iter().map(|(_, m)| m).sum();
    assert!((total - 75.0).abs() < 1e-9, "{total} kg");
    let legs: f64 = joints
        .iter()
        .filter(|(n, _)| in_legs(n))
        .map(|(_, m)| m)
        .sum();
    let de_leva = 2.0 * (14.16 + 4.33 + 1.37) / 100.0 * 75.0;
    assert!(
        (legs - de_leva).abs() < 1e-6,
        "legs {legs} kg, de Leva {de_leva} kg"
    );
}

#[test]
fn a_figure_without_roles_keeps_its_capsules_and_says_so() {
    let dir = tempfile::tempdir().expect("a folder");
    let (skeleton, said) = import("Fox.glb", dir.path());
    assert!(said.contains("masses: each bone's capsule"), "{said}");
    let text = std::fs::read_to_string(skeleton).expect("the skeleton");
    assert!(
        !text.contains("mass_center"),
        "no de Leva centres on the fox"
    );
}
