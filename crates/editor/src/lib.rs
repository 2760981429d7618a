//! Marionette's figure editor: a Bevy + egui window in which dragging a body part poses the
//! skeleton by inverse kinematics, as in Welman's figure editor (Welman, "Inverse kinematics and
//! geometric constraints for articulated figure manipulation", 1993, chapter 6).
//!
//! The editor is a set of small plugins over the Bevy-free core (`marionette-editing`): each
//! copies ECS state into the core, calls it and writes the result back (docs/architecture.md).
//! Its state is small resources ([`resources`]); every change to the work is one
//! [`messages::EditRequest`] applied by one system ([`edit`]); every frame runs through one
//! spine of sets, [`EditorSet`]. [`EditorCorePlugin`] holds the logic (edits, drags, keys,
//! files, the timeline, what is derived from the document) and runs headless under
//! `MinimalPlugins`; [`EditorWindowPlugins`] adds what needs a window and a GPU: the scene, the
//! views, the panels, the gizmos and scripted replays.

pub mod autosave;
pub mod beside;
pub mod convert;
pub mod derived;
pub mod drag;
pub mod edit;
pub mod export;
pub mod figure_bounds;
pub mod files;
pub mod gizmos;
pub mod input;
pub mod messages;
pub mod panels;
pub mod physics;
pub mod quit;
pub mod replay;
pub mod resources;
pub mod scene;
pub mod selection;
pub mod sets;
pub mod timeline;
pub mod views;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

pub use sets::EditorSet;

/// The editor's logic on the [`resources::OpenDocument`] (inserted beforehand, else a new
/// document on the built-in humanoid): everything but drawing.
pub struct EditorCorePlugin;

impl Plugin for EditorCorePlugin {
    fn build(&self, app: &mut App) {
        EditorSet::configure(app);
        app.init_resource::<resources::OpenDocument>()
            .add_message::<messages::FocusSelection>()
            .add_message::<messages::ToggleBones>()
            .add_systems(Update, toggle_bones.in_set(EditorSet::Apply))
            .init_resource::<selection::Selection>()
            .init_resource::<selection::Hovered>()
            .init_resource::<resources::Display>()
            .init_resource::<resources::LockHover>()
            .add_plugins((
                edit::EditPlugin,
                beside::BesidePlugin,
                drag::DragPlugin,
                input::KeysPlugin,
                files::FilesPlugin,
                export::ExportPlugin,
                quit::QuitPlugin,
                autosave::AutosavePlugin,
                timeline::TimelinePlugin,
                derived::DerivedPlugin,
                physics::PhysicsPlugin,
            ));
    }
}

/// Shows or hides the bone overlay on each [`messages::ToggleBones`].
fn toggle_bones(
    mut requests: MessageReader<messages::ToggleBones>,
    mut display: ResMut<resources::Display>,
) {
    for _ in requests.read() {
        display.bones = !display.bones;
    }
}

/// What needs a window: scene, views, panels, gizmos and replays.
pub struct EditorWindowPlugins;

impl PluginGroup for EditorWindowPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(scene::ScenePlugin)
            .add(views::ViewsPlugin)
            .add(panels::PanelsPlugin)
            .add(panels::motion::MotionPlotPlugin)
            .add(panels::curves::CurvesPlugin)
            .add(gizmos::GizmosPlugin)
            .add(replay::ReplayPlugin)
    }
}
