//! Locks and documents in the headless editor (`MinimalPlugins` + input + the editor's logic):
//! the L shortcuts, gripping a lock's marker, dropping documents, all through the messages the
//! window writes.

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use marionette_document::{LockKind, LockPart};
use marionette_editing::Edit;
use marionette_editor::convert::vec3;
use marionette_editor::messages::{FileAction, FileRequest, PickTarget};
use marionette_editor::resources::ActiveDrag;

mod common;
use common::{document, notices, request_file, send};

fn app() -> App {
    common::app("")
}

/// L, or Shift+L, pressed for a frame and released.
fn press_l(app: &mut App, shift: bool) {
    let held = [(KeyCode::ShiftLeft, Key::Shift)];
    common::tap(app, if shift { &held[..] } else { &[] }, KeyCode::KeyL, "l");
}

/// A press on `target` at `hit` (as picking reports it), the cursor ray moved to `to` over
/// `frames` frames, then the release.
fn drag(app: &mut App, target: PickTarget, hit: Vec3, to: Vec3, frames: usize) {
    common::press_and_move(app, target, hit, to, frames);
    common::release(app);
}

fn site_at(app: &App, name: &str) -> Vec3 {
    let d = document(app);
    let site = d.skeleton().site_by_name(name).expect("site");
    vec3(&d.fk().site_position(site))
}

#[test]
fn l_locks_the_picked_site_and_a_pelvis_drag_then_keeps_it() {
    let mut app = app();
    // Picking the heel's handle selects it (a click: no move).
    let heel = document(&app)
        .skeleton()
        .site_by_name("left heel")
        .expect("heel");
    let at = site_at(&app, "left heel");
    drag(&mut app, PickTarget::Site(heel), at, at, 1);
    press_l(&mut app, false);
    press_l(&mut app, true);
    let names: Vec<String> = document(&app)
        .locks()
        .iter()
        .map(|l| l.name.clone())
        .collect();
    assert_eq!(names, ["left heel position", "left heel pose"]);
    // Dragging the pelvis's origin moves the whole figure down; the heel stays.
    let pelvis = document(&app).skeleton().root();
    let from = vec3(&document(&app).fk().joint_position(pelvis));
    drag(
        &mut app,
        PickTarget::Joint(pelvis),
        from,
        from - Vec3::Y * 0.02,
        10,
    );
    let v = document(&app).lock_violations();
    assert!(v.iter().all(|v| v.within(1e-4)), "{v:?}");
    assert!((site_at(&app, "left heel") - at).length() < 1e-4);
    let moved = vec3(&document(&app).fk().joint_position(pelvis)) - from;
    assert!((moved.y + 0.02).abs() < 1e-3, "{moved}");
}

#[test]
fn dragging_a_marker_moves_its_lock_and_the_limb_follows_as_one_step() {
    let mut app = app();
    let hand = document(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    send(
        &mut app,
        Edit::Lock {
            part: LockPart::Site(hand),
            kind: LockKind::Position,
        },
    );
    let index = document(&app).locks().len() - 1;
    let before = document(&app).pose().to_vec();
    let at = site_at(&app, "right fingertips");
    // The press lands on the marker and on the hand's handle: the marker wins.
    drag(
        &mut app,
        PickTarget::Site(hand),
        at,
        at + Vec3::new(0.0, 0.05, 0.0),
        5,
    );
    assert!(document(&app).drag().is_none(), "no drag of the hand began");
    assert!(
        app.world().resource::<ActiveDrag>().marker().is_none(),
        "released"
    );
    let lock = &document(&app).locks()[index];
    let anchor = vec3(&lock.anchor(document(&app).fk()));
    assert!((anchor - (at + Vec3::Y * 0.05)).length() < 1e-4, "{anchor}");
    assert!(
        (site_at(&app, "right fingertips") - anchor).length() < 1e-3,
        "the arm followed"
    );
    assert_eq!(
        document(&app).history().next_undo(),
        Some("Move lock right fingertips position")
    );
    send(&mut app, Edit::Undo);
    assert_eq!(
        document(&app).pose(),
        &before[..],
        "one step for the whole drag"
    );
}

#[test]
fn a_dropped_document_opens_and_a_broken_one_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("marionette-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut app = app();
    let heel = document(&app)
        .skeleton()
        .site_by_name("left heel")
        .expect("heel");
    send(
        &mut app,
        Edit::Lock {
            part: LockPart::Site(heel),
            kind: LockKind::Pose,
        },
    );
    request_file(
        &mut app,
        FileRequest::on(FileAction::SaveDocument, dir.join("good.ron")),
    );
    assert_eq!(document(&app).file(), Some(dir.join("good.ron").as_path()));
    std::fs::write(
        dir.join("broken.ron"),
        "Document(version: 1, skeleton: \"good.skeleton.ron\", locks: [Lock(name: \"x\", goal: Position(site: \"hoof\", target: (0.0, 0.0, 0.0)))])",
    )
    .expect("write");
    let mut fresh = self::app();
    let drop = |app: &mut App, name: &str| {
        app.world_mut().write_message(FileDragAndDrop::DroppedFile {
            window: Entity::PLACEHOLDER,
            path_buf: dir.join(name),
        });
        app.update();
    };
    drop(&mut fresh, "broken.ron");
    assert!(document(&fresh).locks().is_empty(), "nothing opened");
    let error = notices(&fresh)
        .all()
        .iter()
        .rev()
        .find(|n| n.is_error)
        .expect("an error is shown");
    assert!(
        error.text.contains("broken.ron") && error.text.contains("hoof"),
        "{}",
        error.text
    );
    drop(&mut fresh, "good.ron");
    assert_eq!(document(&fresh).locks().len(), 1);
    assert_eq!(
        document(&fresh).file(),
        Some(dir.join("good.ron").as_path())
    );
    assert!(!document(&fresh).is_modified());
    let _ = std::fs::remove_dir_all(&dir);
}
