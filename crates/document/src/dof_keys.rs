//! Keys on one DOF and free handles (issue 34): a key at a frame on a single hinge or slide of
//! a joint (one axis of a shoulder keyed on its own), and a key's Bézier handles on a curve (a
//! DOF or a root coordinate) set or given back to the spans' own tangents. Like the other key edits, each either succeeds
//! or leaves the sequence as it was.

use marionette_skeleton::{DofId, Skeleton};

use crate::key_edits::KeyEditError;
use crate::sequence::{FreeHandles, KeyedParts, Sequence, handles_fit};

impl Sequence {
    /// Sets a key at `frame` on DOF `dof` alone at `value` (clamped to its limits): a new key
    /// holding just it (its other values those of the key before, which do not count), or,
    /// where a key is, the DOF added to it.
    pub fn set_dof_key(
        &mut self,
        skeleton: &Skeleton,
        frame: i64,
        dof: DofId,
        value: f64,
    ) -> Result<(), KeyEditError> {
        if dof.index() >= skeleton.dofs().len() || !value.is_finite() {
            return Err(KeyEditError::BadRange {
                sequence: self.name.clone(),
                what: format!("value {value} for DOF {} at frame {frame}", dof.index()),
            });
        }
        let near = self
            .keys
            .iter()
            .rev()
            .find(|k| k.frame <= frame)
            .or(self.keys.first());
        let mut pose = match near {
            Some(k) => k.pose.clone(),
            None => marionette_skeleton::Pose::rest(skeleton),
        };
        pose.q[dof.state_index()] = skeleton.dof(dof).clamp(value);
        let parts = KeyedParts::default().with_dofs(skeleton, [dof]);
        self.set_parts_key(skeleton, frame, &pose, &parts)
    }

    /// Sets the free handles of curve `state` (a DOF, or a coordinate of the root
    /// translation) at the key at `frame` (`Some((before, after))`, each (frames, value) from
    /// the key's point), or gives it back to its spans' tangents (`None`). The key must hold
    /// the curve.
    pub fn set_key_handles(
        &mut self,
        skeleton: &Skeleton,
        frame: i64,
        state: usize,
        handles: Option<([f64; 2], [f64; 2])>,
    ) -> Result<(), KeyEditError> {
        let i = self.index_of(frame)?;
        if !self.keys[i].holds_state(skeleton, state) {
            return Err(KeyEditError::NoKey {
                sequence: self.name.clone(),
                frame,
            });
        }
        let key = &mut self.keys[i];
        match handles {
            None => key.handles.retain(|h| h.state != state),
            Some((before, after)) => {
                if !handles_fit(before, after) {
                    return Err(KeyEditError::BadRange {
                        sequence: self.name.clone(),
                        what: format!(
                            "handles {before:?} and {after:?} at frame {frame} (before must not \
                             be after the key, nor after before it)"
                        ),
                    });
                }
                key.set_handles(FreeHandles {
                    state,
                    before,
                    after,
                });
            }
        }
        Ok(())
    }
}
