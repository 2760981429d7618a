//! The editor's logic without a window: files opened, saved and refused (a save during a drag,
//! bad files changing nothing, a dropped problem file), closing with unsaved edits, and a solver
//! setting that leaves the document and its saved state alone.

use bevy::prelude::*;
use marionette_editing::{ChainMode, Comparison, Edit};
use marionette_editor::messages::{FileAction, FileRequest};
use marionette_editor::resources::{OpenDocument, Prompts};
use marionette_ik::SolverKind;

mod common;
use common::*;

fn app() -> App {
    common::app("")
}

#[test]
fn a_save_asked_for_during_a_drag_ends_the_drag_first_and_saves_its_pose() {
    let mut app = app();
    let dir = std::env::temp_dir().join(format!(
        "marionette-headless-dragsave-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("dragged.ron");
    let before = document(&app).pose().to_vec();
    drag_site(&mut app, "right fingertips", Vec3::Y * 0.2, 5);
    assert!(document(&app).drag().is_some(), "dragging");
    let dragged = document(&app).pose().to_vec();
    assert_ne!(dragged, before);
    request_file(
        &mut app,
        FileRequest::on(FileAction::SaveDocumentAs, file.clone()),
    );
    let d = document(&app);
    assert!(d.drag().is_none(), "the drag was ended by an edit");
    assert!(!d.is_modified(), "saved after the drag's step was recorded");
    assert!(
        d.history()
            .next_undo()
            .is_some_and(|l| l.starts_with("Drag")),
        "{:?}",
        d.history().next_undo()
    );
    let saved = marionette_document::DocumentFile::load(&file).expect("saved");
    let worst = saved
        .pose
        .q
        .iter()
        .zip(d.pose())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-9, "the file holds the dragged pose ({worst})");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_open_and_save_and_bad_ones_change_nothing() {
    let mut app = app();
    let dir =
        std::env::temp_dir().join(format!("marionette-headless-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let skeletons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons");

    // A pose saved, the figure moved, the pose dropped back onto the window.
    let saved = document(&app).pose().to_vec();
    let errors = notices(&app).error_count();
    request_file(
        &mut app,
        FileRequest::on(FileAction::SavePoseAs, dir.join("pose.ron")),
    );
    assert_eq!(notices(&app).error_count(), errors, "the pose was saved");
    drag_site(&mut app, "right fingertips", Vec3::Y * 0.2, 5);
    release(&mut app);
    assert_ne!(document(&app).pose(), saved.as_slice());
    drop_file(&mut app, &dir.join("pose.ron"));
    assert_eq!(document(&app).pose(), saved.as_slice());

    // A file whose start names no kind and that is neither skeleton nor pose: an error naming
    // both readings, nothing changes.
    std::fs::write(dir.join("junk.ron"), "(version: 1, name: ").expect("write");
    let id = document(&app).id();
    drop_file(&mut app, &dir.join("junk.ron"));
    let error = notices(&app).last().expect("a notice").clone();
    assert!(error.is_error);
    assert!(
        error.text.contains("As a skeleton") && error.text.contains("As a pose"),
        "{}",
        error.text
    );
    assert_eq!(document(&app).id(), id, "the same document");
    assert_eq!(document(&app).pose(), saved.as_slice());
    // A broken file that says it is a skeleton: the skeleton's error, with its position.
    std::fs::write(dir.join("broken.ron"), "Skeleton(version: 1, name: ").expect("write");
    drop_file(&mut app, &dir.join("broken.ron"));
    let error = notices(&app).last().expect("a notice").clone();
    assert!(
        error.is_error
            && error.text.contains("Could not open the skeleton")
            && error.text.contains(":1:"),
        "{}",
        error.text
    );
    assert_eq!(document(&app).id(), id, "the same document");

    // Saving where no file can be written is an error, not a crash.
    let errors = notices(&app).error_count();
    let nowhere = dir.join("no such dir").join("pose.ron");
    request_file(&mut app, FileRequest::on(FileAction::SavePoseAs, nowhere));
    assert_eq!(
        notices(&app).error_count(),
        errors + 1,
        "not saved, and said so"
    );

    // Another skeleton replaces the figure; the undo history starts afresh.
    let open = |path| FileRequest::on(FileAction::OpenSkeleton, path);
    request_file(&mut app, open(skeletons.join("stickman.ron")));
    assert_eq!(document(&app).skeleton().name(), "stickman");
    assert_ne!(document(&app).id(), id, "another document");
    assert_eq!(document(&app).history().next_undo(), None);
    let errors = notices(&app).error_count();
    request_file(&mut app, open(dir.join("missing.ron")));
    assert_eq!(
        notices(&app).error_count(),
        errors + 1,
        "not opened, and said so"
    );
    assert_eq!(document(&app).skeleton().name(), "stickman");
}

#[test]
fn closing_with_unsaved_edits_asks_first_and_quits_once_saved() {
    let mut app = app();
    // Nothing changed: closing quits at once.
    app.world_mut()
        .write_message(bevy::window::WindowCloseRequested {
            window: Entity::PLACEHOLDER,
        });
    app.update();
    assert!(app.should_exit().is_some());

    let mut app = self::app();
    drag_site(&mut app, "right fingertips", Vec3::Y * 0.1, 3);
    release(&mut app);
    assert!(document(&app).is_modified());
    app.world_mut()
        .write_message(bevy::window::WindowCloseRequested {
            window: Entity::PLACEHOLDER,
        });
    app.update();
    assert!(
        app.should_exit().is_none(),
        "an unsaved pose is not thrown away"
    );
    assert!(app.world().resource::<Prompts>().quit);
    let file = std::env::temp_dir().join(format!("marionette-quit-{}.ron", std::process::id()));
    request_file(&mut app, FileRequest::on(FileAction::SaveDocument, &file));
    assert_eq!(document(&app).file(), Some(file.as_path()));
    app.update();
    assert!(
        app.should_exit().is_some(),
        "saved from the question: the editor quits"
    );
}

/// How solves run (the solver, what a drag moves, the comparison) lives beside the document:
/// changing it leaves the document untouched, so its change detection does not fire (nothing
/// that follows the document runs again) and nothing becomes unsaved.
#[test]
fn a_solver_setting_changes_neither_the_document_nor_its_saved_state() {
    let mut app = app();
    for _ in 0..3 {
        app.update();
    }
    let changed = || {
        |app: &App| {
            app.world()
                .get_resource_ref::<OpenDocument>()
                .expect("a document")
                .last_changed()
        }
    };
    let before = changed()(&app);
    app.update();
    assert_eq!(
        changed()(&app),
        before,
        "an idle frame leaves the document alone"
    );
    set_solver(&mut app, SolverKind::CyclicCoordinateDescent);
    send(&mut app, Edit::ChainMode(ChainMode::WholeBody));
    send(
        &mut app,
        Edit::Comparison(Comparison {
            enabled: true,
            ..Comparison::default()
        }),
    );
    assert_eq!(settings(&app).solver, SolverKind::CyclicCoordinateDescent);
    assert_eq!(changed()(&app), before, "settings leave the document alone");
    assert!(!document(&app).is_modified(), "nothing unsaved");
    // An edit of the work does change it.
    send(&mut app, Edit::SetKey);
    assert_ne!(changed()(&app), before);
}

/// An IK problem file dropped onto the window is refused by name: the editor says which
/// command reads it, and the document is as it was.
#[test]
fn a_dropped_problem_file_is_refused_by_name() {
    let mut app = app();
    app.update();
    let before = document(&app).pose().to_vec();
    let problem = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cli/tests/problems/stickman_reach.ron");
    drop_file(&mut app, &problem);
    let last = notices(&app).last().expect("a notice").clone();
    println!("{}", last.text);
    assert!(
        last.text.contains("IK problem file") && last.text.contains("marionette solve"),
        "{}",
        last.text
    );
    assert_eq!(document(&app).pose(), &before[..]);
}
