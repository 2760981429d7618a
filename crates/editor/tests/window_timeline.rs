//! End to end in the real editor window under Xvfb: locks and the timeline (a crouch held by
//! its heels and saved, keyed and baked, the ruler's markers dragged, lock frames set from the
//! panel and the ruler) and recovering the work of an editor killed after edits.

use std::path::Path;
use std::process::Command;

use marionette_skeleton::{Fk, Pose, builtin};

mod window_common;
use window_common::{marionette_cli, run_editor, scratch_dir};

#[test]
fn both_heels_locked_the_pelvis_dragged_down_is_a_crouch_saved_as_a_document() {
    let skeleton = builtin::humanoid();
    let start = builtin::standing(&skeleton);
    let mut fk = Fk::new(&skeleton);
    fk.update(&skeleton, &start.q);
    let heels = ["left heel", "right heel"].map(|n| skeleton.site_by_name(n).expect("heel"));
    let planted = heels.map(|h| fk.site_position(h));
    let pelvis = skeleton.root();
    let target = fk.joint_position(pelvis) - nalgebra::Vector3::new(0.0, 0.10, 0.0);
    let dir = scratch_dir("crouch");
    let script = format!(
        "Replay([\n    Wait(20),\n    SetView(\"front\"),\n    Wait(10),\n    \
         LockSite(site: \"left heel\", kind: Position),\n    \
         LockSite(site: \"right heel\", kind: Position),\n    \
         DragJoint(joint: \"pelvis\", to: ({:.6}, {:.6}, {:.6}), frames: 30),\n    Wait(5),\n    \
         CheckLocks(0.1),\n    SaveDocument(\"crouch.ron\"),\n    Screenshot(\"crouch.png\"),\n    \
         Exit,\n])\n",
        target.x, target.y, target.z
    );
    let output = run_editor(&dir, &script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let doc = marionette_document::DocumentFile::load(dir.join("crouch.ron"))
        .unwrap_or_else(|e| panic!("the saved document loads: {e}"));
    assert_eq!(doc.locks.len(), 2);
    fk.update(&doc.skeleton, &doc.pose.q);
    for (h, was) in heels.iter().zip(&planted) {
        let moved = (fk.site_position(*h) - was).norm();
        assert!(moved < 1e-4, "a heel moved {:.4} mm", moved * 1e3);
    }
    // The cursor lands on whole pixels (about 1.2 mm in the front view).
    let pelvis_at = fk.joint_position(pelvis);
    assert!(
        (pelvis_at - target).norm() < 3e-3,
        "the pelvis is at {pelvis_at}, dragged to {target}"
    );
    let knee = doc.skeleton.joint_by_name("left knee").expect("knee");
    let bent = doc.pose.q[doc
        .skeleton
        .joint_dofs(knee)
        .next()
        .expect("dof")
        .state_index()];
    assert!(
        bent.to_degrees() > 25.0,
        "the knees bent ({:.1}°)",
        bent.to_degrees()
    );
    let check = Command::new(marionette_cli())
        .arg("check")
        .arg(dir.join("crouch.ron"))
        .output()
        .expect("marionette check");
    assert!(
        check.status.success(),
        "marionette check refused the document: {}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn a_crouch_keyed_on_the_timeline_bakes_with_the_heels_held_on_every_frame() {
    let skeleton = builtin::humanoid();
    let mut fk = Fk::new(&skeleton);
    fk.update(&skeleton, &builtin::standing(&skeleton).q);
    let target = fk.joint_position(skeleton.root()) - nalgebra::Vector3::new(0.0, 0.10, 0.0);
    let dir = scratch_dir("timeline");
    // Frame 0 keyed with the K shortcut, frame 24 with the replay's SetKey; then played.
    let script = format!(
        "Replay([\n    Wait(20),\n    SetView(\"front\"),\n    Wait(10),\n    \
         LockSite(site: \"left heel\", kind: Position),\n    \
         LockSite(site: \"right heel\", kind: Position),\n    \
         Key(\"k\"),\n    Wait(2),\n    SetFrame(24),\n    \
         DragJoint(joint: \"pelvis\", to: ({:.6}, {:.6}, {:.6}), frames: 30),\n    Wait(5),\n    \
         SetKey,\n    SetFrame(12),\n    CheckLocks(0.1),\n    Play(frames: 30),\n    \
         CheckLocks(0.1),\n    SaveDocument(\"crouch.ron\"),\n    Screenshot(\"timeline.png\"),\n    \
         Exit,\n])\n",
        target.x, target.y, target.z
    );
    let output = run_editor(&dir, &script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let doc = marionette_document::DocumentFile::load(dir.join("crouch.ron"))
        .unwrap_or_else(|e| panic!("the saved document loads: {e}"));
    assert_eq!(doc.sequences.len(), 1);
    let keys: Vec<i64> = doc.sequences[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 24]);
    let name = doc.sequences[0].name.clone();
    let bake = Command::new(marionette_cli())
        .arg("bake")
        .arg(dir.join("crouch.ron"))
        .args(["--sequence", &name, "--json", "--out"])
        .arg(dir.join("frames.json"))
        .output()
        .expect("marionette bake");
    let summary = String::from_utf8_lossy(&bake.stdout);
    assert!(
        bake.status.success(),
        "the heels were not held: {summary}{}",
        String::from_utf8_lossy(&bake.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(&summary).expect("JSON summary");
    assert_eq!(summary["frames"], 25);
    for lock in summary["locks"].as_array().expect("locks") {
        assert_eq!(lock["frames"], 25, "{lock}");
        assert!(lock["max_error"].as_f64().expect("error") < 1e-4, "{lock}");
    }
    // The crouch is in the frames: the pelvis 10 cm lower at 24 than at 0 (to the pixel).
    let frames: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("frames.json")).expect("frames"))
            .expect("JSON");
    let y = |i: usize| frames["frames"][i]["pose"]["root"][1].as_f64().expect("y");
    assert!((y(0) - y(24) - 0.10).abs() < 3e-3, "{} → {}", y(0), y(24));
}

#[test]
fn the_ruler_scrubs_on_a_click_and_key_markers_and_lock_ranges_drag_to_other_frames() {
    // Window pixels of the timeline at 1280×800 with its default size: the ruler's numbers at
    // y 512, its key markers at y 528, the first lock's lane at y 543; frame 0 at x 357, 19.5 px
    // a frame while 0–48 is shown; the first lock row's frames switch at (453, 682).
    let dir = scratch_dir("ruler");
    let script = "Replay([Wait(20), SetView(\"front\"), Wait(5), \
         LockSite(site: \"left heel\", kind: Position), SetKey, SetFrame(24), \
         DragJoint(joint: \"pelvis\", to: (0.0, 0.92, 0.0), frames: 20), SetKey, Wait(3), \
         Move(591, 512), Wait(2), Press, Wait(2), Release, Wait(3), SavePose(\"at12.ron\"), \
         Move(825, 528), Wait(2), Press, Wait(2), Move(860, 528), Wait(2), Move(942, 528), \
         Wait(2), Release, Wait(4), Move(453, 682), Wait(2), Press, Wait(2), Release, Wait(4), \
         Move(830, 543), Wait(2), Press, Wait(2), Move(870, 543), Wait(2), Move(942, 543), \
         Wait(2), Release, Wait(4), SaveDocument(\"moved.ron\"), Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let doc = marionette_document::DocumentFile::load(dir.join("moved.ron")).expect("saved");
    let keys: Vec<i64> = doc.sequences[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 30], "the key at 24 was dragged to 30");
    // The Locks panel's frames switch gave the lock 0–24; its lane's end was dragged to 30.
    assert_eq!(doc.locks[0].frames(), Some((0, 30)));
    // The click showed frame 12: the pelvis half-way down (keys 0 and 24 then).
    let skeleton = builtin::humanoid();
    let at12 = Pose::load(&skeleton, dir.join("at12.ron")).expect("pose");
    let (top, bottom) = (
        doc.sequences[0].keys[0].pose.q[1],
        doc.sequences[0].keys[1].pose.q[1],
    );
    assert!(
        (at12.q[1] - (top + bottom) / 2.0).abs() < 1e-9,
        "root {} between {top} and {bottom}",
        at12.q[1]
    );
}

/// The bug: a lock's frame range was set by two paths (the Locks panel called the document, the
/// ruler sent a timeline action). Both now send the one `SetLockFrames` edit: the panel's switch
/// gives the lock 0–24, the lane's end dragged to 30 changes it, and each is exactly one undo
/// step (Ctrl+Z twice walks back through both, to every frame).
#[test]
fn lock_frames_from_the_panel_and_the_ruler_are_one_edit() {
    // Window pixels as in the ruler test above: the first lock row's frames switch at
    // (453, 682); its lane on the ruler at y 543, frame 24 at x 825 (0–48 shown).
    let dir = scratch_dir("lock-frames");
    let script = "Replay([Wait(20), SetView(\"front\"), Wait(5), \
         LockSite(site: \"left heel\", kind: Position), SetKey, SetFrame(24), SetKey, Wait(3), \
         Move(453, 682), Wait(2), Press, Wait(2), Release, Wait(4), SaveDocument(\"panel.ron\"), \
         Move(830, 543), Wait(2), Press, Wait(2), Move(870, 543), Wait(2), Move(942, 543), \
         Wait(2), Release, Wait(4), SaveDocument(\"ruler.ron\"), \
         Key(\"ctrl+z\"), Wait(3), SaveDocument(\"undo1.ron\"), \
         Key(\"ctrl+z\"), Wait(3), SaveDocument(\"undo2.ron\"), Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let frames = |name: &str| {
        let doc = marionette_document::DocumentFile::load(dir.join(name)).expect("saved");
        assert_eq!(doc.locks.len(), 1, "{name}");
        doc.locks[0].frames()
    };
    assert_eq!(frames("panel.ron"), Some((0, 24)), "the panel's switch");
    assert_eq!(frames("ruler.ron"), Some((0, 30)), "the lane's end dragged");
    assert_eq!(
        frames("undo1.ron"),
        Some((0, 24)),
        "one step undoes the ruler's edit"
    );
    assert_eq!(frames("undo2.ron"), None, "one more undoes the panel's");
}

