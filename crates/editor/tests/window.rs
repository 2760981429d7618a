//! End to end: the real editor window under Xvfb (Mesa's software Vulkan), driven by a replay
//! that drags the humanoid's right hand to a point in the front view, saves the pose and takes a
//! screenshot. The saved pose must put the hand at the point; the screenshot must be a real
//! picture of the window. Needs `xvfb-run` and `mesa-vulkan-drivers`
//! (`scripts/ensure-system-packages.sh` installs them).

use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::color::Srgba;
use marionette_skeleton::{Fk, Pose, builtin};

mod window_common;
use window_common::{marionette_cli, run_editor_on};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("marionette-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn run_editor(dir: &Path, script: &str) -> std::process::Output {
    std::fs::write(dir.join("script.ron"), script).expect("write script");
    let xvfb = Command::new("xvfb-run").arg("--help").output();
    assert!(
        xvfb.is_ok(),
        "xvfb-run is missing: run scripts/ensure-system-packages.sh (installs xvfb and \
         mesa-vulkan-drivers)"
    );
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .args(["--replay", "script.ron"])
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("WGPU_BACKEND", "vulkan")
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("run the editor")
}

/// The editor opened on a copy of the RiggedFigure test character in `dir`, playing `script`.
fn run_on_rigged_figure(dir: &Path, script: &str) -> std::process::Output {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../interchange/tests/data/characters/RiggedFigure.gltf");
    std::fs::copy(&source, dir.join("RiggedFigure.gltf")).expect("copy the character");
    run_editor_on(dir, &["RiggedFigure.gltf"], script)
}

/// The stickman with glTF hands from the test data (`tests/data/mesh_stickman.ron`, its meshes
/// under `tests/data/assets`), in the editor under Xvfb, playing `script`.
fn run_mesh_stickman(dir: &Path, script: &str) -> std::process::Output {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    std::fs::write(dir.join("script.ron"), script).expect("write script");
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .arg("--skeleton")
        .arg(data.join("mesh_stickman.ron"))
        .arg("--assets")
        .arg(data.join("assets"))
        .args(["--replay", "script.ron"])
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("run the editor")
}

#[test]
fn dragging_the_right_hand_in_the_window_puts_it_at_the_target() {
    let skeleton = builtin::humanoid();
    let hand = skeleton.site_by_name("right fingertips").expect("site");
    let start = builtin::standing(&skeleton);
    let mut fk = Fk::new(&skeleton);
    fk.update(&skeleton, &start.q);
    let from = fk.site_position(hand);
    // Up and out to the side, at the hand's depth: the front view's ray through the target
    // passes the hand's depth exactly there.
    let target = from + nalgebra::Vector3::new(-0.15, 0.3, 0.0);
    let dir = scratch_dir("drag");
    let script = format!(
        "Replay([\n    Wait(20),\n    SetView(\"front\"),\n    Wait(10),\n    DragSite(site: \
         \"right fingertips\", to: ({:.6}, {:.6}, {:.6}), frames: 30),\n    Wait(5),\n    \
         SavePose(\"pose.ron\"),\n    Screenshot(\"shot.png\"),\n    Wait(5),\n    \
         Key(\"ctrl+z\"),\n    Wait(3),\n    SavePose(\"undone.ron\"),\n    Exit,\n])\n",
        target.x, target.y, target.z
    );
    let output = run_editor(&dir, &script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the editor failed: {}\n{stderr}",
        output.status
    );

    let pose = Pose::load(&skeleton, dir.join("pose.ron")).expect("the saved pose loads");
    fk.update(&skeleton, &pose.q);
    let reached = fk.site_position(hand);
    let in_view = ((reached.x - target.x).powi(2) + (reached.y - target.y).powi(2)).sqrt();
    let overall = (reached - target).norm();
    // The cursor lands on whole pixels: about 4.5 mm each in the front view at 1280×800 with
    // the timeline and the Locks panel open, so within half a pixel's diagonal.
    assert!(
        in_view < 3.5e-3,
        "the hand is {in_view} m from the target in the front view ({reached:?} vs {target:?})"
    );
    assert!(overall < 0.03, "the hand is {overall} m from the target");
    assert!(
        pose.within_limits(&skeleton),
        "the dragged pose respects the joint limits"
    );

    // Ctrl+Z through the window's keyboard path undoes the whole drag.
    let undone = Pose::load(&skeleton, dir.join("undone.ron")).expect("the undone pose loads");
    let worst = undone
        .q
        .iter()
        .zip(&start.q)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(
        worst < 1e-9,
        "after Ctrl+Z the pose is the standing pose again (off by {worst})"
    );

    let png = std::fs::read(dir.join("shot.png")).expect("the screenshot was written");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    let width = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    let height = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    assert_eq!((width, height), (1280, 800));
    // A flat image compresses to almost nothing; the figure, panels and text do not.
    assert!(
        png.len() > 20_000,
        "the screenshot looks empty ({} bytes)",
        png.len()
    );
}

