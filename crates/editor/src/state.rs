//! The editor's state as one Bevy resource: the document (skeleton, pose, locks, undo history),
//! the IK runner and its settings, the last solve (for the status bar and the
//! plot), the comparison ghosts and the messages shown to the user. Every plugin reads and edits
//! the document through this resource. Views redraw from what changed, not from counters: the
//! scene when the document's identity ([`Document::id`]) or its pose differs from what it drew.
//! (The locks' interface keeps its own small resources: [`crate::lock_markers`].)

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use marionette_document::{LockKind, LockPart};
use marionette_editing::{ChainMode, Document, FrameOutcome, IkRunner, IkSettings};
use marionette_ik::SolverKind;
use marionette_skeleton::{Fk, Skeleton};

/// One message for the user: what happened, and whether it went wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The text shown.
    pub text: String,
    /// An error (shown in red until dismissed) rather than information.
    pub is_error: bool,
}

/// A comparison ghost: another solver's pose for the same drag, followed frame by frame from the
/// drag's start (so it shows what that solver would have done with the whole drag).
#[derive(Debug, Clone)]
pub struct GhostTrack {
    /// The solver.
    pub kind: SolverKind,
    /// Its pose.
    pub pose: Vec<f64>,
    /// Forward kinematics of that pose.
    pub fk: Fk,
    /// Its distance to the goal after the last frame (metres).
    pub residual: f64,
}

/// What the last solve did, for the status bar, the residual plot and replays' checks: its own
/// resource, so what only shows it redraws when a solve ran.
#[derive(Resource, Debug, Default, Clone)]
pub struct SolveStatus {
    /// The last frame's (or "solve until satisfied"'s) outcome, and the document it was for.
    pub last: Option<(u64, FrameOutcome)>,
    /// How long the last frame's IK took (the solver and the ghosts).
    pub ik_time: Option<std::time::Duration>,
    /// The residual after every update of the current drag (or of the last "solve until
    /// satisfied").
    pub trace: Vec<f64>,
}

impl SolveStatus {
    /// The last outcome, if it was for the document `id` (another document's is not shown).
    pub fn outcome(&self, id: u64) -> Option<&FrameOutcome> {
        self.last.as_ref().filter(|(i, _)| *i == id).map(|(_, o)| o)
    }

    /// A drag frame: its outcome and time, its residuals appended to the trace (capped, the
    /// oldest dropped first).
    pub fn frame(&mut self, id: u64, outcome: FrameOutcome, time: std::time::Duration) {
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
    pub fn solved(&mut self, id: u64, outcome: FrameOutcome) {
        self.trace.clone_from(&outcome.residuals);
        self.last = Some((id, outcome));
    }
}

/// The editor's state.
#[derive(Resource)]
pub struct Editor {
    /// The skeleton, pose, stiffness, undo history and drag in progress.
    pub document: Document,
    /// The IK solver run each frame of a drag, with its settings.
    pub runner: IkRunner,
    /// What a drag moves.
    pub chain_mode: ChainMode,
    /// Whether comparison ghosts are shown while dragging.
    pub compare: bool,
    /// The solvers compared against (when `compare` is on).
    pub compared: Vec<SolverKind>,
    /// The ghosts of the drag in progress.
    pub ghosts: Vec<GhostTrack>,
    /// Per joint: whether the ghosts' drag can move it (only those are drawn as ghosts).
    pub ghosted: Vec<bool>,
    /// Bumped whenever the ghosts start again (the scene then redraws them).
    pub ghost_generation: u64,
    /// Draw the selected joint's axes and limit arcs.
    pub show_axes: bool,
    /// Where a pose file was last exported or opened from (File ▸ Export pose).
    pub pose_path: Option<PathBuf>,
    /// The folder mesh bodies are read from (the window's asset folder), for glTF exports.
    pub assets: Option<PathBuf>,
    /// The export running on its own thread, if any.
    pub export: Option<crate::exchange::RunningExport>,
    /// Quitting was asked for while the document is unsaved: the panels ask what to do.
    pub confirm_quit: bool,
    /// Messages, newest last.
    pub notices: Vec<Notice>,
}

impl Editor {
    /// An editor on `document` with the default IK settings (DLS, 10 updates per frame).
    pub fn new(document: Document) -> Editor {
        let runner = IkRunner::default();
        Editor {
            document,
            runner,
            chain_mode: ChainMode::default(),
            compare: false,
            compared: vec![
                SolverKind::JacobianTranspose,
                SolverKind::PseudoInverse,
                SolverKind::CyclicCoordinateDescent,
            ],
            ghosts: Vec::new(),
            ghosted: Vec::new(),
            ghost_generation: 0,
            show_axes: true,
            pose_path: None,
            assets: None,
            export: None,
            confirm_quit: false,
            notices: Vec::new(),
        }
    }

    /// The skeleton being edited.
    pub fn skeleton(&self) -> &Skeleton {
        self.document.skeleton()
    }

    /// Whether the document changed since it was last saved or opened.
    pub fn unsaved(&self) -> bool {
        self.document.is_modified()
    }

    /// Adds an information message.
    pub fn inform(&mut self, text: impl Into<String>) {
        self.push_notice(text.into(), false);
    }

    /// Adds an error message (also printed on standard error, for scripted runs).
    pub fn fail(&mut self, text: impl Into<String>) {
        let text = text.into();
        eprintln!("marionette-editor: {text}");
        self.push_notice(text, true);
    }

    fn push_notice(&mut self, text: String, is_error: bool) {
        const KEPT: usize = 50;
        if self.notices.len() >= KEPT {
            self.notices.remove(0);
        }
        self.notices.push(Notice { text, is_error });
    }