#[test]
fn killing_the_editor_after_edits_offers_them_at_the_next_start() {
    use std::os::unix::process::CommandExt;
    let dir = scratch_dir("recovery");
    let data = dir.join("data");
    let skeleton = builtin::humanoid();
    let start = builtin::standing(&skeleton);
    let mut fk = Fk::new(&skeleton);
    fk.update(&skeleton, &start.q);
    let target = fk.joint_position(skeleton.root()) - nalgebra::Vector3::new(0.0, 0.06, 0.0);
    // Edits, then the editor stays open (no Exit) until it is killed.
    std::fs::write(
        dir.join("edit.ron"),
        format!(
            "Replay([\n    Wait(20),\n    SetView(\"front\"),\n    Wait(10),\n    \
             LockSite(site: \"left heel\", kind: Pose),\n    \
             DragJoint(joint: \"pelvis\", to: ({:.6}, {:.6}, {:.6}), frames: 20),\n    \
             Wait(100000),\n])\n",
            target.x, target.y, target.z
        ),
    )
    .expect("script");
    let mut editor = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .args(["--replay", "edit.ron"])
        .current_dir(&dir)
        .env("XDG_DATA_HOME", &data)
        .env(marionette_editor::autosave::AUTOSAVE_SECONDS_VAR, "0.5")
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start the editor");
    let recovery = data.join("marionette/untitled.recovery.ron");
    let began = std::time::Instant::now();
    let moved = |path: &Path| {
        marionette_document::DocumentFile::load(path)
            .ok()
            .is_some_and(|d| {
                let mut fk = Fk::new(&d.skeleton);
                fk.update(&d.skeleton, &d.pose.q);
                !d.locks.is_empty() && (fk.joint_position(d.skeleton.root()) - target).norm() < 3e-3
            })
    };
    while !moved(&recovery) && began.elapsed().as_secs() < 180 {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // A crash: the whole process group is killed, nothing is saved on the way out.
    let group = format!("-{}", editor.id());
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    let _ = editor.wait();
    assert!(
        moved(&recovery),
        "no recovery file with the edits at {}",
        recovery.display()
    );
    // The next start offers the edits; recovered, they are all there.
    let script = "Replay([\n    Wait(10),\n    Recover(true),\n    Wait(5),\n    CheckLocks(0.1),\n    \
                  SaveDocument(\"recovered.ron\"),\n    Exit,\n])\n";
    std::fs::write(dir.join("script.ron"), script).expect("script");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .args(["--replay", "script.ron"])
        .current_dir(&dir)
        .env("XDG_DATA_HOME", &data)
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("restart the editor");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the second run failed:\n{stderr}");
    assert!(
        moved(&dir.join("recovered.ron")),
        "the recovered document lacks the edits"
    );
    assert!(!recovery.exists(), "saving removes the recovery file");
}
