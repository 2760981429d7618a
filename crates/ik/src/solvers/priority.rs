//! Task-priority pseudo-inverse for several effectors (a book chapter on nonlinear programming
//! and pseudo-inverse control of multiple end effectors, §5–§6; the priority scheme of Nakamura,
//! Hanafusa & Yoshikawa 1987 and Siciliano & Slotine 1991): goals are grouped by `priority` (0 first); level k is met
//! as well as possible inside the null space left by the levels before it:
//! Δq₁ = J₁⁺e₁, Δqₖ = Δqₖ₋₁ + (Jₖ Nₖ₋₁)⁺ (eₖ − Jₖ Δqₖ₋₁), Nₖ = Nₖ₋₁ − (Jₖ Nₖ₋₁)⁺ Jₖ Nₖ₋₁,
//! which for two levels is the paper's Δθ = J₁⁺dx₁ + [J₂(I−J₁⁺J₁)]⁺(dx₂ − J₂J₁⁺dx₁).
//! Each (Jₖ Nₖ₋₁)⁺ is damped near singularities (σ / (σ² + λ²)), so a lower level never makes
//! huge steps when the higher ones leave it almost no freedom.

use nalgebra::{DMatrix, DVector};

use super::common::{ErrorClamp, clamp_largest};
use crate::linalg::Svd;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// One priority level's rows and workspaces.
#[derive(Debug, Clone)]
struct Level {
    rows: Vec<usize>,
    projected: DMatrix<f64>,
    residual: DVector<f64>,
    svd: Svd,
}

/// The task-priority solver.
#[derive(Debug, Clone)]
pub struct TaskPriority {
    /// λ of the damped pseudo-inverses.
    pub damping: f64,
    /// Singular values below this fraction of the largest add nothing to the null-space projector.
    pub relative_cutoff: f64,
    /// Largest change of one joint in one update.
    pub max_joint_step: f64,
    /// Error clamp (Buss's ClampMag) for every level below the first: a far lower-level target
    /// pulls with bounded steps, so its null-space motion does not drag the first level around.
    pub lower_clamp: ErrorClamp,
    levels: Vec<Level>,
    clamped: DVector<f64>,
    layout: Vec<u32>,
    /// An orthonormal basis of the directions the levels so far have used, one per column (the
    /// first `used`): the null-space projector is N = I − B Bᵀ, applied as Jₖ N = Jₖ − (Jₖ B) Bᵀ
    /// without ever forming the n × n matrix.
    basis: DMatrix<f64>,
    /// Jₖ B for the level being projected.
    jb: DMatrix<f64>,
    dq: DVector<f64>,
}

impl Default for TaskPriority {
    fn default() -> Self {
        TaskPriority {
            damping: 0.01,
            relative_cutoff: 1e-6,
            max_joint_step: 30f64.to_radians(),
            lower_clamp: ErrorClamp::new(0.1),
            levels: Vec::new(),
            clamped: DVector::zeros(0),
            layout: Vec::new(),
            basis: DMatrix::zeros(0, 0),
            jb: DMatrix::zeros(0, 0),
            dq: DVector::zeros(0),
        }
    }
}

impl TaskPriority {
    /// Groups the system's rows by goal priority (allocates only when the layout changes).
    fn arrange(&mut self, system: &System<'_>) {
        let n = system.shape().1;
        let unchanged = super::common::priority_layout_matches(system, &self.layout);
        let rows: usize = self.levels.iter().map(|l| l.rows.len()).sum();
        if unchanged && self.basis.nrows() == n && rows == system.e.len() {
            return;
        }
        let priorities: Vec<u32> = system.goals().iter().map(|g| g.priority).collect();
        let mut distinct = priorities.clone();
        distinct.sort_unstable();
        distinct.dedup();
        self.levels = distinct
            .iter()
            .map(|&p| {
                let rows: Vec<usize> = system
                    .goals()
                    .iter()
                    .zip(system.goal_rows())
                    .filter(|(g, _)| g.priority == p)
                    .flat_map(|(_, r)| r.clone())
                    .collect();
                let m = rows.len();
                Level {
                    projected: DMatrix::zeros(m, n),
                    residual: DVector::zeros(m),
                    svd: Svd::new(m, n).warm_start(true).orthogonality(1e-10),
                    rows,
                }
            })
            .collect();
        self.layout = priorities;
        let widest = self.levels.iter().map(|l| l.rows.len()).max().unwrap_or(0);
        self.basis = DMatrix::zeros(n, n);
        self.jb = DMatrix::zeros(widest, n);
        self.dq = DVector::zeros(n);
    }
}

