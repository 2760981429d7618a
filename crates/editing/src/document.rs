//! The document the editor edits, without Bevy: a skeleton, its pose, per-joint stiffness, the
//! locks and sequences, the drag in progress and the undo history. Every edit goes through here,
//! so each is checked (bad values are errors that change nothing), clamped to the limits, and
//! undoable as one step (a whole drag included: the pose changes live while dragging and one step
//! is recorded when it ends, as Fyrox's editor does). Lock edits are in [`crate::lock_edits`],
//! opening and saving Document files in [`crate::document_io`].
//!
//! Every solve goes through one goal set ([`Document::goal_set`]): the locks the edit can disturb
//! and the edit's own goal, each goal served by its own chain. A drag, the swivel, the ghosts and
//! "solve until satisfied" all ask for the same thing.

use std::path::{Path, PathBuf};

use marionette_document::{GoalSet, Lock, Owner, Sequence};
use marionette_ik::{Goal, System};
use marionette_skeleton::{
    Chain, ChainError, DofId, Fk, JointId, Pose, PoseError, ROOT_STATE_LEN, SiteId, Skeleton,
    SkeletonError,
};
use nalgebra::Vector3;

use crate::history::{Change, Edited, History};
use crate::ik_frame::{FrameOutcome, IkRunner};
use crate::{ChainMode, Drag, Ray};

/// The next document's identity ([`Document::id`]).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A lock further than this from holding is re-solved by any edit, whatever the edit moves
/// (metres or radians; far below the solvers' 0.1 mm tolerance).
const DISTURBED: f64 = 1e-7;

