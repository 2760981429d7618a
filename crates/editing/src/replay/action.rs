//! What the editor's replay player does for a step, resolved against the document open when
//! the step is taken ([`Step::resolve`](super::Step::resolve)): window input (cursor, button,
//! keys, text), an [`Edit`] or a file request sent as the panels send them, a drag or a click at
//! world points (the player projects them through the large view), a check already decided,
//! or one of a few changes of the editor's view state. A new step is written in this crate as
//! one of these; the player only learns a new action when a step needs something no action
//! does yet.

use std::path::PathBuf;

use marionette_ik::SolverKind;
use marionette_skeleton::{DofId, JointId, SiteId};
use nalgebra::Vector3;

use super::keys::KeyChord;
use crate::Edit;
use crate::exchange::ExportFormat;
use crate::file_action::FileAction;
use crate::retarget_capture::RetargetPlan;
use crate::view::View;

/// What a scripted drag grips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DragGrip {
    /// A site's handle, pressed where it is drawn.
    Site(SiteId),
    /// A joint's origin (pressed there, nearer than anything picking finds).
    Joint(JointId),
    /// A motion trail's dot at a frame (pressed where it is drawn): the trail of a site
    /// ([`crate::Grip::Site`]) or a joint ([`crate::Grip::Joint`]).
    Trail {
        /// The trail's site, or `None` for a joint's trail.
        site: Option<SiteId>,
        /// The joint (the site's joint for a site's trail).
        joint: JointId,
        /// The dot's frame.
        frame: i64,
    },
}

impl DragGrip {
    /// What a trail grip's trail follows.
    pub fn trail_of(self) -> Option<crate::Grip> {
        match self {
            DragGrip::Trail {
                site: Some(site), ..
            } => Some(crate::Grip::Site(site)),
            DragGrip::Trail {
                site: None, joint, ..
            } => Some(crate::Grip::Joint(joint)),
            _ => None,
        }
    }
}

/// A window of the editor a step shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Window {
    /// The pose library.
    PoseLibrary,
    /// The motion plot, on this site.
    MotionPlot(String),
    /// The curve editor (Sequence ▸ Curves), on the selected joints.
    Curves,
}

/// A panel a step shows or hides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// The outliner (left).
    Outliner,
    /// The IK settings (right).
    Ik,
    /// The timeline (bottom).
    Timeline,
    /// The locks (bottom).
    Locks,
}

/// One thing the player does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Let this many frames pass.
    Wait(u32),
    /// Move the cursor to window pixel (x, y).
    MoveCursor(f32, f32),
    /// Press (true) or release the left button.
    Button(bool),
    /// Press and release a key chord.
    Key(KeyChord),
    /// Type text into the focused field.
    Type(String),
    /// Put a view in the large viewport.
    SetView(View),
    /// Choose the solver (the other IK settings as they are).
    SetSolver(SolverKind),
    /// Send an edit, wait `frames` frames, and fail the run if an error was reported meanwhile
    /// (`what` says what was done, for that failure).
    Edit {
        /// The edit.
        edit: Edit,
        /// Frames to wait.
        frames: u32,
        /// What it does.
        what: String,
    },
    /// Ask for a file action on `path`, then confirm it as an edit is confirmed.
    File {
        /// The action.
        action: FileAction,
        /// On which file.
        path: PathBuf,
        /// What it does.
        what: String,
    },
    /// Export as File ▸ Export does, and wait until it is written.
    Export {
        /// The format.
        format: ExportFormat,
        /// Where.
        path: PathBuf,
    },
    /// Press on a grip, move the cursor in a straight line to where the world point `to` shows
    /// in the large view over `frames` frames, hold, release.
    Drag {
        /// What is gripped.
        grip: DragGrip,
        /// The world point.
        to: Vector3<f64>,
        /// Frames of the move.
        frames: u32,
    },
    /// Select a joint, then turn its hinge `dof` by its ring in the large view by `degrees`.
    Rotate {
        /// The joint.
        joint: JointId,
        /// Its hinge.
        dof: DofId,
        /// How far (degrees).
        degrees: f64,
    },
    /// Click where the world point shows in the large view.
    Click(Vector3<f64>),
    /// Save a screenshot of this frame.
    Screenshot(PathBuf),
    /// Fail the run unless the last solve left every goal within this many millimetres.
    CheckResidual(f64),
    /// Fail the run unless this joint is the one selected.
    CheckSelection(JointId),
    /// Answer the recovery offer (fail when none is made).
    Recover(bool),
    /// Play the shown sequence for this many editor frames.
    Play(u32),
    /// Show or hide a panel.
    SetPanel(Panel, bool),
    /// Select a joint alone, or add it to the selection (or take it out).
    Select {
        /// The joint.
        joint: JointId,
        /// Added (Shift+click) rather than alone.
        add: bool,
    },
    /// Open a window.
    Show(Window),
    /// Change what is kept beside the document (a trail shown, a pose copied or pasted), as
    /// the menus ask for it.
    Beside(crate::beside::BesideChange),
    /// The retarget map window's plan, as changed by its combo boxes.
    SetRetargetPlan(RetargetPlan),
    /// The retarget map window's Retarget button: close the window and send the edit.
    ConfirmRetarget(Edit),
    /// Several actions, carried out in this order in one frame (the last decides what follows).
    Then(Vec<Action>),
    /// Nothing to do (a check that passed).
    Nothing,
    /// Close the editor.
    Exit,
}

/// What a step is resolved against besides the document: the editor's state a step reads.
#[derive(Debug, Clone, Copy)]
pub struct ReplayContext<'a> {
    /// The joints selected now, in the order selected.
    pub selected: &'a [JointId],
    /// The retarget map window's plan, when it is open.
    pub retarget: Option<&'a RetargetPlan>,
    /// The trails shown and the pose copied.
    pub beside: &'a crate::beside::Beside,
}
