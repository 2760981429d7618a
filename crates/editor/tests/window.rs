//! End to end: the real editor window under Xvfb (Mesa's software Vulkan), driven by a replay
//! that drags the humanoid's right hand to a point in the front view, saves the pose and takes a
//! screenshot. The saved pose must put the hand at the point; the screenshot must be a real
//! picture of the window. Needs `xvfb-run` and `mesa-vulkan-drivers`
//! (`scripts/ensure-system-packages.sh` installs them).

use std::path::Path;
use std::process::Command;

use marionette_skeleton::{Fk, Pose, builtin};

mod window_common;
use window_common::{pixel, run_editor, scratch_dir};

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
