//! Damped least squares (Levenberg–Marquardt; Buss 2009, §5; Wampler, Nakamura & Hanafusa):
//! Δq = W Jᵀ (J W Jᵀ + λ² I)⁻¹ e, with W = diag(stiffness) (Welman's per-joint weights), optional
//! ClampMag on e and a cap on the largest joint change. The damping λ keeps steps bounded near
//! singularities and for unreachable targets, where the pseudo-inverse oscillates.
//!
//! The damping is either fixed (Buss's tracking set-up) or adaptive after Sugihara (2011,
//! "Solvability-unconcerned inverse kinematics by the Levenberg–Marquardt method"):
//! λ² = ½‖e‖² + w̄, heavy far from the goal and nearly Gauss–Newton close to it, which converges
//! quadratically on reachable goals and stays bounded on unreachable ones, with no line search.

use nalgebra::{DMatrix, DVector};

use super::common::{ErrorClamp, clamp_largest};
use crate::linalg::cholesky_solve_slices;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// How λ is chosen at each update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Damping {
    /// A constant λ (metres): larger is steadier and slower.
    Fixed(f64),
    /// Sugihara's λ² = ½‖e‖² + bias (bias in m²).
    Adaptive {
        /// w̄: the damping left at the solution.
        bias: f64,
    },
}

/// The damped least-squares solver.
#[derive(Debug, Clone)]
pub struct DampedLeastSquares {
    /// The damping rule.
    pub damping: Damping,
    /// Buss's target clamping, if any.
    pub clamp: Option<ErrorClamp>,
    /// Largest change of one joint in one update (radians or metres).
    pub max_joint_step: f64,
    a: DMatrix<f64>,
    y: DVector<f64>,
    e: DVector<f64>,
    dq: DVector<f64>,
    weights: Vec<f64>,
}

impl Default for DampedLeastSquares {
    /// Adaptive damping with a bias of 1e-4 m² (λ = 1 cm at the solution).
    fn default() -> Self {
        DampedLeastSquares {
            damping: Damping::Adaptive { bias: 1e-4 },
            ..DampedLeastSquares::new(0.0)
        }
    }
}

impl DampedLeastSquares {
    /// DLS with a fixed damping λ, no error clamp and a 45° step cap.
    pub fn new(damping: f64) -> Self {
        DampedLeastSquares {
            damping: Damping::Fixed(damping),
            clamp: None,
            max_joint_step: 45f64.to_radians(),
            a: DMatrix::zeros(0, 0),
            y: DVector::zeros(0),
            e: DVector::zeros(0),
            dq: DVector::zeros(0),
            weights: Vec::new(),
        }
    }

    /// The same with Buss's ClampMag error clamping.
    pub fn with_clamp(mut self, clamp: ErrorClamp) -> Self {
        self.clamp = Some(clamp);
        self
    }
}

impl DampedLeastSquares {
    /// Δq = W Jᵀ (J W Jᵀ + λ² I)⁻¹ e with the current weights; false if the system is singular.
    /// J is column-major, so A's upper triangle is a sum of rank-one updates over J's contiguous
    /// columns, and Δq is one dot product per column.
    fn solve_step(&mut self, j: &DMatrix<f64>, m: usize, n: usize) -> bool {
        let lambda2 = match self.damping {
            Damping::Fixed(lambda) => lambda * lambda,
            Damping::Adaptive { bias } => 0.5 * self.e.norm_squared() + bias,
        };
        let a = self.a.as_mut_slice();
        a.fill(0.0);
        let columns = j.as_slice().chunks_exact(m).take(n);
        for (col, &w) in columns.clone().zip(&self.weights) {
            if w == 0.0 {
                continue;
            }
            for (s, a_col) in a.chunks_exact_mut(m).enumerate() {
                let x = w * col[s];
                for (a_rs, c_r) in a_col[..=s].iter_mut().zip(&col[..=s]) {
                    *a_rs += x * c_r;
                }
            }
        }
        for r in 0..m {
            a[r * m + r] += lambda2;
        }
        self.y.copy_from(&self.e);
        if !cholesky_solve_slices(a, m, self.y.as_mut_slice()) {
            return false;
        }
        let y = self.y.as_slice();
        for ((dq, col), &w) in self.dq.iter_mut().zip(columns).zip(&self.weights) {
            *dq = w * col.iter().zip(y).map(|(a, b)| a * b).sum::<f64>();
        }
        true
    }
}

impl Solver for DampedLeastSquares {
    fn name(&self) -> &'static str {
        "dls"
    }

    fn prepare(&mut self, rows: usize, columns: usize) {
        self.a = DMatrix::zeros(rows, rows);
        self.y = DVector::zeros(rows);
        self.e = DVector::zeros(rows);
        self.dq = DVector::zeros(columns);
        self.weights = vec![0.0; columns];
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let (m, n) = system.shape();
        if self.a.nrows() != m || self.dq.len() != n {
            self.prepare(m, n);
        }
        match &mut self.clamp {
            Some(c) => c.apply(&system.e, system.goal_rows(), &mut self.e),
            None => self.e.copy_from(&system.e),
        }
        self.weights.copy_from_slice(system.stiffness());
        // Joints pushed against a limit drop out and the step is recomputed (at most 3 passes).
        for _pass in 0..3 {
            if !self.solve_step(&system.j, m, n) {
                return StepInfo::default();
            }
            if system.block_outward(q, &self.dq, &mut self.weights) == 0 {
                break;
            }
        }
        clamp_largest(&mut self.dq, self.max_joint_step);
        system.apply_step(q, &self.dq);
        StepInfo::default()
    }
}
