//! Dragging a body with the mouse (Welman 1993, ch. 6; issue 5): the picked point is moved onto
//! its segment's axis, so pulling never twists the limb unexpectedly; each frame the goal is the
//! point of the cursor ray nearest to that effector, which behaves the same in orthographic and
//! perspective views.

use marionette_ik::{Goal, GoalKind};
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
            along: None,
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
            along: Some(ray.direction),
        })
    }

    /// How far the dragged point is from the cursor ray, at the pose `fk` holds.
    pub fn distance_to(&self, fk: &Fk, ray: &Ray) -> f64 {
        let at = self.effector(fk);
        (ray.closest_point_to(&at) - at).norm()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_ik::{SolverKind, System, track};
    use marionette_skeleton::{Pose, builtin};

    #[test]
    fn a_mesh_body_is_gripped_where_it_was_picked() {
        let shape = Shape::Mesh {
            path: "meshes/block.gltf".into(),
            origin: Vector3::zeros(),
        };
        let hit = Vector3::new(0.03, -0.1, 0.02);
        assert_eq!(point_on_axis(&shape, &hit), hit);
    }

    #[test]
    fn the_effector_sits_on_the_segment_axis() {
        let shape = Shape::Capsule {
            radius: 0.05,
            start: Vector3::zeros(),
            end: Vector3::new(0.0, -0.3, 0.0),
        };
        let on_axis = point_on_axis(&shape, &Vector3::new(0.04, -0.1, 0.03));
        assert!((on_axis - Vector3::new(0.0, -0.1, 0.0)).norm() < 1e-12);
        assert!(
            ((point_on_axis(&shape, &Vector3::new(0.0, -0.9, 0.0)))
                - (Vector3::new(0.0, -0.3, 0.0)))
            .norm()
                < 1e-12
        );
    }

    #[test]
    fn the_goal_is_the_ray_point_nearest_the_effector() {
        let ray = Ray::new(Vector3::new(0.0, 1.0, 5.0), Vector3::new(0.0, 0.0, -1.0)).expect("ray");
        assert!(
            ((ray.closest_point_to(&Vector3::new(0.3, 0.2, 0.4))) - (Vector3::new(0.0, 1.0, 0.4)))
                .norm()
                < 1e-12
        );
        assert!(Ray::new(Vector3::zeros(), Vector3::zeros()).is_none());
        assert!(Ray::new(Vector3::new(f64::NAN, 0.0, 0.0), Vector3::x()).is_none());
    }

    #[test]
    fn dragging_the_forearm_moves_the_hand_towards_the_cursor_ray() {
        let s = builtin::humanoid();
        let mut q = Pose::rest(&s).q;
        let elbow = s.joint_by_name("right elbow").expect("elbow");
        q[s.joint_dofs(elbow).next().expect("dof").state_index()] = 0.3;
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let hit = fk.point(elbow, &Vector3::new(0.03, -0.2, 0.0));
        let drag = Drag::begin(&s, &fk, &q, elbow, &hit, ChainMode::NearestBranch).expect("drag");
        assert!(
            ((drag.local_point) - (Vector3::new(0.0, -0.2, 0.0))).norm() < 1e-12,
            "moved onto the forearm's axis"
        );
        // An orthographic front view: rays along −Z; the cursor moves up and forward-left.
        let ray = Ray::new(
            drag.effector(&fk) + Vector3::new(0.1, 0.25, 3.0),
            -Vector3::z(),
        )
        .expect("ray");
        let mut solver = SolverKind::DampedLeastSquares.build();
        let mut system = System::new(&s, vec![drag.goal(&fk, &ray)], drag.chain.clone());
        let (m, n) = system.shape();
        solver.prepare(m, n);
        let before = (ray.closest_point_to(&drag.effector(&fk)) - drag.effector(&fk)).norm();
        for _ in 0..30 {
            system.goals_mut()[0] = drag.goal(system.fk(), &ray);
            track(solver.as_mut(), &mut system, &mut q, 1e-4);
        }
        fk.update(&s, &q);
        let after = (ray.closest_point_to(&drag.effector(&fk)) - drag.effector(&fk)).norm();
        assert!(after < 1e-3 && after < before, "{before} → {after}");
        assert!(Pose { q: q.clone() }.within_limits(&s));
        // Only the chain moved: the left arm is where it was.
        let left = s.joint_by_name("left elbow").expect("left");
        assert_eq!(
            q[s.joint_dofs(left).next().expect("dof").state_index()],
            0.0
        );
    }
}