impl Solver for TaskPriority {
    fn name(&self) -> &'static str {
        "priority"
    }

    fn honours_priorities(&self) -> bool {
        true
    }

    fn prepare(&mut self, _rows: usize, columns: usize) {
        // The same shape as the last solve (the editor's next frame): the levels, and their
        // decompositions' warm starts, stand; `arrange` rebuilds them if the goals changed.
        if self.basis.nrows() != columns {
            self.layout.clear();
            self.basis = DMatrix::zeros(columns, columns);
            self.dq = DVector::zeros(columns);
        }
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        self.arrange(system);
        let n = system.shape().1;
        let lambda2 = self.damping * self.damping;
        let mut used = 0;
        self.dq.fill(0.0);
        if self.clamped.len() != system.e.len() {
            self.clamped = DVector::zeros(system.e.len());
        }
        let top = system.goals().iter().map(|g| g.priority).min().unwrap_or(0);
        self.lower_clamp
            .apply(&system.e, system.goal_rows(), &mut self.clamped);
        for (g, rows) in system.goals().iter().zip(system.goal_rows()) {
            if g.priority == top {
                for r in rows.clone() {
                    self.clamped[r] = system.e[r];
                }
            }
        }
        let mut smallest = f64::INFINITY;
        for level in &mut self.levels {
            // Jₖ Nₖ₋₁ = Jₖ − (Jₖ B) Bᵀ and eₖ − Jₖ Δq
            for (i, &r) in level.rows.iter().enumerate() {
                let mut done = 0.0;
                for c in 0..n {
                    done += system.j[(r, c)] * self.dq[c];
                }
                level.residual[i] = self.clamped[r] - done;
                for b in 0..used {
                    let mut s = 0.0;
                    for k in 0..n {
                        s += system.j[(r, k)] * self.basis[(k, b)];
                    }
                    self.jb[(i, b)] = s;
                }
                for c in 0..n {
                    let mut s = system.j[(r, c)];
                    for b in 0..used {
                        s -= self.jb[(i, b)] * self.basis[(c, b)];
                    }
                    level.projected[(i, c)] = s;
                }
            }
            level.svd.compute(&level.projected);
            let (_, largest) = level.svd.extremes();
            let cutoff = self.relative_cutoff * largest;
            for i in 0..level.svd.sigma.len() {
                let sigma = level.svd.sigma[i];
                if sigma <= cutoff || sigma == 0.0 || used == n {
                    continue;
                }
                smallest = smallest.min(sigma);
                let coefficient =
                    level.svd.u.column(i).dot(&level.residual) * sigma / (sigma * sigma + lambda2);
                self.dq.axpy(coefficient, &level.svd.v.column(i), 1.0);
                // N ← N − v vᵀ (v lies in the range of N, so N stays a projector): v joins
                // the basis.
                self.basis.set_column(used, &level.svd.v.column(i));
                used += 1;
            }
        }
        clamp_largest(&mut self.dq, self.max_joint_step);
        system.apply_step(q, &self.dq);
        StepInfo {
            min_singular_value: smallest.is_finite().then_some(smallest),
            ..StepInfo::default()
        }
    }
}
