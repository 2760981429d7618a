//! The figure's own edits on the [`Document`]: its DOFs and stiffness, whole poses and pose
//! files, "solve until satisfied", undo and redo; and the goal sets every solve uses (the locks
//! an edit can disturb, and the edit's own goals).

use std::path::Path;

use marionette_document::{GoalSet, Lock};
use marionette_ik::Goal;
use marionette_skeleton::{Chain, DofId, JointId, Pose, PoseError, ROOT_STATE_LEN};

use super::history::{Change, Edited, History, UndoStep};
use super::{DISTURBED, Document};
use crate::EditError;
use crate::pose_read::ReadPose;
use crate::solve::{IkRunner, SolveOutcome};

impl Document {
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
    pub(crate) fn locks_disturbed_by(&self, chain: &Chain) -> GoalSet {
        self.locks_disturbed_at(chain, self.lock_frame())
    }

    /// The locks enabled on `frame` that moving `chain` could disturb, and those their limbs
    /// could.
    pub(crate) fn locks_disturbed_at(&self, chain: &Chain, frame: Option<i64>) -> GoalSet {
        let mut moving = chain.clone();
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
    /// wrap): an undo step of its own, or the slider drag's step extended.
    pub(crate) fn set_dof(
        &mut self,
        dof: DofId,
        value: f64,
        undo: UndoStep,
    ) -> Result<(), EditError> {
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
        self.replace_pose(label, after, undo);
        Ok(())
    }

    /// Sets a joint's stiffness (Welman's w in (0, 1]): an undo step of its own, or the slider
    /// drag's step extended.
    pub(crate) fn set_stiffness(
        &mut self,
        joint: JointId,
        value: f64,
        undo: UndoStep,
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
        self.history.record_as(change, undo);
        Ok(())
    }

    /// Replaces the pose (a loaded pose file, "solve until satisfied", the swivel): an undo step
    /// labelled `label` of its own, or the adjustment's step extended.
    pub(crate) fn replace_pose(&mut self, label: String, pose: Vec<f64>, undo: UndoStep) {
        let before = std::mem::replace(&mut self.pose, pose);
        self.fk.update(&self.skeleton, &self.pose);
        let change = Change::Pose {
            label,
            before,
            after: self.pose.clone(),
        };
        self.history.record_as(change, undo);
    }

    /// Takes a pose file as read (docs/file-formats.md), fitted to the skeleton, as one undo
    /// step; when it does not fit nothing changes.
    pub(crate) fn take_pose(&mut self, read: &ReadPose) -> Result<(), PoseError> {
        let pose = read.pose_of(&self.skeleton)?;
        self.end_drag();
        self.replace_pose(format!("Open pose {}", read.name()), pose.q, UndoStep::New);
        Ok(())
    }

    /// Saves the current pose (docs/file-formats.md).
    pub fn save_pose(&self, path: impl AsRef<Path>) -> Result<(), PoseError> {
        Pose {
            q: self.pose.clone(),
        }
        .save(&self.skeleton, path)
    }

    /// Solves the current goal set (the enabled locks and the last drag's goal) for at most
    /// `max_iterations` updates ("solve until satisfied"), as one undo step. `None` when there
    /// is nothing to solve.
    pub(crate) fn solve_until_satisfied(
        &mut self,
        runner: &mut IkRunner,
        max_iterations: usize,
    ) -> Option<SolveOutcome> {
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
        self.replace_pose("Solve until satisfied".into(), q, UndoStep::New);
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

    /// Undoes the last edit (ending any drag first); its label, or `None`.
    pub(crate) fn undo(&mut self) -> Option<String> {
        self.walk_history(History::undo)
    }

    /// Redoes the last undone edit; its label, or `None`.
    pub(crate) fn redo(&mut self) -> Option<String> {
        self.walk_history(History::redo)
    }

    /// One step of the history (`step`: an undo or a redo), with any drag ended first and what
    /// follows a change of the sequences, links and pose; the step's label, or `None`.
    fn walk_history(
        &mut self,
        step: fn(&mut History, Edited<'_>) -> Option<String>,
    ) -> Option<String> {
        self.end_drag();
        let sequences = self.sequences.clone();
        let links = self.stage.links.clone();
        let label = step(
            &mut self.history,
            Edited {
                pose: &mut self.pose,
                stiffness: &mut self.stiffness,
                locks: &mut self.locks,
                sequences: &mut self.sequences,
                library: &mut self.library,
                body: &mut self.body,
                stage: &mut self.stage,
            },
        );
        // A link added or removed changes the stage's bake of the frame shown.
        self.after_sequences_changed(sequences != self.sequences || links != self.stage.links);
        self.fk.update(&self.skeleton, &self.pose);
        label
    }
}
