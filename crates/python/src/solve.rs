//! `marionette.solve`: one IK solve of a pose towards goals by any of the solvers, as
//! `marionette solve` runs a problem file (the same resolution of names into a chain and goals,
//! [`marionette_ik::problem::resolve_goals`]), the interpreter's lock released while it runs.

use std::sync::Arc;
use std::time::Instant;

use marionette_ik::problem::{Moving, resolve_goals};
use marionette_ik::{Goal, Settings, Shortfall, SolverKind, SolverOptions, System, solve};
use marionette_skeleton::{Chain, Skeleton};
use pyo3::prelude::*;

use crate::errors::{error, finite, limit_error};
use crate::goals::{PyGoal, goal_defect_error};
use crate::pose::PyPose;
use crate::skeleton::PySkeleton;

/// How one goal ended.
#[pyclass(name = "GoalResult", module = "marionette", frozen, get_all)]
#[derive(Debug, Clone)]
pub struct GoalResult {
    /// The goal's kind, as `marionette solve --json` labels it.
    kind: &'static str,
    /// Its error at the end (metres or radians).
    error: f64,
    /// "met", or why not: "out_of_reach", "held_by_limits", "converging", "stalled".
    status: &'static str,
    /// Why it is unmet, in words ("out of reach by 12.0 mm"); None when met.
    why: Option<String>,
    /// How far out of reach (metres), when it is.
    short_by: Option<f64>,
    /// The DOFs at their limits that hold it, as (joint, DOF index), when they do.
    held_by: Vec<(String, usize)>,
}

#[pymethods]
impl GoalResult {
    fn __repr__(&self) -> String {
        format!(
            "GoalResult(kind={:?}, error={:e}, status={:?})",
            self.kind, self.error, self.status
        )
    }
}

/// What a solve reached: the pose (the best one, converged or not) and why each goal is met or
/// not, as `marionette solve --json` reports it.
#[pyclass(name = "Solution", module = "marionette", frozen, get_all)]
pub struct Solution {
    /// The pose reached.
    pose: PyPose,
    /// Whether every goal ended within the tolerance.
    converged: bool,
    /// The largest goal error at the end (metres or radians).
    residual: f64,
    /// Updates taken.
    iterations: usize,
    /// The solver's name ("dls", …).
    solver: &'static str,
    /// Per goal, in the order given.
    goals: Vec<GoalResult>,
    /// DOFs at a limit at the end, as (joint, DOF index).
    limits_hit: Vec<(String, usize)>,
    /// The analytic limb solver's swivel angle (degrees), when it chose one.
    swivel: Option<f64>,
    /// Microseconds the solve took.
    micros: f64,
}

#[pymethods]
impl Solution {
    /// Why each unmet goal is unmet, one line each (empty when all are met).
    #[getter]
    fn why(&self) -> Vec<String> {
        self.goals
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                g.why
                    .as_ref()
                    .map(|w| format!("goal {i} ({}): {w}", g.kind))
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(solver={:?}, converged={}, iterations={}, residual={:e})",
            self.solver, self.converged, self.iterations, self.residual
        )
    }
}

/// A solve made ready: the skeleton, its chain and goals resolved, the start, the settings.
pub struct Prepared {
    skeleton: Arc<Skeleton>,
    chain: Chain,
    goals: Vec<Goal>,
    start: Vec<f64>,
    kind: SolverKind,
    options: SolverOptions,
    settings: Settings,
    bend_hints: f64,
}

/// A solve's tolerance when not given (metres or radians), as `marionette solve`'s.
const TOLERANCE: f64 = 1e-4;
/// A solve's updates at most when not given, as `marionette solve`'s.
const MAX_ITERATIONS: usize = 200;

/// The settings of a solve besides its skeleton, pose and goals.
pub struct SolveOptions<'a> {
    /// Solver name.
    pub solver: &'a str,
    /// Tolerance (m or rad).
    pub tolerance: f64,
    /// Updates at most.
    pub max_iterations: usize,
    /// Only DOFs between this joint and the goals' joints move.
    pub base: Option<String>,
    /// The root's translation moves too.
    pub move_root: bool,
    /// Joints that must not move.
    pub frozen: Vec<String>,
    /// dls: a fixed damping.
    pub damping: Option<f64>,
    /// analytic: the swivel wanted (degrees).
    pub swivel: Option<f64>,
    /// The pull towards the bend hints.
    pub bend_hints: f64,
}

