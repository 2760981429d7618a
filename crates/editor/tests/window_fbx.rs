//! End to end: a Mixamo-style FBX character (the test figure Blender wrote in centimetres with
//! `mixamorig:` names, `scripts/make-test-characters.py`) in the real editor window under Xvfb:
//! opened, its right hand dragged until it reaches, its upper arm clicked where it is drawn, its
//! left foot locked, its hips lowered at frame 24 with the foot held, keyed, saved and exported
//! as glb, which the Khronos validator passes with no error. Needs `xvfb-run` and
//! `mesa-vulkan-drivers` (`scripts/ensure-system-packages.sh`) and the validator
//! (`npm ci --prefix tools/gltf-validator`, `scripts/test.sh` runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

fn marionette_cli() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    dir.join("marionette")
}

#[test]
fn an_fbx_character_is_dragged_picked_locked_keyed_and_exported() {
    let dir = std::env::temp_dir().join(format!("marionette-editor-fbx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../interchange/tests/data/characters/authored/mixamo_apose.fbx");
    std::fs::copy(&source, dir.join("mixamo.fbx")).expect("copy the character");
    let script = "Replay([\n    Wait(30), SetView(\"front\"), Wait(10), Screenshot(\"open.png\"),\n    \
        DragSite(site: \"right hand\", to: (-0.6, 1.15, 0.1), frames: 30),\n    \
        CheckResidual(1.0), Screenshot(\"reach.png\"),\n    \
        ClickBone(\"mixamorig:RightArm\"), Wait(3), \
        CheckSelection(\"mixamorig:RightArm\"),\n    \
        LockSite(site: \"left foot\", kind: Pose),\n    Key(\"k\"), Wait(2), SetFrame(24),\n    \
        DragJoint(joint: \"mixamorig:Hips\", to: (0.0, 0.85, 0.0), frames: 30),\n    \
        CheckLocks(0.1), SetKey, Screenshot(\"crouch.png\"),\n    \
        SaveDocument(\"figure.ron\"), Export(\"figure.glb\"), Exit,\n])\n";
    std::fs::write(dir.join("script.ron"), script).expect("write script");
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .arg("mixamo.fbx")
        .args(["--replay", "script.ron"])
        .current_dir(&dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("run the editor (xvfb-run: scripts/ensure-system-packages.sh installs it)");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the editor failed:\n{stderr}");
    assert!(
        dir.join("mixamo.skeleton.ron").exists(),
        "the import wrote the skeleton beside the character"
    );
    let doc = marionette_document::DocumentFile::load(dir.join("figure.ron"))
        .unwrap_or_else(|e| panic!("the saved document loads: {e}"));
    assert_eq!(doc.locks.len(), 1);
    let keys: Vec<i64> = doc.sequences[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 24]);
    let bake = Command::new(marionette_cli())
        .arg("bake")
        .arg(dir.join("figure.ron"))
        .args(["--sequence", &doc.sequences[0].name, "--json", "--out"])
        .arg(dir.join("frames.json"))
        .output()
        .expect("marionette bake (cargo test --workspace builds it)");
    assert!(
        bake.status.success(),
        "the foot was not held: {}",
        String::from_utf8_lossy(&bake.stdout)
    );
    // The export: the character's meshes and skin (as read from the FBX), 25 frames, and no
    // error from the Khronos validator.
    let glb = std::fs::read(dir.join("figure.glb")).expect("the export was written");
    assert_eq!(&glb[..4], b"glTF");
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    let json: serde_json::Value =
        serde_json::from_slice(&glb[20..20 + json_len]).expect("the export's JSON");
    assert_eq!(
        json["skins"][0]["joints"].as_array().map(Vec::len),
        Some(23)
    );
    assert_eq!(json["meshes"].as_array().map(Vec::len), Some(1));
    let time = json["animations"][0]["samplers"][0]["input"]
        .as_u64()
        .expect("an animation");
    assert_eq!(json["accessors"][time as usize]["count"], 25);
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    let report = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .arg(dir.join("figure.glb"))
        .output()
        .expect("node");
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(report.contains("\"errors\":0"), "{report}");
}
