//! Keys on some joints: a key that holds only the selected joints (and, or not, the root
//! translation), and a joint's key moved to another frame on its own. One key per frame stays
//! the rule: a key set on some joints where a key already is adds them to it (a whole-pose key
//! stays whole, its values for them replaced), and a joint's key moved away from a key holding
//! other parts leaves them there. Like the other key edits, each either succeeds or leaves the
//! sequence as it was.

use marionette_skeleton::{DofId, JointId, Pose, ROOT_STATE_LEN, Skeleton};

use crate::key_edits::KeyEditError;
use crate::sequence::{Key, KeyedParts, Sequence};

impl Sequence {
    /// Sets a key at `frame` on `parts` only, their values taken from `pose` (a pose of
    /// `skeleton`): a new key holding just them, or, where a key is, them added to it.
    pub fn set_parts_key(
        &mut self,
        skeleton: &Skeleton,
        frame: i64,
        pose: &Pose,
        parts: &KeyedParts,
    ) -> Result<(), KeyEditError> {
        if parts.is_empty() {
            return Err(KeyEditError::BadRange {
                sequence: self.name.clone(),
                what: format!("a key at frame {frame} on no joint and not the root"),
            });
        }
        match self.keys.binary_search_by_key(&frame, |k| k.frame) {
            Ok(i) => {
                let key = &mut self.keys[i];
                copy_parts(skeleton, parts, &pose.q, &mut key.pose.q);
                if let Some(only) = &key.only {
                    let union = KeyedParts::new(
                        only.joints.iter().chain(&parts.joints).copied(),
                        only.root || parts.root,
                    )
                    .with_dofs(skeleton, only.dofs.iter().chain(&parts.dofs).copied());
                    // Every part held again: a whole-pose key.
                    let whole = union.root
                        && union.dofs.is_empty()
                        && union.joints.len() == skeleton.joints().len();
                    key.only = (!whole).then_some(union);
                }
            }
            Err(_) => {
                let mut moved = self.clone();
                moved.set_key(frame, pose.clone())?;
                let i = moved.index_of_key(frame);
                moved.keys[i].only = Some(parts.clone());
                *self = moved;
            }
        }
        Ok(())
    }

    /// Moves joint `joint`'s key at `from` to `to`: what the key at `from` holds of the joint
    /// (all of it, or some of its DOFs) goes to `to` with its free handles (a new key holding
    /// only that, or added to the key there), and the key at `from` keeps its other parts (it
    /// is deleted when that was all it held). Refused when no key at `from` holds a part of
    /// `joint`, when a key at `to` already holds one of the parts moved, or when it would leave
    /// the sequence without keys.
    pub fn move_joint_key(
        &mut self,
        skeleton: &Skeleton,
        joint: JointId,
        from: i64,
        to: i64,
    ) -> Result<(), KeyEditError> {
        let no_key = || KeyEditError::NoKey {
            sequence: self.name.clone(),
            frame: from,
        };
        let Ok(i) = self.keys.binary_search_by_key(&from, |k| k.frame) else {
            return Err(no_key());
        };
        if joint.index() >= skeleton.joints().len() || !self.keys[i].holds_part_of(skeleton, joint)
        {
            return Err(no_key());
        }
        if from == to {
            return Ok(());
        }
        let key: Key = self.keys[i].clone();
        let own: Vec<DofId> = skeleton.joint_dofs(joint).collect();
        let moving: Vec<DofId> = own
            .iter()
            .copied()
            .filter(|&d| key.holds_dof(joint, d))
            .collect();
        let whole = key.holds_joint(joint);
        let states: Vec<usize> = moving.iter().map(|d| d.state_index()).collect();
        if self
            .key_at(to)
            .is_some_and(|k| k.holds_joint(joint) || moving.iter().any(|&d| k.holds_dof(joint, d)))
        {
            return Err(KeyEditError::Occupied {
                sequence: self.name.clone(),
                frame: to,
            });
        }
        let mut moved = self.clone();
        let all = KeyedParts::new(skeleton.joint_ids(), true);
        let held = key.only.as_ref().unwrap_or(&all);
        let rest = KeyedParts::new(
            held.joints.iter().copied().filter(|&j| j != joint),
            held.root,
        )
        .with_dofs(
            skeleton,
            held.dofs.iter().copied().filter(|d| !moving.contains(d)),
        );
        if rest.is_empty() {
            moved.keys.remove(i);
        } else {
            moved.keys[i].only = Some(rest);
            moved.keys[i].handles.retain(|h| !states.contains(&h.state));
        }
        let parts = if whole {
            KeyedParts::new([joint], false)
        } else {
            KeyedParts::default().with_dofs(skeleton, moving.iter().copied())
        };
        let new = moved.key_at(to).is_none();
        moved.set_parts_key(skeleton, to, &key.pose, &parts)?;
        let j = moved.index_of_key(to);
        if new {
            moved.keys[j].interpolation = key.interpolation;
            moved.keys[j].ease = key.ease;
        }
        for h in key.handles.iter().filter(|h| states.contains(&h.state)) {
            moved.keys[j].set_handles(*h);
        }
        if moved.keys.is_empty() {
            return Err(KeyEditError::LastKey {
                sequence: self.name.clone(),
            });
        }
        *self = moved;
        Ok(())
    }

