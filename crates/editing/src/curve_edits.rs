//! The curve editor's edits on the shown sequence (issue 34): a key's value set (its point
//! dragged in value), and Tween: a key at the current frame on the selected joints, each a
//! chosen blend of the way from its own key before to its own key after (its rotation along
//! the shorter arc, the root in a straight line). Each is one undo step.

use marionette_document::{Key, KeyInterpolation, KeyedParts, Sequence};
use marionette_motion::Interpolator;
use marionette_skeleton::{JointId, Pose, ROOT_STATE_LEN};

use crate::{Document, EditError};

/// Frames of the span a tween is read from (its blend is rounded to 1/`TWEEN_STEPS`).
const TWEEN_STEPS: i64 = 10_000;

impl Document {
    /// Sets state index `state` of the shown sequence's key at `frame` to `value` (clamped to
    /// the DOF's limits).
    pub fn set_key_value(&mut self, frame: i64, state: usize, value: f64) -> Result<(), EditError> {
        self.set_key_values(&[(frame, state, value)])
    }

    /// Sets several key values, (key frame, state index, value) each, as one undo step; all or
    /// none.
    pub fn set_key_values(&mut self, values: &[(i64, usize, f64)]) -> Result<(), EditError> {
        let skeleton = self.skeleton.clone();
        let label = match values {
            [(frame, state, _)] => {
                let what = match skeleton.dof_at_state(*state) {
                    Some(d) => format!(
                        "{} {}",
                        skeleton.joint(skeleton.dof(d).joint).name,
                        skeleton.dof(d).index_in_joint + 1
                    ),
                    None if *state < ROOT_STATE_LEN => format!("root {}", ["x", "y", "z"][*state]),
                    None => format!("state {state}"),
                };
                format!("Key {frame}: {what}")
            }
            _ => format!("Set {} key values", values.len()),
        };
        self.edit_sequence(label, true, |s| {
            for &(frame, state, value) in values {
                s.set_key_value(&skeleton, frame, state, value)?;
            }
            Ok(())
        })
    }

    /// A key at the current frame on `joints`, each `blend` of the way from its key before to
    /// its key after.
    pub fn tween(&mut self, joints: &[JointId], blend: f64) -> Result<(), EditError> {
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
                        frame: 0,
                        only: None,
                        interpolation: Some(KeyInterpolation::Linear),
                        ease: 0.0,
                        pose: a.pose.clone(),
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
                s.set_parts_key(&skeleton, frame, &pose, &parts)
                    .map_err(EditError::from)
            },
        )
    }
}
