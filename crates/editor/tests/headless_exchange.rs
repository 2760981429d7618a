//! File ▸ Import BVH and File ▸ Export in the headless editor: a capture becomes a shown
//! sequence on its own skeleton, exports of the sequence and of the pose read back, a broken
//! file changes nothing.

use bevy::prelude::*;
use marionette_editing::Edit;
use marionette_editing::capture_read::ReadCapture;
use marionette_editing::exchange::ExportFormat;
use marionette_editor::export::RunningExport;
use marionette_editor::messages::{FileAction, FileRequest};
use marionette_interchange::bvh::parse::parse;

mod common;
use common::{document, notices, request_file, send};

fn app() -> App {
    common::app("-exchange")
}

/// Updates until the running export has finished.
fn finish(app: &mut App) {
    for _ in 0..2000 {
        app.update();
        if !app.world().contains_resource::<RunningExport>() {
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
    request_file(&mut app, FileRequest::on(FileAction::ImportBvh, &capture));
    assert!(
        notices(&app).errors().next().is_none(),
        "{:?}",
        notices(&app)
    );
    assert_eq!(document(&app).skeleton().joints().len(), 31);
    assert_eq!(document(&app).current_sequence(), Some(0));
    assert!(dir.join("walk.skeleton.ron").exists());
    assert!(
        document(&app).is_modified(),
        "an imported capture is unsaved work"
    );
    let export = |format, name: &str| FileRequest::on(FileAction::Export(format), dir.join(name));
    // One frame only: the export starts on the frame that reads the request; a second frame
    // could already find it finished (a loaded machine may pause this thread meanwhile).
    app.world_mut()
        .write_message(export(ExportFormat::Bvh, "again.bvh"));
    app.update();
    assert!(
        app.world().contains_resource::<RunningExport>(),
        "the export runs on its own thread"
    );
    finish(&mut app);
    assert!(
        notices(&app)
            .all()
            .iter()
            .any(|n| n.text.starts_with("Exported 2752 frames")),
        "{:?}",
        notices(&app)
    );
    let again = parse(&std::fs::read_to_string(dir.join("again.bvh")).expect("written"))
        .expect("reads")
        .bvh;
    assert_eq!(again.frames.len(), 2752);
    // The pose alone when no sequence is shown.
    send(&mut app, Edit::SelectSequence(None));
    request_file(&mut app, export(ExportFormat::Glb, "pose.glb"));
    finish(&mut app);
    assert!(
        std::fs::read(dir.join("pose.glb"))
            .expect("written")
            .starts_with(b"glTF")
    );
    // A broken file is an error and the document stays.
    std::fs::write(dir.join("broken.bvh"), "HIERARCHY\nROOT hips\n{\n").expect("write");
    let id = document(&app).id();
    request_file(
        &mut app,
        FileRequest::on(FileAction::ImportBvh, dir.join("broken.bvh")),
    );
    assert_eq!(document(&app).id(), id);
    assert!(
        notices(&app)
            .last()
            .is_some_and(|n| n.is_error && n.text.contains("line"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_retarget_frames_the_take_in_every_view() {
    // Sequence ▸ Retarget a capture: the take is shown from its first frame and the views are
    // asked to frame it (the message F sends); a refused retarget asks nothing.
    let mut app = app();
    let focus_requests = |app: &App| {
        let messages = app
            .world()
            .resource::<Messages<marionette_editor::messages::FocusSelection>>();
        messages.iter_current_update_messages().count()
    };
    // A file that is not a capture: Sequence ▸ Retarget says so, nothing framed.
    request_file(
        &mut app,
        FileRequest::on(FileAction::RetargetCapture, "/nonexistent/take.bvh"),
    );
    assert!(notices(&app).errors().next().is_some());
    assert_eq!(focus_requests(&app), 0, "refused: nothing framed");
    let boxing = std::path::Path::new("/usr/share/assimp/models/BVH/Boxing_Toes.bvh");
    send(
        &mut app,
        Edit::RetargetCapture {
            capture: ReadCapture::read(boxing).expect("reads (assimp-testmodels)"),
            map: Default::default(),
            keep_place: false,
        },
    );
    assert_eq!(document(&app).sequences().len(), 1, "{:?}", notices(&app));
    assert_eq!(focus_requests(&app), 1, "the take is framed");
}

#[test]
fn an_fbx_take_retargets_and_imports_as_a_capture() {
    // Sequence ▸ Retarget a capture with an animation-only FBX file (the Mixamo test figure's
    // two takes): its first take goes onto the humanoid; File ▸ Import capture makes it a
    // sequence on its own skeleton.
    let fbx = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../interchange/tests/data/characters/authored/mixamo_apose_animation.fbx");
    let mut app = app();
    send(
        &mut app,
        Edit::RetargetCapture {
            capture: ReadCapture::read(&fbx).expect("an FBX take"),
            map: Default::default(),
            keep_place: false,
        },
    );
    assert_eq!(document(&app).sequences().len(), 1, "{:?}", notices(&app));
    assert_eq!(document(&app).sequences()[0].keys.len(), 30);
    let dir = std::env::temp_dir().join(format!("marionette-fbx-take-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let copy = dir.join("dance.fbx");
    std::fs::copy(&fbx, &copy).expect("copy");
    request_file(&mut app, FileRequest::on(FileAction::ImportBvh, &copy));
    assert!(
        notices(&app).errors().next().is_none(),
        "{:?}",
        notices(&app)
    );
    assert_eq!(document(&app).skeleton().joints().len(), 23);
    assert_eq!(document(&app).current_sequence(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
