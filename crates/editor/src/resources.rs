//! The editor's state, in small resources of one concern each, so Bevy's change detection tells
//! every reader when to redraw: the open document ([`OpenDocument`], written only by the edit
//! applier, the files and the drag's solve), how solves run ([`SolvingState`]), the drag in
//! progress ([`ActiveDrag`]), the last solve ([`SolveStatus`]), the cursor's ray
//! ([`CursorRay`]), what is shown ([`Display`]), the paths remembered ([`Paths`]), the questions
//! asked ([`Prompts`]) and the messages for the user ([`Notices`]). What is derived from the
//! document is in the derived module.

use std::path::PathBuf;

use bevy::prelude::*;
use marionette_editing::{Document, SolveOutcome, Solving};

use crate::messages::FileAction;

/// The open document: skeleton, pose, locks, sequences, the drag in progress and the undo
/// history. Only three systems take it mutably: the edit applier (`apply_edits`), the files
/// (`carry_out_files`) and the drag's solve (`solve_drag`); everything else reads it.
#[derive(Resource, Debug, Deref, DerefMut)]
pub struct OpenDocument(pub Document);

impl OpenDocument {
    /// The open document.
    pub fn new(document: Document) -> OpenDocument {
        OpenDocument(document)
    }
}

impl Default for OpenDocument {
    /// A new document on the built-in humanoid, standing.
    fn default() -> Self {
        OpenDocument(Document::new(marionette_skeleton::builtin::humanoid(), None).standing())
    }
}

/// How edits are solved: the IK runner with its settings, what a drag moves, the comparison
/// ([`Solving`]); changed by `Edit::Settings`, `Edit::ChainMode` and `Edit::Comparison`.
#[derive(Resource, Debug, Default, Deref, DerefMut)]
pub struct SolvingState(pub Solving);

/// One message for the user: what happened, and whether it went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The text shown.
    pub text: String,
    /// An error (shown in red until dismissed) rather than information.
    pub is_error: bool,
}

/// The messages for the user, newest last (the status bar shows the last, the errors window
/// every error until dismissed). Anyone may write here without touching the document.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Notices {
    list: Vec<Notice>,
    errors: u64,
}

impl Notices {
    /// Messages kept.
    const KEPT: usize = 50;

    /// Adds an information message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(text.into(), false);
    }

    /// Adds an error message (also printed on standard error, for scripted runs).
    pub fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        eprintln!("marionette-editor: {text}");
        self.errors += 1;
        self.push(text, true);
    }

    fn push(&mut self, text: String, is_error: bool) {
        if self.list.len() >= Self::KEPT {
            self.list.remove(0);
        }
        self.list.push(Notice { text, is_error });
    }

    /// Every message kept, oldest first.
    pub fn all(&self) -> &[Notice] {
        &self.list
    }

    /// The newest message.
    pub fn last(&self) -> Option<&Notice> {
        self.list.last()
    }

    /// The errors kept, oldest first.
    pub fn errors(&self) -> impl Iterator<Item = &Notice> {
        self.list.iter().filter(|n| n.is_error)
    }

    /// How many errors were ever reported (dismissed ones included): a replay step failed when
    /// this grew while it ran.
    pub fn error_count(&self) -> u64 {
        self.errors
    }

    /// Forgets the errors shown (the errors window's Dismiss).
    pub fn dismiss_errors(&mut self) {
        self.list.retain(|n| !n.is_error);
    }
}

/// What the views show besides the figure (view state, not work: the panels set it directly).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Display {
    /// The selected joint's axes and limit arcs.
    pub joint_axes: bool,
    /// The figures at the shown sequence's previous and next keys.
    pub onion_skins: bool,
    /// The bones drawn over the figure (a character's skin hides its joints).
    pub bones: bool,
    /// The motion plot window (Sequence ▸ Motion plot).
    pub motion_plot: bool,
    /// Whether the curve editor is shown.
    pub curves: bool,
    /// The pose library window (Pose ▸ Pose library).
    pub pose_library: bool,
    /// Sequence ▸ Physics ghost…: the ghost window.
    pub physics_ghost: bool,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            joint_axes: true,
            onion_skins: true,
            bones: false,
            motion_plot: false,
            curves: false,
            pose_library: false,
            physics_ghost: false,
        }
    }
}

