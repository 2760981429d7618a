//! The curve editor's edits on the shown sequence (issue 34): keys' values set (points dragged
//! in value), joints' keys moved in time (points dragged sideways, several at once), keys on
//! single DOFs (a point added on a curve), free handles set or given back to the span's
//! tangents, and Tween: a key at the current frame on the selected joints, each a chosen blend
//! of the way from its own key before to its own key after (its rotation along the shorter
//! arc, the root in a straight line). Each is one undo step.

use marionette_document::{Key, KeyInterpolation, KeyedParts, Sequence};
use marionette_motion::Interpolator;
use marionette_skeleton::{JointId, Pose, ROOT_STATE_LEN};

use crate::bracket_keys::{set_dof_key_bracketed, set_parts_key_bracketed};
use crate::{Document, EditError};

/// The curve editor's units per state unit for state index `state`: degrees per radian for a
/// hinge, millimetres per metre for a slide and the root translation.
pub fn shown_scale(skeleton: &marionette_skeleton::Skeleton, state: usize) -> f64 {
    match skeleton.dof_at_state(state) {
        Some(d) if skeleton.dof(d).kind == marionette_skeleton::DofKind::Hinge => {
            180.0 / std::f64::consts::PI
        }
        _ => 1e3,
    }
}

/// A key's free handles on one state: (key frame, state index, `Some((before, after))`, each
/// (frames, value) from the key's point, or `None` for the span's own tangents).
pub type Handles = (i64, usize, Option<([f64; 2], [f64; 2])>);

/// Frames of the span a tween is read from (its blend is rounded to 1/`TWEEN_STEPS`).
const TWEEN_STEPS: i64 = 10_000;

impl Document {
    /// Sets several key values, (key frame, state index, value) each, as one undo step; all or
    /// none.
    pub(crate) fn set_key_values(&mut self, values: &[(i64, usize, f64)]) -> Result<(), EditError> {
        let skeleton = self.skeleton.clone();
        let label = match values {
            [(frame, state, _)] => format!("Key {frame}: {}", self.state_name(*state)),
            _ => format!("Set {} key values", values.len()),
        };
        self.edit_sequence(label, true, |s| {
            for &(frame, state, value) in values {
                s.set_key_value(&skeleton, frame, state, value)?;
            }
            Ok(())
        })
    }

    /// Moves joints' keys, (joint, from, to) each, as one undo step; all or none
    /// ([`marionette_document::Sequence::move_joint_keys`]).
    pub(crate) fn move_joint_keys(
        &mut self,
        moves: &[(JointId, i64, i64)],
    ) -> Result<(), EditError> {
        let label = match moves {
            [(joint, from, to)] => format!(
                "Move {}'s key {from} to {to}",
                self.skeleton.joint(*joint).name
            ),
            _ => format!("Move {} keys", moves.len()),
        };
        let skeleton = self.skeleton.clone();
        self.edit_sequence(label, true, |s| {
            s.move_joint_keys(&skeleton, moves).map_err(EditError::from)
        })
    }

    /// Curve points, (state index, key frame) each, dragged by `frames` and by `by` in the
    /// curve editor's units ([`shown_scale`]), as one undo step: the joints' keys moved in time
    /// (a key holding the whole joint moves with all its DOFs; the root translation's keys
    /// stay at their frames), then each point's value changed by `by` (clamped to its limits).
    pub(crate) fn drag_curve_points(
        &mut self,
        points: &[(usize, i64)],
        frames: i64,
        by: f64,
    ) -> Result<(), EditError> {
        if points.is_empty() {
            return Err(EditError::NoSelection("Drag curve points"));
        }
        let skeleton = self.skeleton.clone();
        let i = self.shown()?;
        let seq = &self.sequences[i];
        let mut values = Vec::with_capacity(points.len());
        let mut moves = Vec::new();
        for &(state, frame) in points {
            let key = seq
                .key_at(frame)
                .filter(|k| k.holds_state(&skeleton, state));
            let Some(key) = key else {
                return Err(EditError::PoseTool(format!(
                    "no key of {} at frame {frame}",
                    self.state_name(state)
                )));
            };
            let value = key.pose.q[state] + by / shown_scale(&skeleton, state);
            match skeleton.dof_at_state(state) {
                Some(d) if frames != 0 => {
                    let to = frame.checked_add(frames).ok_or_else(|| {
                        EditError::PoseTool(format!("frame {frame} + {frames} is out of range"))
                    })?;
                    moves.push((skeleton.dof(d).joint, frame, to));
                    values.push((to, state, value));
                }
                _ => values.push((frame, state, value)),
            }
        }
        let label = match points {
            [(state, frame)] => format!("Drag {} at key {frame}", self.state_name(*state)),
            _ => format!("Drag {} curve points", points.len()),
        };
        self.edit_sequence(label, true, |s| {
            s.move_joint_keys(&skeleton, &moves)?;
            for &(frame, state, value) in &values {
                s.set_key_value(&skeleton, frame, state, value)?;
            }
            Ok(())
        })
    }

