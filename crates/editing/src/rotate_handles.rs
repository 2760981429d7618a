//! Rotate handles (FK): with a joint selected, a ring per hinge in the view, in the plane the
//! hinge turns in, centred on its pivot; a slide and the root's translation get arrows along
//! their axes. Dragging a ring turns its hinge by the angle the cursor goes round the ring
//! (within the limits; Ctrl snaps the value to 5°), dragging an arrow slides along it, each drag
//! one undo step ([`Document::turn_dof`], [`Document::move_root`]). Locks still hold: after each
//! turn the enabled locks are solved again with the turned DOF fixed, as a drag solves them.
//!
//! This module is the geometry (no Bevy): where the rings and arrows are, which one a ray
//! grips, and the angle or distance a ray stands for on it.

use marionette_skeleton::{DofId, DofKind, JointId};
use nalgebra::{Rotation3, Unit, Vector3};

pub use crate::document::held::figure_size;
use crate::drag::Ray;
use crate::history::UndoStep;
use crate::solve::IkRunner;
use crate::{Document, EditError};

/// What a handle turns or moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandleKind {
    /// A hinge: a ring.
    Hinge(DofId),
    /// A slide: an arrow.
    Slide(DofId),
    /// The root's translation along a world axis (0 x, 1 y, 2 z): an arrow.
    Root(usize),
}

/// One handle of the selected joint, in the world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Handle {
    /// What it turns or moves.
    pub kind: HandleKind,
    /// The ring's centre (the hinge's pivot) or the arrow's start.
    pub centre: Vector3<f64>,
    /// The hinge's axis or the arrow's direction (unit).
    pub axis: Vector3<f64>,
    /// The ring's radius or the arrow's length (m).
    pub size: f64,
}

/// The ring radius of the first hinge, as a fraction of the figure's height; the next ones a
/// little larger, so rings of one joint do not lie on each other.
const RING: f64 = 0.07;

/// A unit vector across `axis`.
pub fn across(axis: &Vector3<f64>) -> Vector3<f64> {
    let helper = if axis.y.abs() < 0.9 {
        Vector3::y()
    } else {
        Vector3::x()
    };
    axis.cross(&helper).normalize()
}

impl Handle {
    /// `samples` points of the ring (or the arrow's two ends).
    pub fn outline(&self, samples: usize) -> Vec<Vector3<f64>> {
        match self.kind {
            HandleKind::Hinge(_) => {
                let start = across(&self.axis) * self.size;
                let axis = Unit::new_normalize(self.axis);
                (0..=samples)
                    .map(|k| {
                        let angle = std::f64::consts::TAU * k as f64 / samples as f64;
                        self.centre + Rotation3::from_axis_angle(&axis, angle) * start
                    })
                    .collect()
            }
            _ => vec![self.centre, self.centre + self.axis * self.size],
        }
    }

