//! Welman's constraint maintenance (1993, ch. 5, "Solving for Lagrange multipliers" and
//! "Feedback"): the dragged handles pull with a generalised force g_a = J_aᵀ e_a, as in the
//! Jacobian transpose, and the constraints push back with g_c = J_cᵀ λ, where λ solves
//! (J_c K J_cᵀ) λ = −J_c K g_a, so the motion K(g_a + g_c) leaves every constraint unchanged to
//! first order. The system is solved by truncated SVD (small singular values zeroed), robust to
//! the ill conditioning articulated figures always have. A feedback term pulls drifted constraints
//! back: a second solve of (J_c K J_cᵀ) μ = e_c adds K J_cᵀ μ, the smallest motion that removes the
//! constraint error in one step.
//!
//! Constraints are the goals of the highest priority level (0) when there is more than one level;
//! the other goals are the dragged handles. With a single level every goal is dragged and the
//! method is the Jacobian transpose. The drag step uses Buss's step length along the constrained
//! direction, and the largest joint change is capped.

use nalgebra::{DMatrix, DVector};

use super::common::clamp_largest;
use crate::linalg::Svd;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// The constraint-maintenance solver.
#[derive(Debug, Clone)]
pub struct ConstraintMaintenance {
    /// Singular values of J_c K J_cᵀ below this fraction of the largest are zeroed.
    pub relative_cutoff: f64,
    /// Fraction of the constraint error removed per update by the feedback term.
    pub feedback: f64,
    /// Largest change of one joint in one update.
    pub max_joint_step: f64,
    constraint_rows: Vec<usize>,
    applied_rows: Vec<usize>,
    layout: Vec<u32>,
    jc: DMatrix<f64>,
    m: DMatrix<f64>,
    svd: Svd,
    rhs: DVector<f64>,
    lambda: DVector<f64>,
    g: DVector<f64>,
    drag: DVector<f64>,
    correction: DVector<f64>,
}

impl Default for ConstraintMaintenance {
    fn default() -> Self {
        ConstraintMaintenance {
            relative_cutoff: 1e-6,
            feedback: 1.0,
            max_joint_step: 30f64.to_radians(),
            constraint_rows: Vec::new(),
            applied_rows: Vec::new(),
            layout: Vec::new(),
            jc: DMatrix::zeros(0, 0),
            m: DMatrix::zeros(0, 0),
            svd: Svd::new(0, 0),
            rhs: DVector::zeros(0),
            lambda: DVector::zeros(0),
            g: DVector::zeros(0),
            drag: DVector::zeros(0),
            correction: DVector::zeros(0),
        }
    }
}

impl ConstraintMaintenance {
    /// Splits rows into constraints and handles (allocates only when the layout changes).
    fn arrange(&mut self, system: &System<'_>) {
        let n = system.shape().1;
        let unchanged = super::common::priority_layout_matches(system, &self.layout);
        if unchanged && self.g.len() == n {
            return;
        }
        let layout: Vec<u32> = system.goals().iter().map(|g| g.priority).collect();
        let top = layout.iter().copied().min().unwrap_or(0);
        let several_levels = layout.iter().any(|&p| p != top);
        self.constraint_rows.clear();
        self.applied_rows.clear();
        for (goal, rows) in system.goals().iter().zip(system.goal_rows()) {
            let target = if several_levels && goal.priority == top {
                &mut self.constraint_rows
            } else {
                &mut self.applied_rows
            };
            target.extend(rows.clone());
        }
        let mc = self.constraint_rows.len();
        self.jc = DMatrix::zeros(mc, n);
        self.m = DMatrix::zeros(mc, mc);
        self.svd = Svd::new(mc, mc);
        self.rhs = DVector::zeros(mc);
        self.lambda = DVector::zeros(mc);
        self.g = DVector::zeros(n);
        self.drag = DVector::zeros(n);
        self.correction = DVector::zeros(n);
        self.layout = layout;
    }

    /// λ = (J_c K J_cᵀ)⁺ rhs by the truncated SVD computed in `step`.
    fn solve_multipliers(&mut self) {
        let (_, largest) = self.svd.extremes();
        let cutoff = self.relative_cutoff * largest;
        self.lambda.fill(0.0);
        for i in 0..self.svd.sigma.len() {
            let sigma = self.svd.sigma[i];
            if sigma > cutoff && sigma > 0.0 {
                let c = self.svd.u.column(i).dot(&self.rhs) / sigma;
                self.lambda.axpy(c, &self.svd.v.column(i), 1.0);
            }
        }
    }

    /// out = K J_cᵀ λ
    fn constraint_motion(&self, k: &[f64], out: &mut DVector<f64>) {
        for c in 0..out.len() {
            let mut s = 0.0;
            for (i, l) in self.lambda.iter().enumerate() {
                s += self.jc[(i, c)] * l;
            }
            out[c] = k[c] * s;
        }
    }
}

impl Solver for ConstraintMaintenance {
    fn name(&self) -> &'static str {
        "lagrange"
    }

    fn honours_priorities(&self) -> bool {
        true
    }

    fn prepare(&mut self, _rows: usize, _columns: usize) {
        self.layout.clear();
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        self.arrange(system);
        let (_, n) = system.shape();
        let k = system.stiffness();
        let j = &system.j;
        let e = &system.e;
        for (i, &r) in self.constraint_rows.iter().enumerate() {
            for c in 0..n {
                self.jc[(i, c)] = j[(r, c)];
            }
        }
        // M = J_c K J_cᵀ
        let mc = self.constraint_rows.len();
        for a in 0..mc {
            for b in 0..=a {
                let s: f64 = (0..n)
                    .map(|c| self.jc[(a, c)] * k[c] * self.jc[(b, c)])
                    .sum();
                self.m[(a, b)] = s;
                self.m[(b, a)] = s;
            }
        }
        self.svd.compute(&self.m);
        // g_a = J_aᵀ e_a; rhs = −J_c K g_a; drag = K (g_a + J_cᵀ λ)
        for c in 0..n {
            self.g[c] = self.applied_rows.iter().map(|&r| j[(r, c)] * e[r]).sum();
        }
        for a in 0..mc {
            self.rhs[a] = -(0..n)
                .map(|c| self.jc[(a, c)] * k[c] * self.g[c])
                .sum::<f64>();
        }
        self.solve_multipliers();
        let mut drag = std::mem::take(&mut self.drag);
        self.constraint_motion(k, &mut drag);
        for c in 0..n {
            drag[c] += k[c] * self.g[c];
        }
        // Buss's step length along the constrained drag direction, for the handles' error.
        let (mut along, mut norm2) = (0.0, 0.0);
        for &r in &self.applied_rows {
            let moved: f64 = (0..n).map(|c| j[(r, c)] * drag[c]).sum();
            along += e[r] * moved;
            norm2 += moved * moved;
        }
        drag *= if norm2 > 0.0 { along / norm2 } else { 0.0 };
        // Feedback: the least motion that removes `feedback` of the constraint error.
        for (a, &r) in self.constraint_rows.iter().enumerate() {
            self.rhs[a] = self.feedback * e[r];
        }
        self.solve_multipliers();
        let mut correction = std::mem::take(&mut self.correction);
        self.constraint_motion(k, &mut correction);
        drag += &correction;
        clamp_largest(&mut drag, self.max_joint_step);
        system.apply_step(q, &drag);
        let (smallest, _) = self.svd.extremes();
        self.drag = drag;
        self.correction = correction;
        StepInfo {
            min_singular_value: (mc > 0 && smallest.is_finite()).then_some(smallest),
            ..StepInfo::default()
        }
    }
}
