//! A capture's motion put onto another figure: both skeletons' humanoid bones are found (by
//! names and shape, as the character import finds them), both are brought to a common
//! reference, and each mapped bone's rotation is carried over as a change in the world from that
//! reference, so limbs point where the capture's point whatever the joint frames and hinge
//! layouts (the practice of Monzani et al. 2000, "Using an intermediate skeleton and inverse
//! kinematics for motion retargeting", without their IK pass; locks do that here).
//!
//! - The reference: the capture at its rest (a BVH's OFFSET pose), the target at the pose given.
//!   A rotation about the up axis turns the target's facing onto the capture's; then each
//!   mapped bone gets the least rotation that turns its rest direction (towards the next mapped
//!   bone of its chain) onto the capture's, so T-pose, A-pose and arms-down rests all line up.
//!   A foot is turned about the vertical only, its pitch kept: both stand flat-footed at their
//!   rests whichever way their foot bones point, so a foot flat in the capture is flat on the
//!   figure. A bone with no next bone (a hand, a foot's toes, the head) takes its parent bone's.
//! - Each frame, target joints are set parents first: a mapped bone's world rotation is the
//!   capture bone's change from its reference times the bone's alignment times its rest world
//!   rotation; its hinges are read back from the local rotation within their limits (the
//!   nearest valid values, continuous with the last frame), and the world rotation it really
//!   reaches is what its children are set against. Unmapped joints keep their rest values.
//! - The root translation follows the capture's hips, scaled by the ratio of hip heights (hips
//!   above the lowest joint at rest); heights are measured from the ground (the capture's
//!   lowest joint on its first frame, the target's at its reference), and the whole take is
//!   then moved up or down so that the target's ankles on the first frame are as high as at
//!   its reference: the target stands where the capture stands.

use nalgebra::Matrix3;

use marionette_document::{Key, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::{Fk, JointId, Skeleton};

use crate::character::humanoid::{HumanBone, Humanoid, recognise_rig};
use crate::character::rig::{Rig, RigJoint};

mod alignment;
mod frame;
pub mod map;
mod parts;
pub mod placement;

pub use map::{MapEntry, RetargetMap};
pub use parts::{MappedBone, RetargetError};

/// What a retarget made.
#[derive(Debug, Clone)]
pub struct Retargeted {
    /// The capture's motion on the target, keyed on every frame.
    pub sequence: Sequence,
    /// The bones mapped.
    pub map: Vec<MappedBone>,
    /// Per mapped bone, the frames where the target's limits kept it more than 1° from where
    /// the capture's points (its direction towards the next mapped bone; for an end bone, its
    /// whole rotation), and the most it was kept from it (degrees).
    pub limited: Vec<(HumanBone, usize, f64)>,
    /// The ratio of hip heights the root motion was scaled by (target / capture).
    pub hip_ratio: f64,
}

/// `skeleton` at state `q` as a rig, for the humanoid recogniser.
pub fn rig_of(skeleton: &Skeleton, q: &[f64]) -> Rig {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, q);
    let joints = skeleton
        .joint_ids()
        .map(|j| {
            let joint = skeleton.joint(j);
            RigJoint {
                node: j.index(),
                name: joint.name.clone(),
                parent: joint.parent.map(JointId::index),
                children: joint.children.iter().map(|c| c.index()).collect(),
                rotation: *fk.joint_rotation(j),
                position: fk.joint_position(j),
                scale: 1.0,
            }
        })
        .collect();
    Rig {
        joints,
        skins: Vec::new(),
    }
}

/// The humanoid of `skeleton` at state `q`.
pub fn humanoid_of(skeleton: &Skeleton, q: &[f64]) -> Result<Humanoid, String> {
    recognise_rig(&rig_of(skeleton, q))
}

/// The hips' height above the figure's lowest joint.
fn hip_height(skeleton: &Skeleton, fk: &Fk, hips: JointId) -> f64 {
    let lowest = skeleton
        .joint_ids()
        .map(|j| fk.joint_position(j).y)
        .fold(f64::INFINITY, f64::min);
    fk.joint_position(hips).y - lowest
}

