//! Where a retargeted take stands: a capture keeps the performer's place in the capture room
//! (often metres from the origin, facing anywhere), so a take put onto a figure standing at
//! the origin may leave it out of sight. [`stand_where_the_figure_stands`] moves and turns the
//! whole take about the vertical so that its first frame stands where the figure stood (its
//! root over the same spot) and faces where it faced; heights are kept.

use marionette_document::Sequence;
use marionette_skeleton::joint_rotation::JointRotations;
use marionette_skeleton::rotation::{nearest_rotation, quaternion_of};
use marionette_skeleton::{Fk, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Rotation3, Vector3};

use super::humanoid_of;

/// The figure's facing in pose `q` as an angle about +Y (from +Z towards +X).
fn heading(skeleton: &Skeleton, q: &[f64]) -> Result<f64, String> {
    let forward = humanoid_of(skeleton, q)?.forward;
    if forward.x.hypot(forward.z) < 1e-9 {
        return Err("the figure faces straight up or down".into());
    }
    Ok(forward.x.atan2(forward.z))
}

/// Moves and turns every key of `sequence` (a take on `skeleton`) about the vertical so that its
/// first key's root stands over where it is in `reference` (the figure's pose before the
/// retarget) and the figure faces as it faces there. Returns the turn (radians) and the move
/// across the ground (metres).
pub fn stand_where_the_figure_stands(
    skeleton: &Skeleton,
    reference: &[f64],
    sequence: &mut Sequence,
) -> Result<(f64, f64), String> {
    let Some(first) = sequence.keys.first() else {
        return Ok((0.0, 0.0));
    };
    let Some(root) = skeleton.joint_ids().next() else {
        return Ok((0.0, 0.0));
    };
    let turn = heading(skeleton, reference)? - heading(skeleton, &first.pose.q)?;
    let yaw = Rotation3::from_axis_angle(&Vector3::y_axis(), turn).into_inner();
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, reference);
    let stood = fk.joint_position(root);
    fk.update(skeleton, &first.pose.q);
    let started = fk.joint_position(root);
    let rotations = JointRotations::new(skeleton);
    let orientation = skeleton.joint(root).orientation;
    for key in &mut sequence.keys {
        fk.update(skeleton, &key.pose.q);
        let at = fk.joint_position(root);
        let mut wanted = stood + yaw * (at - started);
        wanted.y = at.y;
        for (i, v) in (at - wanted).iter().enumerate().take(ROOT_STATE_LEN) {
            key.pose.q[i] -= v;
        }
        let world = yaw * fk.joint_rotation(root);
        let local = orientation.transpose() * world;
        rotations.read_back(
            skeleton,
            root,
            &quaternion_of(&nearest_rotation(&local)),
            &mut key.pose.q,
        );
    }
    let moved = stood - started;
    Ok((turn, moved.x.hypot(moved.z)))
}
