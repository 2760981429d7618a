//! One editor frame on the humanoid: both feet locked (heel and toe tip of each), both hands and
//! the head as goals, at most 10 updates per frame, the pose carried from frame to frame while the
//! hands trace circles. Reports the time per frame and how well the locks held.

use std::time::Instant;

use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Skeleton, builtin};
use nalgebra::Vector3;

use crate::table::{Table, mean, median};

/// The goals of the frame problem (feet at priority 0, hands and head at priority 1).
pub fn goals(s: &Skeleton, fk: &Fk) -> Vec<Goal> {
    let mut goals = Vec::new();
    for site in ["right heel", "right toe tip", "left heel", "left toe tip"] {
        let id = s.site_by_name(site).expect("foot site");
        goals.push(Goal::new(GoalKind::Position {
            site: id,
            target: fk.site_position(id),
        }));
    }
    for site in ["right fingertips", "left fingertips", "head top"] {
        let id = s.site_by_name(site).expect("site");
        goals.push(Goal {
            priority: 1,
            ..Goal::new(GoalKind::Position {
                site: id,
                target: fk.site_position(id),
            })
        });
    }
    goals
}

/// Median and largest µs per frame, mean updates, largest foot drift (m), mean hand error (m).
pub fn run(kind: SolverKind, frames: usize) -> [f64; 5] {
    let s = builtin::humanoid();
    let start = builtin::standing(&s);
    let mut fk = Fk::new(&s);
    fk.update(&s, &start.q);
    let goals = goals(&s, &fk);
    let rest_targets: Vec<Vector3<f64>> = goals
        .iter()
        .map(|g| match g.kind {
            GoalKind::Position { target, .. } => target,
            _ => Vector3::zeros(),
        })
        .collect();
    let mut system = System::new(&s, goals, Chain::whole(&s, true));
    let mut solver = kind.build();
    let mut q = start.q.clone();
    let settings = Settings {
        tolerance: 1e-4,
        max_iterations: 10,
    };
    let (mut micros, mut iterations, mut drift, mut hand) =
        (Vec::new(), Vec::new(), 0.0f64, Vec::new());
    for f in 0..frames {
        let a = std::f64::consts::TAU * f as f64 / 120.0;
        let offsets = [
            Vector3::new(0.0, 0.15 * a.sin(), 0.15 * (1.0 - a.cos())),
            Vector3::new(0.0, 0.15 * (1.0 - a.cos()), 0.15 * a.sin()),
            Vector3::new(0.03 * a.sin(), 0.0, 0.03 * a.sin()),
        ];
        for (i, goal) in system.goals_mut().iter_mut().enumerate().skip(4) {
            if let GoalKind::Position { target, .. } = &mut goal.kind {
                *target = rest_targets[i] + offsets[i - 4];
            }
        }
        let began = Instant::now();
        let report = solve(solver.as_mut(), &mut system, &mut q, settings);
        micros.push(began.elapsed().as_secs_f64() * 1e6);
        iterations.push(report.iterations as f64);
        drift = drift.max(report.goal_errors[..4].iter().copied().fold(0.0, f64::max));
        hand.push(0.5 * (report.goal_errors[4] + report.goal_errors[5]));
    }
    let largest = micros.iter().copied().fold(0.0, f64::max);
    [
        median(&mut micros),
        largest,
        mean(&iterations),
        drift,
        mean(&hand),
    ]
}

/// The frame table.
pub fn table(frames: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Humanoid editor frame ({frames} frames): feet locked, hands and head moving, ≤ 10 updates per frame"
        ),
        &[
            "solver",
            "median µs/frame",
            "largest µs",
            "mean updates",
            "largest foot drift (mm)",
            "mean hand error (mm)",
        ],
    );
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::TaskPriority,
        SolverKind::ConstraintMaintenance,
        SolverKind::CyclicCoordinateDescent,
    ] {
        let [med, max, its, drift, hand] = run(kind, frames);
        table.row(vec![
            kind.name().to_owned(),
            format!("{med:.1}"),
            format!("{max:.1}"),
            format!("{its:.1}"),
            format!("{:.2}", drift * 1e3),
            format!("{:.2}", hand * 1e3),
        ]);
    }
    table.note("priority and lagrange hold the feet as the first level / constraints; the others weigh every goal equally");
    table
}
