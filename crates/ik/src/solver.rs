//! The solver interface and the driver shared by every method.
//!
//! A [`Solver`] makes one update from the current pose (its `step`); the driver runs it in one of
//! two modes: [`track`] (one update, as the editor does each frame while the user drags) and
//! [`solve`] (iterate until every goal is within tolerance or the iteration budget is spent).
//! Both return the same [`Report`].

use marionette_skeleton::DofId;

use crate::diagnosis::Shortfall;
use crate::merit::Merit;
use crate::system::System;

/// What a solver may tell the driver about its last step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepInfo {
    /// Smallest singular value of the matrix the step inverted, for solvers that compute one.
    pub min_singular_value: Option<f64>,
    /// The step found a system it does not solve ([`Solver::supports`] would say why) and left
    /// `q` as it was. Direct methods ([`Needs::Goals`]) say so instead of being asked first, so
    /// the driver does not analyse the goals twice.
    pub unsupported: bool,
}

/// The swivel angle a limb solve chose and the intervals of valid swivel angles (radians).
#[derive(Debug, Clone, PartialEq)]
pub struct SwivelReport {
    /// The chosen swivel angle φ.
    pub angle: f64,
    /// The valid intervals [start, end] of the chosen family combination (an interval through
    /// ±π ends past π).
    pub intervals: Vec<(f64, f64)>,
    /// Whether the goal was reachable, reachable only outside the joint limits, or not at all.
    pub reach: Reach,
}

/// How a limb goal could be met (Tolani §3.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Met exactly within the joint limits.
    WithinLimits,
    /// Reachable, but only with some joint outside its limits: the solution nearest to the
    /// limits is returned clamped to them.
    OutsideLimits,
    /// Out of reach: the limb stretches (or folds) towards the target, then meets the
    /// orientation as well as it can.
    Unreachable,
}

impl Reach {
    /// The word the JSON output uses.
    pub fn label(self) -> &'static str {
        match self {
            Reach::WithinLimits => "within_limits",
            Reach::OutsideLimits => "outside_limits",
            Reach::Unreachable => "unreachable",
        }
    }
}

/// What a solver's step reads of the system, so the driver evaluates no more than that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Forward kinematics, goal errors and the weighted e and J (the Jacobian methods).
    Jacobian,
    /// Forward kinematics and goal errors, not the Jacobian (CCD).
    Errors,
    /// Only the goals and `q`: a direct method, whose answer is a function of the goals (and of
    /// what they leave free in `q`), not of how close the start already was. The driver makes
    /// its first step without evaluating the start, even where the start already meets the
    /// goals, so that the answer never depends on the start pose (the analytic limb solver).
    Goals,
}

/// One IK method. Implementations keep their workspaces between steps (sized in `prepare`), so a
/// step allocates nothing.
pub trait Solver: Send + Sync {
    /// Short name as the command line spells it (`dls`, `ccd`, ...).
    fn name(&self) -> &'static str;

    /// Sizes workspaces for a system of m rows and n columns; called before the first step and
    /// whenever the system's shape may have changed.
    fn prepare(&mut self, rows: usize, columns: usize);

    /// Whether this method can solve `system` at all (some apply only to certain chains or
    /// goals); the reason otherwise. A `step` on an unsupported system changes nothing.
    fn supports(&mut self, _system: &System<'_>) -> Result<(), String> {
        Ok(())
    }

    /// Writes the swivel of the last update into `out` (the analytic limb solver; `None` for
    /// every other method), reusing its buffers.
    fn swivel_report(&self, out: &mut Option<SwivelReport>) {
        *out = None;
    }

    /// What `step` reads of the evaluated system; the driver evaluates no more than that.
    fn needs(&self) -> Needs {
        Needs::Jacobian
    }

    /// Whether the method meets the goals' priority levels in order (a lower level never buys a
    /// higher one's error); otherwise it weighs every goal alike. The driver compares poses the
    /// same way when it keeps the best pose of a solve.
    fn honours_priorities(&self) -> bool {
        false
    }

    /// Makes one update of `q` from the pose at which `system` was evaluated (as far as
    /// [`Solver::needs`] says), applying it with [`System::apply_step`] or
    /// [`System::set_column`] so limits hold.
    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo;
}

/// Convergence settings of [`solve`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Every goal's error must be at most this (metres or radians).
    pub tolerance: f64,
    /// Updates at most.
    pub max_iterations: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            tolerance: 1e-4,
            max_iterations: 200,
        }
    }
}

/// The outcome of a solve or a tracking update. One report can be filled again and again
/// ([`solve_into`]) without allocating.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// The solver's name.
    pub solver: &'static str,
    /// True when every goal is within tolerance.
    pub converged: bool,
    /// Updates made.
    pub iterations: usize,
    /// The largest goal error after the last update.
    pub residual: f64,
    /// Each goal's error after the last update, in goal order.
    pub goal_errors: Vec<f64>,
    /// Smallest singular value seen in the last update, where the method has one.
    pub min_singular_value: Option<f64>,
    /// DOFs that were held at a limit during the solve.
    pub limits_hit: Vec<DofId>,
    /// The analytic limb solver's swivel angle and valid intervals.
    pub swivel: Option<SwivelReport>,
    /// Why each goal is unmet, in goal order (`None` for a goal within tolerance).
    pub shortfalls: Vec<Option<Shortfall>>,
}

