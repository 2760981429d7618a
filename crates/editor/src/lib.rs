//! Marionette's figure editor (issue 5): a Bevy + egui window in which dragging a body part poses
//! the skeleton by inverse kinematics, as in Welman's figure editor
//! (Welman, "Inverse kinematics and geometric constraints for articulated figure manipulation", 1993, chapter 6).
//!
//! The editor is a set of small plugins over the Bevy-free core (`marionette-editing`): each
//! copies ECS state into the core, calls it and writes the result back (docs/architecture.md).
//! [`EditorCorePlugin`] holds the logic (state, drags, shortcuts, files, the selected limb's
//! swivel) and runs headless under `MinimalPlugins`; [`EditorWindowPlugins`] adds what needs a
//! window and a GPU: the scene, the views, the panels, the gizmos and scripted replays.

pub mod autosave;
pub mod convert;
pub mod dragging;
pub mod exchange;
pub mod files;
pub mod lock_markers;
pub mod overlays;
pub mod quit;
pub mod replay;
pub mod scene;
pub mod selection;
pub mod shortcuts;
pub mod state;
pub mod timeline;
pub mod tint;
pub mod ui;
pub mod ui_ik;
pub mod ui_locks;
pub mod ui_outliner;
pub mod ui_timeline;
pub mod views;

use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use marionette_editing::Document;

pub use state::Editor;

/// The editor's logic on `document`: everything but drawing.
pub struct EditorCorePlugin {
    document: std::sync::Mutex<Option<Document>>,
}

impl EditorCorePlugin {
    /// The logic, editing `document`.
    pub fn new(document: Document) -> EditorCorePlugin {
        EditorCorePlugin {
            document: std::sync::Mutex::new(Some(document)),
        }
    }
}

impl Plugin for EditorCorePlugin {
    fn build(&self, app: &mut App) {
        let document = self
            .document
            .lock()
            .ok()
            .and_then(|mut d| d.take())
            .unwrap_or_else(|| Document::new(marionette_skeleton::builtin::humanoid(), None));
        app.insert_resource(Editor::new(document))
            .add_message::<views::FrameRequest>()
            .add_message::<FileDragAndDrop>()
            .add_plugins((
                dragging::DragPlugin,
                shortcuts::ShortcutsPlugin,
                files::FilesPlugin,
                quit::QuitPlugin,
                lock_markers::LockMarkersPlugin,
                autosave::AutosavePlugin,
                timeline::TimelinePlugin,
            ))
            .init_resource::<overlays::SelectedLimb>()
            .init_resource::<selection::Selection>()
            .init_resource::<selection::Hovered>()
            .add_systems(
                Update,
                (
                    overlays::measure_selected_limb.after(dragging::DragSet::End),
                    exchange::finish_exports,
                ),
            );
    }
}

/// What needs a window: scene, views, panels, gizmos and replays.
pub struct EditorWindowPlugins;

impl PluginGroup for EditorWindowPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(scene::ScenePlugin)
            .add(views::ViewsPlugin)
            .add(ui::UiPlugin)
            .add(overlays::OverlaysPlugin)
            .add(replay::ReplayPlugin)
    }
}
