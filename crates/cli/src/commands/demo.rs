//! `marionette demo`: the main job until the editor lands. On the built-in humanoid it shows
//! forward kinematics through a short reach, then inverse kinematics: both feet locked while the
//! right hand reaches forward and the head aims at it, solved by each numeric solver, and the right
//! arm alone solved analytically, with the times measured on this machine.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, ROOT_STATE_LEN, Skeleton, builtin};
use nalgebra::Vector3;

use crate::output::{outln, text_row};

/// Arguments of `marionette demo`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette demo\n  \
    marionette demo --frames 5")]
pub struct DemoArgs {
    /// Number of frames of the forward-kinematics reach to print.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=1000))]
    frames: u32,
}

/// Sets one DOF, given in file units (degrees), by joint name and DOF index.
fn set(skeleton: &Skeleton, pose: &mut Pose, joint: &str, dof: usize, degrees: f64) {
    if let Some(j) = skeleton.joint_by_name(joint) {
        let k = skeleton.joint(j).dofs.start + dof;
        let d = &skeleton.dofs()[k];
        pose.q[ROOT_STATE_LEN + k] = d.clamp(d.from_file_units(degrees));
    }
}

/// Runs the demo.
pub fn run(args: &DemoArgs) -> Result<ExitCode, String> {
    let skeleton = builtin::humanoid();
    outln!(
        "built-in humanoid: {} joints, {} dofs, {} sites, {:.1} kg",
        skeleton.joints().len(),
        skeleton.dof_count(),
        skeleton.sites().len(),
        skeleton.total_mass()
    );
    let mut fk = Fk::new(&skeleton);
    let width = skeleton
        .sites()
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max("centre of mass".len());
    let frames = args.frames;
    outln!("\nforward kinematics: the right arm reaches forward");
    for f in 0..frames {
        let t = f64::from(f) / f64::from(frames - 1);
        let mut pose = Pose::rest(&skeleton);
        set(&skeleton, &mut pose, "right shoulder", 0, 90.0 * t);
        set(&skeleton, &mut pose, "right elbow", 0, 60.0 * t);
        fk.update(&skeleton, &pose.q);
        outln!(
            "frame {f}: right shoulder flexion {:.0}°, elbow flexion {:.0}°",
            90.0 * t,
            60.0 * t
        );
        for site in ["right fingertips", "head top"] {
            let id = skeleton.site_by_name(site).ok_or("built-in site missing")?;
            outln!("  {}", text_row(site, width, &fk.site_position(id)));
        }
        outln!(
            "  {}",
            text_row("centre of mass", width, &fk.center_of_mass())
        );
    }
    inverse_kinematics(&skeleton)?;
    let pose = Pose::rest(&skeleton);
    let runs = 20_000u32;
    let started = Instant::now();
    for _ in 0..runs {
        fk.update(&skeleton, std::hint::black_box(&pose.q));
    }
    let micros = started.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
    outln!("\nforward kinematics of the whole figure: {micros:.2} µs per pose ({runs} poses)");
    Ok(ExitCode::SUCCESS)
}

/// Feet locked, right hand reaching, head aiming at it: every numeric solver; then the right arm
/// alone, analytically.
fn inverse_kinematics(skeleton: &Skeleton) -> Result<(), String> {
    let site = |name: &str| {
        skeleton
            .site_by_name(name)
            .ok_or_else(|| format!("built-in site \"{name}\" missing"))
    };
    let start = builtin::standing(skeleton);
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &start.q);
    let hand_target = Vector3::new(-0.25, 1.1, 0.45);
    let mut goals = Vec::new();
    for foot in ["right heel", "right toe tip", "left heel", "left toe tip"] {
        let id = site(foot)?;
        goals.push(Goal {
            weight: 4.0,
            ..Goal::new(GoalKind::Position {
                site: id,
                target: fk.site_position(id),
            })
        });
    }
    goals.push(Goal {
        priority: 1,
        ..Goal::new(GoalKind::Position {
            site: site("right fingertips")?,
            target: hand_target,
        })
    });
    goals.push(Goal {
        priority: 1,
        weight: 0.2,
        ..Goal::new(GoalKind::Aim {
            site: site("head top")?,
            axis: Vector3::z(),
            at: hand_target,
        })
    });
    outln!(
        "\ninverse kinematics: both feet locked, the right hand to ({:.2}, {:.2}, {:.2}), the head aiming at it",
        hand_target.x,
        hand_target.y,
        hand_target.z
    );
    outln!(
        "  {:<9} {:>10} {:>11} {:>13} {:>11}",
        "solver",
        "converged",
        "iterations",
        "largest error",
        "time"
    );
    let settings = Settings {
        tolerance: 1e-4,
        max_iterations: 500,
    };
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::TaskPriority,
        SolverKind::ConstraintMaintenance,
        SolverKind::CyclicCoordinateDescent,
        SolverKind::BoundedLeastSquares,
        SolverKind::PseudoInverse,
        SolverKind::JacobianTranspose,
    ] {
        let mut system = System::new(skeleton, goals.clone(), Chain::whole(skeleton, true));
        let mut q = start.q.clone();
        let mut solver = kind.build();
        let began = Instant::now();
        let report = solve(solver.as_mut(), &mut system, &mut q, settings);
        let micros = began.elapsed().as_secs_f64() * 1e6;
        outln!(
            "  {:<9} {:>10} {:>11} {:>13.2e} {:>8.0} µs",
            kind.name(),
            if report.converged { "yes" } else { "no" },
            report.iterations,
            report.residual,
            micros
        );
    }
    // The right arm alone is a limb: solved exactly, in closed form.
    let shoulder = skeleton
        .joint_by_name("right shoulder")
        .ok_or("built-in joint missing")?;
    let hand = site("right fingertips")?;
    let chain =
        Chain::between(skeleton, shoulder, skeleton.site(hand).joint).map_err(|e| e.to_string())?;
    let arm_goal = Goal::new(GoalKind::Position {
        site: hand,
        target: Vector3::new(-0.3, 1.2, 0.35),
    });
    let mut system = System::new(skeleton, vec![arm_goal], chain);
    let mut solver = SolverKind::AnalyticLimb.build();
    let exact = Settings {
        tolerance: 1e-9,
        max_iterations: 1,
    };
    // The first solve detects the limb; time the ones after it.
    let mut q = start.q.clone();
    let mut report = solve(solver.as_mut(), &mut system, &mut q, exact);
    let repeats = 1000u32;
    let began = Instant::now();
    for _ in 0..repeats {
        q.copy_from_slice(&start.q);
        report = solve(solver.as_mut(), &mut system, &mut q, exact);
    }
    let micros = began.elapsed().as_secs_f64() * 1e6 / f64::from(repeats);
    let swivel = report.swivel.as_ref().map_or(String::new(), |s| {
        format!(
            ", swivel {:.1}° ({})",
            s.angle.to_degrees(),
            s.reach.label().replace('_', " ")
        )
    });
    outln!(
        "\nanalytic limb solver, right arm to (-0.30, 1.20, 0.35): error {:.1e} m in {micros:.2} µs per solve{swivel}",
        report.residual
    );
    Ok(())
}
