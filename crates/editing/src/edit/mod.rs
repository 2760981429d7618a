//! Every change the user makes to the work, as one value: an [`Edit`], applied by
//! [`Document::apply`]. The editor's panels, keys, drags, lock markers, timeline and replays all
//! send edits (the editor wraps this type in one message and applies it in one system), and so
//! can tests and scripts without a window. Each edit that changes the work is one undo step,
//! except adjustments marked [`UndoStep::Extend`] (a slider or a drag continuing), which extend
//! the last; a refused edit changes nothing and says why.
//!
//! Edits are the only way to change a [`Document`] from outside this crate: its changing methods
//! are the crate's own. Saving is an edit too (it makes the file the document's and the document
//! unmodified, recording nothing).
//!
//! What is not work stays out: selection, hover, cameras, the timeline's transport, the motion
//! trails shown ([`crate::trail::ShownTrails`]) and the pose and frames copied (the caller keeps
//! them, and an edit that pastes carries what it pastes); files that replace the whole document
//! (opening, importing) make a new one. A pose file opened changes the work: it is an edit. The
//! solve settings are not work either, but they change what the next edit does, so they are edits
//! of the [`Solving`] an edit is applied with (not recorded, nothing unsaved).

use marionette_document::{Clip, KeyInterpolation, LockKind, LockPart};
use marionette_ik::analytic::limb::Limb;
use marionette_skeleton::{DofId, JointId, SiteId};
use nalgebra::Vector3;

use crate::drag::{Grip, Ray};
use crate::history::UndoStep;
use crate::pose_read::ReadPose;
use crate::solve::{Comparison, IkSettings, Solving};
pub use crate::timeline::SequenceSettings;
mod said;
mod settings;

pub use crate::applied::Applied;
use crate::{ChainMode, Document, EditError};

/// Updates "solve until satisfied" may take in the editor.
pub const SATISFY_BUDGET: usize = 2000;

