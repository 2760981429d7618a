//! The figure's extent at a pose: where its joints and sites are, the box around them, its size
//! (which scales markers, handles and bones), its ground and its centre (what the views look
//! at and frame).

use bevy::prelude::*;
use marionette_skeleton::{Fk, JointId, Skeleton};

use crate::convert::vec3;

/// Where the joints in `joints` and their sites are, at the pose `fk` holds.
pub fn points_of(skeleton: &Skeleton, fk: &Fk, joints: impl Fn(JointId) -> bool) -> Vec<Vec3> {
    let joint_points = skeleton
        .joint_ids()
        .filter(|&j| joints(j))
        .map(|j| vec3(&fk.joint_position(j)));
    let site_points = skeleton
        .site_ids()
        .filter(|&s| joints(skeleton.site(s).joint))
        .map(|s| vec3(&fk.site_position(s)));
    joint_points.chain(site_points).collect()
}

/// The smallest and largest corner of the box around `points` (`None` when there are none).
pub fn bounds(points: &[Vec3]) -> Option<(Vec3, Vec3)> {
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))),
    )
}

/// The size of the figure at the pose `fk` holds: the diagonal of its joints' and sites' box
/// (at least 1 cm), which scales the markers, handles and bodiless bones.
pub fn figure_size(skeleton: &Skeleton, fk: &Fk) -> f32 {
    bounds(&points_of(skeleton, fk, |_| true))
        .map_or(0.0, |(min, max)| (max - min).length())
        .max(0.01)
}

/// The height of the ground under the figure's standing pose: its lowest joint or site (never
/// above 0).
pub fn ground_height(skeleton: &Skeleton, fk: &Fk) -> f32 {
    bounds(&points_of(skeleton, fk, |_| true)).map_or(0.0, |(min, _)| min.y.min(0.0))
}

/// The centre of the figure's joints (what the views look at).
pub fn figure_centre(skeleton: &Skeleton, fk: &Fk) -> Vec3 {
    let mut sum = Vec3::ZERO;
    let mut n = 0.0;
    for joint in skeleton.joint_ids() {
        sum += vec3(&fk.joint_position(joint));
        n += 1.0;
    }
    if n > 0.0 { sum / n } else { Vec3::ZERO }
}
