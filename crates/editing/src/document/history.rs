//! Undo and redo (issue 5): every edit is one step, a whole drag included. A step records the
//! values before and after, which plain data (a pose is a `Vec<f64>`, the locks a short list)
//! makes cheap; the sequences are recorded whole, as their edits (keys, ranges of frames) may
//! touch any key.

use marionette_document::{Body, LibraryPose, Lock, Sequence};
use marionette_skeleton::JointId;

pub use super::edited::{Edited, StageUndo};
use super::stage_layout::StageLayout;

/// One undoable edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The pose changed (a drag, a slider, a solve, a loaded pose file).
    Pose {
        /// What the user did, for the Edit menu ("Drag right elbow").
        label: String,
        /// The pose before.
        before: Vec<f64>,
        /// The pose after.
        after: Vec<f64>,
    },
    /// A joint's stiffness changed.
    Stiffness {
        /// What the user did.
        label: String,
        /// The joint.
        joint: JointId,
        /// The stiffness before.
        before: f64,
        /// The stiffness after.
        after: f64,
    },
    /// The locks changed (added, removed, renamed, enabled, weighted, a target moved, a frame
    /// range), with the pose the limbs followed to.
    Locks {
        /// What the user did ("Lock left heel", "Move lock left foot").
        label: String,
        /// The locks and the pose before.
        before: (Vec<Lock>, Vec<f64>),
        /// The locks and the pose after.
        after: (Vec<Lock>, Vec<f64>),
    },
    /// The sequences changed (a key set, deleted or moved, a range of frames edited, a
    /// sequence added, renamed or deleted).
    Sequences {
        /// What the user did ("Set key at frame 24").
        label: String,
        /// The sequences before.
        before: Vec<Sequence>,
        /// The sequences after.
        after: Vec<Sequence>,
    },
    /// The pose library changed (a pose saved, renamed or deleted).
    Library {
        /// What the user did ("Save pose crouch to the library").
        label: String,
        /// The library before.
        before: Vec<LibraryPose>,
        /// The library after.
        after: Vec<LibraryPose>,
    },
    /// The figure's body (mass, de Leva's column) changed.
    Body {
        /// What the user did.
        label: String,
        /// Before.
        before: Option<Body>,
        /// After.
        after: Option<Body>,
    },
    /// Several figures' poses changed together: a drag of a figure tied by links to others,
    /// which moved with it ([`crate::stage`]). Each figure is named by its identity, so the
    /// step holds across renames and whichever figure is edited.
    Poses {
        /// What the user did ("Drag right elbow").
        label: String,
        /// Each figure's identity and pose before.
        before: Vec<(u64, Vec<f64>)>,
        /// Each figure's identity and pose after.
        after: Vec<(u64, Vec<f64>)>,
    },
    /// Several changes made by one edit, undone together (a link added, and the figures'
    /// poses that moved to meet it).
    Steps {
        /// What the user did.
        label: String,
        /// The changes, in the order they were made.
        steps: Vec<Change>,
    },
    /// The stage changed: a figure added, removed, renamed or moved, a prop, a link, a grip
    /// ([`crate::stage`]).
    Stage {
        /// What the user did ("Add figure B").
        label: String,
        /// The stage before.
        before: Box<StageLayout>,
        /// The stage after.
        after: Box<StageLayout>,
    },
}

impl Change {
    /// The edit's label.
    pub fn label(&self) -> &str {
        match self {
            Change::Pose { label, .. }
            | Change::Stiffness { label, .. }
            | Change::Locks { label, .. }
            | Change::Sequences { label, .. }
            | Change::Library { label, .. }
            | Change::Body { label, .. }
            | Change::Poses { label, .. }
            | Change::Steps { label, .. }
            | Change::Stage { label, .. } => label,
        }
    }

    /// Whether the edit changed nothing (a click without a drag).
    fn is_empty(&self) -> bool {
        match self {
            Change::Pose { before, after, .. } => before == after,
            Change::Stiffness { before, after, .. } => before == after,
            Change::Locks { before, after, .. } => before == after,
            Change::Sequences { before, after, .. } => before == after,
            Change::Library { before, after, .. } => before == after,
            Change::Body { before, after, .. } => before == after,
            Change::Poses { before, after, .. } => before == after,
            Change::Steps { steps, .. } => steps.iter().all(Change::is_empty),
            Change::Stage { before, after, .. } => before == after,
        }
    }