#[test]
fn a_broken_script_is_refused_with_its_file_and_step() {
    let dir = scratch_dir("broken");
    std::fs::write(
        dir.join("script.ron"),
        "Replay([Wait(2), DragSite(site: \"no such site\", to: (0, 1, 0), frames: 3)])",
    )
    .expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_marionette-editor"))
        .args(["--replay", "script.ron"])
        .current_dir(&dir)
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("script.ron") && stderr.contains("no such site"),
        "{stderr}"
    );
}

#[test]
fn a_gltf_mesh_body_is_drawn_picked_and_dragged() {
    // The stickman with glTF hands, from the test data; its right hand's block is pressed in the
    // front view (window pixels: the panels have fixed default sizes) and dragged up and out.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let skeleton_file = data.join("mesh_stickman.ron");
    let skeleton = marionette_skeleton::Skeleton::load(&skeleton_file).expect("test skeleton");
    let dir = scratch_dir("mesh");
    let output = run_mesh_stickman(
        &dir,
        "Replay([Wait(25), SetView(\"front\"), Wait(5), Move(595, 236), Wait(3), Press, Wait(2), \
         Move(587, 224), Wait(1), Move(575, 208), Wait(1), Move(559, 192), Wait(5), Release, \
         Wait(2), SavePose(\"pose.ron\"), Exit])",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the editor failed: {}\n{stderr}",
        output.status
    );
    assert!(
        !stderr.contains("Path not found"),
        "the mesh was not found:\n{stderr}"
    );
    let pose = Pose::load(&skeleton, dir.join("pose.ron")).expect("the saved pose loads");
    let rest = Pose::rest(&skeleton);
    let arm = skeleton.joint_by_name("right arm").expect("joint");
    let moved: Vec<usize> = (0..pose.q.len())
        .filter(|&i| (pose.q[i] - rest.q[i]).abs() > 1e-9)
        .collect();
    let arm_dofs: Vec<usize> = skeleton
        .joint_dofs(arm)
        .chain(skeleton.joint_dofs(skeleton.joint_by_name("right hand").expect("joint")))
        .map(|d| d.state_index())
        .collect();
    assert!(
        !moved.is_empty(),
        "the press on the mesh hand started no drag"
    );
    assert!(
        moved.iter().all(|i| arm_dofs.contains(i)),
        "only the right arm moves: {moved:?} vs {arm_dofs:?}"
    );
    let swing = skeleton
        .joint_dofs(arm)
        .map(|d| (pose.q[d.state_index()] - rest.q[d.state_index()]).abs())
        .fold(0.0, f64::max);
    assert!(
        swing > 10f64.to_radians(),
        "the arm swung {} °",
        swing.to_degrees()
    );
}

/// The colour of a screenshot's pixel (sRGB, 0–1).
fn pixel(png: &Path, x: u32, y: u32) -> Srgba {
    let bytes = std::fs::read(png).expect("the screenshot was written");
    let image = bevy::image::Image::from_buffer(
        &bytes,
        bevy::image::ImageType::Extension("png"),
        bevy::image::CompressedImageFormats::NONE,
        true,
        bevy::image::ImageSampler::Default,
        bevy::asset::RenderAssetUsages::default(),
    )
    .expect("the screenshot decodes");
    image
        .get_color_at(x, y)
        .expect("inside the image")
        .to_srgba()
}

