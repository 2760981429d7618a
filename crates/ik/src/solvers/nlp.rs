//! Bounded nonlinear least squares for offline solves: minimise
//! f(q) = ½‖e(q)‖² + ½μ‖q − q₀‖² (weighted goal rows plus a Tikhonov term that keeps the
//! redundant DOFs near the start pose q₀) subject to the joint limits as bounds, by a projected
//! limited-memory BFGS in the style of L-BFGS-B (Byrd, Lu, Nocedal & Zhu 1995): variables at a
//! bound whose gradient points outwards are held; the two-loop recursion gives the direction on
//! the free variables; a backtracking Armijo search along the projected path keeps every trial
//! inside the limits. This is the approach Welman (1993, ch. 3) reviews for Badler's
//! optimisation-based positioning, with limits handled as true bounds rather than by clamping.
//!
//! [`solve_in_stages`] walks the goals from where the effectors are to their targets through
//! intermediate targets, solving each, for long offline moves.

use marionette_skeleton::ROOT_STATE_LEN;
use nalgebra::{DMatrix, DVector, Rotation3};

use crate::goal::GoalKind;
use crate::solver::{Report, Settings, Solver, StepInfo, solve};
use crate::system::System;

/// The L-BFGS-B style solver.
#[derive(Debug, Clone)]
pub struct BoundedLeastSquares {
    /// μ of the Tikhonov term. It picks, among equally good poses, the one nearest the start,
    /// but also moves the optimum off the exact solution by about μ·‖Δq‖/σ², so it is small.
    pub regularisation: f64,
    /// Number of (s, y) pairs kept.
    pub memory: usize,
    s: DMatrix<f64>,
    y: DMatrix<f64>,
    rho: Vec<f64>,
    alpha: Vec<f64>,
    stored: usize,
    next: usize,
    start: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    gradient: DVector<f64>,
    new_gradient: DVector<f64>,
    direction: DVector<f64>,
    step: DVector<f64>,
    curvature: DVector<f64>,
    trial: Vec<f64>,
    columns: Vec<usize>,
    free: Vec<bool>,
}

