//! The tests' shorthand for edits: each method applies one [`Edit`] through
//! [`Document::apply`], the one way into a document from outside the editing crate, and reads
//! back what the test wants to check (the new lock's index, the undo step's label, the drag
//! step's outcome). A method given a runner or a chain mode applies its edit with them.

#![allow(dead_code, reason = "each test binary uses some of them")]

use marionette_document::{Clip, LockKind, LockPart};
use marionette_editing::curve_edits::Handles;
use marionette_editing::stage::StageEdit;
use marionette_editing::{
    Applied, ChainMode, Document, Edit, EditError, Grip, IkRunner, Ray, SolveOutcome, Solving,
    UndoStep,
};
use marionette_skeleton::{DofId, JointId, SiteId};
use nalgebra::Vector3;

/// Applies `edit` with `runner` and `mode` (the runner's state kept).
fn apply_with(
    doc: &mut Document,
    edit: Edit,
    runner: &mut IkRunner,
    mode: ChainMode,
) -> Result<Applied, EditError> {
    let mut solving = Solving {
        runner: std::mem::take(runner),
        chain_mode: mode,
        ..Solving::default()
    };
    let applied = doc.apply(edit, &mut solving);
    *runner = solving.runner;
    applied
}

/// Applies `edit` with the default solving.
fn apply(doc: &mut Document, edit: Edit) -> Result<Applied, EditError> {
    doc.apply(edit, &mut Solving::default())
}

/// The label of an undo or redo step from what it said (`None`: nothing to undo or redo).
fn step_label(said: Applied, done: &str) -> Option<String> {
    match said {
        Applied::Said(text) => text.strip_prefix(done).map(str::to_owned),
        _ => None,
    }
}

