//! What the headless editor tests share: an `App` with `MinimalPlugins`, input and the editor's
//! logic plugin on the standing humanoid; the messages the window writes (keys, the mouse
//! button, picking requests with a cursor ray) and the ones the panels send (edits, file
//! requests); readings of the state.

#![allow(dead_code, reason = "each test file uses the helpers it needs")]

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use marionette_editing::{Document, Edit};
use marionette_editor::EditorCorePlugin;
use marionette_editor::messages::{EditRequest, FileRequest, PickRequest, PickTarget};
use marionette_editor::resources::{CursorRay, Notices, OpenDocument};
use marionette_skeleton::builtin;

/// The editor's logic on the standing humanoid, updated once; recovery files go to a scratch
/// folder named with `tag`, never the user's.
pub fn app(tag: &str) -> App {
    let document = Document::new(builtin::humanoid(), None).standing();
    let mut app = App::new();
    app.insert_resource(OpenDocument::new(document))
        .add_plugins((MinimalPlugins, InputPlugin, EditorCorePlugin));
    app.world_mut()
        .resource_mut::<marionette_editor::autosave::Autosave>()
        .untitled =
        std::env::temp_dir().join(format!("marionette-untitled{tag}-{}", std::process::id()));
    app.update();
    app
}

/// The open document.
pub fn document(app: &App) -> &Document {
    &app.world().resource::<OpenDocument>().0
}

/// The messages for the user.
pub fn notices(app: &App) -> &Notices {
    app.world().resource::<Notices>()
}

/// An edit sent (as the panels send it), and a frame to apply it.
pub fn send(app: &mut App, edit: Edit) {
    app.world_mut().write_message(EditRequest(edit));
    app.update();
}

/// A file request sent (as the menus send it, or the path window), and a frame.
pub fn request_file(app: &mut App, request: FileRequest) {
    app.world_mut().write_message(request);
    app.update();
    // What a request makes of the work (a pose file opened, a drag ended before a save) is an
    // edit, applied in the frame after.
    app.update();
}

/// The left mouse button pressed or released.
pub fn mouse(app: &mut App, state: ButtonState) {
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state,
        window: Entity::PLACEHOLDER,
    });
}

/// A key pressed or released.
pub fn key(app: &mut App, key_code: KeyCode, logical_key: Key, state: ButtonState) {
    app.world_mut().write_message(KeyboardInput {
        key_code,
        logical_key,
        state,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    });
}

/// `letter` (key `code`) pressed for one frame with `modifiers` held, then everything released.
pub fn tap(app: &mut App, modifiers: &[(KeyCode, Key)], code: KeyCode, letter: &str) {
    for (m, logical) in modifiers {
        key(app, *m, logical.clone(), ButtonState::Pressed);
    }
    key(
        app,
        code,
        Key::Character(letter.into()),
        ButtonState::Pressed,
    );
    app.update();
    key(
        app,
        code,
        Key::Character(letter.into()),
        ButtonState::Released,
    );
    for (m, logical) in modifiers.iter().rev() {
        key(app, *m, logical.clone(), ButtonState::Released);
    }
    app.update();
}

/// A ray looking along −Z (the front view) through `through`.
pub fn front_ray(through: Vec3) -> Ray3d {
    Ray3d::new(through + Vec3::Z * 3.0, Dir3::NEG_Z)
}

/// A press on `target` at `hit` (as picking reports it), then the cursor ray moved to `to`
/// over `frames` frames; the button stays down.
pub fn press_and_move(app: &mut App, target: PickTarget, hit: Vec3, to: Vec3, frames: usize) {
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
}

/// The button released, and a frame.
pub fn release(app: &mut App) {
    mouse(app, ButtonState::Released);
    app.update();
}
