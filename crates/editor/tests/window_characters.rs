//! End to end: rigged characters in the real editor window under Xvfb, a glTF one (the
//! RiggedFigure test character) and a Mixamo-style FBX one (the test figure Blender wrote in
//! centimetres with `mixamorig:` names, `scripts/make-test-characters.py`): opened, a hand
//! dragged until it reaches, an arm clicked where it is drawn, a foot locked, the hips lowered at
//! frame 24 with the foot held, keyed, saved and exported as glb. Needs `xvfb-run` and
//! `mesa-vulkan-drivers` (`scripts/ensure-system-packages.sh`) and, for the FBX figure's export,
//! the Khronos validator (`npm ci --prefix tools/gltf-validator`, `scripts/test.sh` runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

mod window_common;
use window_common::{check_keyed_crouch_and_export, run_editor_on};

/// A scratch folder holding a copy of the test character `source` (a path under the
/// interchange crate's test characters) named `name`.
fn with_character(tag: &str, source: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("marionette-editor-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../interchange/tests/data/characters")
        .join(source);
    std::fs::copy(&source, dir.join(name)).expect("copy the character");
    dir
}

/// A rigged glTF character in the real window: opened (imported as a new document), its right
/// hand dragged in the front view until it reaches, its forearm clicked where it is drawn after
/// the move (picked on the skinned mesh: it is selected), its left foot locked, its hips lowered
/// at frame 24 (a crouch with the foot held), keyed, played, saved and exported as glb.
#[test]
fn a_character_is_dragged_picked_where_drawn_locked_keyed_played_and_exported() {
    let dir = with_character("character", "RiggedFigure.gltf", "RiggedFigure.gltf");
    let script = "Replay([\n    Wait(30), SetView(\"front\"), Wait(10),\n    \
        DragSite(site: \"right hand\", to: (-0.45, 1.3, 0.05), frames: 30),\n    \
        CheckResidual(1.0), Screenshot(\"reach.png\"),\n    \
        ClickBone(\"arm_joint_R_2\"), Wait(3), CheckSelection(\"arm_joint_R_2\"),\n    \
        LockSite(site: \"left foot\", kind: Pose),\n    Key(\"k\"), Wait(2), SetFrame(24),\n    \
        DragJoint(joint: \"torso_joint_1\", to: (0.0, 0.60, 0.0), frames: 30),\n    \
        CheckLocks(0.1), SetKey, Screenshot(\"crouch.png\"),\n    \
        SetFrame(12), CheckLocks(0.1), Play(frames: 30), CheckLocks(0.1),\n    \
        SaveDocument(\"figure.ron\"), Export(\"figure.glb\"), Exit,\n])\n";
    let output = run_editor_on(&dir, &["RiggedFigure.gltf"], script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    assert!(
        dir.join("RiggedFigure.skeleton.ron").exists(),
        "the import wrote the skeleton beside the character"
    );
    check_keyed_crouch_and_export(&dir, 19);
}

/// The same with the FBX figure (its upper arm clicked: its short forearm lies under the hand's
/// rotate rings once the hand is dragged); its export passes the Khronos validator.
#[test]
fn an_fbx_character_is_dragged_picked_locked_keyed_and_exported() {
    let dir = with_character("fbx", "authored/mixamo_apose.fbx", "mixamo.fbx");
    let script = "Replay([\n    Wait(30), SetView(\"front\"), Wait(10), Screenshot(\"open.png\"),\n    \
        DragSite(site: \"right hand\", to: (-0.6, 1.15, 0.1), frames: 30),\n    \
        CheckResidual(1.0), Screenshot(\"reach.png\"),\n    \
        ClickBone(\"mixamorig:RightArm\"), Wait(3), CheckSelection(\"mixamorig:RightArm\"),\n    \
        LockSite(site: \"left foot\", kind: Pose),\n    Key(\"k\"), Wait(2), SetFrame(24),\n    \
        DragJoint(joint: \"mixamorig:Hips\", to: (0.0, 0.85, 0.0), frames: 30),\n    \
        CheckLocks(0.1), SetKey, Screenshot(\"crouch.png\"),\n    \
        SaveDocument(\"figure.ron\"), Export(\"figure.glb\"), Exit,\n])\n";
    let output = run_editor_on(&dir, &["mixamo.fbx"], script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    assert!(
        dir.join("mixamo.skeleton.ron").exists(),
        "the import wrote the skeleton beside the character"
    );
    check_keyed_crouch_and_export(&dir, 23);
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    let report = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .arg(dir.join("figure.glb"))
        .output()
        .expect("node");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("\"errors\":0"), "{report}");
}
