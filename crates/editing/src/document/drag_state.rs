//! The drag as the document holds it: the ray it follows ([`Ray`]), what it grips ([`Grip`])
//! and the drag in progress ([`Drag`]). The drag's edits are in [`crate::drag`].

use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_skeleton::{Chain, ChainError, Fk, JointId, Shape, SiteId, Skeleton};
use nalgebra::Vector3;

use crate::chain_mode::{ChainMode, chain_for};

/// A ray in world space, from the eye (or the orthographic view plane) through the cursor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ray {
    /// Where it starts.
    pub origin: Vector3<f64>,
    /// Unit direction.
    pub direction: Vector3<f64>,
}

impl Ray {
    /// A ray; `None` when the direction is zero or not finite.
    pub fn new(origin: Vector3<f64>, direction: Vector3<f64>) -> Option<Ray> {
        let direction = direction.try_normalize(1e-12)?;
        (origin.iter().all(|v| v.is_finite()) && direction.iter().all(|v| v.is_finite()))
            .then_some(Ray { origin, direction })
    }

    /// The point of the ray's line nearest to `p`.
    pub fn closest_point_to(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.origin + self.direction * self.direction.dot(&(p - self.origin))
    }
}

/// The point of a body's axis nearest to a local point: a capsule's segment, or the line from the
/// joint origin to the centre of a box or sphere (the centre itself when they coincide). A mesh
/// has no axis the file states: the picked point itself is used.
pub fn point_on_axis(shape: &Shape, local: &Vector3<f64>) -> Vector3<f64> {
    let (a, b) = match shape {
        Shape::Capsule { start, end, .. } => (*start, *end),
        Shape::Mesh { .. } => return *local,
        other => (Vector3::zeros(), other.center()),
    };
    let ab = b - a;
    let length2 = ab.norm_squared();
    if length2 < 1e-18 {
        return b;
    }
    a + ab * (ab.dot(&(local - a)) / length2).clamp(0.0, 1.0)
}

/// What a press grips to begin a drag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grip {
    /// A joint's body, picked at a world point (moved onto the body's axis).
    Body {
        /// The joint.
        joint: JointId,
        /// Where the body was hit (world).
        hit: Vector3<f64>,
    },
    /// A site's handle: the site is the dragged point.
    Site(SiteId),
    /// A joint's origin (a replay's `DragJoint`).
    Joint(JointId),
}

/// A drag in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Drag {
    /// The joint whose body was picked.
    pub joint: JointId,
    /// The dragged point, in that joint's frame (on its body's axis).
    pub local_point: Vector3<f64>,
    /// What the drag moves.
    pub chain: Chain,
    /// The pose when the drag began (the undo step's "before").
    pub start_pose: Vec<f64>,
}

impl Drag {
    /// Begins a drag on `joint`'s body at world point `hit`, at the pose `fk` holds.
    pub fn begin(
        skeleton: &Skeleton,
        fk: &Fk,
        q: &[f64],
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<Drag, ChainError> {
        let local_hit = fk.joint_rotation(joint).transpose() * (hit - fk.joint_position(joint));
        let local_point = match &skeleton.joint(joint).shape {
            Some(shape) => point_on_axis(shape, &local_hit),
            None => local_hit,
        };
        Ok(Drag {
            joint,
            local_point,
            chain: chain_for(skeleton, joint, mode)?,
            start_pose: q.to_vec(),
        })
    }

    /// Begins a drag of a point fixed in `joint`'s frame (its origin for zero).
    pub fn begin_at_point(
        skeleton: &Skeleton,
        q: &[f64],
        joint: JointId,
        local_point: Vector3<f64>,
        mode: ChainMode,
    ) -> Result<Drag, ChainError> {
        Ok(Drag {
            joint,
            local_point,
            chain: chain_for(skeleton, joint, mode)?,
            start_pose: q.to_vec(),
        })
    }

    /// Begins a drag on a site's handle: the dragged point is the site.
    pub fn begin_at_site(
        skeleton: &Skeleton,
        q: &[f64],
        site: SiteId,
        mode: ChainMode,
    ) -> Result<Drag, ChainError> {
        let site = skeleton.site(site);
        Drag::begin_at_point(skeleton, q, site.joint, site.offset, mode)
    }

    /// Where the dragged point is, at the pose `fk` holds.
    pub fn effector(&self, fk: &Fk) -> Vector3<f64> {
        fk.point(self.joint, &self.local_point)
    }

    /// This frame's goal with the grip's depth held: the dragged point to the point of the
    /// cursor ray nearest to it (what a direct method such as the analytic limb solver reaches
    /// for, and the first try of every drag frame).
    pub fn goal(&self, fk: &Fk, ray: &Ray) -> Goal {
        Goal::new(GoalKind::Point {
            joint: self.joint,
            offset: self.local_point,
            target: ray.closest_point_to(&self.effector(fk)),
            shape: TargetShape::Point,
        })
    }

    /// This frame's goal with the depth free: the dragged point onto the cursor ray anywhere
    /// along it. A limb that must change the grip's depth to follow the cursor (a straight arm
    /// asked to come nearer its shoulder in the view, issue 15) can only do so with this goal.
    pub fn ray_goal(&self, fk: &Fk, ray: &Ray) -> Goal {
        Goal::new(GoalKind::Point {
            joint: self.joint,
            offset: self.local_point,
            target: ray.closest_point_to(&self.effector(fk)),
            shape: TargetShape::Line(ray.direction),
        })
    }

    /// How far the dragged point is from the cursor ray, at the pose `fk` holds.
    pub fn distance_to(&self, fk: &Fk, ray: &Ray) -> f64 {
        let at = self.effector(fk);
        (ray.closest_point_to(&at) - at).norm()
    }
}
