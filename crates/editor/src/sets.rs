//! The editor's frame: [`EditorSet`], the one spine of sets every system of the editor is in.

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
