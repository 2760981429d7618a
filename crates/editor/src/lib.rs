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
pub mod quit;
pub mod replay;
pub mod resources;
pub mod scene;
pub mod selection;
pub mod timeline;
pub mod views;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

/// The editor's frame, in order; every system of the editor's `Update` is in one of these.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditorSet {
    /// The cameras move (orbit, pan, zoom, layout) and the cursor's ray is made through them.
    Pointer,
    /// Keys, presses, marker grips, the timeline's transport and playback become requests
    /// (edits, files, timeline requests).
    Input,
    /// The edits are applied, files opened and saved, exports finished, autosave, quit.
    Apply,
    /// The drag in progress takes one step of IK (and its ghosts).
    Solve,
    /// What depends on the document is derived again when it changed (lock status, the
    /// selected limb's swivel, the baked strip).
    Derive,
    /// The panels are drawn (their requests are applied next frame); the scene and the gizmos
    /// follow in `PostUpdate`.
    Present,
}

/// The editor's logic on the [`resources::OpenDocument`] (inserted beforehand, else a new
/// document on the built-in humanoid): everything but drawing.
pub struct EditorCorePlugin;

impl Plugin for EditorCorePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<resources::OpenDocument>()
            .configure_sets(
                Update,
                (
                    EditorSet::Pointer,
                    EditorSet::Input,
                    EditorSet::Apply,
                    EditorSet::Solve,
                    EditorSet::Derive,
                    EditorSet::Present,
                )
                    .chain(),
            )
            .add_message::<messages::FocusSelection>()
            .add_message::<messages::ToggleBones>()
            .add_systems(Update, toggle_bones.in_set(EditorSet::Apply))
            .init_resource::<selection::Selection>()
            .init_resource::<selection::Hovered>()
            .init_resource::<resources::Display>()
            .init_resource::<resources::LockHover>()
            .add_plugins((
                edit::EditPlugin,
                drag::DragPlugin,
                input::KeysPlugin,
                files::FilesPlugin,
                export::ExportPlugin,
                quit::QuitPlugin,
                autosave::AutosavePlugin,
                timeline::TimelinePlugin,
                derived::DerivedPlugin,
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
            .add(gizmos::GizmosPlugin)
            .add(replay::ReplayPlugin)
    }
}