    /// Puts the values before (`after == false`) or after the edit into `state`.
    fn put(&self, state: &mut Edited<'_>, after: bool) {
        match self {
            Change::Pose {
                before, after: a, ..
            } => state.pose.clone_from(if after { a } else { before }),
            Change::Stiffness {
                joint,
                before,
                after: a,
                ..
            } => {
                if let Some(w) = state.stiffness.get_mut(joint.index()) {
                    *w = if after { *a } else { *before };
                }
            }
            Change::Locks {
                before, after: a, ..
            } => {
                let (locks, pose) = if after { a } else { before };
                state.locks.clone_from(locks);
                state.pose.clone_from(pose);
            }
            Change::Sequences {
                before, after: a, ..
            } => state.sequences.clone_from(if after { a } else { before }),
            Change::Library {
                before, after: a, ..
            } => state.library.clone_from(if after { a } else { before }),
            Change::Body {
                before, after: a, ..
            } => *state.body = if after { *a } else { *before },
            Change::Poses {
                before, after: a, ..
            } => state
                .stage
                .put_poses(state.pose, if after { a } else { before }),
            Change::Steps { steps, .. } => {
                if after {
                    steps.iter().for_each(|c| c.put(state, true));
                } else {
                    steps.iter().rev().for_each(|c| c.put(state, false));
                }
            }
            Change::Stage {
                before, after: a, ..
            } => state.stage.restore(if after { a } else { before }),
        }
    }
}

/// Whether an adjustment opens a new undo step or extends the last one: the first change of a
/// slider drag, a swivel drag or a lock marker drag is [`UndoStep::New`], the changes after it
/// [`UndoStep::Extend`], so the whole gesture is one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UndoStep {
    /// A step of its own.
    #[default]
    New,
    /// The last step extended to end here, when it is the same adjustment (same kind, label
    /// and joint) and nothing was undone since; otherwise a step of its own.
    Extend,
}

/// The undo and redo stacks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// Bumped by every recorded, undone or redone edit: a document is unsaved while its
    /// revision differs from the one it was saved at.
    revision: u64,
    /// Bumped by every recorded, undone or redone edit of the locks or the sequences: what a
    /// bake depends on besides the skeleton.
    motion_revision: u64,
}

impl History {
    /// Records an edit that has been applied; it clears the redo stack. An edit that changed
    /// nothing (a click without a drag) is not recorded.
    pub fn record(&mut self, change: Change) {
        if change.is_empty() {
            return;
        }
        self.bump(&change);
        self.undo.push(change);
        self.redo.clear();
    }

    /// Records `change` as `step` says: a step of its own, or the last one extended
    /// ([`History::record_continuing`]).
    pub fn record_as(&mut self, change: Change, step: UndoStep) {
        match step {
            UndoStep::New => self.record(change),
            UndoStep::Extend => self.record_continuing(change),
        }
    }

    fn bump(&mut self, change: &Change) {
        self.revision += 1;
        if matches!(
            change,
            Change::Locks { .. }
                | Change::Sequences { .. }
                | Change::Stage { .. }
                | Change::Steps { .. }
        ) {
            self.motion_revision += 1;
        }
    }

    /// Changes with every edit, undo and redo of the locks or the sequences (not with pose or
    /// stiffness edits): what was baked from them is out of date when it differs.
    pub fn motion_revision(&self) -> u64 {
        self.motion_revision
    }

    /// The revision: changes with every edit, undo and redo (not a count of anything).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Records one step of a continuing adjustment (a slider being dragged): when the last edit
    /// is the same adjustment (same kind, label and joint) and nothing was undone since, it is
    /// extended to end at `change`'s values, so the whole adjustment stays one undo step.
    /// Otherwise `change` is recorded as a new step.
    pub fn record_continuing(&mut self, change: Change) {
        if self.redo.is_empty()
            && let Some(last) = self.undo.last_mut()
        {
            // Only the state after changes; the step's bookkeeping is any step's.
            let extended = match (last, &change) {
                (
                    Change::Pose { label, after, .. },
                    Change::Pose {
                        label: new_label,
                        after: new_after,
                        ..
                    },
                ) if label == new_label => {
                    after.clone_from(new_after);
                    true
                }
                (
                    Change::Stiffness {
                        label,
                        joint,
                        after,
                        ..
                    },
                    Change::Stiffness {
                        label: new_label,
                        joint: new_joint,
                        after: new_after,
                        ..
                    },
                ) if label == new_label && joint == new_joint => {
                    *after = *new_after;
                    true
                }
                (
                    Change::Locks { label, after, .. },
                    Change::Locks {
                        label: new_label,
                        after: new_after,
                        ..
                    },
                ) if label == new_label => {
                    after.clone_from(new_after);
                    true
                }
                (
                    Change::Stage { label, after, .. },
                    Change::Stage {
                        label: new_label,
                        after: new_after,
                        ..
                    },
                ) if label == new_label => {
                    after.clone_from(new_after);
                    true
                }
                _ => false,
            };
            if extended {
                self.bump(&change);
                return;
            }
        }
        self.record(change);
    }

