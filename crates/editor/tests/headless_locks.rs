//! Locks and documents in the headless editor (`MinimalPlugins` + input + the editor's logic):
//! the L shortcuts, gripping a lock's marker, dropping documents, all through the messages the
//! window writes.

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use marionette_editing::Document;
use marionette_editor::dragging::{CursorRay, PickRequest, PickTarget};
use marionette_editor::lock_markers::MarkerDrag;
use marionette_editor::scene::vec3;
use marionette_editor::{Editor, EditorCorePlugin};
use marionette_skeleton::builtin;

fn app() -> App {
    let document = Document::new(builtin::humanoid(), None).standing();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, InputPlugin, EditorCorePlugin::new(document)));
    // Recovery files go to a scratch folder, never the user's.
    app.world_mut()
        .resource_mut::<marionette_editor::autosave::Autosave>()
        .untitled =
        std::env::temp_dir().join(format!("marionette-untitled-{}", std::process::id()));
    app.update();
    app
}

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
}

fn mouse(app: &mut App, state: ButtonState) {
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: Entity::PLACEHOLDER,
    });
}

fn key(app: &mut App, key_code: KeyCode, logical_key: Key, state: ButtonState) {
    app.world_mut().write_message(KeyboardInput {
        key_code,
        logical_key,
        state,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    });
}

/// L, or Shift+L, pressed for a frame and released.
fn press_l(app: &mut App, shift: bool) {
    if shift {
        key(app, KeyCode::ShiftLeft, Key::Shift, ButtonState::Pressed);
    }
    key(
        app,
        KeyCode::KeyL,
        Key::Character("l".into()),
        ButtonState::Pressed,
    );
    app.update();
    key(
        app,
        KeyCode::KeyL,
        Key::Character("l".into()),
        ButtonState::Released,
    );
    if shift {
        key(app, KeyCode::ShiftLeft, Key::Shift, ButtonState::Released);
    }
    app.update();
}

fn front_ray(through: Vec3) -> Ray3d {
    Ray3d::new(through + Vec3::Z * 3.0, Dir3::NEG_Z)
}

/// A press on `target` at `hit` (as picking reports it), the cursor ray moved to `to` over
/// `frames` frames, then the release.
fn drag(app: &mut App, target: PickTarget, hit: Vec3, to: Vec3, frames: usize) {
    app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(hit));
    app.world_mut().write_message(PickRequest {
        target,
        hit,
        depth: 1.0,
        camera: Entity::PLACEHOLDER,
    });
    mouse(app, ButtonState::Pressed);
    app.update();
    for k in 1..=frames {
        let t = k as f32 / frames as f32;
        app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(hit.lerp(to, t)));
        app.update();
    }
    mouse(app, ButtonState::Released);
    app.update();
}

fn site_at(app: &App, name: &str) -> Vec3 {
    let e = editor(app);
    let site = e.skeleton().site_by_name(name).expect("site");
    vec3(&e.document.fk().site_position(site))
}

#[test]
fn l_locks_the_picked_site_and_a_pelvis_drag_then_keeps_it() {
    let mut app = app();
    // Picking the heel's handle selects it (a click: no move).
    let heel = editor(&app)
        .skeleton()
        .site_by_name("left heel")
        .expect("heel");
    let at = site_at(&app, "left heel");
    drag(&mut app, PickTarget::Site(heel), at, at, 1);
    press_l(&mut app, false);
    press_l(&mut app, true);
    let names: Vec<String> = editor(&app)
        .document
        .locks()
        .iter()
        .map(|l| l.name.clone())
        .collect();
    assert_eq!(names, ["left heel position", "left heel pose"]);
    // Dragging the pelvis's origin moves the whole figure down; the heel stays.
    let pelvis = editor(&app).skeleton().root();
    let from = vec3(&editor(&app).document.fk().joint_position(pelvis));
    drag(
        &mut app,
        PickTarget::Joint(pelvis),
        from,
        from - Vec3::Y * 0.02,
        10,
    );
    let v = editor(&app).document.lock_violations();
    assert!(v.iter().all(|v| v.within(1e-4)), "{v:?}");
    assert!((site_at(&app, "left heel") - at).length() < 1e-4);
    let moved = vec3(&editor(&app).document.fk().joint_position(pelvis)) - from;
    assert!((moved.y + 0.02).abs() < 1e-3, "{moved}");
}

#[test]
fn dragging_a_marker_moves_its_lock_and_the_limb_follows_as_one_step() {
    let mut app = app();
    let hand = editor(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    let index = {
        let mut e = app.world_mut().resource_mut::<Editor>();
        e.lock(
            marionette_document::LockPart::Site(hand),
            marionette_document::LockKind::Position,
        )
        .expect("lock")
    };
    let before = editor(&app).document.pose().to_vec();
    let at = site_at(&app, "right fingertips");
    // The press lands on the marker and on the hand's handle: the marker wins.
    drag(
        &mut app,
        PickTarget::Site(hand),
        at,
        at + Vec3::new(0.0, 0.05, 0.0),
        5,
    );
    assert!(
        editor(&app).document.drag().is_none(),
        "no drag of the hand began"
    );
    assert!(app.world().resource::<MarkerDrag>().0.is_none(), "released");
    let lock = &editor(&app).document.locks()[index];
    let anchor = vec3(&lock.anchor(editor(&app).document.fk()));
    assert!((anchor - (at + Vec3::Y * 0.05)).length() < 1e-4, "{anchor}");
    assert!(
        (site_at(&app, "right fingertips") - anchor).length() < 1e-3,
        "the arm followed"
    );
    assert_eq!(
        editor(&app).document.history().next_undo(),
        Some("Move lock right fingertips position")
    );
    app.world_mut().resource_mut::<Editor>().undo();
    assert_eq!(
        editor(&app).document.pose(),
        &before[..],
        "one step for the whole drag"
    );
}

#[test]
fn a_dropped_document_opens_and_a_broken_one_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("marionette-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut app = app();
    let heel = editor(&app)
        .skeleton()
        .site_by_name("left heel")
        .expect("heel");
    {
        let mut e = app.world_mut().resource_mut::<Editor>();
        e.lock(
            marionette_document::LockPart::Site(heel),
            marionette_document::LockKind::Pose,
        )
        .expect("lock");
        assert!(e.save_document(&dir.join("good.ron")));
    }
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
    assert!(editor(&fresh).document.locks().is_empty(), "nothing opened");
    let error = editor(&fresh)
        .notices
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
    assert_eq!(editor(&fresh).document.locks().len(), 1);
    assert_eq!(
        editor(&fresh).document.file(),
        Some(dir.join("good.ron").as_path())
    );
    assert!(!editor(&fresh).unsaved());
    let _ = std::fs::remove_dir_all(&dir);
}