/// Moves every key up or down by one amount so that the target's ankles (its mapped feet) on
/// the first frame are as high as at its reference: scaled by the hips alone, a figure whose
/// legs are longer or shorter for its hips than the capture's would float or sink (the
/// grounding practitioners do on the lowest foot).
fn ground_the_feet(target: &Skeleton, reference: &[f64], map: &[MappedBone], keys: &mut [Key]) {
    let feet: Vec<JointId> = map
        .iter()
        .filter(|m| matches!(m.bone, HumanBone::LeftFoot | HumanBone::RightFoot))
        .map(|m| m.target)
        .collect();
    let Some(first) = keys.first() else {
        return;
    };
    if feet.is_empty() {
        return;
    }
    let mut fk = Fk::new(target);
    let mut lowest = |q: &[f64]| {
        fk.update(target, q);
        feet.iter()
            .map(|&j| fk.joint_position(j).y)
            .fold(f64::INFINITY, f64::min)
    };
    let shift = lowest(reference) - lowest(&first.pose.q);
    for key in keys.iter_mut() {
        key.pose.q[1] += shift;
    }
}

/// A bone whose mapping is given rather than found: the bone and its (capture, target) joints,
/// or `None` to leave it unmapped.
pub type MapOverride = (HumanBone, Option<(JointId, JointId)>);

/// The bones mapped by hand.
pub type MapOverrides = [MapOverride];

/// The humanoid bones mapped between `capture` (at its rest) and `target` (at `target_rest`):
/// the bones found on both by names and shape, with the bones of `overrides` mapped as they
/// say instead.
pub fn map_bones(
    capture: &Skeleton,
    target: (&Skeleton, &[f64]),
    overrides: &MapOverrides,
) -> Result<Vec<MappedBone>, RetargetError> {
    Ok(humanoids_and_map(capture, target, overrides)?.2)
}

/// Both humanoids and the map between them (as [`map_bones`]).
fn humanoids_and_map(
    capture: &Skeleton,
    (target, target_rest): (&Skeleton, &[f64]),
    overrides: &MapOverrides,
) -> Result<(Humanoid, Humanoid, Vec<MappedBone>), RetargetError> {
    let capture_rest = marionette_skeleton::Pose::rest(capture).q;
    let hc = humanoid_of(capture, &capture_rest).map_err(|why| RetargetError::NotHumanoid {
        which: "capture",
        why,
    })?;
    let ht = humanoid_of(target, target_rest).map_err(|why| RetargetError::NotHumanoid {
        which: "target",
        why,
    })?;
    let map: Vec<MappedBone> = HumanBone::ALL
        .into_iter()
        .filter_map(|bone| {
            if let Some((_, given)) = overrides.iter().find(|(b, _)| *b == bone) {
                let (capture, target) = (*given)?;
                return Some(MappedBone {
                    bone,
                    capture,
                    target,
                });
            }
            Some(MappedBone {
                bone,
                capture: capture.joint_ids().nth(hc.joint(bone)?)?,
                target: target.joint_ids().nth(ht.joint(bone)?)?,
            })
        })
        .collect();
    Ok((hc, ht, map))
}

/// An imported BVH capture's sequence retargeted onto `target` at its reference state (as
/// [`retarget`]), the keys keeping the capture's frame numbers.
pub fn retarget_imported(
    captured: &crate::bvh::import::Imported,
    target: (&Skeleton, &[f64]),
    overrides: &MapOverrides,
    name: &str,
) -> Result<Retargeted, RetargetError> {
    let frames: Vec<Vec<f64>> = captured
        .sequence
        .keys
        .iter()
        .map(|k| k.pose.q.clone())
        .collect();
    let mut result = retarget(
        &captured.skeleton,
        &frames,
        captured.sequence.fps,
        target,
        overrides,
        name,
    )?;
    for (key, captured) in result.sequence.keys.iter_mut().zip(&captured.sequence.keys) {
        key.frame = captured.frame;
    }
    Ok(result)
}