/// What the import recognised in the shown character's rig (the humanoid bones found and
/// missing, or why it is not a humanoid), as `marionette import` prints it; empty when the
/// figure is not a character.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct CharacterReport(pub Vec<String>);

/// Paths the editor remembers.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Paths {
    /// Where a pose file was last exported or opened (File ▸ Export pose saves there again).
    pub last_pose: Option<PathBuf>,
    /// The folder mesh bodies are read from (the window's asset folder), for glTF exports.
    pub assets: Option<PathBuf>,
}

/// A path being typed because no native file dialog could be shown.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedPath {
    /// What the path is for.
    pub action: FileAction,
    /// The text so far (starts as a suggestion).
    pub text: String,
}

/// The questions the editor is asking, each shown as a window by the panels.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Prompts {
    /// Quitting was asked for while the document is unsaved: save, discard or stay?
    pub quit: bool,
    /// A recovery file found at start: recover it or discard it?
    pub recovery: Option<PathBuf>,
    /// A file path to type (no native dialog could be shown).
    pub path: Option<TypedPath>,
    /// A retarget waiting for its map to be confirmed (the retarget map window).
    pub retarget: Option<marionette_editing::retarget_capture::RetargetPlan>,
}

/// A lock's marker being dragged: the lock, and the plane (through the grip, facing the view)
/// its target moves in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarkerGrip {
    /// The lock's index.
    pub lock: usize,
    /// Where the cursor ray met the plane last frame.
    pub last: nalgebra::Vector3<f64>,
    /// The plane's normal (the view direction at the press).
    pub normal: nalgebra::Vector3<f64>,
    /// Whether the target has moved yet (later moves extend the same undo step).
    pub moved: bool,
}

/// A rotate handle gripped: a hinge's ring, a slide's or the root's arrow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandleGrip {
    /// The joint whose handle it is.
    pub joint: marionette_skeleton::JointId,
    /// The handle as it was when gripped (what the cursor is read against for the whole drag:
    /// the joint's parents may move as locks are solved again, the handle does not follow).
    pub handle: marionette_editing::rotate_handles::Handle,
    /// What it turns or moves.
    pub kind: marionette_editing::rotate_handles::HandleKind,
    /// The handle's reading under the cursor last frame (an angle, or a distance along the
    /// arrow).
    pub last: f64,
    /// The value the drag has taken the DOF to, before snapping (for an arrow, unused).
    pub value: f64,
    /// Whether it has moved yet (later moves extend the same undo step).
    pub moved: bool,
}

/// What the drag in progress holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DragGrip {
    /// The figure (a body, a site handle or a joint): the document's drag.
    Figure,
    /// A lock's marker.
    LockMarker(MarkerGrip),
    /// A rotate handle of the selected joint.
    Handle(HandleGrip),
    /// A figure's handle on the floor (move or turn it on the stage).
    Floor(FloorGrip),
}

/// What a floor handle moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFloor {
    /// A figure (its index on the stage).
    Figure(usize),
    /// A prop (its index on the stage).
    Prop(usize),
}

/// A figure's or a prop's floor handle gripped ([`crate::drag::floor_grip`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloorGrip {
    /// What it moves.
    pub what: OnFloor,
    /// The turning knob (else the moving ring).
    pub turn: bool,
    /// Where the cursor's ray met the floor last, on the stage.
    pub last: nalgebra::Vector3<f64>,
    /// Whether it has moved yet (later moves extend the same undo step).
    pub moved: bool,
}

/// The one drag in progress: what it holds and the view it began in (the cursor's ray goes
/// through that view until it ends). Cleared as soon as the document's drag ends, by whatever
/// path (release, Escape, Ctrl+Z, opening a file).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ActiveDrag {
    current: Option<(DragGrip, Option<Entity>)>,
    started: u64,
}

impl ActiveDrag {
    /// A drag of `grip` begins in `camera`'s view.
    pub fn start(&mut self, grip: DragGrip, camera: Option<Entity>) {
        self.current = Some((grip, camera));
        self.started = self.started.wrapping_add(1);
    }

    /// The drag ended.
    pub fn clear(&mut self) {
        self.current = None;
    }

    /// What the drag holds, if one is in progress.
    pub fn grip(&self) -> Option<DragGrip> {
        self.current.map(|(g, _)| g)
    }