    /// How far `ray` passes from the handle (m).
    pub fn distance(&self, ray: &Ray) -> f64 {
        match self.kind {
            HandleKind::Hinge(_) => self
                .outline(96)
                .iter()
                .map(|p| (ray.closest_point_to(p) - p).norm())
                .fold(f64::INFINITY, f64::min),
            _ => (0..=16)
                .map(|k| self.centre + self.axis * (self.size * k as f64 / 16.0))
                .map(|p| (ray.closest_point_to(&p) - p).norm())
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// Where `ray` points on the handle: for a ring, the angle (radians) about its axis of
    /// the ray's meeting with the ring's plane (or, when the plane is seen edge-on, of the point
    /// of the ray nearest the centre); for an arrow, the distance along it of the point of its
    /// line nearest the ray. `None` when the ray runs along the arrow.
    pub fn reading(&self, ray: &Ray) -> Option<f64> {
        match self.kind {
            HandleKind::Hinge(_) => {
                let facing = ray.direction.dot(&self.axis);
                let point = if facing.abs() > 0.05 {
                    let t = (self.centre - ray.origin).dot(&self.axis) / facing;
                    ray.origin + ray.direction * t
                } else {
                    ray.closest_point_to(&self.centre)
                };
                let v = point - self.centre;
                let in_plane = v - self.axis * v.dot(&self.axis);
                let x = across(&self.axis);
                let y = self.axis.cross(&x);
                (in_plane.norm() > 1e-9).then(|| in_plane.dot(&y).atan2(in_plane.dot(&x)))
            }
            _ => {
                // The point of the arrow's line nearest the ray.
                let (d, u) = (ray.direction, self.axis);
                let w = ray.origin - self.centre;
                let b = d.dot(&u);
                let denominator = 1.0 - b * b;
                (denominator > 1e-9).then(|| (u.dot(&w) - b * d.dot(&w)) / denominator)
            }
        }
    }
}

/// The angle `to − from` brought into (−π, π].
pub fn turned(from: f64, to: f64) -> f64 {
    marionette_skeleton::angles::wrap_angle(to - from)
}

/// `value` snapped to whole multiples of 5°.
pub fn snapped(value: f64) -> f64 {
    let step = 5f64.to_radians();
    (value / step).round() * step
}

impl Document {
    /// The handles of `joint`: a ring per hinge, an arrow per slide, and, for the root, an
    /// arrow per world axis.
    pub fn handles(&self, joint: JointId) -> Vec<Handle> {
        let skeleton = &self.skeleton;
        let fk = &self.fk;
        let size = self.handle_size;
        let mut out = Vec::new();
        for (k, dof) in skeleton.joint_dofs(joint).enumerate() {
            let d = skeleton.dof(dof);
            let axis = fk.dof_axis(dof).normalize();
            let centre = fk.dof_pivot(dof);
            let kind = match d.kind {
                DofKind::Hinge => HandleKind::Hinge(dof),
                DofKind::Slide => HandleKind::Slide(dof),
            };
            let size = match d.kind {
                DofKind::Hinge => size * RING * (1.0 + 0.18 * k as f64),
                DofKind::Slide => size * 0.12,
            };
            out.push(Handle {
                kind,
                centre,
                axis,
                size,
            });
        }
        if joint == skeleton.root() {
            let at = fk.joint_position(joint);
            for (i, axis) in [Vector3::x(), Vector3::y(), Vector3::z()]
                .iter()
                .enumerate()
            {
                out.push(Handle {
                    kind: HandleKind::Root(i),
                    centre: at,
                    axis: *axis,
                    size: size * 0.16,
                });
            }
        }
        out
    }

    /// The size the handles are made to (the figure's at rest, m).
    pub fn handle_size(&self) -> f64 {
        self.handle_size
    }

    /// The handle of `joint` that `ray` passes nearest, within `reach` (m).
    pub fn handle_under(&self, joint: JointId, ray: &Ray, reach: f64) -> Option<Handle> {
        self.handles(joint)
            .into_iter()
            .map(|h| (h.distance(ray), h))
            .filter(|(d, _)| *d <= reach)
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, h)| h)
    }

    /// Turns (or slides) one DOF to `value`, clamped to its limits (an unlimited hinge wraps),
    /// then solves the enabled locks again with that DOF fixed, as a drag does: an undo step of
    /// its own, or the handle drag's step extended.
    pub(crate) fn turn_dof(
        &mut self,
        dof: DofId,
        value: f64,
        runner: &mut IkRunner,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        let d = self.skeleton.dof(dof);
        let joint = self.skeleton.joint(d.joint).name.clone();
        if !value.is_finite() {
            return Err(EditError::NotANumber { joint, value });
        }
        let value = if d.unlimited {
            marionette_ik::system::wrap_angle(value)
        } else {
            d.clamp(value)
        };
        let column = dof.state_index();
        let mut q = self.pose.clone();
        q[column] = value;
        self.settle_around(&mut q, &[column], runner);
        let label = format!("Turn {joint} DOF {}", d.index_in_joint + 1);
        self.end_drag();
        self.replace_pose(label, q, undo);
        Ok(())
    }

    /// Moves the root by `delta` (m, world), the locks solved again around it: an undo step of
    /// its own, or the handle drag's step extended.
    pub(crate) fn move_root(
        &mut self,
        delta: &Vector3<f64>,
        runner: &mut IkRunner,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        if !delta.iter().all(|v| v.is_finite()) {
            let joint = self.skeleton.joint(self.skeleton.root()).name.clone();
            return Err(EditError::NotANumber {
                joint,
                value: f64::NAN,
            });
        }
        let mut q = self.pose.clone();
        for (i, v) in delta.iter().enumerate() {
            q[i] += v;
        }
        self.settle_around(&mut q, &[0, 1, 2], runner);
        let label = format!("Move {}", self.skeleton.joint(self.skeleton.root()).name);
        self.end_drag();
        self.replace_pose(label, q, undo);
        Ok(())
    }

    /// The enabled locks solved from `q` with the columns `fixed` held (a frame's budget of
    /// updates).
    fn settle_around(&self, q: &mut [f64], fixed: &[usize], runner: &mut IkRunner) {
        let set = self
            .goal_set(&[], &marionette_skeleton::Chain::default())
            .fixing(fixed);
        if set.has_locks() {
            let budget = runner.settings().iterations_per_frame;
            let mut system = set.system(&self.skeleton, &self.stiffness);
            runner.until_satisfied(&mut system, q, budget);
        }
    }
}