/// An edit that was refused; nothing changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// A DOF value that is not a number.
    #[error("joint \"{joint}\": {value} is not a valid DOF value")]
    NotANumber {
        /// The joint.
        joint: String,
        /// The value given.
        value: f64,
    },
    /// A stiffness outside (0, 1].
    #[error("joint \"{joint}\": stiffness {value} is outside (0, 1]")]
    Stiffness {
        /// The joint.
        joint: String,
        /// The value given.
        value: f64,
    },
    /// A drag that could not begin (for example, up to a joint that is not above the picked one).
    #[error("cannot drag joint \"{joint}\": {why}")]
    Drag {
        /// The picked joint.
        joint: String,
        /// Why.
        why: String,
    },
    /// A lock edit that was refused.
    #[error(transparent)]
    Lock(#[from] marionette_document::LockError),
    /// Another lock already has the name.
    #[error("a lock named \"{0}\" already exists; lock names must be unique")]
    DuplicateLock(String),
    /// No lock at that index.
    #[error("there is no lock number {0}")]
    NoSuchLock(usize),
    /// A key or range edit that was refused.
    #[error(transparent)]
    Key(#[from] marionette_document::KeyEditError),
    /// No sequence at that index (or none chosen).
    #[error("there is no sequence number {0}")]
    NoSuchSequence(usize),
    /// Another sequence already has the name, or the name is empty.
    #[error("a sequence needs a name of its own; \"{0}\" is empty or taken")]
    SequenceName(String),
    /// A sequence setting out of range (fps, spline parameters).
    #[error("sequence \"{sequence}\": {what}")]
    SequenceValue {
        /// The sequence.
        sequence: String,
        /// What is wrong.
        what: String,
    },
}

/// The document: what is open and everything the user changed.
#[derive(Debug)]
pub struct Document {
    pub(crate) skeleton: Skeleton,
    pub(crate) source: Option<PathBuf>,
    /// The Document file it was opened from or last saved to.
    pub(crate) file: Option<PathBuf>,
    pub(crate) pose: Vec<f64>,
    pub(crate) stiffness: Vec<f64>,
    pub(crate) locks: Vec<Lock>,
    pub(crate) sequences: Vec<Sequence>,
    /// The sequence the timeline shows, if any ([`crate::timeline`]).
    pub(crate) sequence: Option<usize>,
    /// The timeline's current frame.
    pub(crate) frame: i64,
    pub(crate) history: History,
    /// The history's revision when last saved (or opened).
    pub(crate) saved_revision: u64,
    drag: Option<Drag>,
    last_edit: Option<(Goal, Chain)>,
    pub(crate) fk: Fk,
    id: u64,
}

impl Document {
    /// A document on `skeleton` at its rest pose; `source` is the file it came from (`None`
    /// for a built-in figure).
    pub fn new(skeleton: Skeleton, source: Option<PathBuf>) -> Document {
        let pose = Pose::rest(&skeleton).q;
        let stiffness = skeleton.joints().iter().map(|j| j.stiffness).collect();
        let mut fk = Fk::new(&skeleton);
        fk.update(&skeleton, &pose);
        Document {
            skeleton,
            source,
            file: None,
            pose,
            stiffness,
            locks: Vec::new(),
            sequences: Vec::new(),
            sequence: None,
            frame: 0,
            history: History::default(),
            saved_revision: 0,
            drag: None,
            last_edit: None,
            fk,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The document starting from the built-in standing pose (`builtin::standing`: elbows and
    /// knees slightly bent, so no limb starts straight, a singular start for the numeric
    /// solvers) instead of the rest pose. Not an undoable edit: it is where editing starts.
    pub fn standing(mut self) -> Document {
        self.pose = marionette_skeleton::builtin::standing(&self.skeleton).q;
        self.fk.update(&self.skeleton, &self.pose);
        self
    }

    /// Opens a skeleton file.
    pub fn open(path: impl AsRef<Path>) -> Result<Document, SkeletonError> {
        let path = path.as_ref();
        Ok(Document::new(
            Skeleton::load(path)?,
            Some(path.to_path_buf()),
        ))
    }

    /// This document's identity, unique in the process: a view that depends on the skeleton
    /// (the scene's bodies, the outliner) is rebuilt when it changes, that is when another
    /// document is opened.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The file the skeleton came from.
    pub fn source(&self) -> Option<&Path> {
        self.source.as_deref()
    }

    /// The current state vector.
    pub fn pose(&self) -> &[f64] {
        &self.pose
    }

    /// Forward kinematics of the current pose.
    pub fn fk(&self) -> &Fk {
        &self.fk
    }

    /// Each joint's stiffness, by joint index.
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// The undo history (for the Edit menu's labels).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The drag in progress.
    pub fn drag(&self) -> Option<&Drag> {
        self.drag.as_ref()
    }

    /// The edit's goal and chain of the last drag frame (kept after the drag ends, for "solve
    /// until satisfied", the ghosts and the drag line).
    pub fn last_edit(&self) -> Option<&(Goal, Chain)> {
        self.last_edit.as_ref()
    }

    /// The locks, in document order.
    pub fn locks(&self) -> &[Lock] {
        &self.locks
    }

    /// The sequences, in document order.
    pub fn sequences(&self) -> &[Sequence] {
        &self.sequences
    }

    /// The Document file it was opened from or last saved to.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Whether there are edits since it was opened or last saved.
    pub fn is_modified(&self) -> bool {
        self.history.revision() != self.saved_revision
    }

    /// Whether lock `lock` can be disturbed by moving `chain`: the chain moves one of the joints
    /// the lock reads (or the root), or the lock is not held now.
    fn disturbed_by(&self, lock: &Lock, chain: &Chain) -> bool {
        let s = &self.skeleton;
        if lock.goal().kind.error(s, &self.fk) > DISTURBED {
            return true;
        }
        let Some(joints) = lock.goal().kind.reads_joints(s) else {
            return !chain.is_empty(); // the centre of mass moves with anything
        };
        chain
            .columns()
            .iter()
            .any(|&c| match c.checked_sub(ROOT_STATE_LEN) {
                None => true,
                Some(k) => {
                    let owner = s.dofs()[k].joint;
                    joints
                        .iter()
                        .flatten()
                        .any(|&j| s.is_ancestor_or_self(owner, j))
                }
            })
    }

    /// The goal set of one solve: the enabled locks that moving `chain` could disturb (or that
    /// are not held now), then the edit's `goals`, served by `chain`. A lock taken in moves its
    /// own limb, which may disturb further locks (the centre of mass moves the legs under the
    /// feet): those are taken in too, until nothing more is disturbed. With no edit, every
    /// enabled lock.
    pub fn goal_set(&self, goals: &[Goal], chain: &Chain) -> GoalSet {
        let mut set = if goals.is_empty() {
            GoalSet::with_locks(&self.locks, self.lock_frame())
        } else {
            self.locks_disturbed_by(chain)
        };
        for g in goals {
            set.push_edit(g.clone(), chain);
        }
        set
    }

    /// The enabled locks that moving `chain` could disturb, and those their limbs could.
    fn locks_disturbed_by(&self, chain: &Chain) -> GoalSet {
        let mut moving = chain.clone();
        let frame = self.lock_frame();
        let mut taken = vec![false; self.locks.len()];
        loop {
            let mut grew = false;
            for (i, lock) in self.locks.iter().enumerate() {
                if !taken[i] && lock.active_at(frame) && self.disturbed_by(lock, &moving) {
                    taken[i] = true;
                    moving = moving.union(lock.limb());
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        let mut set = GoalSet::with_locks(&self.locks, frame);
        set.retain_locks(|i| taken[i]);
        set
    }

    /// Each lock's violation at the current pose, in document order.
    pub fn lock_violations(&self) -> Vec<marionette_document::Violation> {
        self.locks
            .iter()
            .map(|l| l.violation(&self.skeleton, &self.fk))
            .collect()
    }

    /// Sets one DOF (a slider or numeric entry), clamped to its limits (hinges without limits
    /// wrap), as one undo step.
    pub fn set_dof(&mut self, dof: DofId, value: f64) -> Result<(), EditError> {
        self.edit_dof(dof, value, false)
    }

    /// Like [`Document::set_dof`], for the steps after the first of a continuing adjustment (a
    /// slider being dragged): the adjustment stays one undo step.
    pub fn adjust_dof(&mut self, dof: DofId, value: f64) -> Result<(), EditError> {
        self.edit_dof(dof, value, true)
    }

    fn edit_dof(&mut self, dof: DofId, value: f64, continuing: bool) -> Result<(), EditError> {
        let d = self.skeleton.dof(dof);
        if !value.is_finite() {
            return Err(EditError::NotANumber {
                joint: self.skeleton.joint(d.joint).name.clone(),
                value,
            });
        }
        let value = if d.unlimited {
            marionette_ik::system::wrap_angle(value)
        } else {
            d.clamp(value)
        };
        let label = format!(
            "Set {} DOF {}",
            self.skeleton.joint(d.joint).name,
            d.index_in_joint + 1
        );
        let mut after = self.pose.clone();
        after[dof.state_index()] = value;
        self.put_pose(label, after, continuing);
        Ok(())
    }

    /// Sets a joint's stiffness (Welman's w in (0, 1]) as one undo step.
    pub fn set_stiffness(&mut self, joint: JointId, value: f64) -> Result<(), EditError> {
        self.edit_stiffness(joint, value, false)
    }

    /// Like [`Document::set_stiffness`], for the steps after the first of a slider drag.
    pub fn adjust_stiffness(&mut self, joint: JointId, value: f64) -> Result<(), EditError> {
        self.edit_stiffness(joint, value, true)
    }

    fn edit_stiffness(
        &mut self,
        joint: JointId,
        value: f64,
        continuing: bool,
    ) -> Result<(), EditError> {
        let name = &self.skeleton.joint(joint).name;
        if !(value > 0.0 && value <= 1.0) {
            return Err(EditError::Stiffness {
                joint: name.clone(),
                value,
            });
        }
        let change = Change::Stiffness {
            label: format!("Stiffness of {name}"),
            joint,
            before: self.stiffness[joint.index()],
            after: value,
        };
        self.stiffness[joint.index()] = value;
        if continuing {
            self.history.record_continuing(change);
        } else {
            self.history.record(change);
        }
        Ok(())
    }

    /// Replaces the pose (a loaded pose file, "solve until satisfied") as one undo step.
    pub fn replace_pose(&mut self, label: String, pose: Vec<f64>) {
        self.put_pose(label, pose, false);
    }

    /// Like [`Document::replace_pose`], for the steps after the first of a continuing adjustment
    /// (the swivel slider being dragged): one undo step for the whole adjustment.
    pub fn adjust_pose(&mut self, label: String, pose: Vec<f64>) {
        self.put_pose(label, pose, true);
    }

    pub(crate) fn put_pose(&mut self, label: String, pose: Vec<f64>, continuing: bool) {
        let before = std::mem::replace(&mut self.pose, pose);
        self.fk.update(&self.skeleton, &self.pose);
        let change = Change::Pose {
            label,
            before,
            after: self.pose.clone(),
        };
        if continuing {
            self.history.record_continuing(change);
        } else {
            self.history.record(change);
        }
    }

    /// Loads a pose file (docs/file-formats.md) as one undo step; on error nothing changes.
    pub fn load_pose(&mut self, path: impl AsRef<Path>) -> Result<(), PoseError> {
        let path = path.as_ref();
        let pose = Pose::load(&self.skeleton, path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.replace_pose(format!("Open pose {name}"), pose.q);
        Ok(())
    }

    /// Saves the current pose (docs/file-formats.md).
    pub fn save_pose(&self, path: impl AsRef<Path>) -> Result<(), PoseError> {
        Pose {
            q: self.pose.clone(),
        }
        .save(&self.skeleton, path)
    }

    /// The IK system for `goals` on `chain`, with the document's stiffness.
    pub fn system(&self, goals: Vec<Goal>, chain: Chain) -> System<'_> {
        let mut system = System::new(&self.skeleton, goals, chain);
        system.set_joint_stiffness(&self.stiffness);
        system
    }

    /// Begins dragging a site's handle: the site itself is the dragged point.
    pub fn begin_site_drag(&mut self, site: SiteId, mode: ChainMode) -> Result<(), EditError> {
        let made = Drag::begin_at_site(&self.skeleton, &self.pose, site, mode);
        let name = self.skeleton.site(site).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Begins dragging `joint`'s body, picked at world point `hit`.
    pub fn begin_drag(
        &mut self,
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let made = Drag::begin(&self.skeleton, &self.fk, &self.pose, joint, hit, mode);
        let name = self.skeleton.joint(joint).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Begins dragging `joint` by its origin (a replay's `DragJoint`).
    pub fn begin_joint_drag(&mut self, joint: JointId, mode: ChainMode) -> Result<(), EditError> {
        let made = Drag::begin_at_point(&self.skeleton, &self.pose, joint, Vector3::zeros(), mode);
        let name = self.skeleton.joint(joint).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Makes `made` the drag in progress, or says why it could not begin (naming `picked`).
    fn start_drag(
        &mut self,
        made: Result<Drag, ChainError>,
        picked: String,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let mut drag = made.map_err(|e| EditError::Drag {
            joint: picked,
            why: e.to_string(),
        })?;
        self.root_moves_figure(&mut drag, mode);
        self.drag = Some(drag);
        Ok(())
    }

    /// Dragging the root body translates the whole figure (the root translation), except in
    /// the whole-body mode, which moves everything anyway.
    fn root_moves_figure(&self, drag: &mut Drag, mode: ChainMode) {
        if drag.joint == self.skeleton.root() && mode != ChainMode::WholeBody {
            drag.chain = Chain::root_translation();
        }
    }

    /// One frame of the drag: the dragged point towards the cursor ray, with the locks the drag
    /// can disturb, by `runner`'s solver. The frame first keeps the grip's depth
    /// ([`Drag::goal`]); when that does not converge within the frame's updates, it solves again
    /// from the frame's start pose with the depth free along the ray ([`Drag::ray_goal`]) and
    /// keeps whichever pose ends nearer the ray while holding the locks no worse. So the grip
    /// stays at its depth as long as it can follow the cursor there, and changes depth only where
    /// following needs it (a straight limb bending towards its base). `None` when no drag is in
    /// progress.
    pub fn drag_frame(&mut self, ray: &Ray, runner: &mut IkRunner) -> Option<FrameOutcome> {
        let drag = self.drag.as_ref()?;
        let chain = drag.chain.clone();
        let held = drag.goal(&self.fk, ray);
        let free = drag.ray_goal(&self.fk, ray);
        let mut pose = self.pose.clone();
        // The locks the drag could disturb, found once for both tries.
        let locks = self.locks_disturbed_by(&chain);
        let mut set = locks.clone();
        set.push_edit(held.clone(), &chain);
        let mut outcome = {
            let mut system = set.system(&self.skeleton, &self.stiffness);
            runner.frame(&mut system, &mut pose)
        };
        let mut goal = held;
        if !outcome.report.converged {
            // The goals are made: `self.fk` serves to compare the tries (it is brought back to
            // the kept pose below).
            let mut retry = self.pose.clone();
            let mut set = locks;
            set.push_edit(free.clone(), &chain);
            let second = {
                let mut system = set.system(&self.skeleton, &self.stiffness);
                runner.frame(&mut system, &mut retry)
            };
            let locks_error = |report: &marionette_ik::Report| {
                report
                    .goal_errors
                    .iter()
                    .zip(set.owners())
                    .filter(|(_, o)| matches!(o, Owner::Lock(_)))
                    .fold(0.0_f64, |a, (e, _)| a.max(*e))
            };
            self.fk.update(&self.skeleton, &pose);
            let held_distance = drag.distance_to(&self.fk, ray);
            self.fk.update(&self.skeleton, &retry);
            let tolerance = runner.settings().tolerance;
            let locks_no_worse =
                locks_error(&second.report) <= locks_error(&outcome.report).max(tolerance);
            if drag.distance_to(&self.fk, ray) < held_distance && locks_no_worse {
                (pose, outcome, goal) = (retry, second, free);
            }
        }
        self.last_edit = Some((goal, chain));
        self.pose = pose;
        self.fk.update(&self.skeleton, &self.pose);
        Some(outcome)
    }

    /// Solves the current goal set (the enabled locks and the last drag's goal) for at most
    /// `max_iterations` updates ("solve until satisfied"), as one undo step. `None` when there
    /// is nothing to solve.
    pub fn solve_until_satisfied(
        &mut self,
        runner: &mut IkRunner,
        max_iterations: usize,
    ) -> Option<FrameOutcome> {
        let set = match &self.last_edit {
            Some((goal, chain)) => self.goal_set(std::slice::from_ref(goal), chain),
            None => self.goal_set(&[], &Chain::default()),
        };
        if set.is_empty() {
            return None;
        }
        let mut q = self.pose.clone();
        let outcome = {
            let mut system = set.system(&self.skeleton, &self.stiffness);
            runner.until_satisfied(&mut system, &mut q, max_iterations)
        };
        self.replace_pose("Solve until satisfied".into(), q);
        Some(outcome)
    }

    /// The locks alone, solved from the current pose with `budget` updates into `q` (after a
    /// lock was added, enabled or moved, the limbs follow).
    pub(crate) fn settle(&self, runner: &mut IkRunner, budget: usize) -> Vec<f64> {
        let mut q = self.pose.clone();
        let set = self.goal_set(&[], &Chain::default());
        if set.has_locks() {
            let mut system = set.system(&self.skeleton, &self.stiffness);
            runner.until_satisfied(&mut system, &mut q, budget);
        }
        q
    }

    /// Ends the drag: the whole drag becomes one undo step.
    pub fn end_drag(&mut self) {
        if let Some(drag) = self.drag.take() {
            self.history.record(Change::Pose {
                label: format!("Drag {}", self.skeleton.joint(drag.joint).name),
                before: drag.start_pose,
                after: self.pose.clone(),
            });
        }
    }

    /// Cancels the drag (Escape): the pose goes back to where the drag began; nothing recorded.
    pub fn cancel_drag(&mut self) {
        if let Some(drag) = self.drag.take() {
            self.pose = drag.start_pose;
            self.fk.update(&self.skeleton, &self.pose);
        }
    }

    /// Undoes the last edit (ending any drag first); its label, or `None`.
    pub fn undo(&mut self) -> Option<String> {
        self.end_drag();
        let sequences = self.sequences.clone();
        let label = self.history.undo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
            locks: &mut self.locks,
            sequences: &mut self.sequences,
        });
        self.after_sequences_changed(sequences != self.sequences);
        self.fk.update(&self.skeleton, &self.pose);
        label
    }

    /// Redoes the last undone edit; its label, or `None`.
    pub fn redo(&mut self) -> Option<String> {
        self.end_drag();
        let sequences = self.sequences.clone();
        let label = self.history.redo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
            locks: &mut self.locks,
            sequences: &mut self.sequences,
        });
        self.after_sequences_changed(sequences != self.sequences);
        self.fk.update(&self.skeleton, &self.pose);
        label
    }
}