    /// Moves every key of joint `joint` by `by` frames (one drag on its lane: its timing
    /// offset against the rest), as [`Sequence::move_joint_keys`]; all or none.
    pub fn offset_joint_keys(
        &mut self,
        skeleton: &Skeleton,
        joint: JointId,
        by: i64,
    ) -> Result<(), KeyEditError> {
        let mut moves = Vec::new();
        for f in self.joint_key_frames(skeleton, joint) {
            let to = f.checked_add(by).ok_or_else(|| KeyEditError::TooLong {
                sequence: self.name.clone(),
                first: f,
                last: f,
            })?;
            moves.push((joint, f, to));
        }
        self.move_joint_keys(skeleton, &moves)
    }

    /// Moves joints' keys, (joint, from, to) each, as [`Sequence::move_joint_key`]; all or
    /// none. Moves later in time are made latest key first (and earlier ones earliest first),
    /// so that keys moved together do not meet on the way; a move listed twice is made once.
    pub fn move_joint_keys(
        &mut self,
        skeleton: &Skeleton,
        moves: &[(JointId, i64, i64)],
    ) -> Result<(), KeyEditError> {
        let mut ordered = moves.to_vec();
        ordered.sort_by_key(|&(_, from, to)| if to > from { -from } else { from });
        ordered.dedup();
        let mut moved = self.clone();
        for (joint, from, to) in ordered {
            moved.move_joint_key(skeleton, joint, from, to)?;
        }
        *self = moved;
        Ok(())
    }

    /// Sets one value of the key at `frame`: state index `state` of `skeleton` (a DOF, or the
    /// root translation's x, y or z), clamped to the DOF's limits; the key must hold that
    /// DOF (or the root). The curve editor's drag of a key's point in value.
    pub fn set_key_value(
        &mut self,
        skeleton: &Skeleton,
        frame: i64,
        state: usize,
        value: f64,
    ) -> Result<(), KeyEditError> {
        let i = self.index_of(frame)?;
        if !value.is_finite() || state >= skeleton.state_len() {
            return Err(KeyEditError::BadRange {
                sequence: self.name.clone(),
                what: format!("value {value} for state index {state} at frame {frame}"),
            });
        }
        if !self.keys[i].holds_state(skeleton, state) {
            return Err(KeyEditError::NoKey {
                sequence: self.name.clone(),
                frame,
            });
        }
        let key = &mut self.keys[i];
        let value = match skeleton.dof_at_state(state) {
            Some(d) => skeleton.dof(d).clamp(value),
            None => value.clamp(
                -marionette_skeleton::MAX_COORDINATE,
                marionette_skeleton::MAX_COORDINATE,
            ),
        };
        key.pose.q[state] = value;
        Ok(())
    }