#[test]
fn a_gltf_body_is_tinted_when_hovered_and_selected() {
    // The stickman's glTF hands are light blue blocks; in the front view the right one is at
    // (595, 236) and the left one at (674, 236). Hover the right one, then click it.
    let dir = scratch_dir("tint");
    let output = run_mesh_stickman(
        &dir,
        "Replay([Wait(25), SetView(\"front\"), Wait(5), Move(595, 236), Wait(5), \
         Screenshot(\"hover.png\"), Wait(3), Press, Wait(2), Release, Wait(3), Move(800, 500), \
         Wait(5), Screenshot(\"selected.png\"), Wait(3), Exit])",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let (tinted, plain) = ((592, 240), (674, 240));
    let untouched = pixel(&dir.join("hover.png"), plain.0, plain.1);
    assert!(
        untouched.blue > untouched.red + 0.05,
        "the other hand keeps its own light blue: {untouched:?}"
    );
    let hovered = pixel(&dir.join("hover.png"), tinted.0, tinted.1);
    assert!(
        hovered.red > untouched.red + 0.05 && hovered.blue < untouched.blue,
        "the hovered hand turns towards the hover cream: {hovered:?} vs {untouched:?}"
    );
    let selected = pixel(&dir.join("selected.png"), tinted.0, tinted.1);
    assert!(
        selected.red > selected.green + 0.1 && selected.green > selected.blue,
        "the selected hand is orange: {selected:?}"
    );
    let after = pixel(&dir.join("selected.png"), plain.0, plain.1);
    assert!(
        (after.blue - untouched.blue).abs() < 0.02,
        "the other hand is unchanged: {after:?}"
    );
}

#[test]
fn save_as_takes_a_typed_path_where_no_native_dialog_is_shown() {
    // With native dialogs off (as on a desktop without a portal or zenity), Save as opens the
    // editor's own path window: select the suggestion, type a name, Enter. The document (a
    // built-in figure: its skeleton is written beside it) is saved there.
    let dir = scratch_dir("typed");
    let output = run_editor(
        &dir,
        "Replay([Wait(20), Key(\"ctrl+shift+s\"), Wait(5), Key(\"ctrl+a\"), Wait(2), \
         Type(\"typed pose.ron\"), Wait(2), Key(\"enter\"), Wait(5), Exit])",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let skeleton = builtin::humanoid();
    let saved = marionette_document::DocumentFile::load(dir.join("typed pose.ron"))
        .expect("the document was saved at the typed path");
    assert_eq!(saved.skeleton.name(), skeleton.name());
    // The pose round-trips through degrees: equal to the last bits of the conversion.
    for (a, b) in saved.pose.q.iter().zip(&builtin::standing(&skeleton).q) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
}

/// Issue 15 in the real window: the stickman opens straight (elbows and knees at their 0° limit),
/// and each of its limbs is dragged towards its base, both hands and both heels in the front
/// view, the left hand and heel in the side view, with the numeric solvers; each drag must end
/// with the grip within 1 mm of the cursor's ray (`CheckResidual`: the window places the cursor
/// on whole pixels, so that ray passes up to half a pixel from the exact target) and within 3 mm
/// of the target's own ray. Ctrl+Z puts the figure back straight between drags.
#[test]
fn straight_stickman_limbs_bend_when_dragged_in_the_window() {
    let drags: [(&str, &str, [f64; 3]); 6] = [
        ("front", "right fingertips", [-0.55, 1.10, 0.0]),
        ("front", "left fingertips", [0.55, 1.10, 0.0]),
        ("front", "right heel", [-0.35, 0.30, 0.0]),
        ("front", "left heel", [0.35, 0.30, 0.0]),
        ("side", "left fingertips", [0.0, 1.10, 0.30]),
        ("side", "left heel", [0.0, 0.45, -0.40]),
    ];
    // Constraint maintenance is still closing in on one of these after the drag ends (the
    // editing crate's straight_limbs test checks that its report says so).
    let solvers = ["dls", "sdls", "pinv", "priority", "nlp", "jt", "ccd"];
    let mut script = String::from("Replay([\n    Wait(20),\n");
    for solver in solvers {
        script += &format!("    SetSolver(\"{solver}\"),\n");
        for (i, (view, site, [x, y, z])) in drags.iter().enumerate() {
            script += &format!(
                "    SetView(\"{view}\"),\n    Wait(3),\n    DragSite(site: \"{site}\", to: ({x}, {y}, {z}), frames: 15),\n    CheckResidual(1.0),\n    SavePose(\"{solver}-{i}.ron\"),\n    Key(\"ctrl+z\"),\n    Wait(2),\n"
            );
        }
    }
    script += "    Screenshot(\"last.png\"),\n    Exit,\n])\n";
    let dir = scratch_dir("stickman");
    std::fs::write(dir.join("script.ron"), &script).expect("write script");
    let skeleton_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/stickman.ron");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .arg("--skeleton")
        .arg(&skeleton_file)
        .args(["--replay", "script.ron"])
        .current_dir(&dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("run the editor");
    assert!(
        output.status.success(),
        "the editor failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let skeleton = marionette_skeleton::Skeleton::load(&skeleton_file).expect("stickman");
    let mut fk = Fk::new(&skeleton);
    let mut misses = Vec::new();
    for solver in solvers {
        for (i, (view, site, to)) in drags.iter().enumerate() {
            let pose = Pose::load(&skeleton, dir.join(format!("{solver}-{i}.ron")))
                .expect("the saved pose loads");
            assert!(pose.within_limits(&skeleton), "{solver} {site}: limits");
            fk.update(&skeleton, &pose.q);
            let grip = fk.site_position(skeleton.site_by_name(site).expect("site"));
            let to = nalgebra::Vector3::from(*to);
            // Distance from the view ray through the target (front: along Z, side: along X).
            let off = if *view == "front" {
                (grip - to).xy().norm()
            } else {
                nalgebra::Vector2::new(grip.y - to.y, grip.z - to.z).norm()
            };
            // Half a pixel's diagonal (the cursor lands on whole pixels, about 4.5 mm each).
            if off > 3.5e-3 {
                misses.push(format!(
                    "{solver}: {site} in the {view} view ended {off:.4} m off"
                ));
            }
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}

/// The `marionette` command built beside the tests (`cargo test --workspace` builds it).

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

#[test]
fn a_capture_on_the_humanoid_gets_its_foot_contacts_and_its_motion_plot() {
    // Sequence ▸ Retarget a capture (CMU 01_01 onto the built-in humanoid; in the map window
    // the left forearm unmapped by hand), then Find foot contacts, the motion plot, playing;
    // each an undo step.
    let dir = scratch_dir("mocap");
    let script = "Replay([Wait(10), \
         RetargetCapture(\"/usr/share/assimp/models/BVH/01_01.bvh\"), Wait(3), \
         UnmapBone(\"leftLowerArm\"), Wait(2), Screenshot(\"map.png\"), ConfirmRetarget, \
         Wait(3), SaveDocument(\"retargeted.ron\"), SetFrame(1250), Key(\"f\"), FindFootContacts, \
         Wait(3), SaveDocument(\"found.ron\"), MotionPlot(\"left heel\"), Play(frames: 30), \
         Wait(5), Screenshot(\"plot.png\"), Key(\"ctrl+z\"), Wait(3), \
         SaveDocument(\"undone.ron\"), Key(\"ctrl+z\"), Wait(3), SaveDocument(\"none.ron\"), \
         Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let found = marionette_document::DocumentFile::load(dir.join("found.ron")).expect("saved");
    assert!(found.locks.len() >= 20, "{} contacts", found.locks.len());
    assert!(found.locks.iter().all(|l| (l.name.contains(" contact ")
        || l.name.contains(" floor "))
        && l.frames().is_some()));
    let retargeted =
        marionette_document::DocumentFile::load(dir.join("retargeted.ron")).expect("saved");
    // The take starts where the figure stood, facing where it faced: its pelvis within 1 cm
    // across the ground, the line between its hips turned less than 1°.
    let (away, turned) = marionette_skeleton::testing::stance_change(
        &retargeted.skeleton,
        &retargeted.pose.q,
        &retargeted.sequences[0].keys[0].pose.q,
    );
    assert!(
        away < 0.01,
        "the take starts {away} m from where the figure stood"
    );
    assert!(
        turned < 1f64.to_radians(),
        "turned {}°",
        turned.to_degrees()
    );
    assert_eq!(retargeted.sequences.len(), 1);
    assert_eq!(retargeted.sequences[0].name, "01_01");
    assert_eq!(retargeted.sequences[0].keys.len(), 2752);
    // The bone unmapped in the window keeps the figure's pose; its partner moves.
    let s = &retargeted.skeleton;
    let elbow = |name: &str| {
        let j = s.joint_by_name(name).expect("the humanoid's elbow");
        marionette_skeleton::ROOT_STATE_LEN + s.joint(j).dofs.start
    };
    let spread = |i: usize| {
        let v = retargeted.sequences[0].keys.iter().map(|k| k.pose.q[i]);
        v.clone().fold(f64::NEG_INFINITY, f64::max) - v.fold(f64::INFINITY, f64::min)
    };
    assert_eq!(spread(elbow("left elbow")), 0.0, "unmapped: held");
    assert!(spread(elbow("right elbow")) > 0.3, "mapped: bends");
    let undone = marionette_document::DocumentFile::load(dir.join("undone.ron")).expect("saved");
    assert!(
        undone.locks.is_empty(),
        "one undo takes the whole find back"
    );
    assert_eq!(undone.sequences.len(), 1);
    let none = marionette_document::DocumentFile::load(dir.join("none.ron")).expect("saved");
    assert!(
        none.sequences.is_empty(),
        "one more takes the retarget back"
    );
    for shot in ["map.png", "plot.png"] {
        let png = std::fs::read(dir.join(shot)).expect("the screenshot was written");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
    }
}

#[test]
fn mirror_paste_flipped_and_the_pose_library_from_a_replay() {
    // The left hand raised, then Pose ▸ Mirror pose (undone), the left arm selected with
    // Shift+click, copied and pasted flipped onto the right, saved in the library and applied.
    let skeleton = builtin::humanoid();
    let dir = scratch_dir("pose-tools");
    let script = "Replay([Wait(10), SetView(\"front\"), Wait(5), \
         DragSite(site: \"left fingertips\", to: (0.55, 1.45, 0.05), frames: 25), Wait(5), \
         SavePose(\"start.ron\"), MirrorPose, Wait(3), SavePose(\"mirrored.ron\"), \
         Key(\"ctrl+z\"), Wait(3), SavePose(\"undone.ron\"), \
         SelectJoint(\"left shoulder\"), AddToSelection(\"left elbow\"), \
         AddToSelection(\"left wrist\"), CopyPose, PastePose(flipped: true), Wait(3), \
         SavePose(\"flipped.ron\"), SavePoseToLibrary(\"both hands up\"), Wait(5), \
         Screenshot(\"library.png\"), Key(\"ctrl+z\"), Wait(2), Key(\"ctrl+z\"), Wait(2), \
         SavePose(\"before-apply.ron\"), Key(\"ctrl+shift+z\"), Wait(2), \
         Key(\"ctrl+shift+z\"), Wait(2), MirrorPose, Wait(2), ApplyLibraryPose(\"both hands up\"), Wait(3), SavePose(\"applied.ron\"), \
         SaveDocument(\"library.marionette.ron\"), Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let load = |name: &str| {
        Pose::load(&skeleton, dir.join(name))
            .expect("a saved pose")
            .q
    };
    let (start, mirrored, undone) = (load("start.ron"), load("mirrored.ron"), load("undone.ron"));
    // Mirrored: every site where its partner's mirror image was (pose files keep 1e-6 degrees).
    let symmetry = marionette_skeleton::symmetry::Symmetry::new(&skeleton);
    let (mut a, mut b) = (Fk::new(&skeleton), Fk::new(&skeleton));
    a.update(&skeleton, &start);
    b.update(&skeleton, &mirrored);
    for site in skeleton.site_ids() {
        let want = symmetry.reflect_point(&a.site_position(symmetry.site_partner(site)));
        let error = (want - b.site_position(site)).norm();
        assert!(error < 1e-5, "{}: {error} m", skeleton.site(site).name);
    }
    assert_eq!(undone, start, "one undo step");
    // Flipped: the right arm as the left, mirrored (same values: the sides are mirror entries);
    // the rest as it was.
    let flipped = load("flipped.ron");
    for (left, right) in [
        ("left shoulder", "right shoulder"),
        ("left elbow", "right elbow"),
        ("left wrist", "right wrist"),
    ] {
        let dofs = |n: &str| {
            let j = skeleton.joint_by_name(n).expect("joint");
            skeleton
                .joint(j)
                .dofs
                .clone()
                .map(|d| d + marionette_skeleton::ROOT_STATE_LEN)
        };
        for (l, r) in dofs(left).zip(dofs(right)) {
            assert!((flipped[r] - start[l]).abs() < 1e-9, "{right}");
            assert_eq!(flipped[l], start[l], "{left} unchanged");
        }
    }
    // The library: saved, undone with the paste, redone, applied over a mirrored pose.
    assert_eq!(load("before-apply.ron"), start);
    assert_eq!(load("applied.ron"), flipped);
    let doc = marionette_document::DocumentFile::load(dir.join("library.marionette.ron"))
        .expect("the document");
    assert_eq!(doc.library.len(), 1);
    assert_eq!(doc.library[0].name, "both hands up");
    let png = std::fs::read(dir.join("library.png")).expect("the screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_step_key_set_from_a_replay_holds_its_pose_in_the_bake_and_the_export() {
    // Three keys (the left hand raised for the middle one), the first made a Step key and the
    // middle one eased: saved, and exported as JSON frames.
    let skeleton = builtin::humanoid();
    let dir = scratch_dir("key-interpolation");
    let script = "Replay([Wait(10), SetView(\"front\"), Wait(5), SetKey, SetFrame(12), \
         DragSite(site: \"left fingertips\", to: (0.55, 1.45, 0.05), frames: 20), Wait(3), \
         SetKey, SetFrame(24), MirrorPose, Wait(2), SetKey, \
         SetKeyInterpolation(frame: 0, interpolation: Step), \
         SetKeyInterpolation(frame: 12, interpolation: Smooth, ease: 0.5), Wait(3), \
         SetFrame(6), Wait(3), Screenshot(\"keys.png\"), SaveDocument(\"keys.marionette.ron\"), \
         Key(\"ctrl+z\"), Wait(2), SaveDocument(\"undone.marionette.ron\"), \
         Key(\"ctrl+shift+z\"), Wait(2), Export(\"keys.json\"), Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let doc = marionette_document::DocumentFile::load(dir.join("keys.marionette.ron"))
        .expect("the document");
    let keys = &doc.sequences[0].keys;
    assert_eq!(keys.len(), 3);
    assert_eq!(
        keys[0].interpolation,
        Some(marionette_document::KeyInterpolation::Step)
    );
    assert_eq!(
        (keys[1].interpolation, keys[1].ease),
        (Some(marionette_document::KeyInterpolation::Smooth), 0.5)
    );
    let undone = marionette_document::DocumentFile::load(dir.join("undone.marionette.ron"))
        .expect("the document");
    assert_eq!(undone.sequences[0].keys[1].ease, 0.0, "one undo step each");
    assert_eq!(
        undone.sequences[0].keys[0].interpolation,
        keys[0].interpolation
    );
    // The bake holds the first key's pose on frames 0–11.
    let baker = marionette_motion::Baker::new(
        &skeleton,
        &doc.sequences[0],
        &doc.locks,
        marionette_motion::BakeSettings::default(),
    );
    let mut fk = Fk::new(&skeleton);
    for frame in 0..12 {
        assert_eq!(
            baker.frame(frame, &mut fk).q,
            keys[0].pose.q,
            "frame {frame}"
        );
    }
    // The export: its frames 0–11 are one pose (the JSON writes each frame's values).
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("keys.json")).expect("exported"))
            .expect("JSON");
    let frames = json["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 25);
    for frame in &frames[1..12] {
        assert_eq!(frame["pose"], frames[0]["pose"]);
    }
    assert_ne!(frames[12]["pose"], frames[0]["pose"]);
    let png = std::fs::read(dir.join("keys.png")).expect("the screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_joint_turned_by_its_ring_in_a_replay_turns_by_that_angle_in_one_undo_step() {
    // The side view shows the elbow's ring face on: turned by 40° through the handle (the
    // mouse pressed on the ring and moved round it), then another 25°, and one undone.
    let skeleton = builtin::humanoid();
    let dir = scratch_dir("rotate");
    let script = "Replay([Wait(10), SetView(\"side\"), Wait(5), \
         RotateJoint(joint: \"right elbow\", dof: 0, degrees: 40.0), Wait(3), \
         SavePose(\"turned.ron\"), Screenshot(\"rings.png\"), \
         RotateJoint(joint: \"right elbow\", dof: 0, degrees: 25.0), Wait(3), \
         SavePose(\"again.ron\"), Key(\"ctrl+z\"), Wait(3), SavePose(\"undone.ron\"), \
         CheckSelection(\"right elbow\"), Exit])";
    let output = run_editor(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let elbow = {
        let j = skeleton.joint_by_name("right elbow").expect("joint");
        marionette_skeleton::ROOT_STATE_LEN + skeleton.joint(j).dofs.start
    };
    let start = builtin::standing(&skeleton).q[elbow];
    let load = |name: &str| {
        Pose::load(&skeleton, dir.join(name))
            .expect("a saved pose")
            .q
    };
    let (turned, again, undone) = (load("turned.ron"), load("again.ron"), load("undone.ron"));
    let degrees = |q: &[f64]| (q[elbow] - start).to_degrees();
    println!(
        "turned {:.2}°, again {:.2}°, undone {:.2}°",
        degrees(&turned),
        degrees(&again),
        degrees(&undone)
    );
    // The cursor moves in whole pixels and the ring is about 30 pixels across in this view:
    // a pixel is about 2° of it.
    assert!(
        (degrees(&turned) - 40.0).abs() < 2.5,
        "{}",
        degrees(&turned)
    );
    assert!((degrees(&again) - 65.0).abs() < 2.5, "{}", degrees(&again));
    assert_eq!(undone, turned, "each turn one undo step");
    // Nothing else moved (no locks).
    for (k, (a, b)) in turned
        .iter()
        .zip(&builtin::standing(&skeleton).q)
        .enumerate()
    {
        if k != elbow {
            assert_eq!(a, b, "state {k}");
        }
    }
    let png = std::fs::read(dir.join("rings.png")).expect("the screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn hidden_panels_give_the_views_their_room_and_stay_hidden_at_the_next_start() {
    let dir = scratch_dir("panels");
    let first = "Replay([Wait(30), Screenshot(\"before.png\"), \
         SetPanel(panel: \"timeline\", shown: false), SetPanel(panel: \"locks\", shown: false), \
         Wait(5), Exit])";
    let output = run_editor(&dir, first);
    assert!(
        output.status.success(),
        "the editor failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let kept = std::fs::read_to_string(dir.join("data/marionette/panels.ron")).expect("kept");
    assert!(kept.contains("shown: false"), "{kept}");
    // The next start (same data folder): the panels are still hidden, the view reaches down.
    let second = "Replay([Wait(30), Screenshot(\"after.png\"), Exit])";
    let output = run_editor(&dir, second);
    assert!(
        output.status.success(),
        "the editor failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (before, after) = (
        pixel(&dir.join("before.png"), 640, 700),
        pixel(&dir.join("after.png"), 640, 700),
    );
    println!("at (640, 700): before {before:?}, after {after:?}");
    assert_ne!(
        before, after,
        "the Locks panel there before, the view after"
    );
    let again = std::fs::read_to_string(dir.join("data/marionette/panels.ron")).expect("kept");
    assert_eq!(again, kept);
}

#[test]
fn an_imported_character_s_joint_turns_by_its_ring() {
    // The rings come from the character's DOFs as from any skeleton's: the elbow of the
    // RiggedFigure test character turned 20° through its ring in the side view (in the front
    // and perspective views it is seen edge-on, which the step refuses).
    let dir = scratch_dir("character-ring");
    let script = "Replay([Wait(60), SetView(\"side\"), Wait(5), SaveDocument(\"before.ron\"), \
         RotateJoint(joint: \"arm_joint_R_2\", dof: 0, degrees: 20.0), Wait(3), \
         Screenshot(\"ring.png\"), SaveDocument(\"after.ron\"), Exit])";
    let output = run_on_rigged_figure(&dir, script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    let load = |name: &str| marionette_document::DocumentFile::load(dir.join(name)).expect(name);
    let (before, after) = (load("before.ron"), load("after.ron"));
    let s = &before.skeleton;
    let j = s.joint_by_name("arm_joint_R_2").expect("the elbow");
    let i = s.joint_dofs(j).next().expect("a hinge").state_index();
    let turned = (after.pose.q[i] - before.pose.q[i]).to_degrees();
    println!("arm_joint_R_2 turned {turned:.2}°");
    assert!((turned - 20.0).abs() < 3.0, "{turned}");
    for (k, (a, b)) in after.pose.q.iter().zip(&before.pose.q).enumerate() {
        if k != i {
            assert_eq!(a, b, "state {k}");
        }
    }
}
