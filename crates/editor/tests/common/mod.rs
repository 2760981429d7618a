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
use marionette_editing::IkSettings;
use marionette_editing::{Document, Edit};
use marionette_editor::EditorCorePlugin;
use marionette_editor::convert::vec3;
use marionette_editor::messages::{EditRequest, FileRequest, PickRequest, PickTarget};
use marionette_editor::resources::SolvingState;
use marionette_editor::resources::{CursorRay, Notices, OpenDocument};
use marionette_ik::SolverKind;
use marionette_skeleton::{JointId, builtin};

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

/// Presses Ctrl (+ Shift) + `letter` for one frame, then releases.
pub fn chord(app: &mut App, shift: bool, code: KeyCode, letter: &str) {
    let mut held = vec![(KeyCode::ControlLeft, Key::Control)];
    if shift {
        held.push((KeyCode::ShiftLeft, Key::Shift));
    }
    tap(app, &held, code, letter);
}

/// The last solve of the open document, as the status bar shows it.
pub fn last_solve(app: &App) -> Option<marionette_editing::SolveOutcome> {
    let id = document(app).id();
    app.world()
        .resource::<marionette_editor::resources::SolveStatus>()
        .outcome(id)
        .cloned()
}

/// The joint selected, if any.
pub fn selected(app: &App) -> Option<JointId> {
    app.world()
        .resource::<marionette_editor::selection::Selection>()
        .joint(document(app))
}

/// The IK settings now.
pub fn settings(app: &App) -> IkSettings {
    *app.world().resource::<SolvingState>().runner.settings()
}

/// Chooses the solver, as the IK panel does.
pub fn set_solver(app: &mut App, solver: SolverKind) {
    let settings = IkSettings {
        solver,
        ..settings(app)
    };
    send(app, Edit::Settings(settings));
}

/// Where site `name` is now (the figure's frame).
pub fn site_position(app: &App, name: &str) -> Vec3 {
    let d = document(app);
    let site = d.skeleton().site_by_name(name).expect("site");
    vec3(&d.fk().site_position(site))
}

/// The joint named `name`.
pub fn joint(app: &App, name: &str) -> JointId {
    document(app).skeleton().joint_by_name(name).expect("joint")
}

/// `path` dropped onto the window, and a frame.
pub fn drop_file(app: &mut App, path: &std::path::Path) {
    app.world_mut()
        .write_message(bevy::window::FileDragAndDrop::DroppedFile {
            window: Entity::PLACEHOLDER,
            path_buf: path.to_path_buf(),
        });
    app.update();
    // A pose file becomes an edit, applied in the frame after.
    app.update();
}

/// Presses on site `name`'s handle and moves the cursor ray by `offset` over `frames` frames.
pub fn drag_site(app: &mut App, name: &str, offset: Vec3, frames: usize) {
    let site = document(app).skeleton().site_by_name(name).expect("site");
    let from = site_position(app, name);
    press_and_move(app, PickTarget::Site(site), from, from + offset, frames);
}

/// The state indices that differ between two poses.
pub fn changed(a: &[f64], b: &[f64]) -> Vec<usize> {
    (0..a.len())
        .filter(|&i| (a[i] - b[i]).abs() > 1e-12)
        .collect()
}

/// One press at `at` that picking reports as several hits (target, depth).
pub fn press_hits(app: &mut App, at: Vec3, hits: &[(PickTarget, f32)]) {
    app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(at));
    for &(target, depth) in hits {
        app.world_mut().write_message(PickRequest {
            target,
            hit: at,
            depth,
            camera: Entity::PLACEHOLDER,
        });
    }
    mouse(app, ButtonState::Pressed);
    app.update();
}
