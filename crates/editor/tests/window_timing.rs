//! End to end, the timing tools in the real editor window under Xvfb (issue 34): keys on some
//! joints (`KeySelectedJoints`), a joint's key moved on its lane (`MoveKeys`), a hand's motion
//! trail shown (`ShowTrail`) and dragged at another frame (`DragTrail`), the curve editor opened
//! (`ShowCurves`), the document saved before and after the trail drag. Checked on the saved
//! files: each joint's keys, every key but the dragged frame's unchanged as text, and the baked
//! hand (`marionette export --format json`) where it was dropped; issue 48's follow-through
//! wave, its trail dragged at a frame between keys, changing no joint at its own keys. Needs `xvfb-run` and
//! `mesa-vulkan-drivers` (`scripts/ensure-system-packages.sh`).

use std::path::PathBuf;
use std::process::Command;

mod window_common;
use window_common::{marionette_cli, run_editor_on};

/// A new folder of its own for test `name` (the tests run at once).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "marionette-editor-timing-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The keys of a saved document's first sequence, one per line as the file has them.
fn keys_text(text: &str) -> Vec<String> {
    text.split("Key(")
        .skip(1)
        .map(|k| k.split("), Key").next().unwrap_or(k).to_owned())
        .collect()
}

#[test]
fn keys_on_some_joints_trails_and_curves_in_the_window() {
    let dir = scratch_dir("tools");
    let script = "Replay([\n    Wait(20), SetView(\"front\"), Wait(10),\n    \
        LockSite(site: \"left heel\", kind: Position),\n    \
        LockSite(site: \"right heel\", kind: Position),\n    SetKey, SetFrame(20), SetKey,\n    \
        SetFrame(10), RotateJoint(joint: \"right shoulder\", dof: 1, degrees: 70),\n    \
        KeySelectedJoints,\n    \
        SetFrame(12), SetView(\"side\"), RotateJoint(joint: \"right elbow\", dof: 0, degrees: 60),\n    \
        SetView(\"front\"), KeySelectedJoints,\n    \
        MoveKeys(joint: \"right elbow\", from: 12, to: 13),\n    \
        ShowTrail(site: \"right fingertips\", from: 0, to: 20),\n    \
        SetFrame(3), Wait(3), SaveDocument(\"before.ron\"),\n    \
        DragTrail(site: \"right fingertips\", frame: 15, to: (-0.45, 1.20, 0.30)),\n    \
        Wait(5), CheckLocks(0.1), SelectJoint(\"right elbow\"), ShowCurves, Wait(5),\n    \
        Screenshot(\"curves.png\"), SaveDocument(\"after.ron\"),\n    \
        KeyDof(curve: \"right shoulder 2\", frame: 5, value: 20.0),\n    \
        SetHandles(curve: \"right elbow 1\", frame: 13, before: (-2.0, -25.0), after: (3.0, 30.0)),\n    \
        DragCurvePoints(points: [(\"right elbow 1\", 13), (\"right shoulder 1\", 10)], by: (1, 5.0)),\n    \
        Wait(3), Screenshot(\"handles.png\"), SaveDocument(\"curves.ron\"), Exit,\n])";
    let output = run_editor_on(&dir, &[], script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    assert!(dir.join("curves.png").exists());
    let before = marionette_document::DocumentFile::load(dir.join("before.ron")).expect("before");
    let after = marionette_document::DocumentFile::load(dir.join("after.ron")).expect("after");
    let s = &after.skeleton;
    let joint = |n: &str| s.joint_by_name(n).expect(n);
    let seq = &before.sequences[0];
    assert_eq!(
        seq.joint_key_frames(s, joint("right shoulder")),
        [0, 10, 20]
    );
    assert_eq!(seq.joint_key_frames(s, joint("right elbow")), [0, 13, 20]);
    assert_eq!(seq.joint_key_frames(s, joint("left knee")), [0, 20]);
    // The trail drag keyed frame 15 on the arm it moved, and nothing else changed.
    let dragged = after.sequences[0].key_at(15).expect("a key at 15");
    let only = dragged.only.as_ref().expect("on some joints");
    assert!(only.holds(joint("right elbow")) && !only.holds(joint("left knee")));
    let text = |name: &str| std::fs::read_to_string(dir.join(name)).expect("saved");
    let kept: Vec<String> = keys_text(&text("after.ron"))
        .into_iter()
        .filter(|k| !k.trim_start().starts_with("frame: 15,"))
        .collect();
    assert_eq!(kept, keys_text(&text("before.ron")));
    // The bake puts the hand at frame 15 where it was dropped: at the world point asked for
    // across the front view, at the depth its trail had there (a drag moves the point in the
    // view's plane through it). Within 3 mm: the cursor goes to a pixel of the view.
    let hand_at_15 = |name: &str| -> Vec<f64> {
        let json = dir.join(format!("{name}.json"));
        let export = Command::new(marionette_cli())
            .arg("export")
            .arg(dir.join(format!("{name}.ron")))
            .args(["--sequence", "Sequence 1", "--format", "json", "--out"])
            .arg(&json)
            .output()
            .expect("export");
        assert!(
            export.status.success(),
            "{}",
            String::from_utf8_lossy(&export.stderr)
        );
        let frames: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON");
        let hand = &frames["frames"][15]["sites"]["right fingertips"];
        (0..3)
            .map(|i| hand[i].as_f64().expect("coordinate"))
            .collect()
    };
    let depth = hand_at_15("before")[2];
    let at = hand_at_15("after");
    let off = ((at[0] + 0.45).powi(2) + (at[1] - 1.20).powi(2) + (at[2] - depth).powi(2)).sqrt();
    println!(
        "the dragged hand is {:.2} mm from where it was dropped",
        off * 1e3
    );
    assert!(
        off < 3e-3,
        "the hand at frame 15 is at {at:?}, {:.1} mm off",
        off * 1e3
    );
    // The curve editor's steps: the shoulder's second hinge keyed alone at 5, the forearm's
    // key at 13 given free handles, then it and the shoulder's key at 10 dragged a frame on
    // and 5° up together (the forearm's handles going with its key).
    assert!(dir.join("handles.png").exists());
    let curves = marionette_document::DocumentFile::load(dir.join("curves.ron")).expect("curves");
    let (was, seq) = (&after.sequences[0], &curves.sequences[0]);
    let (shoulder, elbow) = (joint("right shoulder"), joint("right elbow"));
    let lift = s.joint_dofs(shoulder).nth(1).expect("DOF 2");
    let key5 = seq.key_at(5).expect("a key at 5");
    assert!(key5.holds_dof(shoulder, lift) && !key5.holds_joint(shoulder));
    assert!((key5.pose.q[lift.state_index()] - s.dof(lift).clamp(20f64.to_radians())).abs() < 1e-9);
    assert_eq!(seq.joint_key_frames(s, elbow), [0, 14, 15, 20]);
    assert_eq!(seq.joint_key_frames(s, shoulder), [0, 5, 11, 15, 20]);
    let e = s.joint_dofs(elbow).next().expect("elbow DOF");
    let h = seq
        .key_at(14)
        .and_then(|k| k.handles_of(e.state_index()))
        .expect("the forearm's handles");
    assert_eq!(h.before[0], -2.0);
    assert!((h.after[1] - 30f64.to_radians()).abs() < 1e-9);
    let value = |seq: &marionette_document::Sequence, f: i64, d: marionette_skeleton::DofId| {
        seq.key_at(f).expect("key").pose.q[d.state_index()]
    };
    let up = 5f64.to_radians();
    assert!((value(seq, 14, e) - s.dof(e).clamp(value(was, 13, e) + up)).abs() < 1e-9);
    let swing = s.joint_dofs(shoulder).next().expect("DOF 1");
    assert!((value(seq, 11, swing) - s.dof(swing).clamp(value(was, 10, swing) + up)).abs() < 1e-9);
}

/// Every frame's joint values (degrees, as the JSON export writes them) of `name`.ron's
/// "Sequence 1", baked by the `marionette` command.
fn baked_joints(dir: &std::path::Path, name: &str) -> serde_json::Value {
    let json = dir.join(format!("{name}.json"));
    let export = Command::new(marionette_cli())
        .arg("export")
        .arg(dir.join(format!("{name}.ron")))
        .args(["--sequence", "Sequence 1", "--format", "json", "--out"])
        .arg(&json)
        .output()
        .expect("export");
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("JSON")
}

/// Issue 48's follow-through wave in the window: the right shoulder, elbow and wrist keyed at
/// 0, then the shoulder alone at 12, the elbow at 14, the wrist at 16 (each turned by its ring);
/// the fingertips' trail dragged at 8 in the front view. The drag turns the clavicle, which had
/// no key: it is keyed as it was at 0 and 12 too, so every joint keeps its values at each of
/// its own key frames but 8 and at the sequence's ends, and the hand lands on the drop point.
#[test]
fn a_trail_drag_in_the_window_changes_only_the_frames_between_the_neighbouring_keys() {
    let dir = scratch_dir("wave");
    let script = "Replay([\n    Wait(20), SetView(\"front\"), Wait(10),\n    \
        SelectJoint(\"right shoulder\"), AddToSelection(\"right elbow\"), AddToSelection(\"right wrist\"),\n    \
        KeySelectedJoints,\n    \
        SetFrame(12), RotateJoint(joint: \"right shoulder\", dof: 1, degrees: 60), KeySelectedJoints,\n    \
        SetFrame(14), SetView(\"side\"), RotateJoint(joint: \"right elbow\", dof: 0, degrees: 50),\n    \
        SetView(\"front\"), KeySelectedJoints,\n    \
        SetFrame(16), SetView(\"side\"), RotateJoint(joint: \"right wrist\", dof: 1, degrees: 30),\n    \
        SetView(\"front\"), KeySelectedJoints,\n    \
        ShowTrail(site: \"right fingertips\", from: 0, to: 16),\n    \
        SetFrame(3), Wait(3), SaveDocument(\"before.ron\"),\n    \
        DragTrail(site: \"right fingertips\", frame: 8, to: (-0.42, 1.05, 0.33)),\n    \
        Wait(5), Screenshot(\"wave.png\"), SaveDocument(\"after.ron\"), Exit,\n])";
    let output = run_editor_on(&dir, &[], script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let after = marionette_document::DocumentFile::load(dir.join("after.ron")).expect("after");
    let s = &after.skeleton;
    let clavicle = s.joint_by_name("right clavicle").expect("clavicle");
    assert_eq!(
        after.sequences[0].joint_key_frames(s, clavicle),
        [0, 8, 12],
        "the drag keyed the clavicle at 8, and as it was at the neighbouring keys"
    );
    let (was, now) = (baked_joints(&dir, "before"), baked_joints(&dir, "after"));
    let mut largest = 0.0f64;
    for j in s.joint_ids() {
        let name = &s.joint(j).name;
        let mut frames = after.sequences[0].joint_key_frames(s, j);
        frames.extend([0, 16]);
        for f in frames.into_iter().filter(|&f| f != 8) {
            let values = |v: &serde_json::Value| -> Vec<f64> {
                v["frames"][f as usize]["pose"]["joints"][name.as_str()]
                    .as_array()
                    .expect("the joint's values")
                    .iter()
                    .map(|x| x.as_f64().expect("a number"))
                    .collect()
            };
            for (a, b) in values(&was).iter().zip(values(&now)) {
                largest = largest.max((a - b).abs());
                assert!(
                    (a - b).abs() <= 1e-9,
                    "{name} at frame {f}: {a}° before, {b}° after"
                );
            }
        }
    }
    // The hand at 8 on the drop point across the front view (the cursor goes to whole pixels,
    // about 4.5 mm of the front view here).
    let hand = &now["frames"][8]["sites"]["right fingertips"];
    let at: Vec<f64> = (0..3)
        .map(|i| hand[i].as_f64().expect("coordinate"))
        .collect();
    let off = ((at[0] + 0.42).powi(2) + (at[1] - 1.05).powi(2)).sqrt();
    println!(
        "after the trail drag at 8 in the window: key frames change by at most {largest:e}°; the hand {:.2} mm from the drop across the view",
        off * 1e3
    );
    assert!(
        off < 4.5e-3,
        "the hand at 8 is at {at:?}, {:.1} mm off",
        off * 1e3
    );
}
