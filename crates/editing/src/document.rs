//! The document the editor edits, without Bevy: a skeleton, its pose, per-joint stiffness, the
//! locks and sequences, the drag in progress and the undo history. Every edit goes through here,
//! so each is checked (bad values are errors that change nothing), clamped to the limits, and
//! undoable as one step (a whole drag included: the pose changes live while dragging and one step
//! is recorded when it ends, as Fyrox's editor does). The editor sends every edit as one
//! [`crate::Edit`] to [`Document::apply`] ([`crate::edit`]); the edits themselves are here (the
//! pose, stiffness, undo), in [`crate::drag`], [`crate::lock_edits`] and [`crate::timeline`];
//! opening and saving Document files in [`crate::document_io`].
//!
//! Every solve goes through one goal set ([`Document::goal_set`]): the locks the edit can disturb
//! and the edit's own goal, each goal served by its own chain. A drag, the swivel, the ghosts and
//! "solve until satisfied" all ask for the same thing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_document::{GoalSet, Lock, Sequence};
use marionette_ik::Goal;
use marionette_interchange::character::Character;
use marionette_skeleton::{
    Chain, DofId, Fk, JointId, Pose, PoseError, ROOT_STATE_LEN, Skeleton, SkeletonError,
};

use crate::Drag;
use crate::EditError;
use crate::history::{Change, Edited, History, UndoStep};
use crate::solve::{IkRunner, SolveOutcome};

/// The next document's identity ([`Document::id`]).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A lock further than this from holding is re-solved by any edit, whatever the edit moves
/// (metres or radians; far below the solvers' 0.1 mm tolerance).
const DISTURBED: f64 = 1e-7;

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
    /// The pose library (kept in the document).
    pub(crate) library: Vec<marionette_document::LibraryPose>,
    /// What the rotate handles are sized by ([`crate::rotate_handles::figure_size`]), made once:
    /// the skeleton does not change.
    pub(crate) handle_size: f64,
    /// The pose copied (Pose ▸ Copy pose) and the joints it was copied from; not saved.
    pub(crate) pose_clipboard: Option<crate::pose_tools::PoseClip>,
    /// The sequence the timeline shows, if any ([`crate::timeline`]).
    pub(crate) sequence: Option<usize>,
    /// The timeline's current frame.
    pub(crate) frame: i64,
    pub(crate) history: History,
    /// The history's revision when last saved (or opened).
    pub(crate) saved_revision: u64,
    /// The drag in progress ([`crate::drag`]).
    pub(crate) drag: Option<Drag>,
    /// The edit's goal and chain of the last drag step.
    pub(crate) last_edit: Option<(Goal, Chain)>,
    /// The figures the drag in progress moves with the edited one (links holding now).
    pub(crate) linked: Option<Box<crate::stage::LinkedGroup>>,
    pub(crate) fk: Fk,
    /// The character the skeleton's skin names, read once when the document was made.
    pub(crate) character: SkinCharacter,
    /// The other figures, props, links and cues ([`crate::stage`]).
    pub(crate) stage: crate::stage::StageParts,
    /// How the last Find foot contacts moved the hips ([`crate::foot_contacts`]).
    pub(crate) hips_moved: Option<crate::foot_contacts::HipsMoved>,
    /// The motion trails shown ([`crate::trail`]); view state, not saved.
    pub(crate) trails: Vec<crate::trail::ShownTrail>,
    /// Whether the drag in progress is a trail drag, which keys what it moved when it ends.
    pub(crate) key_after_drag: bool,
    id: u64,
}

/// The character a document's skeleton names as its skin, read once (the scene draws it, picking
/// finds its surface, the export writes it back).
#[derive(Debug, Clone, Default)]
pub enum SkinCharacter {
    /// The skeleton names no skin.
    #[default]
    None,
    /// The character, read.
    Read(Arc<Character>),
    /// The skin could not be read: why (the figure is drawn with its bodies).
    Unreadable(String),
}

impl Document {
    /// A document on `skeleton` at its rest pose; `source` is the file it came from (`None`
    /// for a built-in figure). A skeleton with a skin has its character read here.
    pub fn new(skeleton: Skeleton, source: Option<PathBuf>) -> Document {
        Document::with_character(skeleton, source, None)
    }

