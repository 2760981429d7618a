//! What the window tests share: the real editor run under Xvfb on a replay, the `marionette`
//! command built beside it, and the checks of a character posed, keyed and exported.

#![allow(dead_code, reason = "each test file uses the helpers it needs")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bevy::color::Srgba;

/// The editor opened on `args` (a document or a character, say) in `dir`, playing `script`;
/// the user's data folder is `dir/data` and no native dialog is shown.
pub fn run_editor_on(dir: &Path, args: &[&str], script: &str) -> Output {
    std::fs::write(dir.join("script.ron"), script).expect("write script");
    Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_marionette-editor"))
        .args(args)
        .args(["--replay", "script.ron"])
        .current_dir(dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env(marionette_editor::files::NO_NATIVE_DIALOGS, "1")
        .output()
        .expect("run the editor (xvfb-run: scripts/ensure-system-packages.sh installs it)")
}

/// The `marionette` command of the same build (`cargo test --workspace` builds it).
pub fn marionette_cli() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let cli = dir.join("marionette");
    assert!(
        cli.exists(),
        "{} is missing: run the tests with `cargo test --workspace`",
        cli.display()
    );
    cli
}

/// What a character's window test leaves in `dir`: `figure.ron` with one lock and keys at 0
/// and 24 that the bake holds on every frame, and `figure.glb`, the character's own file with
/// its skin of `joints` joints, its one mesh and 25 frames of animation.
pub fn check_keyed_crouch_and_export(dir: &Path, joints: usize) {
    let doc = marionette_document::DocumentFile::load(dir.join("figure.ron"))
        .unwrap_or_else(|e| panic!("the saved document loads: {e}"));
    assert_eq!(doc.locks.len(), 1);
    let keys: Vec<i64> = doc.sequences[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 24]);
    // Every baked frame holds the foot (the bake of the saved document, as the command does it).
    let bake = Command::new(marionette_cli())
        .arg("bake")
        .arg(dir.join("figure.ron"))
        .args(["--sequence", &doc.sequences[0].name, "--json", "--out"])
        .arg(dir.join("frames.json"))
        .output()
        .expect("marionette bake");
    assert!(
        bake.status.success(),
        "the foot was not held: {}",
        String::from_utf8_lossy(&bake.stdout)
    );
    // The export is the character's own file, posed: its meshes and skin, 25 frames.
    let glb = std::fs::read(dir.join("figure.glb")).expect("the export was written");
    assert_eq!(&glb[..4], b"glTF");
    let json_len = u32::from_le_bytes([glb[12], glb[13], glb[14], glb[15]]) as usize;
    let json: serde_json::Value =
        serde_json::from_slice(&glb[20..20 + json_len]).expect("the export's JSON");
    assert_eq!(
        json["skins"][0]["joints"].as_array().map(Vec::len),
        Some(joints)
    );
    assert_eq!(json["meshes"].as_array().map(Vec::len), Some(1));
    let time = json["animations"][0]["samplers"][0]["input"]
        .as_u64()
        .expect("an animation");
    assert_eq!(json["accessors"][time as usize]["count"], 25);
}

/// A fresh scratch folder for test `name` (removed first if a run left one).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("marionette-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The editor under Xvfb in `dir` on the built-in humanoid, playing `script`.
pub fn run_editor(dir: &Path, script: &str) -> std::process::Output {
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
pub fn run_on_rigged_figure(dir: &Path, script: &str) -> std::process::Output {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../interchange/tests/data/characters/RiggedFigure.gltf");
    std::fs::copy(&source, dir.join("RiggedFigure.gltf")).expect("copy the character");
    run_editor_on(dir, &["RiggedFigure.gltf"], script)
}

/// The colour of a screenshot's pixel (sRGB, 0–1).
pub fn pixel(png: &Path, x: u32, y: u32) -> Srgba {
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