    /// The frames of the keys holding joint `joint` of `skeleton`, or some of its DOFs.
    pub fn joint_key_frames(&self, skeleton: &Skeleton, joint: JointId) -> Vec<i64> {
        self.keys
            .iter()
            .filter(|k| k.holds_part_of(skeleton, joint))
            .map(|k| k.frame)
            .collect()
    }

    /// The index of the key at `frame`, which is there.
    fn index_of_key(&self, frame: i64) -> usize {
        self.keys
            .binary_search_by_key(&frame, |k| k.frame)
            .unwrap_or_else(|i| i.min(self.keys.len().saturating_sub(1)))
    }
}

/// The values of `parts` (their joints' DOFs, the root translation) copied from `from` into
/// `to` (states of `skeleton`).
fn copy_parts(skeleton: &Skeleton, parts: &KeyedParts, from: &[f64], to: &mut [f64]) {
    if parts.root {
        to[..ROOT_STATE_LEN].copy_from_slice(&from[..ROOT_STATE_LEN]);
    }
    let joints = parts
        .joints
        .iter()
        .filter(|j| j.index() < skeleton.joints().len())
        .flat_map(|&j| skeleton.joint_dofs(j));
    for d in joints.chain(parts.dofs.iter().copied()) {
        let s = d.state_index();
        if let (Some(v), Some(slot)) = (from.get(s), to.get_mut(s)) {
            *slot = *v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    fn sequence(skeleton: &Skeleton) -> Sequence {
        Sequence {
            name: "wave".into(),
            fps: 24.0,
            rotation: Default::default(),
            root: Default::default(),
            hold_locks: true,
            keys: vec![
                Key::new(0, Pose::rest(skeleton)),
                Key::new(20, Pose::rest(skeleton)),
            ],
        }
    }

    #[test]
    fn a_joint_key_moved_off_a_whole_key_leaves_the_others_there() {
        let s = builtin::humanoid();
        let elbow = s.joint_by_name("left elbow").expect("elbow");
        let mut seq = sequence(&s);
        let mut bent = Pose::rest(&s);
        let d = s.joint_dofs(elbow).next().expect("dof").state_index();
        bent.q[d] = 1.0;
        seq.set_parts_key(&s, 10, &bent, &KeyedParts::new([elbow], false))
            .expect("keyed");
        assert_eq!(seq.keys[1].only, Some(KeyedParts::new([elbow], false)));
        seq.move_joint_key(&s, elbow, 10, 12).expect("moved");
        assert_eq!(seq.joint_key_frames(&s, elbow), [0, 12, 20]);
        assert_eq!(seq.keys[1].pose.q[d], 1.0);
        // Off the whole key at 20: the key there holds every other part, the elbow's is at 22.
        seq.move_joint_key(&s, elbow, 20, 22).expect("moved");
        assert_eq!(seq.joint_key_frames(&s, elbow), [0, 12, 22]);
        let at_20 = seq.key_at(20).expect("key at 20");
        assert!(!at_20.holds_joint(elbow) && at_20.holds_root());
        let knee = s.joint_by_name("left knee").expect("knee");
        assert_eq!(seq.joint_key_frames(&s, knee), [0, 20]);
        // Refused, nothing changed: no elbow key at 20 now, one already at 12.
        let before = seq.clone();
        assert!(matches!(
            seq.move_joint_key(&s, elbow, 20, 30),
            Err(KeyEditError::NoKey { frame: 20, .. })
        ));
        assert!(matches!(
            seq.move_joint_key(&s, elbow, 0, 12),
            Err(KeyEditError::Occupied { frame: 12, .. })
        ));
        assert_eq!(seq, before);
    }

    #[test]
    fn a_joints_keys_offset_together_and_the_others_stay() {
        let s = builtin::humanoid();
        let elbow = s.joint_by_name("left elbow").expect("elbow");
        let mut seq = sequence(&s);
        seq.set_parts_key(&s, 10, &Pose::rest(&s), &KeyedParts::new([elbow], false))
            .expect("keyed");
        seq.offset_joint_keys(&s, elbow, 2).expect("offset");
        assert_eq!(seq.joint_key_frames(&s, elbow), [2, 12, 22]);
        let knee = s.joint_by_name("left knee").expect("knee");
        assert_eq!(seq.joint_key_frames(&s, knee), [0, 20]);
        seq.offset_joint_keys(&s, elbow, -2).expect("back");
        assert_eq!(seq.joint_key_frames(&s, elbow), [0, 10, 20]);
        assert_eq!(seq.keys.len(), 3);
        // The keys at 0 and 20 hold every part again: whole-pose keys, as before.
        assert_eq!(
            (seq.keys[0].only.as_ref(), seq.keys[2].only.as_ref()),
            (None, None)
        );
    }

    #[test]
    fn keying_parts_where_a_whole_key_is_keeps_it_whole() {
        let s = builtin::humanoid();
        let elbow = s.joint_by_name("left elbow").expect("elbow");
        let mut seq = sequence(&s);
        let mut bent = Pose::rest(&s);
        let d = s.joint_dofs(elbow).next().expect("dof").state_index();
        bent.q[d] = 0.5;
        seq.set_parts_key(&s, 0, &bent, &KeyedParts::new([elbow], false))
            .expect("keyed");
        assert_eq!(seq.keys[0].only, None);
        assert_eq!(seq.keys[0].pose.q[d], 0.5);
        assert!(
            seq.set_parts_key(&s, 5, &bent, &KeyedParts::default())
                .is_err()
        );
    }

    #[test]
    fn a_dof_keyed_alone_then_moved_with_its_handles() {
        let s = builtin::humanoid();
        let shoulder = s.joint_by_name("left shoulder").expect("shoulder");
        let d = s.joint_dofs(shoulder).nth(1).expect("second DOF");
        let mut seq = sequence(&s);
        seq.set_dof_key(&s, 10, d, 0.5).expect("keyed");
        let key = seq.key_at(10).expect("key");
        assert!(key.holds_dof(shoulder, d) && !key.holds_joint(shoulder));
        assert_eq!(key.pose.q[d.state_index()], 0.5);
        let other = s.joint_dofs(shoulder).next().expect("first DOF");
        assert!(!key.holds_dof(shoulder, other));
        seq.set_key_handles(&s, 10, d.state_index(), Some(([-3.0, -0.1], [2.0, 0.2])))
            .expect("handles");
        // Refused on a DOF the key does not hold, or with a handle pointing the wrong way.
        let before = seq.clone();
        assert!(
            seq.set_key_handles(&s, 10, other.state_index(), Some(([-1.0, 0.0], [1.0, 0.0])))
                .is_err()
        );
        assert!(
            seq.set_key_handles(&s, 10, d.state_index(), Some(([1.0, 0.0], [1.0, 0.0])))
                .is_err()
        );
        assert_eq!(seq, before);
        seq.move_joint_key(&s, shoulder, 10, 12).expect("moved");
        assert_eq!(seq.joint_key_frames(&s, shoulder), [0, 12, 20]);
        let key = seq.key_at(12).expect("moved key");
        assert_eq!(key.only, Some(KeyedParts::default().with_dofs(&s, [d])));
        assert_eq!(
            key.handles_of(d.state_index()).map(|h| (h.before, h.after)),
            Some(([-3.0, -0.1], [2.0, 0.2]))
        );
        // Every DOF of the shoulder keyed at 12: the key holds the joint.
        for o in s.joint_dofs(shoulder) {
            seq.set_dof_key(&s, 12, o, 0.1).expect("keyed");
        }
        let key = seq.key_at(12).expect("key");
        assert!(key.holds_joint(shoulder));
        assert!(key.only.as_ref().is_some_and(|o| o.dofs.is_empty()));
        seq.set_key_handles(&s, 12, d.state_index(), None)
            .expect("auto again");
        assert!(seq.key_at(12).expect("key").handles.is_empty());
    }
}