impl Default for BoundedLeastSquares {
    fn default() -> Self {
        BoundedLeastSquares {
            regularisation: 1e-9,
            memory: 7,
            s: DMatrix::zeros(0, 0),
            y: DMatrix::zeros(0, 0),
            rho: Vec::new(),
            alpha: Vec::new(),
            stored: 0,
            next: 0,
            start: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
            gradient: DVector::zeros(0),
            new_gradient: DVector::zeros(0),
            direction: DVector::zeros(0),
            step: DVector::zeros(0),
            curvature: DVector::zeros(0),
            trial: Vec::new(),
            columns: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl BoundedLeastSquares {
    /// f and ∇f at the pose the system was last evaluated at.
    fn objective(&self, system: &System<'_>, q: &[f64], gradient: &mut DVector<f64>) -> f64 {
        let (m, n) = system.shape();
        let columns = system.chain().columns();
        let mut f = 0.5 * system.e.norm_squared();
        for c in 0..n {
            let offset = q[columns[c]] - self.start[c];
            f += 0.5 * self.regularisation * offset * offset;
            let mut g = self.regularisation * offset;
            for r in 0..m {
                g -= system.j[(r, c)] * system.e[r];
            }
            gradient[c] = g;
        }
        f
    }

    /// The two-loop recursion on the free variables: direction = −H·g.
    fn lbfgs_direction(&mut self) {
        self.direction.copy_from(&self.gradient);
        for (c, f) in self.free.iter().enumerate() {
            if !f {
                self.direction[c] = 0.0;
            }
        }
        let m = self.memory;
        for k in 0..self.stored {
            let i = (self.next + m - 1 - k) % m;
            let a = self.rho[i] * self.s.column(i).dot(&self.direction);
            self.alpha[i] = a;
            self.direction.axpy(-a, &self.y.column(i), 1.0);
        }
        if self.stored > 0 {
            let i = (self.next + m - 1) % m;
            let yy = self.y.column(i).norm_squared();
            if yy > 0.0 {
                self.direction *= 1.0 / (self.rho[i] * yy);
            }
        }
        for k in (0..self.stored).rev() {
            let i = (self.next + m - 1 - k) % m;
            let b = self.rho[i] * self.y.column(i).dot(&self.direction);
            self.direction
                .axpy(self.alpha[i] - b, &self.s.column(i), 1.0);
        }
        for (c, f) in self.free.iter().enumerate() {
            self.direction[c] = if *f { -self.direction[c] } else { 0.0 };
        }
    }
}

impl Solver for BoundedLeastSquares {
    fn name(&self) -> &'static str {
        "nlp"
    }

    fn prepare(&mut self, _rows: usize, columns: usize) {
        let m = self.memory.max(1);
        self.s = DMatrix::zeros(columns, m);
        self.y = DMatrix::zeros(columns, m);
        self.rho = vec![0.0; m];
        self.alpha = vec![0.0; m];
        self.stored = 0;
        self.next = 0;
        self.start.clear();
        self.gradient = DVector::zeros(columns);
        self.new_gradient = DVector::zeros(columns);
        self.direction = DVector::zeros(columns);
        self.step = DVector::zeros(columns);
        self.curvature = DVector::zeros(columns);
        self.free = vec![true; columns];
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let n = system.shape().1;
        if self.gradient.len() != n {
            self.prepare(0, n);
        }
        if self.start.len() != n {
            let skeleton = system.skeleton();
            self.columns = system.chain().columns().to_vec();
            let columns = &self.columns;
            self.start = columns.iter().map(|&c| q[c]).collect();
            let bound = |c: usize, upper: bool| match c.checked_sub(ROOT_STATE_LEN) {
                Some(k) if !skeleton.dofs()[k].unlimited => {
                    if upper {
                        skeleton.dofs()[k].max
                    } else {
                        skeleton.dofs()[k].min
                    }
                }
                _ => {
                    if upper {
                        f64::INFINITY
                    } else {
                        f64::NEG_INFINITY
                    }
                }
            };
            self.lower = columns.iter().map(|&c| bound(c, false)).collect();
            self.upper = columns.iter().map(|&c| bound(c, true)).collect();
        }
        let mut gradient = std::mem::take(&mut self.gradient);
        let f = self.objective(system, q, &mut gradient);
        self.gradient = gradient;
        let columns = std::mem::take(&mut self.columns);
        for c in 0..n {
            let v = q[columns[c]];
            let held = (v <= self.lower[c] && self.gradient[c] > 0.0)
                || (v >= self.upper[c] && self.gradient[c] < 0.0);
            self.free[c] = !held;
        }
        self.lbfgs_direction();
        if self.direction.dot(&self.gradient) >= 0.0 {
            // Not a descent direction: forget the curvature pairs and follow the gradient.
            self.stored = 0;
            self.lbfgs_direction();
        }
        // Backtracking along the projected path q(t) = P(q + t·d).
        self.trial.clear();
        self.trial.extend_from_slice(q);
        let mut t = if self.stored == 0 {
            (0.1 / self.direction.amax().max(1e-12)).min(1.0)
        } else {
            1.0
        };
        let mut accepted = false;
        for _ in 0..30 {
            for c in 0..n {
                let v = (q[columns[c]] + t * self.direction[c]).clamp(self.lower[c], self.upper[c]);
                self.step[c] = v - q[columns[c]];
                self.trial[columns[c]] = v;
            }
            system.evaluate(&self.trial);
            let mut new_gradient = std::mem::take(&mut self.new_gradient);
            let f_new = self.objective(system, &self.trial, &mut new_gradient);
            self.new_gradient = new_gradient;
            if f_new <= f + 1e-4 * self.gradient.dot(&self.step) && f_new.is_finite() {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        self.columns = columns;
        if !accepted {
            system.evaluate(q);
            return StepInfo::default();
        }
        let i = self.next;
        self.curvature.copy_from(&self.new_gradient);
        self.curvature -= &self.gradient;
        let sy = self.step.dot(&self.curvature);
        if sy > 1e-12 {
            self.s.set_column(i, &self.step);
            self.y.set_column(i, &self.curvature);
            self.rho[i] = 1.0 / sy;
            self.next = (i + 1) % self.memory.max(1);
            self.stored = (self.stored + 1).min(self.memory.max(1));
        }
        // The system was evaluated at the accepted trial pose: the step lands there, and the
        // pull towards the bend hints is taken on that pose's Jacobian.
        system.add_to_pose(q, &self.step);
        system.apply_preference(q);
        StepInfo::default()
    }
}

/// Solves in `stages` steps: the goals' targets walk in a straight line (orientations along the
/// shortest arc) from where the effectors start to the real targets, each stage solved to the
/// tolerance, the last on the real targets. Returns the last stage's report with the total count
/// of iterations.
pub fn solve_in_stages(
    solver: &mut dyn Solver,
    system: &mut System<'_>,
    q: &mut [f64],
    settings: Settings,
    stages: usize,
) -> Report {
    let finals: Vec<GoalKind> = system.goals().iter().map(|g| g.kind.clone()).collect();
    system.evaluate_errors(q);
    let starts: Vec<GoalKind> = finals
        .iter()
        .map(|k| match k {
            GoalKind::Position { site, .. } => GoalKind::Position {
                site: *site,
                target: system.fk().site_position(*site),
            },
            GoalKind::Orientation { joint, axes, .. } => GoalKind::Orientation {
                joint: *joint,
                target: *system.fk().joint_rotation(*joint),
                axes: *axes,
            },
            GoalKind::CenterOfMass { axes, .. } => GoalKind::CenterOfMass {
                target: system.fk().center_of_mass(),
                axes: *axes,
            },
            other => other.clone(),
        })
        .collect();
    let mut total = 0;
    for stage in 1..stages.max(1) {
        let t = stage as f64 / stages as f64;
        for ((goal, start), end) in system.goals_mut().iter_mut().zip(&starts).zip(&finals) {
            goal.kind = interpolate(start, end, t);
        }
        total += solve(solver, system, q, settings).iterations;
    }
    for (goal, end) in system.goals_mut().iter_mut().zip(&finals) {
        goal.kind = end.clone();
    }
    let mut report = solve(solver, system, q, settings);
    report.iterations += total;
    report
}

fn interpolate(start: &GoalKind, end: &GoalKind, t: f64) -> GoalKind {
    match (start, end) {
        (GoalKind::Position { target: a, .. }, GoalKind::Position { site, target: b }) => {
            GoalKind::Position {
                site: *site,
                target: a.lerp(b, t),
            }
        }
        (GoalKind::CenterOfMass { target: a, .. }, GoalKind::CenterOfMass { target: b, axes }) => {
            GoalKind::CenterOfMass {
                target: a.lerp(b, t),
                axes: *axes,
            }
        }
        (
            GoalKind::Orientation { target: a, .. },
            GoalKind::Orientation {
                joint,
                target: b,
                axes,
            },
        ) => {
            let ra = Rotation3::from_matrix_unchecked(*a);
            let rb = Rotation3::from_matrix_unchecked(*b);
            let r = ra.try_slerp(&rb, t, 1e-9).unwrap_or(rb);
            GoalKind::Orientation {
                joint: *joint,
                target: r.into_inner(),
                axes: *axes,
            }
        }
        (_, end) => end.clone(),
    }
}
