//! Selectively damped least squares (Buss & Kim 2005, as summarised in REFERENCE_PROBLEMS.md §5).
//! Each singular direction gets its own damping from how far a unit of it moves the effectors
//! relative to how much it moves the joints:
//! with J = Σ σᵢ uᵢ vᵢᵀ, goal blocks l, Nᵢ = Σ_l ‖u_{l,i}‖, Mᵢ = σᵢ⁻¹ Σ_j |v_{j,i}| Σ_l ‖J_{l,j}‖,
//! γᵢ = min(1, Nᵢ/Mᵢ)·γ_max; φᵢ = σᵢ⁻¹ (uᵢᵀe) vᵢ scaled so its largest entry is ≤ γᵢ;
//! Δq = Σ φᵢ, scaled so its largest entry is ≤ γ_max. The error is clamped per goal (ClampMag).

use nalgebra::{DMatrix, DVector};

use super::common::{ErrorClamp, clamp_largest};
use crate::linalg::Svd;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// The SDLS solver.
#[derive(Debug, Clone)]
pub struct SelectivelyDampedLeastSquares {
    /// γ_max: the largest joint change of one update (π/4 in Buss & Kim).
    pub gamma_max: f64,
    /// Per-goal error clamp.
    pub clamp: Option<ErrorClamp>,
    svd: Svd,
    scaled: DMatrix<f64>,
    e: DVector<f64>,
    rho: DVector<f64>,
    phi: DVector<f64>,
    dq: DVector<f64>,
    weights: Vec<f64>,
}

impl Default for SelectivelyDampedLeastSquares {
    fn default() -> Self {
        SelectivelyDampedLeastSquares {
            gamma_max: std::f64::consts::FRAC_PI_4,
            clamp: None,
            svd: Svd::new(0, 0),
            scaled: DMatrix::zeros(0, 0),
            e: DVector::zeros(0),
            rho: DVector::zeros(0),
            phi: DVector::zeros(0),
            dq: DVector::zeros(0),
            weights: Vec::new(),
        }
    }
}

impl SelectivelyDampedLeastSquares {
    /// SDLS with Buss's ClampMag error clamping.
    pub fn with_clamp(mut self, clamp: ErrorClamp) -> Self {
        self.clamp = Some(clamp);
        self
    }
}

impl SelectivelyDampedLeastSquares {
    /// Computes `self.dq` with the current weights; returns the smallest singular value.
    fn compute_step(&mut self, system: &System<'_>) -> f64 {
        let (m, n) = system.shape();
        for (c, w) in self.weights.iter().enumerate() {
            let s = w.sqrt();
            for r in 0..m {
                self.scaled[(r, c)] = system.j[(r, c)] * s;
            }
        }
        let rows = system.goal_rows();
        // ρ_j = Σ_l ‖J_{l,j}‖
        for c in 0..n {
            self.rho[c] = rows
                .iter()
                .map(|r| self.scaled.view((r.start, c), (r.len(), 1)).norm())
                .sum();
        }
        self.svd.compute(&self.scaled);
        let (smallest, largest) = self.svd.extremes();
        let tiny = 1e-10 * largest.max(1e-300);
        self.dq.fill(0.0);
        for i in 0..self.svd.sigma.len() {
            let sigma = self.svd.sigma[i];
            if sigma <= tiny {
                continue;
            }
            let alpha = self.svd.u.column(i).dot(&self.e);
            let n_i: f64 = rows
                .iter()
                .map(|r| self.svd.u.view((r.start, i), (r.len(), 1)).norm())
                .sum();
            let m_i: f64 = (0..n)
                .map(|c| self.svd.v[(c, i)].abs() * self.rho[c])
                .sum::<f64>()
                / sigma;
            let gamma = if m_i > 0.0 {
                (n_i / m_i).min(1.0) * self.gamma_max
            } else {
                self.gamma_max
            };
            self.phi.copy_from(&self.svd.v.column(i));
            self.phi *= alpha / sigma;
            clamp_largest(&mut self.phi, gamma);
            self.dq += &self.phi;
        }
        clamp_largest(&mut self.dq, self.gamma_max);
        for c in 0..n {
            self.dq[c] *= self.weights[c].sqrt();
        }
        smallest
    }
}

impl Solver for SelectivelyDampedLeastSquares {
    fn name(&self) -> &'static str {
        "sdls"
    }

    fn prepare(&mut self, rows: usize, columns: usize) {
        self.svd = Svd::new(rows, columns).warm_start(true);
        self.scaled = DMatrix::zeros(rows, columns);
        self.e = DVector::zeros(rows);
        self.rho = DVector::zeros(columns);
        self.phi = DVector::zeros(columns);
        self.dq = DVector::zeros(columns);
        self.weights = vec![0.0; columns];
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let (m, n) = system.shape();
        if self.scaled.shape() != (m, n) {
            self.prepare(m, n);
        }
        match &mut self.clamp {
            Some(c) => c.apply(&system.e, system.goal_rows(), &mut self.e),
            None => self.e.copy_from(&system.e),
        }
        self.weights.copy_from_slice(system.stiffness());
        let mut smallest = f64::INFINITY;
        // Joints pushed against a limit drop out and the step is recomputed (at most 3 passes).
        for _pass in 0..3 {
            smallest = self.compute_step(system);
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
