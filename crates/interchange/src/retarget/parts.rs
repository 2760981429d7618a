//! What the retarget's steps share: why a retarget fails, a mapped bone, and the geometry of
//! lining bones up (the rotation between two directions, a twist, the angle between two
//! directions, which bone follows which).

use marionette_skeleton::{JointId, Skeleton};
use nalgebra::{Matrix3, Rotation3, Vector3};

use crate::character::humanoid::HumanBone;

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

/// The bone whose joint a bone points at, in a chain (`None` for the ends: hands, toes, head).
pub(super) fn next_bone(bone: HumanBone, has: &dyn Fn(HumanBone) -> bool) -> Option<HumanBone> {
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
pub(super) fn keeps_its_pitch(bone: HumanBone) -> bool {
    matches!(bone, HumanBone::LeftFoot | HumanBone::RightFoot)
}

/// The least rotation turning `from` onto `to` (identity when either is zero, half a turn
/// about an axis across them when they are opposite). Written with atan2 (nalgebra's
/// `rotation_between` takes acos of a cosine that rounding can push past 1, giving NaN for two
/// nearly equal directions).
pub(super) fn between(from: &Vector3<f64>, to: &Vector3<f64>) -> Matrix3<f64> {
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

/// The angle between two directions (0 when either is zero).
pub(super) fn angle(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    if a.norm() < 1e-12 || b.norm() < 1e-12 {
        0.0
    } else {
        a.angle(b)
    }
}

/// The turn about `along` (a unit vector) that brings `from` onto `to` as seen across
/// `along` (identity when either has nothing across it).
pub(super) fn twist_onto(
    along: &Vector3<f64>,
    from: &Vector3<f64>,
    to: &Vector3<f64>,
) -> Matrix3<f64> {
    let across = |v: &Vector3<f64>| v - along * v.dot(along);
    let (a, b) = (across(from), across(to));
    if a.norm() < 1e-9 || b.norm() < 1e-9 {
        return Matrix3::identity();
    }
    let phi = a.cross(&b).dot(along).atan2(a.dot(&b));
    Rotation3::from_axis_angle(&nalgebra::Unit::new_unchecked(*along), phi).into_inner()
}

/// Whether `a` is an ancestor of `b` (joints are stored depth first: `b` is in `a`'s subtree).
pub(super) fn is_above(skeleton: &Skeleton, a: JointId, b: JointId) -> bool {
    a.index() < b.index() && b.index() < skeleton.joint(a).subtree_end
}
