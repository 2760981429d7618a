//! The document the editor edits, without Bevy: a skeleton, its pose, per-joint stiffness, the
//! drag in progress and the undo history. Every edit goes through here, so each is checked (bad
//! values are errors that change nothing), clamped to the limits, and undoable as one step (a
//! whole drag included: the pose changes live while dragging and one step is recorded when it
//! ends, as Fyrox's editor does). The Bevy plugins hold one `Document` as a resource.

use std::path::{Path, PathBuf};

use marionette_ik::{Goal, System};
use marionette_skeleton::{
    Chain, DofId, Fk, JointId, Pose, PoseError, SiteId, Skeleton, SkeletonError,
};
use nalgebra::Vector3;

use crate::history::{Change, Edited, History};
use crate::ik_frame::{FrameOutcome, IkRunner};
use crate::{ChainMode, Drag, Ray};

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
}

/// The document: what is open and everything the user changed.
#[derive(Debug)]
pub struct Document {
    skeleton: Skeleton,
    source: Option<PathBuf>,
    pose: Vec<f64>,
    stiffness: Vec<f64>,
    history: History,
    drag: Option<Drag>,
    last_goal: Option<(Goal, Chain)>,
    fk: Fk,
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
            pose,
            stiffness,
            history: History::default(),
            drag: None,
            last_goal: None,
            fk,
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

    /// The goal and chain of the last drag frame (kept after the drag ends, for "solve until
    /// satisfied" and the drag line).
    pub fn last_goal(&self) -> Option<&(Goal, Chain)> {
        self.last_goal.as_ref()
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

    fn put_pose(&mut self, label: String, pose: Vec<f64>, continuing: bool) {
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

    /// Loads a pose file (FILE_FORMATS.md) as one undo step; on error nothing changes.
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

    /// Saves the current pose (FILE_FORMATS.md).
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
        let drag = Drag::begin_at_site(&self.skeleton, &self.pose, site, mode).map_err(|e| {
            EditError::Drag {
                joint: self.skeleton.site(site).name.clone(),
                why: e.to_string(),
            }
        })?;
        self.drag = Some(drag);
        Ok(())
    }

    /// Begins dragging `joint`'s body, picked at world point `hit`.
    pub fn begin_drag(
        &mut self,
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let drag =
            Drag::begin(&self.skeleton, &self.fk, &self.pose, joint, hit, mode).map_err(|e| {
                EditError::Drag {
                    joint: self.skeleton.joint(joint).name.clone(),
                    why: e.to_string(),
                }
            })?;
        self.drag = Some(drag);
        Ok(())
    }

    /// One frame of the drag: the dragged point towards the cursor ray, by `runner`'s solver.
    /// The frame first keeps the grip's depth ([`Drag::goal`]); when that does not converge
    /// within the frame's updates, it solves again from the frame's start pose with the depth
    /// free along the ray ([`Drag::ray_goal`]) and keeps whichever pose ends nearer the ray. So
    /// the grip stays at its depth as long as it can follow the cursor there, and changes depth
    /// only where following needs it (a straight limb bending towards its base). `None` when no
    /// drag is in progress.
    pub fn drag_frame(&mut self, ray: &Ray, runner: &mut IkRunner) -> Option<FrameOutcome> {
        let drag = self.drag.as_ref()?;
        let chain = drag.chain.clone();
        let held = drag.goal(&self.fk, ray);
        let free = drag.ray_goal(&self.fk, ray);
        let mut pose = self.pose.clone();
        let mut outcome = {
            let mut system = self.system(vec![held.clone()], chain.clone());
            runner.frame(&mut system, &mut pose)
        };
        let mut goal = held;
        if !outcome.report.converged {
            // The goals are made: `self.fk` serves to compare the tries (it is brought back to
            // the kept pose below).
            let mut retry = self.pose.clone();
            let second = {
                let mut system = self.system(vec![free.clone()], chain.clone());
                runner.frame(&mut system, &mut retry)
            };
            self.fk.update(&self.skeleton, &pose);
            let held_distance = drag.distance_to(&self.fk, ray);
            self.fk.update(&self.skeleton, &retry);
            if drag.distance_to(&self.fk, ray) < held_distance {
                (pose, outcome, goal) = (retry, second, free);
            }
        }
        self.last_goal = Some((goal, chain));
        self.pose = pose;
        self.fk.update(&self.skeleton, &self.pose);
        Some(outcome)
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
        let label = self.history.undo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
        });
        self.fk.update(&self.skeleton, &self.pose);
        label
    }

    /// Redoes the last undone edit; its label, or `None`.
    pub fn redo(&mut self) -> Option<String> {
        self.end_drag();
        let label = self.history.redo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
        });
        self.fk.update(&self.skeleton, &self.pose);
        label
    }
}
