//! View ▸ Physics without a window: the replay's and the menu's switch (a change beside the
//! document: nothing unsaved) and what the overlays are drawn from, on the hand-keyed jump of
//! the command line's tests (crates/cli/tests/data), checked against `physics check`'s own
//! reading of the same document (the span it reports, by the command).

mod common;

use bevy::ecs::change_detection::DetectChanges;
use common::{app, document, send};
use marionette_editing::Edit;
use marionette_editing::beside::BesideChange;
use marionette_editing::physics_view::Footing;
use marionette_editor::beside::BesideRequest;
use marionette_editor::messages::{FileAction, FileRequest};
use marionette_editor::physics::PhysicsOverlay;
use marionette_editor::resources::OpenDocument;

#[test]
fn the_physics_switch_measures_the_shown_sequence_and_changes_no_work() {
    let dir = std::env::temp_dir().join(format!("marionette-physics-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("skeletons")).expect("a folder");
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(
        repo.join("skeletons/humanoid.ron"),
        dir.join("skeletons/humanoid.ron"),
    )
    .expect("copy");
    let jump = dir.join("jump.marionette.ron");
    std::fs::copy(
        repo.join("crates/cli/tests/data/jump.marionette.ron"),
        &jump,
    )
    .expect("copy");
    let mut app = app("physics");
    common::request_file(&mut app, FileRequest::on(FileAction::OpenDocument, &jump));
    send(&mut app, Edit::SelectSequence(Some(0)));
    assert!(
        app.world().resource::<PhysicsOverlay>().view.is_none(),
        "hidden at first"
    );
    let before = app.world().resource_ref::<OpenDocument>().last_changed();
    app.world_mut()
        .write_message(BesideRequest(BesideChange::ShowPhysics(true)));
    app.update();
    app.update();
    assert_eq!(
        app.world().resource_ref::<OpenDocument>().last_changed(),
        before,
        "showing the physics is no change of the document"
    );
    assert!(!document(&app).is_modified());
    let overlay = app.world().resource::<PhysicsOverlay>();
    let view = overlay
        .view
        .as_ref()
        .expect("measured")
        .as_ref()
        .expect("the humanoid has roles");
    assert_eq!(view.com.len(), 49);
    // The span `physics check` reports for this document (crates/cli/tests/physics/main.rs).
    let spans: Vec<(usize, usize)> = view.spans.iter().map(|s| (s.from, s.to)).collect();
    assert_eq!(spans, [(16, 35)]);
    assert_eq!(view.footing(25), Footing::Airborne);
    // Standing at the start on both locked heels: supported, the centre of mass over them.
    assert!(view.supports[0].len() >= 2);
    assert_eq!(view.footing(0), Footing::Inside);
    // The frame shown is the one drawn.
    send(&mut app, Edit::GoToFrame(25));
    let overlay = app.world().resource::<PhysicsOverlay>();
    let (_, i) = overlay
        .shown(app.world().resource::<OpenDocument>())
        .expect("shown");
    assert_eq!(i, 25);
    app.world_mut()
        .write_message(BesideRequest(BesideChange::ShowPhysics(false)));
    app.update();
    assert!(app.world().resource::<PhysicsOverlay>().view.is_none());
    std::fs::remove_dir_all(&dir).ok();
}
