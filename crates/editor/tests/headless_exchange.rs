//! File ▸ Import BVH and File ▸ Export in the headless editor: a capture becomes a shown
//! sequence on its own skeleton, exports of the sequence and of the pose read back, a broken
//! file changes nothing.

use bevy::prelude::*;
use marionette_editing::exchange::ExportFormat;
use marionette_editor::Editor;
use marionette_editor::files::{FileAction, carry_out};
use marionette_interchange::bvh::parse::parse;

mod common;

fn app() -> App {
    common::app("-exchange")
}

/// Updates until the running export has finished.
fn finish(app: &mut App) {
    for _ in 0..2000 {
        app.update();
        if app.world().resource::<Editor>().export.is_none() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the export did not finish");
}

#[test]
fn a_capture_imports_as_a_shown_sequence_and_exports_back() {
    let dir = std::env::temp_dir().join(format!("marionette-exchange-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let capture = dir.join("walk.bvh");
    std::fs::copy("/usr/share/assimp/models/BVH/01_01.bvh", &capture)
        .expect("assimp-testmodels (scripts/ensure-system-packages.sh installs it)");
    let mut app = app();
    let mut editor = app.world_mut().resource_mut::<Editor>();
    carry_out(&mut editor, FileAction::ImportBvh, &capture);
    assert!(
        editor.notices.iter().all(|n| !n.is_error),
        "{:?}",
        editor.notices
    );
    assert_eq!(editor.skeleton().joints().len(), 31);
    assert_eq!(editor.document.current_sequence(), Some(0));
    assert!(dir.join("walk.skeleton.ron").exists());
    assert!(editor.unsaved(), "an imported capture is unsaved work");
    carry_out(
        &mut editor,
        FileAction::Export(ExportFormat::Bvh),
        &dir.join("again.bvh"),
    );
    assert!(editor.export.is_some(), "the export runs on its own thread");
    finish(&mut app);
    let mut editor = app.world_mut().resource_mut::<Editor>();
    assert!(
        editor
            .notices
            .iter()
            .any(|n| n.text.starts_with("Exported 2752 frames")),
        "{:?}",
        editor.notices
    );
    let again = parse(&std::fs::read_to_string(dir.join("again.bvh")).expect("written"))
        .expect("reads")
        .bvh;
    assert_eq!(again.frames.len(), 2752);
    // The pose alone when no sequence is shown.
    editor.document.select_sequence(None).expect("none");
    carry_out(
        &mut editor,
        FileAction::Export(ExportFormat::Glb),
        &dir.join("pose.glb"),
    );
    finish(&mut app);
    let mut editor = app.world_mut().resource_mut::<Editor>();
    assert!(
        std::fs::read(dir.join("pose.glb"))
            .expect("written")
            .starts_with(b"glTF")
    );
    // A broken file is an error and the document stays.
    std::fs::write(dir.join("broken.bvh"), "HIERARCHY\nROOT hips\n{\n").expect("write");
    let id = editor.document.id();
    carry_out(&mut editor, FileAction::ImportBvh, &dir.join("broken.bvh"));
    assert_eq!(editor.document.id(), id);
    assert!(
        editor
            .notices
            .last()
            .is_some_and(|n| n.is_error && n.text.contains("line"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