impl Report {
    /// The unmet goal with the largest error and why it is unmet, if any goal is unmet.
    pub fn worst_shortfall(&self) -> Option<(usize, &Shortfall)> {
        self.shortfalls
            .iter()
            .zip(&self.goal_errors)
            .enumerate()
            .filter_map(|(g, (s, e))| s.as_ref().map(|s| (g, s, *e)))
            .max_by(|a, b| a.2.total_cmp(&b.2))
            .map(|(g, s, _)| (g, s))
    }
}

fn evaluate(solver: &dyn Solver, system: &mut System<'_>, q: &[f64]) {
    match solver.needs() {
        Needs::Jacobian => system.evaluate(q),
        Needs::Errors | Needs::Goals => system.evaluate_errors(q),
    }
}

/// Fills `report` in place (its vectors keep their capacity). When a goal is unmet, the system
/// is evaluated again with its Jacobian at `q` to say why ([`Shortfall`]); `gaining` tells
/// whether the last update still lowered the largest error.
fn fill_report(
    solver: &dyn Solver,
    system: &mut System<'_>,
    q: &[f64],
    (iterations, converged, info): (usize, bool, StepInfo),
    (gaining, tolerance): (bool, f64),
    report: &mut Report,
) {
    if converged {
        report.shortfalls.clear();
        report.shortfalls.resize(system.goals().len(), None);
    } else {
        system.evaluate(q);
        crate::diagnosis::diagnose_into(system, q, tolerance, gaining, &mut report.shortfalls);
    }
    report.solver = solver.name();
    report.converged = converged;
    report.iterations = iterations;
    report.residual = system.max_error();
    report.goal_errors.clear();
    report.goal_errors.extend_from_slice(system.goal_errors());
    report.min_singular_value = info.min_singular_value;
    system.limit_hits_into(&mut report.limits_hit);
    solver.swivel_report(&mut report.swivel);
}

/// Iterates until every goal is within `settings.tolerance` or `max_iterations` updates are made.
/// `q` ends at the last pose reached (the best the solver did for an unreachable goal). A system
/// the solver does not support ([`Solver::supports`]) is left as it is, after 0 iterations.
pub fn solve(
    solver: &mut dyn Solver,
    system: &mut System<'_>,
    q: &mut [f64],
    settings: Settings,
) -> Report {
    let mut report = Report::default();
    solve_into(solver, system, q, settings, &mut report, |_| {});
    report
}