    /// As [`Document::new`], with the skin's character already read (`None`: read it here if
    /// the skeleton has a skin).
    pub fn with_character(
        skeleton: Skeleton,
        source: Option<PathBuf>,
        character: Option<Arc<Character>>,
    ) -> Document {
        let character = match (character, skeleton.skin_path(source.as_deref())) {
            (Some(c), _) => SkinCharacter::Read(c),
            (None, None) => SkinCharacter::None,
            (None, Some(path)) => match Character::open(&path) {
                Ok(c) => SkinCharacter::Read(Arc::new(c)),
                Err(e) => SkinCharacter::Unreadable(e.to_string()),
            },
        };
        let pose = Pose::rest(&skeleton).q;
        let stiffness = skeleton.joints().iter().map(|j| j.stiffness).collect();
        let mut fk = Fk::new(&skeleton);
        fk.update(&skeleton, &pose);
        let handle_size = crate::rotate_handles::figure_size(&skeleton);
        let skeleton_name = skeleton.name().to_owned();
        Document {
            skeleton,
            source,
            file: None,
            pose,
            stiffness,
            locks: Vec::new(),
            sequences: Vec::new(),
            library: Vec::new(),
            pose_clipboard: None,
            handle_size,
            sequence: None,
            frame: 0,
            history: History::default(),
            saved_revision: 0,
            drag: None,
            last_edit: None,
            linked: None,
            fk,
            character,
            stage: crate::stage::StageParts::one(skeleton_name.as_str()),
            hips_moved: None,
            trails: Vec::new(),
            key_after_drag: false,
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

    /// The character the skeleton's skin names, if it was read.
    pub fn character(&self) -> Option<&Arc<Character>> {
        match &self.character {
            SkinCharacter::Read(c) => Some(c),
            _ => None,
        }
    }

    /// The skin's character as the document read it (or why it could not).
    pub fn skin_character(&self) -> &SkinCharacter {
        &self.character
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
            || self
                .stage
                .figures
                .iter()
                .filter_map(|f| f.document.as_deref())
                .any(Document::is_modified)
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
    pub fn set_dof(&mut self, dof: DofId, value: f64, undo: UndoStep) -> Result<(), EditError> {
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
    pub fn set_stiffness(
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
    pub fn replace_pose(&mut self, label: String, pose: Vec<f64>, undo: UndoStep) {
        let before = std::mem::replace(&mut self.pose, pose);
        self.fk.update(&self.skeleton, &self.pose);
        let change = Change::Pose {
            label,
            before,
            after: self.pose.clone(),
        };
        self.history.record_as(change, undo);
    }

    /// Loads a pose file (docs/file-formats.md) as one undo step; on error nothing changes.
    pub fn load_pose(&mut self, path: impl AsRef<Path>) -> Result<(), PoseError> {
        let path = path.as_ref();
        let pose = Pose::load(&self.skeleton, path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        self.end_drag();
        self.replace_pose(format!("Open pose {name}"), pose.q, UndoStep::New);
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
    pub fn solve_until_satisfied(
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
    pub fn undo(&mut self) -> Option<String> {
        self.end_drag();
        let sequences = self.sequences.clone();
        let links = self.stage.links.clone();
        let label = self.history.undo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
            locks: &mut self.locks,
            sequences: &mut self.sequences,
            library: &mut self.library,
            stage: &mut self.stage,
        });
        // A link added or removed changes the stage's bake of the frame shown.
        self.after_sequences_changed(sequences != self.sequences || links != self.stage.links);
        self.fk.update(&self.skeleton, &self.pose);
        label
    }

    /// Redoes the last undone edit; its label, or `None`.
    pub fn redo(&mut self) -> Option<String> {
        self.end_drag();
        let sequences = self.sequences.clone();
        let links = self.stage.links.clone();
        let label = self.history.redo(Edited {
            pose: &mut self.pose,
            stiffness: &mut self.stiffness,
            locks: &mut self.locks,
            sequences: &mut self.sequences,
            library: &mut self.library,
            stage: &mut self.stage,
        });
        // A link added or removed changes the stage's bake of the frame shown.
        self.after_sequences_changed(sequences != self.sequences || links != self.stage.links);
        self.fk.update(&self.skeleton, &self.pose);
        label
    }
}
