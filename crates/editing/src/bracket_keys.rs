//! A joint's first key on one side of a frame changes only the frames up to the sequence's
//! neighbouring key: keying a joint (or the root translation) at a frame where no key holds it
//! on one side would otherwise change it on every frame of that side (a joint with no key at
//! all is held at its one key everywhere). So the edits that add such a key first key the part,
//! as the sequence had it, at the nearest key frame of the sequence on that side (issue 48).
//! A joint keyed on both sides already keeps its own keys: keys at other frames for other joints
//! (a follow-through's offsets) are not added to.

use marionette_document::{Key, KeyEditError, KeyedParts, Sequence};
use marionette_motion::Interpolator;
use marionette_skeleton::{DofId, JointId, Pose, Skeleton};

/// The keys that bracket a key of `parts` at `frame` in `sequence`: per neighbouring key (the
/// nearest key of the sequence before `frame` and after it), the parts of `parts` that no key
/// holds on that side of `frame`, with the sequence's pose there as it is interpolated now.
pub fn bracketing_keys(
    skeleton: &Skeleton,
    sequence: &Sequence,
    frame: i64,
    parts: &KeyedParts,
) -> Vec<(i64, Pose, KeyedParts)> {
    let before = sequence.keys.iter().rev().find(|k| k.frame < frame);
    let after = sequence.keys.iter().find(|k| k.frame > frame);
    let mut out = Vec::new();
    let mut interpolator = None;
    for (neighbour, before_it) in [(before, true), (after, false)] {
        let Some(neighbour) = neighbour else {
            continue;
        };
        let side: Vec<&Key> = sequence
            .keys
            .iter()
            .filter(|k| {
                if before_it {
                    k.frame < frame
                } else {
                    k.frame > frame
                }
            })
            .collect();
        let joints: Vec<JointId> = parts
            .joints
            .iter()
            .copied()
            .chain(parts.dofs.iter().map(|&d| skeleton.dof(d).joint))
            .filter(|&j| !side.iter().any(|k| k.holds_part_of(skeleton, j)))
            .collect();
        let root = parts.root && !side.iter().any(|k| k.only.as_ref().is_none_or(|o| o.root));
        if joints.is_empty() && !root {
            continue;
        }
        let interpolator =
            interpolator.get_or_insert_with(|| Interpolator::new(skeleton, sequence));
        let mut q = Vec::new();
        interpolator.pose_at(skeleton, neighbour.frame, &mut q);
        out.push((neighbour.frame, Pose { q }, KeyedParts::new(joints, root)));
    }
    out
}

/// Keys `parts` at `frame` from `pose` in `sequence`, bracketed first ([`bracketing_keys`]).
pub fn set_parts_key_bracketed(
    skeleton: &Skeleton,
    sequence: &mut Sequence,
    frame: i64,
    pose: &Pose,
    parts: &KeyedParts,
) -> Result<(), KeyEditError> {
    for (at, held, bracketed) in bracketing_keys(skeleton, sequence, frame, parts) {
        sequence.set_parts_key(skeleton, at, &held, &bracketed)?;
    }
    sequence.set_parts_key(skeleton, frame, pose, parts)
}

/// Keys DOF `dof` alone at `frame` to `value` in `sequence`, bracketed first: where no key holds
/// its joint on one side, the DOF alone is keyed as it was at the neighbouring key there.
pub fn set_dof_key_bracketed(
    skeleton: &Skeleton,
    sequence: &mut Sequence,
    frame: i64,
    dof: DofId,
    value: f64,
) -> Result<(), KeyEditError> {
    let only = KeyedParts::new([], false).with_dofs(skeleton, [dof]);
    for (at, held, _) in bracketing_keys(skeleton, sequence, frame, &only) {
        sequence.set_dof_key(skeleton, at, dof, held.q[dof.state_index()])?;
    }
    sequence.set_dof_key(skeleton, frame, dof, value)
}