/// [`solve`] into an existing report (no allocation once its vectors have grown), calling
/// `observe` with the largest goal error after each update (the editor's
/// residual-per-iteration plot).
pub fn solve_into(
    solver: &mut dyn Solver,
    system: &mut System<'_>,
    q: &mut [f64],
    settings: Settings,
    report: &mut Report,
    mut observe: impl FnMut(f64),
) {
    let (m, n) = system.shape();
    solver.prepare(m, n);
    system.clear_limit_hits();
    let unsupported =
        |solver: &dyn Solver, system: &mut System<'_>, q: &[f64], report: &mut Report| {
            evaluate(solver, system, q);
            let converged = system.max_error() <= settings.tolerance;
            fill_report(
                solver,
                system,
                q,
                (0, converged, StepInfo::default()),
                (false, settings.tolerance),
                report,
            );
        };
    let direct = solver.needs() == Needs::Goals && settings.max_iterations > 0;
    if !direct && solver.supports(system).is_err() {
        return unsupported(solver, system, q, report);
    }
    let mut info = StepInfo::default();
    let mut iterations = 0;
    let mut gaining = true;
    // The best pose of the solve once a stall was escaped: what the solve then returns, and the
    // bar a further escape must clear, so no escape and step can cycle.
    let mut best: Option<(Merit, Vec<f64>)> = None;
    let mut merit = Merit::default();
    // At most one escape and one restart per solve (an editor frame): a goal out of reach, held
    // by limits or in conflict with another costs one round of probes a frame, not one per
    // update, and a stalled limb still leaves its stall over a few frames.
    let (mut may_escape, mut may_restart) = (true, true);
    if direct {
        info = solver.step(system, q);
        if info.unsupported {
            return unsupported(solver, system, q, report);
        }
        iterations = 1;
    }
    evaluate(solver, system, q);
    if direct {
        observe(system.max_error());
    }
    // A step that leaves the pose bit for bit as it was cannot be followed by a different one:
    // the solver is stuck (at limits, or an exact method out of reach), so stop there. The pose
    // is compared by a fingerprint of its bits, which needs no copy.
    //
    // A step that gains (almost) nothing while a goal is unmet is a stall (a straight limb, joints
    // pressed against their limits): the driver then looks for a way out itself
    // ([`crate::escape`]), for every method alike, direct ones excepted (their answer is exact).
    if !direct {
        merit = Merit::new(solver.honours_priorities());
    }
    let mut lowest = system.max_error();
    while system.max_error() > settings.tolerance && iterations < settings.max_iterations {
        let before = fingerprint(q);
        info = solver.step(system, q);
        iterations += 1;
        evaluate(solver, system, q);
        let stuck = fingerprint(q) == before;
        let error = system.max_error();
        // No progress on the lowest error of the solve: a stall, or a cycle (a method that
        // undoes each bend at a singular pose, say).
        let stalled = stuck || error > lowest * (1.0 - crate::escape::STALL_GAIN);
        lowest = lowest.min(error);
        gaining = !stalled;
        if !direct
            && (may_escape || may_restart)
            && stalled
            && error > crate::escape::WORTH_ESCAPING * settings.tolerance
        {
            merit.measure(system, settings.tolerance);
            let bar = match &best {
                Some((best_merit, _)) if best_merit.beats(&merit, 0.0) => best_merit.clone(),
                _ => merit.clone(),
            };
            let tolerance = settings.tolerance;
            let escaped = (may_escape && {
                may_escape = false;
                crate::escape::escape(system, q, &bar, tolerance)
            }) || (may_restart && {
                may_restart = false;
                crate::escape::restart(system, q, tolerance, &bar, &mut |system, trial, updates| {
                    run_updates(solver, system, trial, tolerance, updates);
                })
            });
            evaluate(solver, system, q);
            if escaped {
                // From here on the solve keeps its best pose, so the solver cannot undo the
                // escape and end the frame where it started.
                if best.is_none() {
                    best = Some((Merit::of(system, tolerance, &merit), q.to_vec()));
                }
                remember_best(&mut best, &mut merit, system, tolerance, q);
                observe(system.max_error());
                gaining = true;
                continue;
            }
        }
        remember_best(&mut best, &mut merit, system, settings.tolerance, q);
        observe(system.max_error());
        if stuck {
            break;
        }
    }
    if let Some((best_merit, pose)) = &best {
        merit.measure(system, settings.tolerance);
        if best_merit.beats(&merit, 0.0) {
            q.copy_from_slice(pose);
            evaluate(solver, system, q);
        }
    }
    let converged = system.max_error() <= settings.tolerance;
    fill_report(
        solver,
        system,
        q,
        (iterations, converged, info),
        (gaining, settings.tolerance),
        report,
    );
}

/// Keeps `q` (at which `system` is evaluated) as the best pose when it beats it; `scratch`
/// holds its merit.
fn remember_best(
    best: &mut Option<(Merit, Vec<f64>)>,
    scratch: &mut Merit,
    system: &System<'_>,
    tolerance: f64,
    q: &[f64],
) {
    if let Some((best_merit, pose)) = best {
        scratch.measure(system, tolerance);
        if scratch.beats(best_merit, 0.0) {
            std::mem::swap(best_merit, scratch);
            pose.copy_from_slice(q);
        }
    }
}

/// Up to `updates` updates of `solver` from `q` (stopping once every goal is within
/// `tolerance`); the largest goal error reached.
pub(crate) fn run_updates(
    solver: &mut dyn Solver,
    system: &mut System<'_>,
    q: &mut [f64],
    tolerance: f64,
    updates: usize,
) -> f64 {
    for _ in 0..updates {
        evaluate(solver, system, q);
        if system.max_error() <= tolerance {
            break;
        }
        solver.step(system, q);
    }
    evaluate(solver, system, q);
    system.max_error()
}

/// A 64-bit fingerprint of a pose's bits (FNV-1a over the words): equal poses give equal
/// fingerprints, and different ones collide with probability about 2⁻⁶⁴.
pub(crate) fn fingerprint(q: &[f64]) -> u64 {
    q.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, v| {
        (h ^ v.to_bits()).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Makes exactly one update (the editor's per-frame tracking mode) and reports the errors after
/// it; `converged` uses `tolerance`. A system the solver does not support is left as it is, after
/// 0 updates. The caller calls [`Solver::prepare`] once per system shape.
pub fn track(
    solver: &mut dyn Solver,
    system: &mut System<'_>,
    q: &mut [f64],
    tolerance: f64,
) -> Report {
    system.clear_limit_hits();
    let direct = solver.needs() == Needs::Goals;
    if !direct {
        evaluate(solver, system, q);
    }
    let before = system.max_error();
    let info = if !direct && solver.supports(system).is_err() {
        StepInfo {
            unsupported: true,
            ..StepInfo::default()
        }
    } else {
        solver.step(system, q)
    };
    evaluate(solver, system, q);
    let converged = system.max_error() <= tolerance;
    let updates = usize::from(!info.unsupported);
    let gaining = system.max_error() < before * (1.0 - crate::escape::STALL_GAIN);
    let mut report = Report::default();
    fill_report(
        solver,
        system,
        q,
        (updates, converged, info),
        (gaining, tolerance),
        &mut report,
    );
    report
}