/// One change to the work (or to how it is solved).
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Set one DOF (a slider or a typed value), clamped to its limits.
    SetDof {
        /// The DOF.
        dof: DofId,
        /// Its new value (radians or metres).
        value: f64,
        /// A step of its own, or the slider drag's extended.
        undo: UndoStep,
    },
    /// Set a joint's stiffness (Welman's w in (0, 1]).
    SetStiffness {
        /// The joint.
        joint: JointId,
        /// The stiffness.
        value: f64,
        /// A step of its own, or the slider drag's extended.
        undo: UndoStep,
    },
    /// Turn a limb's elbow or knee about the shoulder–wrist line, the wrist held.
    SetSwivel {
        /// The limb (boxed: a limb is large beside the other edits).
        limb: Box<Limb>,
        /// The swivel angle (radians).
        angle: f64,
        /// A step of its own, or the slider drag's extended.
        undo: UndoStep,
    },
    /// Run the solver on the locks and the last drag's goal until they are met (at most
    /// `budget` updates).
    SolveUntilSatisfied {
        /// Updates at most.
        budget: usize,
    },
    /// Open a pose file, as read ([`ReadPose`]), into the document (its joints' values, clamped
    /// to their limits), as one undo step.
    OpenPose(ReadPose),
    /// Begin a drag of what a press gripped, moving the chain the [`Solving`]'s chain mode
    /// says; the pose then changes live ([`Edit::DragTo`]).
    BeginDrag(Grip),
    /// One step of the drag in progress (an editor frame): the dragged point towards the cursor
    /// ray, the locks it can disturb held, by the [`Solving`]'s solver; the step's outcome comes
    /// back as [`Applied::Stepped`] (nothing when no drag is in progress).
    DragTo(Ray),
    /// End the drag: the whole drag becomes one undo step.
    EndDrag,
    /// Cancel the drag: the pose goes back to where it began, nothing recorded.
    CancelDrag,
    /// Lock a part where it is now.
    Lock {
        /// The site or point locked.
        part: LockPart,
        /// What is held.
        kind: LockKind,
    },
    /// Lock two sites together (the first picked, the second picked).
    LockTogether(SiteId, SiteId),
    /// Delete a lock.
    RemoveLock(usize),
    /// Rename a lock.
    RenameLock(usize, String),
    /// Switch a lock on or off.
    SetLockEnabled(usize, bool),
    /// Set a lock's weight.
    SetLockWeight {
        /// The lock's index.
        lock: usize,
        /// The weight (> 0).
        weight: f64,
        /// A step of its own, or the slider drag's extended.
        undo: UndoStep,
    },
    /// Set a lock's priority level (0 = highest).
    SetLockPriority(usize, u32),
    /// Set a lock's frame range (`None`: every frame).
    SetLockFrames(usize, Option<(i64, i64)>),
    /// Set a lock's blend (frames eased in and out around its range).
    SetLockBlend(usize, i64),
    /// Set the highest joint that moves to keep a lock (`None`: its limb).
    SetLockBase(usize, Option<JointId>),
    /// Move a lock's target (its marker dragged); the limbs follow.
    MoveLockTarget {
        /// The lock's index.
        lock: usize,
        /// How far (metres, world).
        delta: Vector3<f64>,
        /// The marker drag's first move, or a later one.
        undo: UndoStep,
    },
    /// Go to a frame of the shown sequence (not recorded: it shows the frame, as baked).
    GoToFrame(i64),
    /// Set a key at the current frame from the current pose (a new sequence when none is shown).
    SetKey,
    /// Delete the shown sequence's key at the current frame.
    DeleteKey,
    /// Key these joints only at the current frame (the root translation too with the root).
    KeyJoints(Vec<JointId>),
    /// Move joints' keys, (joint, from, to) each, as one undo step (a key on a lane, curve
    /// points dragged sideways); each key's other parts stay.
    MoveJointKeys(Vec<(JointId, i64, i64)>),
    /// Curve points, (state index, key frame) each, dragged by `frames` and by `by` (degrees
    /// for hinges, millimetres otherwise), as one undo step.
    DragCurvePoints {
        /// The points.
        points: Vec<(usize, i64)>,
        /// Frames (the joints' keys moved in time).
        frames: i64,
        /// Value, in the curve editor's units.
        by: f64,
    },
    /// Key single DOFs, (frame, state index, value) each, as one undo step (a point added on a
    /// curve).
    KeyDofs(Vec<(i64, usize, f64)>),
    /// Set keys' free handles, or give them back to the span's tangents, as one undo step.
    SetHandles(Vec<crate::curve_edits::Handles>),
    /// A trail's dot pressed: go to `frame` and drag `of`; the drag's joints keyed there at its end.
    BeginTrailDrag {
        /// What the trail follows.
        of: Grip,
        /// The point's frame.
        frame: i64,
    },
    /// Set key values, (frame, state index, value) each, as one undo step (curve points dragged,
    /// smoothed, blended).
    SetKeyValues(Vec<(i64, usize, f64)>),
    /// Tween: a key here on these joints, `blend` of the way from each one's key before to after.
    Tween {
        /// The joints.
        joints: Vec<JointId>,
        /// How far from the key before (0) to the key after (1).
        blend: f64,
    },
    /// Move every key of one joint by `by` frames.
    OffsetJointKeys {
        /// The joint.
        joint: JointId,
        /// Frames (negative: earlier).
        by: i64,
    },
    /// Move the shown sequence's key at `from` to `to`.
    MoveKey {
        /// Its frame.
        from: i64,
        /// The new frame.
        to: i64,
    },
    /// Show a sequence (or none); not recorded.
    SelectSequence(Option<usize>),
    /// A new sequence keyed with the current pose, shown.
    NewSequence,
    /// Rename a sequence.
    RenameSequence(usize, String),
    /// Duplicate a sequence and show the copy.
    DuplicateSequence(usize),
    /// Delete a sequence.
    DeleteSequence(usize),
    /// Cut the frames `first ..= last` (their clip copied beforehand by the sender).
    CutFrames {
        /// First frame.
        first: i64,
        /// Last frame.
        last: i64,
    },
    /// Write the physics assistant's ghost into its sequence, as one undo step
    /// ([`crate::physics_ghost`]); refused when the sequence changed since it was made.
    AcceptGhost(Box<crate::physics_ghost::Ghost>),
    /// Set the figure's body (mass, de Leva's column; none: 75 kg, male).
    SetBody(Option<marionette_document::Body>),
    /// Insert a clip's frames at `at`.
    PasteFrames {
        /// Where.
        at: i64,
        /// What.
        clip: Clip,
    },
    /// Insert `count` empty frames at `at`.
    InsertFrames {
        /// Where.
        at: i64,
        /// How many.
        count: i64,
    },
    /// Delete the frames `first ..= last` (later keys move back).
    DeleteFrames {
        /// First frame.
        first: i64,
        /// Last frame.
        last: i64,
    },
    /// Stretch or shrink the frames `first ..= last` to `length` frames.
    RetimeFrames {
        /// First frame.
        first: i64,
        /// Last frame.
        last: i64,
        /// The new length.
        length: i64,
    },
    /// Slide the keys of frames `first ..= last` by `delta`.
    SlideFrames {
        /// First frame.
        first: i64,
        /// Last frame.
        last: i64,
        /// Frames (negative: earlier).
        delta: i64,
    },
    /// Change the shown sequence's settings.
    SequenceSettings(SequenceSettings),
    /// Put a capture's motion (BVH, or an FBX take) onto the figure as a new sequence, shown.
    RetargetCapture {
        /// The capture, read ([`crate::capture_read::ReadCapture::read`]; a retarget plan
        /// holds the one it showed).
        capture: crate::capture_read::ReadCapture,
        /// Bones mapped by hand, over the map found (empty: the map found).
        map: marionette_interchange::retarget::RetargetMap,
        /// Keep the capture's own place in its room; else (the default) the take's first frame
        /// stands where the figure stands, facing where it faces.
        keep_place: bool,
    },
    /// Find a sequence's foot contacts and lock them (the feet's earlier contact locks
    /// replaced); its report comes back as [`Applied::Cleaned`].
    FindFootContacts(crate::foot_contacts::FootSearch),
    /// Add a sequence made elsewhere (a capture imported or retargeted) under a free name; the
    /// shown sequence stays. Refused when it does not fit the figure.
    AddSequence(Box<marionette_document::Sequence>),
    /// Turn (or slide) one DOF by its handle, the locks solved again around it.
    TurnDof {
        /// The DOF.
        dof: DofId,
        /// Its new value (clamped to its limits).
        value: f64,
        /// A step of its own, or the handle drag's extended.
        undo: UndoStep,
    },
    /// Move the root by its arrows, the locks solved again around it.
    MoveRoot {
        /// How far (m, world).
        delta: Vector3<f64>,
        /// A step of its own, or the handle drag's extended.
        undo: UndoStep,
    },
    /// How the span after the shown sequence's key at `frame` goes.
    SetKeyInterpolation {
        /// The key's frame.
        frame: i64,
        /// Its own interpolation (`None`: the sequence's).
        interpolation: Option<KeyInterpolation>,
        /// Ease in and out (0 … 1).
        ease: f64,
    },
    /// Pose ▸ Mirror pose: the whole figure mirrored across its plane of symmetry.
    MirrorPose,
    /// Pose ▸ Mirror selected limb to the other side: this joint and the joints below it.
    MirrorLimb(JointId),
    /// Pose ▸ Paste pose, or Paste flipped (onto the other side, mirrored): a pose copied by
    /// [`Document::copy_pose`].
    PastePose {
        /// The pose copied.
        clip: crate::pose_tools::PoseClip,
        /// Mirrored onto the other side.
        flipped: bool,
    },
    /// Save the current pose in the document's pose library under this name.
    SavePoseToLibrary(String),
    /// Apply a library pose to some joints (none: the whole figure), a blend of the way.
    ApplyLibraryPose {
        /// The library pose.
        name: String,
        /// How far from the current pose (0 … 1).
        blend: f64,
        /// The joints (none: all).
        joints: Vec<JointId>,
    },
    /// Delete a pose from the library.
    DeleteLibraryPose(String),
    /// Change the IK settings (solver, updates per frame, tolerance, options); not recorded.
    Settings(IkSettings),
    /// Change what a drag moves; not recorded.
    ChainMode(ChainMode),
    /// Change the comparison ghosts; not recorded.
    Comparison(Comparison),
    /// A stage edit: figures, props, links, grips ([`crate::stage`]).
    Stage(crate::stage::StageEdit),
    /// Save the document to this file (atomically) and make it the document's file: it is then
    /// unmodified. Not an undo step.
    Save(std::path::PathBuf),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
}

