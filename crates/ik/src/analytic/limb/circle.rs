//! The elbow circle of a posed limb (Tolani, Goswami & Badler 2000, §3.2.2), for the editor's
//! swivel gizmo and for reading the swivel angle of a pose.

use marionette_skeleton::Fk;
use nalgebra::{Matrix3, Vector3};

use super::{Limb, circle_reference};

impl Limb {
    /// The elbow circle at the pose `fk` holds (Tolani §3.2.2): the circle the elbow can move on
    /// while the shoulder and `placed` stay put, with the swivel's φ = 0 direction for
    /// `reference`. `placed` is the world point the solve placed: the wrist centre for a pose
    /// goal, the goal's point (a site of the wrist) for a position goal, whose wrist angles are
    /// kept.
    pub fn elbow_circle(
        &self,
        fk: &Fk,
        placed: &Vector3<f64>,
        reference: &Vector3<f64>,
    ) -> ElbowCircle {
        let s = fk.joint_position(self.joints[0]);
        let e = fk.joint_position(self.joints[1]);
        let normal = (placed - s).try_normalize(1e-12).unwrap_or_else(Vector3::x);
        let u = circle_reference(&normal, Matrix3::identity(), reference);
        let centre = s + normal * (e - s).dot(&normal);
        ElbowCircle {
            centre,
            normal,
            radius: (e - centre).norm(),
            u,
            v: normal.cross(&u),
        }
    }

    /// The swivel angle of the elbow at the pose `fk` holds, measured as `swivel` measures it
    /// about the line from the shoulder to `placed` (see [`Limb::elbow_circle`]).
    pub fn current_swivel(&self, fk: &Fk, placed: &Vector3<f64>, reference: &Vector3<f64>) -> f64 {
        let circle = self.elbow_circle(fk, placed, reference);
        let p = fk.joint_position(self.joints[1]) - circle.centre;
        p.dot(&circle.v).atan2(p.dot(&circle.u))
    }
}

/// The circle of elbow positions about the shoulder–wrist axis, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElbowCircle {
    /// Its centre, on the shoulder–wrist line.
    pub centre: Vector3<f64>,
    /// Unit shoulder-to-wrist direction, the circle's normal.
    pub normal: Vector3<f64>,
    /// Its radius.
    pub radius: f64,
    /// Unit direction of φ = 0.
    pub u: Vector3<f64>,
    /// Unit direction of φ = 90° (normal × u).
    pub v: Vector3<f64>,
}

impl ElbowCircle {
    /// The elbow position at swivel angle `phi`.
    pub fn point(&self, phi: f64) -> Vector3<f64> {
        let (sin, cos) = phi.sin_cos();
        self.centre + (self.u * cos + self.v * sin) * self.radius
    }
}
