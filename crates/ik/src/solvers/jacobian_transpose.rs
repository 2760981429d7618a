//! The Jacobian transpose (Welman 1993, ch. 4; Buss 2009, §3): the error acts as a force on the
//! effectors and Δq = α K Jᵀ e. K is Welman's scaling matrix ("Scaling considerations"): a joint's
//! stiffness α_i over a term for its link length, which offsets the scale of the world. Jᵀe of a
//! hinge grows with its reach ρ_i (the distance from its pivot to the farthest goal point it
//! moves) times the error, so K_i = α_i / ρ_i² makes the step scale-invariant (the same motion in
//! millimetres or metres) and lets distal joints do their share; α is Buss's
//! step length α = ⟨e, J K Jᵀ e⟩ / ‖J K Jᵀ e‖² (the best step along this direction for the
//! linearised problem), and the joint velocity is clamped, as Welman advises, by capping the
//! largest change of one update. Cheap per iteration, immune to singularities, slow to converge.

use nalgebra::DVector;

use super::common::clamp_largest;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// The Jacobian-transpose solver.
#[derive(Debug, Clone)]
pub struct JacobianTranspose {
    /// Largest change of one joint in one update (Buss uses 30°).
    pub max_joint_step: f64,
    /// A fixed gain instead of Buss's optimal α (Welman's constant-gain Euler step).
    pub fixed_gain: Option<f64>,
    /// Divide each joint's weight by its squared reach (Welman's link-length term); off
    /// reproduces Buss's plain transpose.
    pub link_scaling: bool,
    dq: DVector<f64>,
    jjte: DVector<f64>,
    weights: Vec<f64>,
}

impl Default for JacobianTranspose {
    fn default() -> Self {
        JacobianTranspose {
            max_joint_step: 30f64.to_radians(),
            fixed_gain: None,
            link_scaling: true,
            dq: DVector::zeros(0),
            jjte: DVector::zeros(0),
            weights: Vec::new(),
        }
    }
}

/// Divides each column's weight by its squared reach (at least 1 cm): the distance from the DOF's
/// pivot to the farthest goal point it moves. Slides and the root translation keep their weight.
fn scale_by_reach(system: &System<'_>, weights: &mut [f64]) {
    let skeleton = system.skeleton();
    let fk = system.fk();
    for (c, &state) in system.chain().columns().iter().enumerate() {
        let Some(dof) = skeleton.dof_at_state(state) else {
            continue;
        };
        if skeleton.dof(dof).kind != marionette_skeleton::DofKind::Hinge {
            continue;
        }
        let owner = skeleton.dof(dof).joint;
        let pivot = fk.dof_pivot(dof);
        let mut reach: f64 = 0.0;
        for goal in system.goals() {
            for (joint, point) in goal.kind.points(skeleton, fk) {
                if skeleton.is_ancestor_or_self(owner, joint) {
                    reach = reach.max((point - pivot).norm());
                }
            }
        }
        if reach > 0.0 {
            weights[c] /= reach.max(0.01).powi(2);
        }
    }
}

impl Solver for JacobianTranspose {
    fn name(&self) -> &'static str {
        "jt"
    }

    fn prepare(&mut self, rows: usize, columns: usize) {
        self.dq = DVector::zeros(columns);
        self.jjte = DVector::zeros(rows);
        self.weights = vec![0.0; columns];
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let (m, n) = system.shape();
        if self.dq.len() != n || self.jjte.len() != m {
            self.prepare(m, n);
        }
        self.weights.copy_from_slice(system.stiffness());
        if self.link_scaling {
            scale_by_reach(system, &mut self.weights);
        }
        // dq = K Jᵀ e, projected off the joints it pushes against their limits.
        for _pass in 0..2 {
            for c in 0..n {
                let mut s = 0.0;
                for r in 0..m {
                    s += system.j[(r, c)] * system.e[r];
                }
                self.dq[c] = self.weights[c] * s;
            }
            if system.block_outward(q, &self.dq, &mut self.weights) == 0 {
                break;
            }
        }
        let alpha = match self.fixed_gain {
            Some(g) => g,
            None => {
                self.jjte.gemv(1.0, &system.j, &self.dq, 0.0);
                let denominator = self.jjte.norm_squared();
                if denominator > 0.0 {
                    system.e.dot(&self.jjte) / denominator
                } else {
                    0.0
                }
            }
        };
        self.dq *= alpha;
        clamp_largest(&mut self.dq, self.max_joint_step);
        system.apply_step(q, &self.dq);
        StepInfo::default()
    }
}