/// Edits by name, as the tests write them.
pub trait Edits {
    fn undo(&mut self) -> Option<String>;
    fn redo(&mut self) -> Option<String>;
    fn set_dof(&mut self, dof: DofId, value: f64, undo: UndoStep) -> Result<(), EditError>;
    fn set_stiffness(
        &mut self,
        joint: JointId,
        value: f64,
        undo: UndoStep,
    ) -> Result<(), EditError>;
    fn begin_grip(&mut self, grip: Grip, mode: ChainMode) -> Result<(), EditError>;
    fn begin_drag(
        &mut self,
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<(), EditError>;
    fn begin_joint_drag(&mut self, joint: JointId, mode: ChainMode) -> Result<(), EditError>;
    fn begin_site_drag(&mut self, site: SiteId, mode: ChainMode) -> Result<(), EditError>;
    fn drag_step(&mut self, ray: &Ray, runner: &mut IkRunner) -> Option<SolveOutcome>;
    fn end_drag(&mut self);
    fn cancel_drag(&mut self);
    fn begin_trail_drag(&mut self, of: Grip, frame: i64, mode: ChainMode) -> Result<(), EditError>;
    fn solve_until_satisfied(
        &mut self,
        runner: &mut IkRunner,
        budget: usize,
    ) -> Option<SolveOutcome>;
    fn lock_part(
        &mut self,
        part: LockPart,
        kind: LockKind,
        runner: &mut IkRunner,
    ) -> Result<usize, EditError>;
    fn remove_lock(&mut self, index: usize) -> Result<(), EditError>;
    fn rename_lock(&mut self, index: usize, name: &str) -> Result<(), EditError>;
    fn set_lock_enabled(
        &mut self,
        index: usize,
        on: bool,
        runner: &mut IkRunner,
    ) -> Result<(), EditError>;
    fn set_lock_weight(
        &mut self,
        index: usize,
        weight: f64,
        undo: UndoStep,
    ) -> Result<(), EditError>;
    fn set_lock_priority(&mut self, index: usize, priority: u32) -> Result<(), EditError>;
    fn set_lock_frames(
        &mut self,
        index: usize,
        frames: Option<(i64, i64)>,
    ) -> Result<(), EditError>;
    fn set_lock_blend(&mut self, index: usize, blend: i64) -> Result<(), EditError>;
    fn set_lock_base(&mut self, index: usize, base: Option<JointId>) -> Result<(), EditError>;
    fn move_lock_target(
        &mut self,
        index: usize,
        delta: &Vector3<f64>,
        runner: &mut IkRunner,
        undo: UndoStep,
    ) -> Result<(), EditError>;
    fn go_to_frame(&mut self, frame: i64);
    fn select_sequence(&mut self, index: Option<usize>) -> Result<(), EditError>;
    fn set_key(&mut self) -> Result<(), EditError>;
    fn delete_key(&mut self) -> Result<(), EditError>;
    fn move_key(&mut self, from: i64, to: i64) -> Result<(), EditError>;
    fn key_joints(&mut self, joints: &[JointId]) -> Result<(), EditError>;
    fn offset_joint_keys(&mut self, joint: JointId, by: i64) -> Result<(), EditError>;
    fn move_joint_keys(&mut self, moves: &[(JointId, i64, i64)]) -> Result<(), EditError>;
    fn key_dofs(&mut self, values: &[(i64, usize, f64)]) -> Result<(), EditError>;
    fn set_key_value(&mut self, frame: i64, state: usize, value: f64) -> Result<(), EditError>;
    fn drag_curve_points(
        &mut self,
        points: &[(usize, i64)],
        frames: i64,
        by: f64,
    ) -> Result<(), EditError>;
    fn set_handles(&mut self, handles: &[Handles]) -> Result<(), EditError>;
    fn tween(&mut self, joints: &[JointId], blend: f64) -> Result<(), EditError>;
    fn cut_frames(&mut self, first: i64, last: i64) -> Result<Clip, EditError>;
    fn paste_frames(&mut self, at: i64, clip: &Clip) -> Result<(), EditError>;
    fn insert_frames(&mut self, at: i64, count: i64) -> Result<(), EditError>;
    fn delete_frames(&mut self, first: i64, last: i64) -> Result<(), EditError>;
    fn retime_frames(&mut self, first: i64, last: i64, length: i64) -> Result<(), EditError>;
    fn slide_frames(&mut self, first: i64, last: i64, delta: i64) -> Result<(), EditError>;
    fn new_sequence(&mut self) -> usize;
    fn rename_sequence(&mut self, index: usize, name: &str) -> Result<(), EditError>;
    fn duplicate_sequence(&mut self, index: usize) -> Result<usize, EditError>;
    fn delete_sequence(&mut self, index: usize) -> Result<(), EditError>;
    fn select_figure(&mut self, name: &str) -> Result<(), EditError>;
    fn save_document(&mut self, path: &std::path::Path) -> Result<(), EditError>;
}

impl Edits for Document {
    fn undo(&mut self) -> Option<String> {
        step_label(apply(self, Edit::Undo).ok()?, "Undid: ")
    }
    fn redo(&mut self) -> Option<String> {
        step_label(apply(self, Edit::Redo).ok()?, "Redid: ")
    }
    fn set_dof(&mut self, dof: DofId, value: f64, undo: UndoStep) -> Result<(), EditError> {
        apply(self, Edit::SetDof { dof, value, undo }).map(drop)
    }
    fn set_stiffness(
        &mut self,
        joint: JointId,
        value: f64,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        apply(self, Edit::SetStiffness { joint, value, undo }).map(drop)
    }
    fn begin_grip(&mut self, grip: Grip, mode: ChainMode) -> Result<(), EditError> {
        apply_with(self, Edit::BeginDrag(grip), &mut IkRunner::default(), mode).map(drop)
    }
    fn begin_drag(
        &mut self,
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        self.begin_grip(Grip::Body { joint, hit: *hit }, mode)
    }
    fn begin_joint_drag(&mut self, joint: JointId, mode: ChainMode) -> Result<(), EditError> {
        self.begin_grip(Grip::Joint(joint), mode)
    }
    fn begin_site_drag(&mut self, site: SiteId, mode: ChainMode) -> Result<(), EditError> {
        self.begin_grip(Grip::Site(site), mode)
    }
    fn drag_step(&mut self, ray: &Ray, runner: &mut IkRunner) -> Option<SolveOutcome> {
        let mode = ChainMode::default();
        match apply_with(self, Edit::DragTo(*ray), runner, mode) {
            Ok(Applied::Stepped(outcome)) => Some(*outcome),
            _ => None,
        }
    }
    fn end_drag(&mut self) {
        apply(self, Edit::EndDrag).expect("ending a drag is never refused");
    }
    fn cancel_drag(&mut self) {
        apply(self, Edit::CancelDrag).expect("cancelling a drag is never refused");
    }
    fn begin_trail_drag(&mut self, of: Grip, frame: i64, mode: ChainMode) -> Result<(), EditError> {
        let edit = Edit::BeginTrailDrag { of, frame };
        apply_with(self, edit, &mut IkRunner::default(), mode).map(drop)
    }
    fn solve_until_satisfied(
        &mut self,
        runner: &mut IkRunner,
        budget: usize,
    ) -> Option<SolveOutcome> {
        let edit = Edit::SolveUntilSatisfied { budget };
        match apply_with(self, edit, runner, ChainMode::default()) {
            Ok(Applied::Solved(outcome, _)) => Some(*outcome),
            _ => None,
        }
    }
    fn lock_part(
        &mut self,
        part: LockPart,
        kind: LockKind,
        runner: &mut IkRunner,
    ) -> Result<usize, EditError> {
        apply_with(
            self,
            Edit::Lock { part, kind },
            runner,
            ChainMode::default(),
        )?;
        Ok(self.locks().len() - 1)
    }
    fn remove_lock(&mut self, index: usize) -> Result<(), EditError> {
        apply(self, Edit::RemoveLock(index)).map(drop)
    }
    fn rename_lock(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        apply(self, Edit::RenameLock(index, name.into())).map(drop)
    }
    fn set_lock_enabled(
        &mut self,
        index: usize,
        on: bool,
        runner: &mut IkRunner,
    ) -> Result<(), EditError> {
        let edit = Edit::SetLockEnabled(index, on);
        apply_with(self, edit, runner, ChainMode::default()).map(drop)
    }
    fn set_lock_weight(
        &mut self,
        lock: usize,
        weight: f64,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        apply(self, Edit::SetLockWeight { lock, weight, undo }).map(drop)
    }
    fn set_lock_priority(&mut self, index: usize, priority: u32) -> Result<(), EditError> {
        apply(self, Edit::SetLockPriority(index, priority)).map(drop)
    }
    fn set_lock_frames(
        &mut self,
        index: usize,
        frames: Option<(i64, i64)>,
    ) -> Result<(), EditError> {
        apply(self, Edit::SetLockFrames(index, frames)).map(drop)
    }
    fn set_lock_blend(&mut self, index: usize, blend: i64) -> Result<(), EditError> {
        apply(self, Edit::SetLockBlend(index, blend)).map(drop)
    }
    fn set_lock_base(&mut self, index: usize, base: Option<JointId>) -> Result<(), EditError> {
        apply(self, Edit::SetLockBase(index, base)).map(drop)
    }
    fn move_lock_target(
        &mut self,
        lock: usize,
        delta: &Vector3<f64>,
        runner: &mut IkRunner,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        let edit = Edit::MoveLockTarget {
            lock,
            delta: *delta,
            undo,
        };
        apply_with(self, edit, runner, ChainMode::default()).map(drop)
    }
    fn go_to_frame(&mut self, frame: i64) {
        apply(self, Edit::GoToFrame(frame)).expect("going to a frame is never refused");
    }
    fn select_sequence(&mut self, index: Option<usize>) -> Result<(), EditError> {
        apply(self, Edit::SelectSequence(index)).map(drop)
    }
    fn set_key(&mut self) -> Result<(), EditError> {
        apply(self, Edit::SetKey).map(drop)
    }
    fn delete_key(&mut self) -> Result<(), EditError> {
        apply(self, Edit::DeleteKey).map(drop)
    }
    fn move_key(&mut self, from: i64, to: i64) -> Result<(), EditError> {
        apply(self, Edit::MoveKey { from, to }).map(drop)
    }
    fn key_joints(&mut self, joints: &[JointId]) -> Result<(), EditError> {
        apply(self, Edit::KeyJoints(joints.to_vec())).map(drop)
    }
    fn offset_joint_keys(&mut self, joint: JointId, by: i64) -> Result<(), EditError> {
        apply(self, Edit::OffsetJointKeys { joint, by }).map(drop)
    }
    fn move_joint_keys(&mut self, moves: &[(JointId, i64, i64)]) -> Result<(), EditError> {
        apply(self, Edit::MoveJointKeys(moves.to_vec())).map(drop)
    }
    fn key_dofs(&mut self, values: &[(i64, usize, f64)]) -> Result<(), EditError> {
        apply(self, Edit::KeyDofs(values.to_vec())).map(drop)
    }
    fn set_key_value(&mut self, frame: i64, state: usize, value: f64) -> Result<(), EditError> {
        apply(self, Edit::SetKeyValues(vec![(frame, state, value)])).map(drop)
    }
    fn drag_curve_points(
        &mut self,
        points: &[(usize, i64)],
        frames: i64,
        by: f64,
    ) -> Result<(), EditError> {
        let points = points.to_vec();
        apply(self, Edit::DragCurvePoints { points, frames, by }).map(drop)
    }
    fn set_handles(&mut self, handles: &[Handles]) -> Result<(), EditError> {
        apply(self, Edit::SetHandles(handles.to_vec())).map(drop)
    }
    fn tween(&mut self, joints: &[JointId], blend: f64) -> Result<(), EditError> {
        let joints = joints.to_vec();
        apply(self, Edit::Tween { joints, blend }).map(drop)
    }
    fn cut_frames(&mut self, first: i64, last: i64) -> Result<Clip, EditError> {
        // As the editor cuts: the clip copied, then the frames cut.
        let clip = self.copy_frames(first, last)?;
        apply(self, Edit::CutFrames { first, last })?;
        Ok(clip)
    }
    fn paste_frames(&mut self, at: i64, clip: &Clip) -> Result<(), EditError> {
        let clip = clip.clone();
        apply(self, Edit::PasteFrames { at, clip }).map(drop)
    }
    fn insert_frames(&mut self, at: i64, count: i64) -> Result<(), EditError> {
        apply(self, Edit::InsertFrames { at, count }).map(drop)
    }
    fn delete_frames(&mut self, first: i64, last: i64) -> Result<(), EditError> {
        apply(self, Edit::DeleteFrames { first, last }).map(drop)
    }
    fn retime_frames(&mut self, first: i64, last: i64, length: i64) -> Result<(), EditError> {
        apply(
            self,
            Edit::RetimeFrames {
                first,
                last,
                length,
            },
        )
        .map(drop)
    }
    fn slide_frames(&mut self, first: i64, last: i64, delta: i64) -> Result<(), EditError> {
        apply(self, Edit::SlideFrames { first, last, delta }).map(drop)
    }
    fn new_sequence(&mut self) -> usize {
        apply(self, Edit::NewSequence).expect("a new sequence is never refused");
        self.sequences().len() - 1
    }
    fn rename_sequence(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        apply(self, Edit::RenameSequence(index, name.into())).map(drop)
    }
    fn duplicate_sequence(&mut self, index: usize) -> Result<usize, EditError> {
        apply(self, Edit::DuplicateSequence(index))?;
        Ok(self.sequences().len() - 1)
    }
    fn delete_sequence(&mut self, index: usize) -> Result<(), EditError> {
        apply(self, Edit::DeleteSequence(index)).map(drop)
    }
    fn select_figure(&mut self, name: &str) -> Result<(), EditError> {
        apply(self, Edit::Stage(StageEdit::SelectFigure(name.into()))).map(drop)
    }
    fn save_document(&mut self, path: &std::path::Path) -> Result<(), EditError> {
        apply(self, Edit::Save(path.to_path_buf())).map(drop)
    }
}