impl Document {
    /// Applies one edit with `solving` (an undo step where it changes the work); a refused edit
    /// changes nothing and says why.
    pub fn apply(&mut self, edit: Edit, solving: &mut Solving) -> Result<Applied, EditError> {
        let runner = &mut solving.runner;
        match edit {
            Edit::SetDof { dof, value, undo } => self.set_dof(dof, value, undo)?,
            Edit::SetStiffness { joint, value, undo } => self.set_stiffness(joint, value, undo)?,
            Edit::SetSwivel { limb, angle, undo } => {
                crate::swivel::set_swivel(self, &limb, angle, undo).map_err(EditError::Swivel)?;
            }
            Edit::SolveUntilSatisfied { budget } => return Ok(self.solved(runner, budget)),
            Edit::OpenPose(read) => {
                self.take_pose(&read)
                    .map_err(|e| EditError::PoseFile(e.to_string()))?;
                return Ok(Applied::Said(format!(
                    "Opened pose {}",
                    read.path.display()
                )));
            }
            Edit::BeginDrag(grip) => self.begin_grip(grip, solving.chain_mode)?,
            Edit::DragTo(ray) => {
                if let Some(outcome) = self.drag_step(&ray, runner) {
                    return Ok(Applied::Stepped(Box::new(outcome)));
                }
            }
            Edit::EndDrag => self.end_drag(),
            Edit::CancelDrag => return Ok(self.drag_cancelled()),
            Edit::Lock { part, kind } => {
                let index = self.lock_part(part, kind, runner)?;
                return Ok(self.locked(index));
            }
            Edit::LockTogether(a, b) => {
                let index = self.lock_together(a, b, runner)?;
                return Ok(self.locked(index));
            }
            Edit::RemoveLock(i) => self.remove_lock(i)?,
            Edit::RenameLock(i, name) => self.rename_lock(i, &name)?,
            Edit::SetLockEnabled(i, on) => self.set_lock_enabled(i, on, runner)?,
            Edit::SetLockWeight { lock, weight, undo } => {
                self.set_lock_weight(lock, weight, undo)?
            }
            Edit::SetLockPriority(i, p) => self.set_lock_priority(i, p)?,
            Edit::SetLockFrames(i, frames) => self.set_lock_frames(i, frames)?,
            Edit::SetLockBlend(i, blend) => self.set_lock_blend(i, blend)?,
            Edit::SetLockBase(i, base) => self.set_lock_base(i, base)?,
            Edit::MoveLockTarget { lock, delta, undo } => {
                self.move_lock_target(lock, &delta, runner, undo)?;
            }
            Edit::GoToFrame(frame) => self.go_to_frame(frame),
            Edit::SetKey => self.set_key()?,
            Edit::DeleteKey => self.delete_key()?,
            Edit::MoveKey { from, to } => self.move_key(from, to)?,
            Edit::KeyJoints(joints) => self.key_joints(&joints)?,
            Edit::MoveJointKeys(moves) => self.move_joint_keys(&moves)?,
            Edit::KeyDofs(values) => self.key_dofs(&values)?,
            Edit::DragCurvePoints { points, frames, by } => {
                self.drag_curve_points(&points, frames, by)?
            }
            Edit::SetHandles(handles) => self.set_handles(&handles)?,
            Edit::OffsetJointKeys { joint, by } => self.offset_joint_keys(joint, by)?,
            Edit::SetKeyValues(values) => self.set_key_values(&values)?,
            Edit::Tween { joints, blend } => self.tween(&joints, blend)?,
            Edit::BeginTrailDrag { of, frame } => {
                self.begin_trail_drag(of, frame, solving.chain_mode)?
            }
            Edit::SelectSequence(index) => self.select_sequence(index)?,
            Edit::NewSequence => {
                self.new_sequence("Sequence 1");
            }
            Edit::RenameSequence(i, name) => self.rename_sequence(i, &name)?,
            Edit::DuplicateSequence(i) => {
                self.duplicate_sequence(i)?;
            }
            Edit::DeleteSequence(i) => self.delete_sequence(i)?,
            Edit::CutFrames { first, last } => {
                self.cut_frames(first, last)?;
            }
            Edit::PasteFrames { at, clip } => self.paste_frames(at, &clip)?,
            Edit::AcceptGhost(ghost) => return Ok(Applied::Said(self.accept_ghost(&ghost)?)),
            Edit::SetBody(body) => return Ok(Applied::Said(self.set_body(body)?)),
            Edit::InsertFrames { at, count } => self.insert_frames(at, count)?,
            Edit::DeleteFrames { first, last } => self.delete_frames(first, last)?,
            Edit::RetimeFrames {
                first,
                last,
                length,
            } => self.retime_frames(first, last, length)?,
            Edit::SlideFrames { first, last, delta } => self.slide_frames(first, last, delta)?,
            Edit::SequenceSettings(s) => self.apply_sequence_settings(s)?,
            Edit::FindFootContacts(search) => {
                let (cleaned, said) = self.find_foot_contacts(&search)?;
                return Ok(Applied::Cleaned(Box::new(cleaned), said));
            }
            Edit::AddSequence(sequence) => return Ok(Applied::Said(self.add_sequence(*sequence)?)),
            Edit::TurnDof { dof, value, undo } => self.turn_dof(dof, value, runner, undo)?,
            Edit::MoveRoot { delta, undo } => self.move_root(&delta, runner, undo)?,
            Edit::SetKeyInterpolation {
                frame,
                interpolation,
                ease,
            } => self.set_key_interpolation(frame, interpolation, ease)?,
            Edit::MirrorPose => return Ok(Applied::Said(self.mirror_pose())),
            Edit::MirrorLimb(joint) => return Ok(Applied::Said(self.mirror_limb(joint)?)),
            Edit::PastePose { clip, flipped } => {
                return Ok(Applied::Said(self.paste_pose(&clip, flipped)?));
            }
            Edit::SavePoseToLibrary(name) => {
                return Ok(Applied::Said(self.save_pose_to_library(&name)?));
            }
            Edit::ApplyLibraryPose {
                name,
                blend,
                joints,
            } => {
                return Ok(Applied::Said(
                    self.apply_library_pose(&name, blend, &joints)?,
                ));
            }
            Edit::DeleteLibraryPose(name) => {
                return Ok(Applied::Said(self.delete_library_pose(&name)?));
            }
            Edit::RetargetCapture {
                capture,
                map,
                keep_place,
            } => {
                return Ok(Applied::Said(
                    self.retarget_capture(&capture, &map, keep_place)?,
                ));
            }
            Edit::Settings(_) | Edit::ChainMode(_) | Edit::Comparison(_) => {
                if let Some(result) = solving.apply_setting(&edit) {
                    result?;
                }
            }
            Edit::Stage(edit) => return self.apply_stage(edit, runner),
            Edit::Save(path) => {
                self.save_document(&path)
                    .map_err(|e| EditError::Save(e.to_string()))?;
                return Ok(Applied::Said(format!("Saved {}", path.display())));
            }
            Edit::Undo => return Ok(self.undone()),
            Edit::Redo => return Ok(self.redone()),
        }
        Ok(Applied::Quietly)
    }
}

#[cfg(test)]
mod tests;
