//! The timeline's edits on the document: which sequence is shown and at which frame, keys and
//! ranges of frames, a sequence's settings (the list of sequences is
//! [`crate::sequence_list`]'s). Every edit of the sequences is one undo step
//! ([`Change::Sequences`]); choosing a sequence or a frame is not an edit, it shows the
//! sequence's pose there, interpolated and re-solved against the locks enabled on that frame
//! exactly as a bake makes it ([`marionette_motion::Baker`]).
//!
//! While a sequence is shown, the locks that hold are those enabled on the current frame (a
//! lock's frame range counts), for drags as for bakes.

use marionette_document::{
    Clip, Key, KeyedParts, MAX_FRAME, RootInterpolation, RotationInterpolation, Sequence,
};
use marionette_motion::{BakeSettings, BakedFrame, Baker};
use marionette_skeleton::{Fk, JointId, Pose};

use crate::bracket_keys::set_parts_key_bracketed;
use crate::history::Change;
use crate::{Document, EditError};

/// A shown sequence's settings, as the timeline edits them.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceSettings {
    /// Frames per second.
    pub fps: f64,
    /// Rotation interpolation.
    pub rotation: RotationInterpolation,
    /// Root interpolation.
    pub root: RootInterpolation,
    /// Whether frames hold their locks.
    pub hold_locks: bool,
}

impl SequenceSettings {
    /// The settings `sequence` has.
    pub fn of(sequence: &Sequence) -> SequenceSettings {
        SequenceSettings {
            fps: sequence.fps,
            rotation: sequence.rotation,
            root: sequence.root,
            hold_locks: sequence.hold_locks,
        }
    }
}

impl Document {
    /// The sequence the timeline shows.
    pub fn current_sequence(&self) -> Option<usize> {
        self.sequence
    }

    /// The timeline's current frame.
    pub fn frame(&self) -> i64 {
        self.frame
    }

    /// The frame the locks are judged on: the current frame while a sequence is shown,
    /// otherwise `None` (every enabled lock holds).
    pub fn lock_frame(&self) -> Option<i64> {
        self.sequence.map(|_| self.frame)
    }

    /// Shows sequence `index` (`None`: none) at the current frame.
    pub(crate) fn select_sequence(&mut self, index: Option<usize>) -> Result<(), EditError> {
        if let Some(i) = index {
            self.check_sequence(i)?;
        }
        self.end_drag();
        self.sequence = index;
        self.show_frame();
        Ok(())
    }

    /// Goes to `frame`: the shown sequence's pose there becomes the current pose (edits not
    /// keyed are left behind, as in every timeline).
    pub(crate) fn go_to_frame(&mut self, frame: i64) {
        self.end_drag();
        self.frame = frame.clamp(-MAX_FRAME, MAX_FRAME);
        self.show_frame();
    }