/// Puts `frames` (states of `capture`, at `fps`) onto `target`, whose reference is the state
/// `target_rest`, with the bones of `overrides` mapped as they say; the sequence is named `name`.
pub fn retarget(
    capture: &Skeleton,
    frames: &[Vec<f64>],
    fps: f64,
    (target, target_rest): (&Skeleton, &[f64]),
    overrides: &MapOverrides,
    name: &str,
) -> Result<Retargeted, RetargetError> {
    if frames.is_empty() {
        return Err(RetargetError::NoFrames);
    }
    let capture_rest = marionette_skeleton::Pose::rest(capture).q;
    let (hc, ht, map) = humanoids_and_map(capture, (target, target_rest), overrides)?;
    let mut fc = Fk::new(capture);
    fc.update(capture, &capture_rest);
    let mut ft = Fk::new(target);
    ft.update(target, target_rest);
    let aligned = alignment::align(&map, (&hc, &ht), &fc, (target, &ft))?;
    let hips = map.iter().find(|m| m.bone == HumanBone::Hips).copied();
    let hip_ratio = hips.map_or(1.0, |h| {
        let c = hip_height(capture, &fc, h.capture);
        let t = hip_height(target, &ft, h.target);
        if c > 1e-9 { t / c } else { 1.0 }
    });
    let hips_reference = hips.map(|h| fc.joint_position(h.capture));
    // The heights: the capture's ground is its lowest joint on its first frame (a BVH's rest
    // stands on nothing: its root is usually at the origin; a take starts standing), the
    // target's its lowest joint at its reference; the target's hips stand the capture's height
    // over its ground, times the ratio, over its own.
    let capture_ground = {
        let mut fk = Fk::new(capture);
        fk.update(capture, &frames[0]);
        capture
            .joint_ids()
            .map(|j| fk.joint_position(j).y)
            .fold(f64::INFINITY, f64::min)
    };
    let target_hip_height = hips.map_or(0.0, |h| hip_height(target, &ft, h.target));
    let poser = frame::Poser::new(target, &map, &aligned);
    let mut q = target_rest.to_vec();
    let mut keys = Vec::with_capacity(frames.len());
    let mut limited: Vec<(HumanBone, usize, f64)> = map.iter().map(|m| (m.bone, 0, 0.0)).collect();
    let mut world = vec![Matrix3::identity(); target.joints().len()];
    for (f, frame) in frames.iter().enumerate() {
        fc.update(capture, frame);
        poser.pose(&fc, f, &mut q, &mut world, &mut limited)?;
        if let (Some(h), Some(start)) = (hips, hips_reference) {
            let at = fc.joint_position(h.capture);
            let mut moved = (at - start) * hip_ratio;
            moved.y = (at.y - capture_ground) * hip_ratio - target_hip_height;
            for (i, v) in moved.iter().enumerate() {
                q[i] = target_rest[i] + v;
            }
        }
        keys.push(Key::new(
            f as i64,
            marionette_skeleton::Pose { q: q.clone() },
        ));
    }
    ground_the_feet(target, target_rest, &map, &mut keys);
    limited.retain(|l| l.1 > 0);
    let sequence = Sequence {
        name: name.to_owned(),
        fps,
        rotation: RotationInterpolation::Slerp,
        root: RootInterpolation::Linear,
        hold_locks: true,
        keys,
    };
    // A document must be able to hold it (the root scaled past the largest coordinate, say).
    if let Some(defect) = sequence.defects().into_iter().next() {
        return Err(RetargetError::Sequence(defect));
    }
    Ok(Retargeted {
        sequence,
        map,
        limited,
        hip_ratio,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retarget::parts::between;
    use nalgebra::Vector3;

    #[test]
    fn between_turns_one_direction_onto_another_even_when_they_nearly_agree() {
        // Two directions a rounding apart (a fuzzed capture's up axes): nalgebra's
        // rotation_between made NaN of these.
        let a = Vector3::new(0.0, 0.9998699525321245, 0.016126934718260325);
        let b = Vector3::new(0.0, 0.9998699525321245, 0.016126934718260065);
        let r = between(&a, &b);
        assert!(r.iter().all(|v| v.is_finite()));
        assert!((r * a - b).norm() < 1e-12);
        for (from, to) in [
            (Vector3::x(), Vector3::y()),
            (Vector3::new(1.0, 2.0, 3.0), Vector3::new(-3.0, 0.5, 1.0)),
            (Vector3::x(), -Vector3::x()),
            (Vector3::y(), Vector3::y() * 3.0),
        ] {
            let r = between(&from, &to);
            assert!(
                (r * from.normalize() - to.normalize()).norm() < 1e-12,
                "{from} {to}"
            );
            assert!((r.transpose() * r - Matrix3::identity()).norm() < 1e-12);
        }
        assert_eq!(
            between(&Vector3::zeros(), &Vector3::x()),
            Matrix3::identity()
        );
    }
}