    /// Starts a new document on another skeleton (File ▸ New from skeleton); on error the
    /// current document stays and the error is shown.
    pub fn open_skeleton(&mut self, path: &Path) -> bool {
        match Document::open(path) {
            Ok(document) => {
                self.adopt(document.standing());
                let joints = self.document.skeleton().joints().len();
                let name = self.document.skeleton().name().to_owned();
                self.inform(format!(
                    "New document on skeleton \"{name}\" ({joints} joints) from {}",
                    path.display()
                ));
                true
            }
            Err(e) => {
                self.fail(format!("Could not open the skeleton: {e}"));
                false
            }
        }
    }

    /// Opens a Document file; on error the open document stays as it was and the error is
    /// shown.
    pub fn open_document(&mut self, path: &Path) -> bool {
        match Document::open_document(path) {
            Ok(document) => {
                self.adopt(document);
                self.inform(format!(
                    "Opened {} ({} locks, {} sequences)",
                    path.display(),
                    self.document.locks().len(),
                    self.document.sequences().len()
                ));
                true
            }
            Err(e) => {
                self.fail(format!("Could not open the document: {e}"));
                false
            }
        }
    }

    /// Saves the document (atomically) to `path`; on error the error is shown.
    pub fn save_document(&mut self, path: &Path) -> bool {
        self.document.end_drag();
        match self.document.save_document(path) {
            Ok(()) => {
                self.inform(format!("Saved {}", path.display()));
                true
            }
            Err(e) => {
                self.fail(format!("Could not save the document: {e}"));
                false
            }
        }
    }

    /// Edits `document` from now on.
    pub fn adopt(&mut self, document: Document) {
        self.document = document;
        self.ghosts.clear();
        self.pose_path = None;
    }

    /// Locks `part` as `kind` where it is now (one undo step); says what happened.
    pub fn lock(&mut self, part: LockPart, kind: LockKind) -> Option<usize> {
        let editor = &mut *self;
        match editor.document.lock_part(part, kind, &mut editor.runner) {
            Ok(index) => {
                let name = editor.document.locks()[index].name.clone();
                self.inform(format!("Locked {name}"));
                Some(index)
            }
            Err(e) => {
                self.fail(format!("Could not lock: {e}"));
                None
            }
        }
    }

    /// Locks the selection as `kind` (L, Shift+L and the Locks panel's buttons).
    pub fn lock_selection(
        &mut self,
        selection: &crate::selection::Selection,
        kind: LockKind,
    ) -> Option<usize> {
        match selection.part(&self.document) {
            Some(part) => self.lock(part, kind),
            None => {
                self.inform("Select a body part or a site handle to lock it");
                None
            }
        }
    }

    /// Loads a pose file; on error the pose stays and the error is shown.
    pub fn open_pose(&mut self, path: &Path) -> bool {
        match self.try_open_pose(path) {
            Ok(()) => true,
            Err(e) => {
                self.fail(format!("Could not open the pose: {e}"));
                false
            }
        }
    }

    /// Loads a pose file (one undo step), or says why not and changes nothing.
    pub fn try_open_pose(&mut self, path: &Path) -> Result<(), marionette_skeleton::PoseError> {
        self.document.end_drag();
        self.document.load_pose(path)?;
        self.pose_path = Some(path.to_path_buf());
        self.inform(format!("Opened pose {}", path.display()));
        Ok(())
    }

    /// Exports the current pose as a pose file; on error the error is shown.
    pub fn save_pose(&mut self, path: &Path) -> bool {
        match self.document.save_pose(path) {
            Ok(()) => {
                self.pose_path = Some(path.to_path_buf());
                self.inform(format!("Exported the pose to {}", path.display()));
                true
            }
            Err(e) => {
                self.fail(format!("Could not save the pose: {e}"));
                false
            }
        }
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        self.ghosts.clear();
        match self.document.undo() {
            Some(label) => {
                self.inform(format!("Undid: {label}"));
            }
            None => self.inform("Nothing to undo"),
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        self.ghosts.clear();
        match self.document.redo() {
            Some(label) => {
                self.inform(format!("Redid: {label}"));
            }
            None => self.inform("Nothing to redo"),
        }
    }

    /// Runs the chosen solver on the goal set (the enabled locks and the last drag's goal) until
    /// every goal is met, the solver stops moving or `max_iterations` updates; one undo step.
    /// What it did, for the status bar and the plot (`None`: nothing to solve, and says so).
    pub fn solve_until_satisfied(&mut self, max_iterations: usize) -> Option<FrameOutcome> {
        let editor = &mut *self;
        let Some(outcome) = editor
            .document
            .solve_until_satisfied(&mut editor.runner, max_iterations)
        else {
            self.inform("Nothing to solve yet: drag a body or a handle, or lock a part, first");
            return None;
        };
        let report = &outcome.report;
        self.inform(format!(
            "{}: {} after {} iterations, residual {:.4} mm",
            outcome.ran,
            if report.converged { "met" } else { "not met" },
            report.iterations,
            report.residual * 1000.0
        ));
        Some(outcome)
    }

    /// Chooses the IK solver (method options stay with their method).
    pub fn set_solver(&mut self, kind: SolverKind) {
        let mut settings = *self.runner.settings();
        settings.solver = kind;
        self.apply_settings(settings);
    }

    /// Applies new IK settings, or shows why they were refused.
    pub fn apply_settings(&mut self, settings: IkSettings) {
        if let Err(e) = self.runner.set_settings(settings) {
            self.fail(format!("IK settings refused: {e}"));
        }
    }
}