    /// Keys single DOFs, (frame, state index, value) each, as one undo step: a key on that
    /// DOF alone (added to a key already at the frame). A root coordinate keys the root
    /// translation, its other two coordinates as interpolated there.
    pub(crate) fn key_dofs(&mut self, values: &[(i64, usize, f64)]) -> Result<(), EditError> {
        let i = self.shown()?;
        let skeleton = self.skeleton.clone();
        // The root's other coordinates are read from the interpolated pose: made only when a
        // root coordinate is keyed.
        let interpolator = values
            .iter()
            .any(|&(_, state, _)| state < ROOT_STATE_LEN)
            .then(|| Interpolator::new(&skeleton, &self.sequences[i]));
        let label = match values {
            [(frame, state, _)] => format!("Key {} at frame {frame}", self.state_name(*state)),
            _ => format!("Key {} DOFs", values.len()),
        };
        self.edit_sequence(label, true, |s| {
            for &(frame, state, value) in values {
                match skeleton.dof_at_state(state) {
                    Some(d) => set_dof_key_bracketed(&skeleton, s, frame, d, value)?,
                    None if let Some(interpolator) = &interpolator
                        && state < ROOT_STATE_LEN
                        && value.is_finite() =>
                    {
                        let mut q = Vec::new();
                        interpolator.pose_at(&skeleton, frame, &mut q);
                        q[state] = value;
                        set_parts_key_bracketed(
                            &skeleton,
                            s,
                            frame,
                            &Pose { q },
                            &KeyedParts::new([], true),
                        )?;
                    }
                    None => {
                        return Err(EditError::PoseTool(format!(
                            "no DOF at state index {state}, or value {value} is not a number"
                        )));
                    }
                }
            }
            Ok(())
        })
    }

    /// Sets keys' free handles, (key frame, state index, `Some((before, after))` or `None`
    /// for the spans' own tangents) each, as one undo step; each on a curve its key holds (a
    /// DOF, or a root coordinate of a key holding the root).
    pub(crate) fn set_handles(&mut self, handles: &[Handles]) -> Result<(), EditError> {
        let skeleton = self.skeleton.clone();
        let label = match handles {
            [(frame, state, Some(_))] => {
                format!("Handles of {} at key {frame}", self.state_name(*state))
            }
            [(frame, state, None)] => {
                format!("Auto handles of {} at key {frame}", self.state_name(*state))
            }
            _ => format!("Handles at {} keys", handles.len()),
        };
        self.edit_sequence(label, true, |s| {
            for &(frame, state, h) in handles {
                s.set_key_handles(&skeleton, frame, state, h)?;
            }
            Ok(())
        })
    }

    /// A state's name as the curve editor shows it ("left elbow 1", "root y").
    fn state_name(&self, state: usize) -> String {
        marionette_document::curve_name(&self.skeleton, state)
    }

    /// A key at the current frame on `joints`, each `blend` of the way from its key before to
    /// its key after.
    pub(crate) fn tween(&mut self, joints: &[JointId], blend: f64) -> Result<(), EditError> {
        if joints.is_empty() {
            return Err(EditError::NoSelection("Tween"));
        }
        if !(0.0..=1.0).contains(&blend) {
            return Err(EditError::PoseTool(format!(
                "Tween: blend {blend} is not between 0 and 1"
            )));
        }
        let i = self.shown()?;
        let frame = self.frame;
        let seq = &self.sequences[i];
        let mut pose = Pose {
            q: self.pose.clone(),
        };
        for &j in joints {
            let before = seq
                .keys
                .iter()
                .rev()
                .find(|k| k.frame < frame && k.holds_joint(j));
            let after = seq
                .keys
                .iter()
                .find(|k| k.frame > frame && k.holds_joint(j));
            let (Some(a), Some(b)) = (before, after) else {
                return Err(EditError::PoseTool(format!(
                    "Tween: \"{}\" needs a key before frame {frame} and one after",
                    self.skeleton.joint(j).name
                )));
            };
            // The span from a to b on its own, read `blend` of the way.
            let span = Sequence {
                keys: vec![
                    Key {
                        interpolation: Some(KeyInterpolation::Linear),
                        ..Key::new(0, a.pose.clone())
                    },
                    Key::new(TWEEN_STEPS, b.pose.clone()),
                ],
                ..seq.clone()
            };
            let mut q = Vec::new();
            Interpolator::new(&self.skeleton, &span).pose_at(
                &self.skeleton,
                (blend * TWEEN_STEPS as f64).round() as i64,
                &mut q,
            );
            for d in self.skeleton.joint_dofs(j) {
                pose.q[d.state_index()] = q[d.state_index()];
            }
        }
        let parts = KeyedParts::new(joints.iter().copied(), false);
        let skeleton = self.skeleton.clone();
        self.edit_sequence(
            format!("Tween at frame {frame} ({:.0} %)", blend * 100.0),
            true,
            |s| {
                set_parts_key_bracketed(&skeleton, s, frame, &pose, &parts).map_err(EditError::from)
            },
        )
    }
}