    /// The shown sequence's frame `frame`, baked (interpolated, locks re-solved), or `None`
    /// without a shown sequence.
    pub fn baked_frame(&self, frame: i64) -> Option<BakedFrame> {
        let seq = self.sequences.get(self.sequence?)?;
        let baker = Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default());
        Some(baker.frame(frame, &mut Fk::new(&self.skeleton)))
    }

    /// The poses the timeline shows on frames `from ..= to` of the shown sequence (each baked
    /// as [`Document::go_to_frame`] shows it; on a stage with links holding, the stage's bake).
    pub(crate) fn shown_poses(&self, from: i64, to: i64) -> Vec<(i64, Vec<f64>)> {
        if let Some(frames) = self.stage_poses(from, to) {
            return frames;
        }
        let Some(seq) = self.sequence.and_then(|i| self.sequences.get(i)) else {
            return Vec::new();
        };
        let baker = Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default());
        let mut fk = Fk::new(&self.skeleton);
        (from..=to)
            .map(|f| (f, baker.frame(f, &mut fk).q))
            .collect()
    }

    /// Every frame of the shown sequence from its first key to its last, baked (for the
    /// violation strip and the flipbooks).
    pub fn bake_sequence(&self, index: usize) -> Vec<BakedFrame> {
        let Some(seq) = self.sequences.get(index) else {
            return Vec::new();
        };
        Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default()).bake(&|| {})
    }

    /// Every frame of sequence `index` from its first key to its last, interpolated, before its
    /// locks are solved (the motion plot's "as interpolated").
    pub fn interpolate_sequence(&self, index: usize) -> Vec<Vec<f64>> {
        let Some(seq) = self.sequences.get(index) else {
            return Vec::new();
        };
        let baker = Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default());
        let (first, last) = baker.range();
        (first..=last).map(|f| baker.interpolated(f)).collect()
    }

    /// Puts the shown sequence's pose at the current frame into the document: the stage's bake
    /// of the frame where links holding on it tie the figure (what it does on the stage), else
    /// its own. Figures a linked change moved are drawn at the stage's bake again.
    pub(crate) fn show_frame(&mut self) {
        self.stage.forget_linked_poses();
        let shown = match self.stage_frame() {
            Some(frame) => frame.figures.into_iter().nth(self.stage.active),
            None => self.baked_frame(self.frame),
        };
        if let Some(baked) = shown {
            self.pose = baked.q;
            self.fk.update(&self.skeleton, &self.pose);
        }
    }

    /// After an undo or redo: a shown sequence that no longer exists is no longer shown, and a
    /// changed one shows its pose again.
    pub(crate) fn after_sequences_changed(&mut self, changed: bool) {
        if self.sequence.is_some_and(|i| i >= self.sequences.len()) {
            self.sequence = None;
        }
        if changed {
            self.show_frame();
        }
    }

    /// Sets a key at the current frame from the current pose, in the shown sequence (a new
    /// sequence is made when none is shown).
    pub(crate) fn set_key(&mut self) -> Result<(), EditError> {
        self.end_drag();
        let pose = Pose {
            q: self.pose.clone(),
        };
        let frame = self.frame;
        if self.sequence.is_none() {
            let name = self.unique_sequence_name("Sequence 1");
            let before = self.sequences.clone();
            self.sequences.push(Sequence {
                name,
                fps: 24.0,
                rotation: RotationInterpolation::Slerp,
                root: RootInterpolation::Linear,
                hold_locks: true,
                keys: vec![Key::new(frame, pose)],
            });
            self.sequence = Some(self.sequences.len() - 1);
            self.record_sequences(format!("Set key at frame {frame}"), before);
            return Ok(());
        }
        self.edit_sequence(format!("Set key at frame {frame}"), false, |s| {
            s.set_key(frame, pose).map_err(EditError::from)
        })
    }

    /// Sets a key at the current frame on `joints` only (with the root translation when the
    /// figure's root joint is among them): a new sequence holding it when none is shown.
    pub(crate) fn key_joints(&mut self, joints: &[JointId]) -> Result<(), EditError> {
        if joints.is_empty() {
            return Err(EditError::NoSelection("Key selected joints"));
        }
        let root = joints
            .iter()
            .any(|&j| self.skeleton.joint(j).parent.is_none());
        let parts = KeyedParts::new(joints.iter().copied(), root);
        let names: Vec<&str> = parts
            .joints
            .iter()
            .map(|&j| self.skeleton.joint(j).name.as_str())
            .collect();
        let label = match names.as_slice() {
            [one] => format!("Key {one} at frame {}", self.frame),
            _ => format!("Key {} joints at frame {}", names.len(), self.frame),
        };
        if self.sequence.is_none() {
            self.set_key()?;
            let i = self.shown()?;
            let frame = self.frame;
            if let Some(key) = self.sequences[i].keys.iter_mut().find(|k| k.frame == frame) {
                key.only = Some(parts);
            }
            return Ok(());
        }
        let pose = Pose {
            q: self.pose.clone(),
        };
        let frame = self.frame;
        let skeleton = self.skeleton.clone();
        self.edit_sequence(label, false, |s| {
            set_parts_key_bracketed(&skeleton, s, frame, &pose, &parts).map_err(EditError::from)
        })
    }

    /// Moves every key of joint `joint` in the shown sequence by `by` frames.
    pub(crate) fn offset_joint_keys(&mut self, joint: JointId, by: i64) -> Result<(), EditError> {
        let name = self.skeleton.joint(joint).name.clone();
        let skeleton = self.skeleton.clone();
        self.edit_sequence(format!("Move {name}'s keys by {by} frames"), true, |s| {
            s.offset_joint_keys(&skeleton, joint, by)
                .map_err(EditError::from)
        })
    }

    /// Deletes the shown sequence's key at the current frame.
    pub(crate) fn delete_key(&mut self) -> Result<(), EditError> {
        let frame = self.frame;
        self.edit_sequence(format!("Delete key at frame {frame}"), true, |s| {
            s.delete_key(frame).map_err(EditError::from)
        })
    }

    /// Moves the shown sequence's key at `from` to `to` (its marker dragged).
    pub(crate) fn move_key(&mut self, from: i64, to: i64) -> Result<(), EditError> {
        self.edit_sequence(format!("Move key {from} to {to}"), true, |s| {
            s.move_key(from, to).map_err(EditError::from)
        })
    }

    /// How the span after the shown sequence's key at `frame` goes (`None`: as the sequence
    /// says), and its ease.
    pub(crate) fn set_key_interpolation(
        &mut self,
        frame: i64,
        interpolation: Option<marionette_document::KeyInterpolation>,
        ease: f64,
    ) -> Result<(), EditError> {
        let what = match interpolation {
            Some(kind) => format!("{kind:?}"),
            None => "the sequence's".into(),
        };
        let label = format!("Key {frame}: {what} interpolation, ease {ease:.2}");
        self.edit_sequence(label, true, |s| {
            s.set_key_interpolation(frame, interpolation, ease)
                .map_err(EditError::from)
        })
    }

    /// The shown sequence's frames `first ..= last` as a clip.
    pub fn copy_frames(&self, first: i64, last: i64) -> Result<Clip, EditError> {
        let i = self.shown()?;
        Ok(self.sequences[i].copy_range(first, last)?)
    }

    /// Cuts the frames `first ..= last` out of the shown sequence.
    pub(crate) fn cut_frames(&mut self, first: i64, last: i64) -> Result<Clip, EditError> {
        let clip = self.copy_frames(first, last)?;
        self.edit_sequence(format!("Cut frames {first}–{last}"), true, |s| {
            s.delete_range(first, last).map_err(EditError::from)
        })?;
        Ok(clip)
    }

    /// Pastes `clip` at `at` (its frames inserted there).
    pub(crate) fn paste_frames(&mut self, at: i64, clip: &Clip) -> Result<(), EditError> {
        self.edit_sequence(format!("Paste {} frames at {at}", clip.length), true, |s| {
            s.paste(at, clip).map_err(EditError::from)
        })
    }

    /// Inserts `count` empty frames at `at`.
    pub(crate) fn insert_frames(&mut self, at: i64, count: i64) -> Result<(), EditError> {
        self.edit_sequence(format!("Insert {count} frames at {at}"), true, |s| {
            s.insert_frames(at, count).map_err(EditError::from)
        })
    }

    /// Deletes the frames `first ..= last` (later keys move back).
    pub(crate) fn delete_frames(&mut self, first: i64, last: i64) -> Result<(), EditError> {
        self.edit_sequence(format!("Delete frames {first}–{last}"), true, |s| {
            s.delete_range(first, last).map_err(EditError::from)
        })
    }

    /// Stretches or shrinks the frames `first ..= last` to `length` frames.
    pub(crate) fn retime_frames(
        &mut self,
        first: i64,
        last: i64,
        length: i64,
    ) -> Result<(), EditError> {
        self.edit_sequence(
            format!("Retime frames {first}–{last} to {length}"),
            true,
            |s| s.retime_range(first, last, length).map_err(EditError::from),
        )
    }

    /// Slides the keys of frames `first ..= last` by `delta`.
    pub(crate) fn slide_frames(
        &mut self,
        first: i64,
        last: i64,
        delta: i64,
    ) -> Result<(), EditError> {
        self.edit_sequence(
            format!("Slide frames {first}–{last} by {delta}"),
            true,
            |s| s.slide_range(first, last, delta).map_err(EditError::from),
        )
    }

    /// Sets the shown sequence's settings to `s`, as one undo step.
    pub(crate) fn apply_sequence_settings(&mut self, s: SequenceSettings) -> Result<(), EditError> {
        self.set_sequence_settings("Sequence settings".into(), move |seq| {
            seq.fps = s.fps;
            seq.rotation = s.rotation;
            seq.root = s.root;
            seq.hold_locks = s.hold_locks;
        })
    }

    /// Changes the shown sequence's settings (fps, interpolation, holding locks) with `change`,
    /// as one undo step labelled `label`.
    pub(crate) fn set_sequence_settings(
        &mut self,
        label: String,
        change: impl FnOnce(&mut Sequence),
    ) -> Result<(), EditError> {
        self.edit_sequence(label, true, |s| {
            change(s);
            let defects = s.defects();
            match defects.first() {
                None => Ok(()),
                Some(d) => Err(EditError::SequenceValue {
                    sequence: s.name.clone(),
                    what: d.clone(),
                }),
            }
        })
    }

    pub(crate) fn shown(&self) -> Result<usize, EditError> {
        self.sequence
            .filter(|&i| i < self.sequences.len())
            .ok_or(EditError::NoSuchSequence(self.sequence.unwrap_or(0)))
    }

    pub(crate) fn check_sequence(&self, index: usize) -> Result<(), EditError> {
        if index < self.sequences.len() {
            Ok(())
        } else {
            Err(EditError::NoSuchSequence(index))
        }
    }

    /// Applies `change` to a copy of the shown sequence; if it succeeds, the copy replaces it
    /// and one undo step is recorded; with `reshow`, the pose at the current frame is shown
    /// again (the keys around it changed).
    pub(crate) fn edit_sequence(
        &mut self,
        label: String,
        reshow: bool,
        change: impl FnOnce(&mut Sequence) -> Result<(), EditError>,
    ) -> Result<(), EditError> {
        let i = self.shown()?;
        self.end_drag();
        let mut edited = self.sequences[i].clone();
        change(&mut edited)?;
        let before = self.sequences.clone();
        self.sequences[i] = edited;
        self.record_sequences(label, before);
        if reshow {
            self.show_frame();
        }
        Ok(())
    }

    pub(crate) fn record_sequences(&mut self, label: String, before: Vec<Sequence>) {
        self.history.record(Change::Sequences {
            label,
            before,
            after: self.sequences.clone(),
        });
    }
}
