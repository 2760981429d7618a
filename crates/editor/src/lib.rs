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

/// The editor's frame, in order: every system of the editor is in one of these sets, each in
/// the schedule its comment names; within a schedule the sets run in the order listed.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EditorSet {
    /// `Startup`: the cameras, lights, palette and egui's context are made.
    Setup,
    /// `First`: a scripted replay's next step (window input, requests).
    Replay,
    /// `First`, in picking's input set: where the mouse is for picking (the views' image or
    /// the window).
    Locate,
    /// `PreUpdate`, after picking's hover: the body under the cursor becomes the hovered one.
    Hover,
    /// `Update`: the cameras move (orbit, pan, zoom, layout) and the cursor's ray is made
    /// through them.
    Pointer,
    /// `Update`: what the cursor's ray meets where Bevy's picking cannot see it (a character's
    /// skin as posed).
    Pick,
    /// `Update`: keys, presses, marker grips, the timeline's transport and playback become
    /// requests (edits, files, timeline requests).
    Input,
    /// `Update`: the edits are applied, files opened and saved.
    Apply,
    /// `Update`: what follows the edits and files of the frame: a drag that ended is
    /// forgotten, exports finished, autosave, quitting, the software renderer's economy.
    Settle,
    /// `Update`: the drag in progress takes one step of IK (and its ghosts).
    Solve,
    /// `Update`: what depends on the document is derived again when it changed (lock status,
    /// the selected limb's swivel, the baked strip).
    Derive,
    /// `Update`: what is drawn from what was derived (the motion plot's tracks).
    Chart,
    /// `Update`: the panels are drawn (their requests are applied next frame).
    Present,
    /// `PostUpdate`, before transforms propagate: a character's file is spawned and its joint
    /// nodes posed.
    Character,
    /// `PostUpdate`, before transforms propagate: the figure's bodies, the ghosts, highlights.
    Scene,
    /// `PostUpdate`: the gizmos (ground, axes, locks, drag line, swivel, bones, onion skins).
    Gizmos,
    /// `Last`: what is remembered between runs (the panels' layout).
    Remember,
}

impl EditorSet {
    /// Orders the sets in their schedules (every plugin of the editor calls this; calling it
    /// again changes nothing).
    pub fn configure(app: &mut App) {
        app.configure_sets(
            Update,
            (
                EditorSet::Pointer,
                EditorSet::Pick,
                EditorSet::Input,
                EditorSet::Apply,
                EditorSet::Settle,
                EditorSet::Solve,
                EditorSet::Derive,
                EditorSet::Chart,
                EditorSet::Present,
            )
                .chain(),
        )
        .configure_sets(First, EditorSet::Replay.before(EditorSet::Locate))
        .configure_sets(
            PostUpdate,
            (EditorSet::Character, EditorSet::Scene)
                .chain()
                .before(TransformSystems::Propagate),
        );
    }
}

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
            .add(panels::curves::CurvesPlugin)
            .add(gizmos::GizmosPlugin)
            .add(replay::ReplayPlugin)
    }
}
