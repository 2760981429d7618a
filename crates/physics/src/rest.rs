//! A figure standing at rest, measured: its height (floor to the top of its head) and its centre
//! of mass, as a fraction of the height (de Leva's adult: about 0.55–0.60).

use marionette_skeleton::{Fk, Pose, Skeleton};
use nalgebra::Vector3;

use crate::landmarks::farthest;
use crate::masses::MassModel;

/// A figure at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtRest {
    /// The lowest point of the figure (joints, sites and bodies), metres above the origin.
    pub floor: f64,
    /// From the lowest point to the highest (the top of the head), metres.
    pub height: f64,
    /// The centre of mass (world, at rest).
    pub center_of_mass: Vector3<f64>,
    /// The centre of mass's height above the floor, as a fraction of the height.
    pub com_fraction: f64,
}

/// `skeleton` at its rest pose, with `model`'s masses. Up is +Y (the skeleton format's).
pub fn at_rest(skeleton: &Skeleton, model: &MassModel) -> AtRest {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &Pose::rest(skeleton).q);
    let root = skeleton.joint_ids().next().expect("a skeleton has a root");
    let root_y = fk.joint_position(root).y;
    let up = Vector3::y();
    let top = farthest(skeleton, &fk, root, &up).map_or(root_y, |p| p.y);
    let top = model.vertex.map_or(top, |v| v.y.max(top));
    let floor = farthest(skeleton, &fk, root, &-up).map_or(root_y, |p| p.y.min(root_y));
    let height = top - floor;
    let center_of_mass = model.center_of_mass(&fk);
    AtRest {
        floor,
        height,
        center_of_mass,
        com_fraction: (center_of_mass.y - floor) / height,
    }
}