#[cfg(test)]
mod tests {
    use marionette_document::{LockKind, LockPart};
    use marionette_skeleton::builtin;

    use super::*;
    use crate::edit::Edit;
    use crate::solve::Solving;

    fn ray(from: Vector3<f64>, to: Vector3<f64>) -> Ray {
        Ray::new(from, to - from).expect("a ray")
    }

    #[test]
    fn a_ray_grips_the_ring_it_passes_and_reads_the_angle_it_points_at() {
        let doc = Document::new(builtin::humanoid(), None).standing();
        let elbow = doc.skeleton().joint_by_name("right elbow").expect("joint");
        let handles = doc.handles(elbow);
        assert_eq!(handles.len(), 1, "one hinge: one ring");
        let ring = handles[0];
        assert!(matches!(ring.kind, HandleKind::Hinge(_)));
        // Looking along the axis at a point of the ring: gripped, read at that point's angle.
        let x = across(&ring.axis);
        let y = ring.axis.cross(&x);
        for angle in [0.3f64, 2.0, -2.5] {
            let on_ring = ring.centre + (x * angle.cos() + y * angle.sin()) * ring.size;
            let r = ray(on_ring + ring.axis * 2.0, on_ring);
            let gripped = doc.handle_under(elbow, &r, 0.01).expect("gripped");
            assert_eq!(gripped.kind, ring.kind);
            let read = gripped.reading(&r).expect("a reading");
            assert!(turned(angle, read).abs() < 1e-9, "{angle} read as {read}");
        }
        // Far from it: nothing.
        let away = ring.centre + x * ring.size * 3.0;
        assert!(
            doc.handle_under(elbow, &ray(away + ring.axis, away), 0.01)
                .is_none()
        );
        // The root has its arrows too.
        let root = doc.skeleton().root();
        let arrows = doc
            .handles(root)
            .iter()
            .filter(|h| matches!(h.kind, HandleKind::Root(_)))
            .count();
        assert_eq!(arrows, 3);
        assert!((snapped(7.4f64.to_radians()).to_degrees() - 5.0).abs() < 1e-9);
        assert!((snapped(-8.0f64.to_radians()).to_degrees() + 10.0).abs() < 1e-9);
    }

    #[test]
    fn turning_a_joint_in_a_locked_limb_keeps_the_value_and_the_lock_holds() {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        let s = doc.skeleton().clone();
        let fingertips = s.site_by_name("left fingertips").expect("site");
        doc.apply(
            Edit::Lock {
                part: LockPart::Site(fingertips),
                kind: LockKind::Position,
            },
            &mut solving,
        )
        .expect("locks");
        let target = doc.fk().site_position(fingertips);
        let clavicle = s.joint_by_name("left clavicle").expect("joint");
        let dof = s.joint_dofs(clavicle).next().expect("a hinge");
        let start = doc.pose().to_vec();
        // A drag of the handle: five small turns, one undo step.
        for k in 1..=5 {
            let value = start[dof.state_index()] + 0.03 * f64::from(k);
            let undo = if k == 1 {
                UndoStep::New
            } else {
                UndoStep::Extend
            };
            doc.apply(Edit::TurnDof { dof, value, undo }, &mut solving)
                .expect("turns");
            assert_eq!(
                doc.pose()[dof.state_index()],
                value,
                "the turned DOF is fixed"
            );
        }
        let off = (doc.fk().site_position(fingertips) - target).norm();
        assert!(off < 1e-3, "the lock holds: {off} m");
        assert_ne!(doc.pose(), start.as_slice());
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.pose(), start.as_slice(), "one undo step");
        // Beyond the limit: clamped. Not a number: refused, nothing changes.
        let d = s.dof(dof);
        doc.apply(
            Edit::TurnDof {
                dof,
                value: d.max + 1.0,
                undo: UndoStep::New,
            },
            &mut solving,
        )
        .expect("turns");
        assert_eq!(doc.pose()[dof.state_index()], d.max);
        let before = doc.pose().to_vec();
        assert!(
            doc.apply(
                Edit::TurnDof {
                    dof,
                    value: f64::NAN,
                    undo: UndoStep::New
                },
                &mut solving
            )
            .is_err()
        );
        assert_eq!(doc.pose(), before.as_slice());
        // The root's arrow: moved, the lock held by the arm.
        doc.apply(
            Edit::MoveRoot {
                delta: Vector3::new(0.0, -0.03, 0.0),
                undo: UndoStep::New,
            },
            &mut solving,
        )
        .expect("moves");
        assert!((doc.pose()[1] - before[1] + 0.03).abs() < 1e-12);
    }
}
