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

use nalgebra::{Matrix3, Rotation3, Vector3};

use marionette_document::{Key, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::joint_rotation::{HingeLayout, JointRotations};
use marionette_skeleton::{Fk, JointId, ROOT_STATE_LEN, Skeleton};

use crate::character::humanoid::{HumanBone, Humanoid, recognise_rig};
use crate::character::rig::{Rig, RigJoint};
use marionette_skeleton::rotation::{nearest_rotation, quaternion_of};

pub mod map;
pub mod placement;

pub use map::{MapEntry, RetargetMap};

/// Why a retarget could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RetargetError {
    /// A skeleton is not a humanoid the map could be found on.
    #[error("the {which} is not a humanoid: {why}")]
    NotHumanoid {
        /// "capture" or "target".
        which: &'static str,
        /// What is missing.
        why: String,
    },
    /// The capture has no frames.
    #[error("the capture has no frames")]
    NoFrames,
    /// The motion made is beyond what a document holds (a root beyond the largest
    /// coordinate once scaled by the ratio of hip heights).
    #[error("the motion on the figure: {0}")]
    Sequence(String),
    /// A mapped bone's rotation could not be made (the capture's or the figure's joints
    /// coincide where a bone needs a direction, or a frame turns it by numbers that are not
    /// finite).
    #[error("{bone}: no rotation can be made for it{} (do two of its joints coincide?)", frame.map(|f| format!(" on frame {f}")).unwrap_or_default())]
    Degenerate {
        /// The humanoid bone (VRM's name).
        bone: &'static str,
        /// The frame, when it is one frame's.
        frame: Option<usize>,
    },
}

/// One bone of the map: the humanoid bone, its joint in the capture and in the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MappedBone {
    /// The humanoid bone.
    pub bone: HumanBone,
    /// Its joint in the capture.
    pub capture: JointId,
    /// Its joint in the target.
    pub target: JointId,
}

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

/// The bone whose joint a bone points at, in a chain (`None` for the ends: hands, toes, head).
fn next_bone(bone: HumanBone, has: &dyn Fn(HumanBone) -> bool) -> Option<HumanBone> {
    use HumanBone::*;
    let candidates: &[HumanBone] = match bone {
        Hips => &[Spine],
        Spine => &[Chest, UpperChest, Neck],
        Chest => &[UpperChest, Neck],
        UpperChest => &[Neck],
        Neck => &[Head],
        LeftShoulder => &[LeftUpperArm],
        RightShoulder => &[RightUpperArm],
        LeftUpperArm => &[LeftLowerArm],
        RightUpperArm => &[RightLowerArm],
        LeftLowerArm => &[LeftHand],
        RightLowerArm => &[RightHand],
        LeftUpperLeg => &[LeftLowerLeg],
        RightUpperLeg => &[RightLowerLeg],
        LeftLowerLeg => &[LeftFoot],
        RightLowerLeg => &[RightFoot],
        LeftFoot => &[LeftToes],
        RightFoot => &[RightToes],
        _ => &[],
    };
    candidates.iter().copied().find(|b| has(*b))
}

/// Whether `bone` is lined up about the vertical only, keeping its own pitch (a foot: both
/// figures stand flat-footed at their rests, whichever way their foot bones point).
fn keeps_its_pitch(bone: HumanBone) -> bool {
    matches!(bone, HumanBone::LeftFoot | HumanBone::RightFoot)
}

