//! `marionette solve PROBLEM.ron [--solver S] [--tolerance T] [--max-iterations N] [--json]`:
//! solves a Problem file (docs/file-formats.md) and prints the pose reached.
//! Exit status: 0 converged, 3 not converged (the best pose is still printed), 1 bad input.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use marionette_ik::{
    Problem, Report, Settings, Shortfall, SolverKind, SolverOptions, System, solve,
};
use marionette_skeleton::{Fk, Pose, Skeleton};
use serde_json::{Value, json};

use crate::output::outln;

/// Exit status when the solver stopped before every goal was within tolerance.
const NOT_CONVERGED: u8 = 3;

/// Arguments of `marionette solve`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette solve reach.ron\n  \
    marionette solve reach.ron --solver sdls --tolerance 1e-5 --json\n  \
    marionette solve arm.ron --solver analytic --swivel 30")]
pub struct SolveArgs {
    /// The problem file.
    problem: PathBuf,
    /// The method: jt, pinv, dls, sdls, ccd, lagrange, priority, nlp or extended.
    #[arg(long, default_value = "dls")]
    solver: SolverKind,
    /// Every goal's error must end at most this (metres or radians).
    #[arg(long, default_value_t = 1e-4, value_parser = super::positive)]
    tolerance: f64,
    /// Updates at most.
    #[arg(long, default_value_t = 200)]
    max_iterations: usize,
    /// Print the JSON object of docs/file-formats.md instead of a summary.
    #[arg(long)]
    json: bool,
    /// dls only: a fixed damping λ in metres (default: adaptive, λ² = ½‖e‖² + 1e-4).
    #[arg(long, value_name = "LAMBDA")]
    damping: Option<f64>,
    /// analytic only: the desired swivel angle in degrees (default: the middle of the widest
    /// interval of valid swivel angles).
    #[arg(long, value_name = "DEGREES", allow_hyphen_values = true)]
    swivel: Option<f64>,
    /// Pull the DOFs that move a goal towards their bend hints (the skeleton's `preferred`
    /// values) with this gain per update, in the goals' null space (0 = off; the editor's drags
    /// use 0.1).
    #[arg(long, value_name = "GAIN", default_value_t = 0.0, value_parser = unit_interval)]
    bend_hints: f64,
}

fn unit_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("\"{s}\" is not a number in [0, 1]")),
    }
}

/// Loads, solves and prints.
pub fn run(args: &SolveArgs) -> Result<ExitCode, String> {
    let problem = Problem::load(&args.problem).map_err(|e| e.to_string())?;
    let mut system = System::new(
        &problem.skeleton,
        problem.goals.clone(),
        problem.chain.clone(),
    );
    system.set_preference(args.bend_hints);
    let mut q = problem.start.q.clone();
    let options = SolverOptions {
        damping: args.damping,
        swivel: args.swivel.map(f64::to_radians),
    };
    let mut solver = args.solver.build_with(&options)?;
    system.evaluate(&q);
    solver
        .supports(&system)
        .map_err(|why| format!("{}: solver {}: {why}", args.problem.display(), args.solver))?;
    let settings = Settings {
        tolerance: args.tolerance,
        max_iterations: args.max_iterations,
    };
    let started = Instant::now();
    let report = solve(solver.as_mut(), &mut system, &mut q, settings);
    let micros = started.elapsed().as_secs_f64() * 1e6;
    let pose = Pose { q };
    if args.json {
        outln!("{}", to_json(&problem, &report, &pose, micros));
    } else {
        crate::output::emit(&summary(&problem, &report, &pose, micros));
    }
    Ok(if report.converged {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_CONVERGED)
    })
}

