//! The Moore–Penrose pseudo-inverse by SVD (Buss 2009, §4; Welman 1993, ch. 3), with Liégeois's
//! null-space term for a secondary objective: Δq = J⁺e + (I − J⁺J)·z, z = −k∇H, where H is the
//! distance from the rest pose or from the middle of the joint ranges. Singular values below a
//! fraction of the largest are dropped; near a singularity the plain pseudo-inverse makes large
//! steps (Šoch & Lórencz's "big jump"), which the joint-step cap bounds.
//!
//! Per-joint stiffness W enters as the weighted pseudo-inverse W^½ (J W^½)⁺.

use marionette_skeleton::ROOT_STATE_LEN;
use nalgebra::{DMatrix, DVector};

use super::common::clamp_largest;
use crate::linalg::Svd;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// A secondary objective pursued in the Jacobian's null space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NullSpaceObjective {
    /// None: the minimum-norm step.
    None,
    /// Pull towards the rest pose with this gain.
    StayNearRest(f64),
    /// Pull towards the middle of each limited joint's range with this gain.
    AvoidLimits(f64),
}

/// The pseudo-inverse solver.
#[derive(Debug, Clone)]
pub struct PseudoInverse {
    /// Singular values below this fraction of the largest are treated as zero.
    pub relative_cutoff: f64,
    /// Largest change of one joint in one update.
    pub max_joint_step: f64,
    /// The secondary objective.
    pub null_space: NullSpaceObjective,
    svd: Svd,
    scaled: DMatrix<f64>,
    dq: DVector<f64>,
    weights: Vec<f64>,
    z: DVector<f64>,
}

impl Default for PseudoInverse {
    fn default() -> Self {
        PseudoInverse {
            relative_cutoff: 0.01,
            max_joint_step: 5f64.to_radians(),
            null_space: NullSpaceObjective::None,
            svd: Svd::new(0, 0),
            scaled: DMatrix::zeros(0, 0),
            dq: DVector::zeros(0),
            weights: Vec::new(),
            z: DVector::zeros(0),
        }
    }
}

impl PseudoInverse {
    fn objective_gradient(&mut self, system: &System<'_>, q: &[f64]) -> bool {
        let skeleton = system.skeleton();
        let (gain, towards_rest) = match self.null_space {
            NullSpaceObjective::None => return false,
            NullSpaceObjective::StayNearRest(k) => (k, true),
            NullSpaceObjective::AvoidLimits(k) => (k, false),
        };
        for (c, &state) in system.chain().columns().iter().enumerate() {
            self.z[c] = match state.checked_sub(ROOT_STATE_LEN) {
                None => 0.0,
                Some(k) => {
                    let dof = &skeleton.dofs()[k];
                    if towards_rest {
                        -gain * (q[state] - dof.rest)
                    } else if dof.unlimited {
                        0.0
                    } else {
                        let range = (dof.max - dof.min).max(1e-9);
                        -gain * (q[state] - 0.5 * (dof.min + dof.max)) / (range * range)
                    }
                }
            };
        }
        true
    }
}

impl PseudoInverse {
    /// Computes `self.dq` with the current weights; returns the smallest singular value.
    fn compute_step(&mut self, system: &System<'_>, q: &[f64]) -> f64 {
        let (m, n) = system.shape();
        for c in 0..n {
            let s = self.weights[c].sqrt();
            for r in 0..m {
                self.scaled[(r, c)] = system.j[(r, c)] * s;
            }
        }
        self.svd.compute(&self.scaled);
        let (smallest, largest) = self.svd.extremes();
        let cutoff = self.relative_cutoff * largest;
        self.dq.fill(0.0);
        let rank = self.svd.sigma.len();
        for i in 0..rank {
            let sigma = self.svd.sigma[i];
            if sigma <= cutoff || sigma == 0.0 {
                continue;
            }
            let coefficient = self.svd.u.column(i).dot(&system.e) / sigma;
            self.dq.axpy(coefficient, &self.svd.v.column(i), 1.0);
        }
        if self.objective_gradient(system, q) {
            // z − V_r V_rᵀ z over the kept singular directions (in the scaled coordinates).
            for c in 0..n {
                self.z[c] *= self.weights[c].sqrt();
            }
            for i in 0..rank {
                if self.svd.sigma[i] > cutoff && self.svd.sigma[i] > 0.0 {
                    let along = self.svd.v.column(i).dot(&self.z);
                    self.z.axpy(-along, &self.svd.v.column(i), 1.0);
                }
            }
            self.dq += &self.z;
        }
        for c in 0..n {
            self.dq[c] *= self.weights[c].sqrt();
        }
        clamp_largest(&mut self.dq, self.max_joint_step);
        smallest
    }
}

impl Solver for PseudoInverse {
    fn name(&self) -> &'static str {
        "pinv"
    }

    fn prepare(&mut self, rows: usize, columns: usize) {
        self.svd = Svd::new(rows, columns);
        self.scaled = DMatrix::zeros(rows, columns);
        self.dq = DVector::zeros(columns);
        self.weights = vec![0.0; columns];
        self.z = DVector::zeros(columns);
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let (m, n) = system.shape();
        if self.scaled.shape() != (m, n) {
            self.prepare(m, n);
        }
        self.weights.copy_from_slice(system.stiffness());
        let mut smallest = f64::INFINITY;
        // Joints pushed against a limit drop out and the step is recomputed (at most 3 passes).
        for _pass in 0..3 {
            smallest = self.compute_step(system, q);
            if system.block_outward(q, &self.dq, &mut self.weights) == 0 {
                break;
            }
        }
        system.apply_step(q, &self.dq);
        StepInfo {
            min_singular_value: smallest.is_finite().then_some(smallest),
            ..StepInfo::default()
        }
    }
}