/// The least rotation turning `from` onto `to` (identity when either is zero, half a turn
/// about an axis across them when they are opposite). Written with atan2 (nalgebra's
/// `rotation_between` takes acos of a cosine that rounding can push past 1, giving NaN for two
/// nearly equal directions).
fn between(from: &Vector3<f64>, to: &Vector3<f64>) -> Matrix3<f64> {
    let (Some(a), Some(b)) = (from.try_normalize(1e-12), to.try_normalize(1e-12)) else {
        return Matrix3::identity();
    };
    let cross = a.cross(&b);
    let (sin, cos) = (cross.norm(), a.dot(&b));
    if sin > 1e-12 {
        let axis = nalgebra::Unit::new_normalize(cross);
        return Rotation3::from_axis_angle(&axis, sin.atan2(cos)).into_inner();
    }
    if cos > 0.0 {
        return Matrix3::identity();
    }
    // Opposite directions: half a turn about any axis across them.
    let across = a
        .cross(&Vector3::x())
        .try_normalize(1e-9)
        .or_else(|| a.cross(&Vector3::y()).try_normalize(1e-9))
        .unwrap_or_else(Vector3::z);
    Rotation3::from_axis_angle(&nalgebra::Unit::new_unchecked(across), std::f64::consts::PI)
        .into_inner()
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
    let mapped = |bone: HumanBone| map.iter().find(|m| m.bone == bone).copied();
    let mut fc = Fk::new(capture);
    fc.update(capture, &capture_rest);
    let mut ft = Fk::new(target);
    ft.update(target, target_rest);
    // The target turned to face where the capture faces.
    let facing = {
        let flat = |v: Vector3<f64>, up: &Vector3<f64>| v - up * v.dot(up);
        let from = flat(ht.forward, &hc.up);
        let to = flat(hc.forward, &hc.up);
        between(&ht.up, &hc.up) * between(&from, &to)
    };
    // Per mapped bone, the next mapped bone of its chain and the target's rest direction to it.
    let next: Vec<Option<usize>> = map
        .iter()
        .map(|m| {
            let n = next_bone(m.bone, &|b| mapped(b).is_some())?;
            map.iter().position(|x| x.bone == n)
        })
        .collect();
    let rest_direction: Vec<Vector3<f64>> = map
        .iter()
        .zip(&next)
        .map(|(m, n)| {
            n.map_or_else(Vector3::zeros, |n| {
                ft.joint_position(map[n].target) - ft.joint_position(m.target)
            })
        })
        .collect();
    // Per mapped bone, the capture's rest direction its own is turned onto: the capture's bone
    // towards its next one, except for a foot, which is turned about the vertical only (its
    // pitch kept): both figures stand flat-footed at their rests, so a foot flat in the capture
    // stays flat on the figure whatever way its bone points (towards the ball of the foot, or
    // into the floor as RiggedFigure's does), rather than pitched by the difference.
    let aligned_to: Vec<Option<Vector3<f64>>> = map
        .iter()
        .zip(&next)
        .enumerate()
        .map(|(k, (m, n))| {
            let dc = fc.joint_position(map[(*n)?].capture) - fc.joint_position(m.capture);
            if !keeps_its_pitch(m.bone) {
                return Some(dc);
            }
            let own = facing * rest_direction[k];
            let flat = |v: &Vector3<f64>| v - hc.up * v.dot(&hc.up);
            Some(
                match (
                    flat(&own).try_normalize(1e-6),
                    flat(&dc).try_normalize(1e-6),
                ) {
                    (Some(from), Some(to)) => between(&from, &to) * own,
                    _ => own,
                },
            )
        })
        .collect();
    // Per mapped bone, its alignment: facing, then its rest direction onto the capture's.
    let mut alignment: Vec<Matrix3<f64>> = Vec::with_capacity(map.len());
    for (k, m) in map.iter().enumerate() {
        let a = match aligned_to[k] {
            Some(dc) => between(&(facing * rest_direction[k]), &dc) * facing,
            // An end bone lines up as its parent bone does.
            None => (0..k)
                .rev()
                .find(|&i| is_above(target, map[i].target, m.target))
                .map_or(facing, |i| alignment[i]),
        };
        alignment.push(a);
    }
    let finite = |m: &Matrix3<f64>| m.iter().all(|v| v.is_finite());
    if let Some(k) = (0..map.len()).find(|&k| !finite(&alignment[k])) {
        return Err(RetargetError::Degenerate {
            bone: map[k].bone.vrm_name(),
            frame: None,
        });
    }
    let reference: Vec<Matrix3<f64>> = map.iter().map(|m| *fc.joint_rotation(m.capture)).collect();
    let target_rest_world: Vec<Matrix3<f64>> =
        map.iter().map(|m| *ft.joint_rotation(m.target)).collect();
    let hips = mapped(HumanBone::Hips);
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
    let rotations = JointRotations::new(target);
    // Joint `j`'s world rotation under `parent` with its hinges at `q`.
    let world_of = |j: JointId, parent: &Matrix3<f64>, q: &[f64]| {
        parent
            * target.joint(j).orientation
            * rotations
                .rotation(target, j, q)
                .to_rotation_matrix()
                .into_inner()
    };
    // Reads `j`'s hinges back from the world rotation `wanted`; returns the one reached.
    let place = |j: JointId, wanted: &Matrix3<f64>, parent: &Matrix3<f64>, q: &mut Vec<f64>| {
        let hinges = target.joint(j).orientation.transpose() * parent.transpose() * wanted;
        rotations.read_back(target, j, &quaternion_of(&nearest_rotation(&hinges)), q);
        world_of(j, parent, q)
    };
    // Per target joint, its mapped bone (an index into `map`).
    let mut bone_of_joint = vec![None; target.joints().len()];
    for (k, m) in map.iter().enumerate() {
        bone_of_joint[m.target.index()] = Some(k);
    }
    let mut q = target_rest.to_vec();
    let mut keys = Vec::with_capacity(frames.len());
    let mut limited: Vec<(HumanBone, usize, f64)> = map.iter().map(|m| (m.bone, 0, 0.0)).collect();
    let mut world = vec![Matrix3::identity(); target.joints().len()];
    for (f, frame) in frames.iter().enumerate() {
        fc.update(capture, frame);
        let wanted_of = |k: usize| {
            let change = fc.joint_rotation(map[k].capture) * reference[k].transpose();
            change * alignment[k] * target_rest_world[k]
        };
        // Where the capture points bone `k` (for a foot, the direction it was aligned to, turned
        // as the capture's foot turned from its rest).
        let capture_direction = |k: usize| {
            let n = next[k]?;
            Some(if keeps_its_pitch(map[k].bone) {
                fc.joint_rotation(map[k].capture)
                    * reference[k].transpose()
                    * aligned_to[k].unwrap_or_default()
            } else {
                fc.joint_position(map[n].capture) - fc.joint_position(map[k].capture)
            })
        };
        for j in target.joint_ids() {
            let joint = target.joint(j);
            let parent = joint
                .parent
                .map_or_else(Matrix3::identity, |p| world[p.index()]);
            let Some(k) = bone_of_joint[j.index()] else {
                world[j.index()] = world_of(j, &parent, &q);
                continue;
            };
            let mut wanted = wanted_of(k);
            if !finite(&wanted) {
                return Err(RetargetError::Degenerate {
                    bone: map[k].bone.vrm_name(),
                    frame: Some(f),
                });
            }
            // How far from the capture's a rotation of this bone points it (and, when its next
            // joint is a single hinge it carries, that bone too), placed as the limits allow.
            let single_next = next[k].filter(|&n| {
                matches!(rotations.layout(map[n].target), HingeLayout::Single(_))
                    && target.joint(map[n].target).parent == Some(j)
            });
            let error = |w: &Matrix3<f64>, d1: &Vector3<f64>| {
                let mut trial = q.clone();
                let reached = place(j, w, &parent, &mut trial);
                let own = reached * target_rest_world[k].transpose() * rest_direction[k];
                let then = single_next
                    .zip(capture_direction(single_next.unwrap_or(k)))
                    .map(|(n, d2)| {
                        let reached_n = place(map[n].target, &wanted_of(n), &reached, &mut trial);
                        angle(
                            &(reached_n * target_rest_world[n].transpose() * rest_direction[n]),
                            &d2,
                        )
                    });
                angle(&own, d1) + then.unwrap_or(0.0)
            };
            if let Some(d1) = capture_direction(k)
                && let Some(along) = d1.try_normalize(1e-12)
            {
                let mut best = (error(&wanted, &d1), wanted);
                // A bone whose next joint is a single hinge (an upper arm before its elbow, a
                // thigh before its knee) is turned about itself so the hinge bends the limb the
                // way the capture's bends: of no twist and the two that line the hinge up with
                // the bend, the one that points both bones nearest the capture's.
                if let (Some(n), Some(d2)) = (single_next, single_next.and_then(capture_direction))
                {
                    let axis_index = rotations.hinges(map[n].target)[0];
                    let local_axis = target.dofs()[axis_index - ROOT_STATE_LEN].axis;
                    let hinge_axis = wanted * target.joint(map[n].target).orientation * local_axis;
                    let bend = d1.cross(&d2);
                    for sign in [1.0, -1.0] {
                        let candidate = twist_onto(&along, &hinge_axis, &(bend * sign)) * wanted;
                        let e = error(&candidate, &d1);
                        if e < best.0 {
                            best = (e, candidate);
                        }
                    }
                }
                // A joint of fewer than three hinges cannot take every rotation: of the twists
                // of the wanted rotation about the capture's direction, the one whose nearest
                // reachable rotation points nearest (10° apart, then refined to 0.01°).
                if rotations.hinges(j).len() < 3 && best.0 > 1e-3 {
                    let twist = |phi: f64| {
                        Rotation3::from_axis_angle(&nalgebra::Unit::new_unchecked(along), phi)
                            .into_inner()
                            * best.1
                    };
                    let start = best.1;
                    let mut around = (0.0, best.0);
                    for step in 1..36 {
                        let phi = f64::from(step) * 10f64.to_radians();
                        let e = error(&twist(phi), &d1);
                        if e < around.1 {
                            around = (phi, e);
                        }
                    }
                    let mut width = 5f64.to_radians();
                    while width > 1e-4 {
                        for phi in [around.0 - width, around.0 + width] {
                            let e = error(&twist(phi), &d1);
                            if e < around.1 {
                                around = (phi, e);
                            }
                        }
                        width *= 0.5;
                    }
                    if around.1 < best.0 {
                        best = (around.1, twist(around.0));
                    } else {
                        best.1 = start;
                    }
                }
                wanted = best.1;
            }
            let reached = place(j, &wanted, &parent, &mut q);
            // How far the limits kept the bone: its direction where it points at a next bone
            // (a hinge cannot twist, and need not), else its whole rotation.
            let off = match capture_direction(k) {
                Some(d) => angle(
                    &(reached * target_rest_world[k].transpose() * rest_direction[k]),
                    &d,
                ),
                None => Rotation3::from_matrix_unchecked(reached.transpose() * wanted).angle(),
            }
            .to_degrees();
            if off > 1.0 {
                limited[k].1 += 1;
                limited[k].2 = f64::max(limited[k].2, off);
            }
            world[j.index()] = reached;
        }
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

/// The angle between two directions (0 when either is zero).
fn angle(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    if a.norm() < 1e-12 || b.norm() < 1e-12 {
        0.0
    } else {
        a.angle(b)
    }
}

/// The turn about `along` (a unit vector) that brings `from` onto `to` as seen across
/// `along` (identity when either has nothing across it).
fn twist_onto(along: &Vector3<f64>, from: &Vector3<f64>, to: &Vector3<f64>) -> Matrix3<f64> {
    let across = |v: &Vector3<f64>| v - along * v.dot(along);
    let (a, b) = (across(from), across(to));
    if a.norm() < 1e-9 || b.norm() < 1e-9 {
        return Matrix3::identity();
    }
    let phi = a.cross(&b).dot(along).atan2(a.dot(&b));
    Rotation3::from_axis_angle(&nalgebra::Unit::new_unchecked(*along), phi).into_inner()
}

/// Whether `a` is an ancestor of `b` (joints are stored depth first: `b` is in `a`'s subtree).
fn is_above(skeleton: &Skeleton, a: JointId, b: JointId) -> bool {
    a.index() < b.index() && b.index() < skeleton.joint(a).subtree_end
}

#[cfg(test)]
mod tests {
    use super::*;

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
