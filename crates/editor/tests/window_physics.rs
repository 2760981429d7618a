//! End to end in the real editor window under Xvfb: the physics ghost played by a replay on
//! the hand-keyed jumps of crates/cli/tests/data — a swinging jump's flight ghosted
//! (ballistic, momentum) and accepted, a lean past the toes marked standing, discarded, then
//! marked again and accepted — and the saved documents checked as the command checks them:
//! the same bake as `marionette physics fix` makes, the flight at g by the test's own fit, the
//! lean's centre of mass over the feet by `physics check`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod window_common;
use window_common::{marionette_cli, run_editor, scratch_dir};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `marionette ARGS` in `dir`, its standard output as JSON (exit 0, or 3: something flagged).
fn cli_json(dir: &Path, args: &[&str]) -> Value {
    let o = Command::new(marionette_cli())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("marionette");
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "marionette {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("JSON")
}

/// Every baked frame's pose of `doc`'s "sequence", flattened (the command's bake).
fn baked(dir: &Path, doc: &str, sequence: &str) -> Vec<Vec<f64>> {
    let out = format!("{doc}.frames.json");
    cli_json(
        dir,
        &["bake", doc, "--sequence", sequence, "--out", &out, "--json"],
    );
    let frames: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(&out)).expect("frames"))
            .expect("JSON");
    (frames["frames"].as_array().expect("frames").iter())
        .map(|f| {
            let pose = &f["pose"];
            let mut v: Vec<f64> = (pose["root"].as_array().expect("root").iter())
                .map(|x| x.as_f64().expect("number"))
                .collect();
            for values in pose["joints"].as_object().expect("joints").values() {
                v.extend(
                    values
                        .as_array()
                        .expect("values")
                        .iter()
                        .map(|x| x.as_f64().expect("n")),
                );
            }
            v
        })
        .collect()
}

/// The least-squares g of the centre of mass's height over frames `from..=to` of a check.
fn fitted_g(report: &Value, from: usize, to: usize) -> f64 {
    let fps = report["fps"].as_f64().expect("fps");
    let com = report["com"].as_array().expect("com");
    let mut m = nalgebra::Matrix3::<f64>::zeros();
    let mut r = nalgebra::Vector3::<f64>::zeros();
    for (k, point) in com[from..=to].iter().enumerate() {
        let t = k as f64 / fps;
        let row = nalgebra::Vector3::new(1.0, t, t * t);
        m += row * row.transpose();
        r += row * point[1].as_f64().expect("height");
    }
    -2.0 * m.lu().solve(&r).expect("solvable")[2]
}

#[test]
fn a_ghost_accepted_in_the_editor_is_the_commands_fix() {
    let dir = scratch_dir("physics-ghost");
    std::fs::create_dir_all(dir.join("skeletons")).expect("folder");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        dir.join("skeletons/humanoid.ron"),
    )
    .expect("humanoid");
    for doc in ["jump-swing.marionette.ron", "lean.marionette.ron"] {
        std::fs::copy(
            repo().join("crates/cli/tests/data").join(doc),
            dir.join(doc),
        )
        .expect("document");
    }
    let script = "Replay([\n    Wait(20),\n    OpenDocument(\"jump-swing.marionette.ron\"),\n    \
        Wait(5),\n    ShowSequence(\"jump\"),\n    ShowPhysics(true),\n    SetFrame(24),\n    \
        PhysicsGhost(from: 15, to: 33, ballistic: true, momentum: true),\n    Wait(5),\n    \
        Screenshot(\"ghost.png\"),\n    AcceptGhost,\n    Wait(5),\n    \
        SaveDocument(\"flight.ron\"),\n    OpenDocument(\"lean.marionette.ron\"),\n    Wait(5),\n    \
        ShowSequence(\"lean\"),\n    SetFrame(20),\n    MarkStanding(from: 0, to: 40),\n    \
        Wait(5),\n    DiscardGhost,\n    Wait(5),\n    SaveDocument(\"discarded.ron\"),\n    \
        MarkStanding(from: 0, to: 40),\n    Wait(5),\n    Screenshot(\"standing.png\"),\n    \
        AcceptGhost,\n    Wait(5),\n    SaveDocument(\"standing.ron\"),\n    Exit,\n])\n";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    // The flight: the command's fix of the same span bakes to the same frames.
    let fix = Command::new(marionette_cli())
        .args([
            "physics",
            "fix",
            "jump-swing.marionette.ron",
            "--sequence",
            "jump",
        ])
        .args([
            "--span",
            "15..33",
            "--ballistic",
            "--momentum",
            "--out",
            "cli.ron",
        ])
        .current_dir(&dir)
        .output()
        .expect("marionette physics fix");
    assert!(
        fix.status.success(),
        "{}",
        String::from_utf8_lossy(&fix.stderr)
    );
    let (editor, command) = (
        baked(&dir, "flight.ron", "jump"),
        baked(&dir, "cli.ron", "jump"),
    );
    assert_eq!(editor.len(), command.len());
    for (f, (a, b)) in editor.iter().zip(&command).enumerate() {
        let off = a
            .iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(
            off <= 1e-9,
            "frame {f}: the editor's and the command's differ by {off}"
        );
    }
    let report = cli_json(
        &dir,
        &[
            "physics",
            "check",
            "flight.ron",
            "--sequence",
            "jump",
            "--json",
        ],
    );
    let g = fitted_g(&report, 15, 33);
    assert!(
        (g - 9.81).abs() <= 0.01,
        "the accepted flight falls at {g} m/s²"
    );
    // Discarded: nothing changed; accepted: every quiet frame 2 cm inside its support.
    assert_eq!(
        baked(&dir, "discarded.ron", "lean"),
        baked(&dir, "lean.marionette.ron", "lean")
    );
    let report = cli_json(
        &dir,
        &[
            "physics",
            "check",
            "standing.ron",
            "--sequence",
            "lean",
            "--json",
        ],
    );
    let frames = report["balance"]["frames"].as_array().expect("balance");
    assert!(frames.len() >= 10, "quiet frames: {}", frames.len());
    for frame in frames {
        let margin = frame["margin_m"].as_f64().expect("margin");
        assert!(margin >= 0.02 - 1e-4, "{frame}");
    }
}