    /// Undoes the last edit on `state`; returns its label, or `None` when there is nothing to
    /// undo.
    pub fn undo(&mut self, mut state: Edited<'_>) -> Option<String> {
        let change = self.undo.pop()?;
        change.put(&mut state, false);
        let label = change.label().to_owned();
        self.bump(&change);
        self.redo.push(change);
        Some(label)
    }

    /// Redoes the last undone edit on `state`.
    pub fn redo(&mut self, mut state: Edited<'_>) -> Option<String> {
        let change = self.redo.pop()?;
        change.put(&mut state, true);
        let label = change.label().to_owned();
        self.bump(&change);
        self.undo.push(change);
        Some(label)
    }

    /// The label of the edit Undo would revert.
    pub fn next_undo(&self) -> Option<&str> {
        self.undo.last().map(Change::label)
    }

    /// The label of the edit Redo would repeat.
    pub fn next_redo(&self) -> Option<&str> {
        self.redo.last().map(Change::label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::StageParts;

    fn change(label: &str, before: f64, after: f64) -> Change {
        Change::Pose {
            label: label.into(),
            before: vec![before],
            after: vec![after],
        }
    }

    fn elbow() -> JointId {
        marionette_skeleton::builtin::humanoid()
            .joint_by_name("right elbow")
            .expect("elbow")
    }

    #[test]
    fn a_continuing_adjustment_is_one_step_until_something_else_happens() {
        let mut h = History::default();
        let mut pose = vec![0.0];
        let mut stiffness = vec![1.0];
        let mut locks = Vec::new();
        let mut sequences = Vec::new();
        let mut library = Vec::new();
        let mut body = None;
        macro_rules! state {
            () => {
                Edited {
                    pose: &mut pose,
                    stiffness: &mut stiffness,
                    locks: &mut locks,
                    sequences: &mut sequences,
                    library: &mut library,
                    body: &mut body,
                    stage: &mut StageParts::default(),
                }
            };
        }
        h.record(change("slide", 0.0, 1.0));
        h.record_continuing(change("slide", 1.0, 2.0));
        h.record_continuing(change("slide", 2.0, 3.0));
        h.record_continuing(change("other", 3.0, 4.0));
        assert_eq!(h.undo(state!()), Some("other".into()));
        assert_eq!(pose, vec![3.0]);
        assert_eq!(h.undo(state!()), Some("slide".into()));
        assert_eq!(pose, vec![0.0], "the three slider steps were one");
        assert_eq!(h.undo(state!()), None);
        // With something to redo, a continuing step starts a new edit (and clears the redo).
        h.redo(state!());
        h.undo(state!());
        h.record_continuing(change("slide", 0.0, 5.0));
        assert_eq!(h.next_redo(), None);
        assert_eq!(h.undo(state!()), Some("slide".into()));
        assert_eq!(pose, vec![0.0]);
        assert_eq!(h.next_undo(), None);
    }

    #[test]
    fn undo_and_redo_walk_the_edits() {
        let mut h = History::default();
        let joint = elbow();
        let mut stiffness = vec![1.0; joint.index() + 1];
        stiffness[joint.index()] = 0.5;
        let mut pose = vec![2.0];
        let mut locks = Vec::new();
        let mut sequences = Vec::new();
        let mut library = Vec::new();
        let mut body = None;
        macro_rules! state {
            () => {
                Edited {
                    pose: &mut pose,
                    stiffness: &mut stiffness,
                    locks: &mut locks,
                    sequences: &mut sequences,
                    library: &mut library,
                    body: &mut body,
                    stage: &mut StageParts::default(),
                }
            };
        }
        h.record(change("a", 0.0, 1.0));
        h.record(change("b", 1.0, 2.0));
        h.record(Change::Stiffness {
            label: "stiffen".into(),
            joint,
            before: 1.0,
            after: 0.5,
        });
        assert_eq!(h.undo(state!()).as_deref(), Some("stiffen"));
        assert_eq!(h.undo(state!()).as_deref(), Some("b"));
        assert_eq!(h.undo(state!()).as_deref(), Some("a"));
        assert_eq!(h.undo(state!()), None);
        assert_eq!(pose, [0.0]);
        assert!(stiffness.iter().all(|&w| w == 1.0), "{stiffness:?}");
        assert_eq!(h.redo(state!()).as_deref(), Some("a"));
        // A new edit drops what could be redone.
        h.record(change("c", 1.0, 5.0));
        assert_eq!(h.next_redo(), None);
        assert_eq!(h.next_undo(), Some("c"));
        assert_eq!(pose, [1.0]);
    }

    #[test]
    fn an_edit_that_changed_nothing_is_not_a_step() {
        let mut h = History::default();
        h.record(change("click", 1.0, 1.0));
        h.record(Change::Stiffness {
            label: "same".into(),
            joint: elbow(),
            before: 0.3,
            after: 0.3,
        });
        assert_eq!(h.next_undo(), None);
    }
}
