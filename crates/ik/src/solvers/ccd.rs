//! Cyclic coordinate descent (Welman 1993, ch. 4, "The Cyclic Coordinate Descent Method", after
//! Wang & Chen): one update visits the chain's DOFs from the leaves inwards and sets each to the
//! value that best satisfies every goal below it, with the others held, refreshing the pose after
//! each joint. For a hinge with world axis a the objective
//! g(φ) = Σ w·(d − j)·R(φ)(c − j) over point pairs + Σ w·d·R(φ)u over direction pairs
//! is A cos φ + B sin φ + const with A = Σ w (d·v − (a·d)(a·v)), B = Σ w a·(v × d), so the best
//! rotation is φ = atan2(B, A): no Jacobian, no matrix, no singularity. A slide moves by the
//! weighted mean of the point errors along its axis.
//!
//! With several goals in a branching tree each joint weighs every goal in its subtree, which is
//! the recursive multi-goal version: leaves settle first, shared joints then balance the branches.
//! Point pairs: position targets, the nearest point of a plane or line, the other site of a
//! coincidence. Direction pairs: held orientation axes and the aim direction, weighted by the
//! squared reach (distance from the joint to the goal's site or joint, at least 0.1 m) so that a
//! radian weighs like the arc it moves. Stiffness scales each joint's change (Welman's w_i).
//! Centre-of-mass goals are not handled by CCD and are left to the other solvers. The root
//! translation, when the chain moves it, is set like a slide along each world axis.

use marionette_skeleton::{DofKind, Fk, Skeleton};
use nalgebra::{Matrix3, Vector3};

use crate::goal::GoalKind;
use crate::solver::{Needs, Solver, StepInfo};
use crate::system::System;

/// The CCD solver.
#[derive(Debug, Clone, Default)]
pub struct CyclicCoordinateDescent {
    q_scratch: Vec<f64>,
}

/// Accumulates the objective's coefficients for one joint.
#[derive(Default)]
struct Terms {
    a: f64,
    b: f64,
    /// For slides: Σ w·axis·(d − c) and Σ w.
    slide: f64,
    weight: f64,
}

impl Terms {
    fn point(
        &mut self,
        axis: &Vector3<f64>,
        pivot: &Vector3<f64>,
        c: &Vector3<f64>,
        d: &Vector3<f64>,
        w: f64,
    ) {
        let v = c - pivot;
        let t = d - pivot;
        self.direction(axis, &v, &t, w);
        self.slide += w * axis.dot(&(d - c));
        self.weight += w;
    }

    fn direction(&mut self, axis: &Vector3<f64>, v: &Vector3<f64>, d: &Vector3<f64>, w: f64) {
        self.a += w * (d.dot(v) - axis.dot(d) * axis.dot(v));
        self.b += w * axis.dot(&v.cross(d));
    }
}

fn reach_weight(pivot: &Vector3<f64>, point: &Vector3<f64>, weight: f64) -> f64 {
    let r = (point - pivot).norm().max(0.1);
    weight * r * r
}

/// The DOF being set: its world axis and pivot, and which joints it moves.
struct Pivot<'a> {
    axis: Vector3<f64>,
    point: Vector3<f64>,
    moves: &'a dyn Fn(usize) -> bool,
}