/// The JSON object of docs/file-formats.md, plus `min_singular_value`, `limits_hit` and, for the
/// analytic limb solver, `swivel`: the chosen swivel angle and its valid intervals, in degrees.
fn to_json(problem: &Problem, report: &Report, pose: &Pose, micros: f64) -> Value {
    let skeleton = &problem.skeleton;
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &pose.q);
    let goals: Vec<Value> = problem
        .goals
        .iter()
        .zip(&report.goal_errors)
        .enumerate()
        .map(|(index, (g, e))| {
            let mut goal = json!({"index": index, "kind": g.kind.label(), "error": e});
            let shortfall = report.shortfalls.get(index).and_then(Option::as_ref);
            if let Some(map) = goal.as_object_mut() {
                map.insert(
                    "status".into(),
                    shortfall.map_or("met", Shortfall::label).into(),
                );
                match shortfall {
                    Some(Shortfall::OutOfReach { by }) => {
                        map.insert("short_by".into(), json!(by));
                    }
                    Some(Shortfall::HeldByLimits { dofs }) => {
                        map.insert("held_by".into(), dofs_json(skeleton, dofs));
                    }
                    _ => {}
                }
            }
            goal
        })
        .collect();
    let sites = crate::output::sites_json(skeleton, &fk);
    let limits = dofs_json(skeleton, &report.limits_hit);
    let swivel = report.swivel.as_ref().map(|sw| {
        let intervals: Vec<Value> = sw
            .intervals
            .iter()
            .map(|(a, b)| json!([a.to_degrees(), b.to_degrees()]))
            .collect();
        json!({"angle": sw.angle.to_degrees(), "intervals": intervals, "reach": sw.reach.label()})
    });
    let mut out = json!({
        "solver": report.solver,
        "converged": report.converged,
        "iterations": report.iterations,
        "micros": micros,
        "residual": report.residual,
        "goals": goals,
        "pose": marionette_motion::frames_file::pose_json(skeleton, &pose.q),
        "sites": sites,
        "min_singular_value": report.min_singular_value,
        "limits_hit": limits,
    });
    if let (Some(sw), Some(map)) = (swivel, out.as_object_mut()) {
        map.insert("swivel".into(), sw);
    }
    out
}

/// DOFs as `[{"joint": name, "dof": index in the joint}]`.
fn dofs_json(skeleton: &Skeleton, dofs: &[marionette_skeleton::DofId]) -> Value {
    dofs.iter()
        .map(|&d| {
            let dof = skeleton.dof(d);
            json!({"joint": skeleton.joint(dof.joint).name, "dof": dof.index_in_joint})
        })
        .collect()
}

fn summary(problem: &Problem, report: &Report, pose: &Pose, micros: f64) -> String {
    let skeleton = &problem.skeleton;
    let mut out = format!(
        "{} {} after {} iterations ({micros:.1} µs), largest goal error {:.3e}\n",
        report.solver,
        if report.converged {
            "converged"
        } else {
            "did NOT converge"
        },
        report.iterations,
        report.residual
    );
    for (i, (g, e)) in problem.goals.iter().zip(&report.goal_errors).enumerate() {
        let unit = if g.kind.is_angular() { "rad" } else { "m" };
        out += &format!("  goal {i} ({}): error {e:.3e} {unit}", g.kind.label());
        if let Some(Some(shortfall)) = report.shortfalls.get(i) {
            out += &format!(": {}", shortfall.describe(skeleton));
        }
        out += "\n";
    }
    if let Some(sw) = &report.swivel {
        let intervals: Vec<String> = sw
            .intervals
            .iter()
            .map(|(a, b)| format!("[{:.1}°, {:.1}°]", a.to_degrees(), b.to_degrees()))
            .collect();
        out += &format!(
            "  swivel {:.2}°, valid {} ({})\n",
            sw.angle.to_degrees(),
            intervals.join(" "),
            sw.reach.label().replace('_', " ")
        );
    }
    for d in &report.limits_hit {
        let dof = skeleton.dof(*d);
        out += &format!(
            "  at a limit: {} DOF {}\n",
            skeleton.joint(dof.joint).name,
            dof.index_in_joint + 1
        );
    }
    out += "pose (degrees):\n";
    for (name, values) in pose.file_values(skeleton) {
        if !values.is_empty() {
            let text: Vec<String> = values.iter().map(|x| format!("{x:.3}")).collect();
            out += &format!("  {name}: [{}]\n", text.join(", "));
        }
    }
    out
}