    /// The view the drag began in.
    pub fn camera(&self) -> Option<Entity> {
        self.current.and_then(|(_, c)| c)
    }

    /// Counts the drags begun: a drag's ghosts belong to the drag of this number.
    pub fn started(&self) -> u64 {
        self.started
    }

    /// The marker gripped, if the drag holds one.
    pub fn marker(&self) -> Option<MarkerGrip> {
        match self.grip() {
            Some(DragGrip::LockMarker(m)) => Some(m),
            _ => None,
        }
    }

    /// The rotate handle gripped, if the drag holds one.
    pub fn handle(&self) -> Option<HandleGrip> {
        match self.grip() {
            Some(DragGrip::Handle(h)) => Some(h),
            _ => None,
        }
    }

    /// Changes the handle gripped (a drag of it moved).
    pub fn set_handle(&mut self, handle: HandleGrip) {
        if let Some((grip, _)) = &mut self.current {
            *grip = DragGrip::Handle(handle);
        }
    }

    /// The floor handle gripped, if the drag holds one.
    pub fn floor(&self) -> Option<FloorGrip> {
        match self.grip() {
            Some(DragGrip::Floor(f)) => Some(f),
            _ => None,
        }
    }

    /// Changes the floor handle gripped (a drag of it moved).
    pub fn set_floor(&mut self, floor: FloorGrip) {
        if let Some((grip, _)) = &mut self.current {
            *grip = DragGrip::Floor(floor);
        }
    }

    /// Changes the marker gripped (a drag of it moved).
    pub fn set_marker(&mut self, marker: MarkerGrip) {
        if let Some((grip, _)) = &mut self.current {
            *grip = DragGrip::LockMarker(marker);
        }
    }
}

/// The cursor's ray in world space, through the view the cursor is over (or the view a drag
/// began in); `None` when the cursor is outside every view.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct CursorRay(pub Option<Ray3d>);

/// The camera of the view the cursor's ray goes through (with [`CursorRay`]).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CursorCamera(pub Option<Entity>);

/// The lock whose row the pointer is over in the Locks panel (its marker is highlighted).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LockHover(pub Option<usize>);

/// What the last solve did, for the status bar, the residual plot and replays' checks.
#[derive(Resource, Debug, Default, Clone)]
pub struct SolveStatus {
    /// The last step's (or "solve until satisfied"'s) outcome, and the document it was for.
    pub last: Option<(u64, SolveOutcome)>,
    /// How long the last step's IK took (the solver and the ghosts).
    pub ik_time: Option<std::time::Duration>,
    /// The residual after every update of the current drag (or of the last "solve until
    /// satisfied").
    pub trace: Vec<f64>,
}

impl SolveStatus {
    /// The last outcome, if it was for the document `id` (another document's is not shown).
    pub fn outcome(&self, id: u64) -> Option<&SolveOutcome> {
        self.last.as_ref().filter(|(i, _)| *i == id).map(|(_, o)| o)
    }

    /// A drag step: its outcome and time, its residuals appended to the trace (capped, the
    /// oldest dropped first).
    pub fn step(&mut self, id: u64, outcome: SolveOutcome, time: std::time::Duration) {
        const KEPT: usize = 20_000;
        self.trace.extend_from_slice(&outcome.residuals);
        if self.trace.len() > KEPT {
            let excess = self.trace.len() - KEPT;
            self.trace.drain(..excess);
        }
        self.ik_time = Some(time);
        self.last = Some((id, outcome));
    }

    /// A whole solve ("solve until satisfied"): the trace is its residuals.
    pub fn solved(&mut self, id: u64, outcome: SolveOutcome) {
        self.trace.clone_from(&outcome.residuals);
        self.last = Some((id, outcome));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_counted_even_when_dismissed() {
        let mut notices = Notices::default();
        notices.info("hello");
        notices.error("broken");
        assert_eq!(notices.error_count(), 1);
        notices.dismiss_errors();
        assert_eq!(notices.errors().count(), 0);
        assert_eq!(notices.error_count(), 1);
        assert_eq!(notices.last().map(|n| n.text.as_str()), Some("hello"));
        for k in 0..60 {
            notices.info(format!("{k}"));
        }
        assert_eq!(notices.all().len(), Notices::KEPT);
    }
}