/// Adds the pairs of one goal to `terms`.
fn add_goal(
    skeleton: &Skeleton,
    fk: &Fk,
    kind: &GoalKind,
    weight: f64,
    pivot: &Pivot<'_>,
    terms: &mut Terms,
) {
    let (axis, moves) = (&pivot.axis, pivot.moves);
    let pivot = &pivot.point;
    let site_moves = |s: &marionette_skeleton::SiteId| moves(skeleton.site(*s).joint.index());
    match kind {
        GoalKind::Position { site, target } if site_moves(site) => {
            terms.point(axis, pivot, &fk.site_position(*site), target, weight);
        }
        GoalKind::Point {
            joint,
            offset,
            target,
            shape,
        } if moves(joint.index()) => {
            let c = fk.point(*joint, offset);
            // The nearest point of the target's line or plane.
            let d = c + shape.counted(&(target - c));
            terms.point(axis, pivot, &c, &d, weight);
        }
        GoalKind::Plane {
            site,
            point,
            normal,
        } if site_moves(site) => {
            let c = fk.site_position(*site);
            let d = c - normal * normal.dot(&(c - point));
            terms.point(axis, pivot, &c, &d, weight);
        }
        GoalKind::Line {
            site,
            point,
            direction,
        } if site_moves(site) => {
            let c = fk.site_position(*site);
            let d = point + direction * direction.dot(&(c - point));
            terms.point(axis, pivot, &c, &d, weight);
        }
        GoalKind::Coincide { a, b } => match (site_moves(a), site_moves(b)) {
            (true, false) => terms.point(
                axis,
                pivot,
                &fk.site_position(*a),
                &fk.site_position(*b),
                weight,
            ),
            (false, true) => terms.point(
                axis,
                pivot,
                &fk.site_position(*b),
                &fk.site_position(*a),
                weight,
            ),
            _ => {}
        },
        GoalKind::Orientation {
            joint,
            target,
            axes,
        } if moves(joint.index()) => {
            let current: &Matrix3<f64> = fk.joint_rotation(*joint);
            let w = reach_weight(pivot, &fk.joint_position(*joint), weight);
            let full = axes.iter().filter(|&&x| x).count() >= 2;
            for (k, held) in axes.iter().enumerate() {
                if full || *held {
                    terms.direction(
                        axis,
                        &current.column(k).into_owned(),
                        &target.column(k).into_owned(),
                        w,
                    );
                }
            }
        }
        GoalKind::Pose {
            site,
            target,
            rotation,
        } if site_moves(site) => {
            let joint = skeleton.site(*site).joint;
            let p = fk.site_position(*site);
            terms.point(axis, pivot, &p, target, weight);
            let current: &Matrix3<f64> = fk.joint_rotation(joint);
            let w = reach_weight(pivot, &p, weight);
            for k in 0..3 {
                terms.direction(
                    axis,
                    &current.column(k).into_owned(),
                    &rotation.column(k).into_owned(),
                    w,
                );
            }
        }
        GoalKind::Aim {
            site,
            axis: local,
            at,
        } if site_moves(site) => {
            let joint = skeleton.site(*site).joint;
            let p = fk.site_position(*site);
            if let Some(d) = (at - p).try_normalize(1e-12) {
                let u = fk.joint_rotation(joint) * local;
                terms.direction(axis, &u, &d, reach_weight(pivot, &p, weight));
            }
        }
        _ => {}
    }
}

impl Solver for CyclicCoordinateDescent {
    fn name(&self) -> &'static str {
        "ccd"
    }

    fn prepare(&mut self, _rows: usize, _columns: usize) {}

    fn needs(&self) -> Needs {
        Needs::Errors
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let skeleton = system.skeleton();
        self.q_scratch.clear();
        self.q_scratch.extend_from_slice(q);
        for c in (0..system.chain().len()).rev() {
            let state = system.chain().columns()[c];
            let fk = system.fk();
            // The column's axis and pivot, the joints it moves, and whether it slides: a DOF,
            // or the root translation, a slide along a world axis that moves every joint (a
            // pelvis dragged with the feet locked).
            let (axis, point, moved, slides) = match skeleton.dof_at_state(state) {
                Some(dof_id) => {
                    let dof = skeleton.dof(dof_id);
                    let owner = dof.joint.index();
                    let end = skeleton.joint(dof.joint).subtree_end;
                    (
                        fk.dof_axis(dof_id),
                        fk.dof_pivot(dof_id),
                        owner..end,
                        dof.kind == DofKind::Slide,
                    )
                }
                None => {
                    let mut axis = Vector3::zeros();
                    axis[state] = 1.0;
                    (axis, Vector3::zeros(), 0..skeleton.joints().len(), true)
                }
            };
            let moves = |j: usize| moved.contains(&j);
            let pivot = Pivot {
                axis,
                point,
                moves: &moves,
            };
            let mut terms = Terms::default();
            for (g, goal) in system.goals().iter().enumerate() {
                if system.serves(g, c) {
                    add_goal(skeleton, fk, &goal.kind, goal.weight, &pivot, &mut terms);
                }
            }
            let change = if slides {
                if terms.weight <= 0.0 {
                    continue;
                }
                terms.slide / terms.weight
            } else {
                if terms.a == 0.0 && terms.b == 0.0 {
                    continue;
                }
                terms.b.atan2(terms.a)
            };
            let stiffness = system.stiffness()[c];
            system.set_column(q, c, q[state] + stiffness * change);
            if q[state] != self.q_scratch[state] {
                system.evaluate_errors(q);
                self.q_scratch[state] = q[state];
            }
        }
        StepInfo::default()
    }
}