/// Resolves everything a solve needs, or raises the exception the fault calls for.
pub fn prepare(
    skeleton: &PySkeleton,
    pose: &PyPose,
    goals: &[PyRef<'_, PyGoal>],
    options: SolveOptions<'_>,
) -> PyResult<Prepared> {
    if !skeleton.owns(pose) {
        return Err(error(format!(
            "the pose is of skeleton \"{}\", not \"{}\"",
            pose.skeleton.name(),
            skeleton.inner.name()
        )));
    }
    let kind: SolverKind = options
        .solver
        .parse()
        .map_err(|e: marionette_ik::solver_kind::UnknownSolver| error(e.to_string()))?;
    if finite(options.tolerance, "tolerance")? <= 0.0 {
        return Err(limit_error(format!(
            "tolerance {} is not above 0",
            options.tolerance
        )));
    }
    if !(0.0..=1.0).contains(&options.bend_hints) {
        return Err(limit_error(format!(
            "bend_hints {} is not in [0, 1]",
            options.bend_hints
        )));
    }
    if let Some(d) = options.damping {
        finite(d, "damping")?;
    }
    if let Some(s) = options.swivel {
        finite(s, "swivel")?;
    }
    let what = Moving {
        base: options.base.as_deref(),
        move_root: options.move_root,
        frozen: &options.frozen,
    };
    let (chain, resolved) = resolve_goals(&skeleton.inner, goals.iter().map(|g| &g.def), what)
        .map_err(|d| goal_defect_error(&d))?;
    Ok(Prepared {
        skeleton: skeleton.inner.clone(),
        chain,
        goals: resolved,
        start: pose.q.clone(),
        kind,
        options: SolverOptions {
            damping: options.damping,
            swivel: options.swivel.map(f64::to_radians),
        },
        settings: Settings {
            tolerance: options.tolerance,
            max_iterations: options.max_iterations,
        },
        bend_hints: options.bend_hints,
    })
}

/// The solve itself, as `marionette solve` runs it: (the pose reached, the report, µs).
pub fn run(p: &Prepared) -> Result<(Vec<f64>, marionette_ik::Report, f64), String> {
    let mut system = System::new(&p.skeleton, p.goals.clone(), p.chain.clone());
    system.set_preference(p.bend_hints);
    let mut q = p.start.clone();
    let mut solver = p.kind.build_with(&p.options)?;
    system.evaluate(&q);
    solver
        .supports(&system)
        .map_err(|why| format!("solver {}: {why}", p.kind))?;
    let started = Instant::now();
    let report = solve(solver.as_mut(), &mut system, &mut q, p.settings);
    Ok((q, report, started.elapsed().as_secs_f64() * 1e6))
}

fn dof_names(skeleton: &Skeleton, dofs: &[marionette_skeleton::DofId]) -> Vec<(String, usize)> {
    dofs.iter()
        .map(|&d| {
            let dof = skeleton.dof(d);
            (skeleton.joint(dof.joint).name.clone(), dof.index_in_joint)
        })
        .collect()
}

/// Solves `goals` from `pose` with `solver` ("jt", "pinv", "dls", "sdls", "ccd", "lagrange",
/// "priority", "nlp", "extended" or "analytic"). Every DOF moves unless `base` (only those
/// between it and the goals' joints), `frozen` (joints held) or `move_root` (the root's
/// translation too) say otherwise. Raises Error for an unknown site, joint or solver and
/// LimitError for a NaN or infinite target; an unmet goal is not an error: see `.goals` and
/// `.why`.
#[pyfunction(name = "solve")]
#[pyo3(signature = (skeleton, pose, goals, solver = "dls", *, tolerance = TOLERANCE,
                    max_iterations = MAX_ITERATIONS, base = None, move_root = false, frozen = Vec::new(),
                    damping = None, swivel = None, bend_hints = 0.0))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub fn py_solve(
    py: Python<'_>,
    skeleton: &PySkeleton,
    pose: &PyPose,
    goals: Vec<PyRef<'_, PyGoal>>,
    solver: &str,
    tolerance: f64,
    max_iterations: usize,
    base: Option<String>,
    move_root: bool,
    frozen: Vec<String>,
    damping: Option<f64>,
    swivel: Option<f64>,
    bend_hints: f64,
) -> PyResult<Solution> {
    let options = SolveOptions {
        solver,
        tolerance,
        max_iterations,
        base,
        move_root,
        frozen,
        damping,
        swivel,
        bend_hints,
    };
    let prepared = prepare(skeleton, pose, &goals, options)?;
    let (q, report, micros) = py.detach(|| run(&prepared)).map_err(error)?;
    let s = &prepared.skeleton;
    let goals = prepared
        .goals
        .iter()
        .zip(&report.goal_errors)
        .enumerate()
        .map(|(i, (g, &e))| {
            let shortfall = report.shortfalls.get(i).and_then(Option::as_ref);
            GoalResult {
                kind: g.kind.label(),
                error: e,
                status: shortfall.map_or("met", Shortfall::label),
                why: shortfall.map(|sh| sh.describe(s)),
                short_by: match shortfall {
                    Some(Shortfall::OutOfReach { by }) => Some(*by),
                    _ => None,
                },
                held_by: match shortfall {
                    Some(Shortfall::HeldByLimits { dofs }) => dof_names(s, dofs),
                    _ => Vec::new(),
                },
            }
        })
        .collect();
    Ok(Solution {
        pose: PyPose::new(s.clone(), q),
        converged: report.converged,
        residual: report.residual,
        iterations: report.iterations,
        solver: report.solver,
        goals,
        limits_hit: dof_names(s, &report.limits_hit),
        swivel: report.swivel.as_ref().map(|sw| sw.angle.to_degrees()),
        micros,
    })
}

/// The benchmark's reference: the same solve `repeats` times in Rust with nothing from Python
/// in the loop (the goals resolved once, as a Rust caller holds them), returning the mean
/// seconds per solve; `solve` from Python is compared with it (benchmarks/python_bench.py).
#[pyfunction(name = "_solve_in_rust")]
#[pyo3(signature = (skeleton, pose, goals, solver = "dls", repeats = 1000))]
pub fn solve_in_rust(
    py: Python<'_>,
    skeleton: &PySkeleton,
    pose: &PyPose,
    goals: Vec<PyRef<'_, PyGoal>>,
    solver: &str,
    repeats: usize,
) -> PyResult<f64> {
    let options = SolveOptions {
        solver,
        tolerance: TOLERANCE,
        max_iterations: MAX_ITERATIONS,
        base: None,
        move_root: false,
        frozen: Vec::new(),
        damping: None,
        swivel: None,
        bend_hints: 0.0,
    };
    let prepared = prepare(skeleton, pose, &goals, options)?;
    py.detach(|| {
        let started = Instant::now();
        for _ in 0..repeats.max(1) {
            std::hint::black_box(run(std::hint::black_box(&prepared))?);
        }
        Ok::<f64, String>(started.elapsed().as_secs_f64() / repeats.max(1) as f64)
    })
    .map_err(error)
}
