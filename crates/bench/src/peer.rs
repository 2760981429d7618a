//! The peer-comparison protocols of REFERENCE_PROBLEMS.md §4 for Marionette's solvers:
//! the 7-DOF arm (1000 targets from forward kinematics of joint vectors uniform in [−π, π]⁷,
//! solved from q₀, success checked independently by forward kinematics), and Buss's trees with
//! 1000 reachable targets (joint angles uniform in ±1 rad, start all zero, every effector within
//! 1 mm).

use std::time::Instant;

use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};
use nalgebra::Vector3;

use crate::table::{Table, mean, median};
use marionette_skeleton::random::SplitMix64;

/// The protocol's start pose q₀ (radians).
pub const Q0: [f64; 7] = [0.1, 0.5, -0.2, 1.2, 0.3, 0.6, -0.1];

/// Summary of one solver on one protocol.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    /// Fraction of targets reached (checked by independent forward kinematics).
    pub success: f64,
    /// Median microseconds per solve.
    pub median_micros: f64,
    /// Mean microseconds per solve.
    pub mean_micros: f64,
    /// Mean iterations.
    pub mean_iterations: f64,
}

/// A target of the arm protocol: a position and the wrist's rotation.
pub struct ArmTarget {
    /// Hand position.
    pub position: Vector3<f64>,
    /// Wrist frame rotation.
    pub rotation: nalgebra::Matrix3<f64>,
}

/// The protocol's targets: forward kinematics of joint vectors uniform in [−π, π]⁷ (seed fixed).
pub fn arm_targets(arm: &Skeleton, count: usize, seed: u64) -> Vec<ArmTarget> {
    let hand = arm.site_by_name("hand").expect("hand site");
    let wrist = arm.site(hand).joint;
    let mut rng = SplitMix64::new(seed);
    let mut fk = Fk::new(arm);
    (0..count)
        .map(|_| {
            let mut q = vec![0.0; arm.state_len()];
            for v in q.iter_mut().skip(3) {
                *v = rng.uniform(-std::f64::consts::PI, std::f64::consts::PI);
            }
            fk.update(arm, &q);
            ArmTarget {
                position: fk.site_position(hand),
                rotation: *fk.joint_rotation(wrist),
            }
        })
        .collect()
}

/// Runs one solver over the arm targets, with or without the orientation goal.
pub fn arm_protocol(
    arm: &Skeleton,
    targets: &[ArmTarget],
    kind: SolverKind,
    with_orientation: bool,
) -> Outcome {
    let hand = arm.site_by_name("hand").expect("hand site");
    let wrist = arm.site(hand).joint;
    let mut goals = vec![Goal::new(GoalKind::Position {
        site: hand,
        target: Vector3::zeros(),
    })];
    if with_orientation {
        goals.push(Goal::new(GoalKind::Orientation {
            joint: wrist,
            target: nalgebra::Matrix3::identity(),
            axes: [true; 3],
        }));
    }
    let mut system = System::new(arm, goals, Chain::whole(arm, false));
    let mut solver = kind.build();
    let settings = Settings {
        tolerance: 1e-4,
        max_iterations: 100,
    };
    let mut start = Pose::rest(arm).q;
    start[3..].copy_from_slice(&Q0);
    let mut check = Fk::new(arm);
    let (mut micros, mut iterations, mut successes) = (Vec::new(), Vec::new(), 0usize);
    for target in targets {
        for goal in system.goals_mut() {
            match &mut goal.kind {
                GoalKind::Position { target: t, .. } => *t = target.position,
                GoalKind::Orientation { target: t, .. } => *t = target.rotation,
                _ => {}
            }
        }
        let mut q = start.clone();
        let began = Instant::now();
        let report = solve(solver.as_mut(), &mut system, &mut q, settings);
        micros.push(began.elapsed().as_secs_f64() * 1e6);
        iterations.push(report.iterations as f64);
        check.update(arm, &q);
        let position_ok = (check.site_position(hand) - target.position).norm() < 1e-3;
        let rotation_ok = !with_orientation
            || marionette_ik::goal::rotation_vector(
                &(target.rotation * check.joint_rotation(wrist).transpose()),
            )
            .norm()
                < 0.01;
        successes += usize::from(position_ok && rotation_ok);
    }
    Outcome {
        success: successes as f64 / targets.len() as f64,
        mean_micros: mean(&micros),
        median_micros: median(&mut micros),
        mean_iterations: mean(&iterations),
    }
}

/// Buss's tree with reachable random targets: returns the outcome.
pub fn tree_protocol(
    tree: &Skeleton,
    sites: &[&str],
    kind: SolverKind,
    count: usize,
    seed: u64,
) -> Outcome {
    let (ids, goals) = crate::site_goals(tree, sites);
    let mut system = System::new(tree, goals, Chain::whole(tree, false));
    let mut solver = kind.build();
    let settings = Settings {
        tolerance: 1e-4,
        max_iterations: 200,
    };
    let mut rng = SplitMix64::new(seed);
    let mut fk = Fk::new(tree);
    let (mut micros, mut iterations, mut successes) = (Vec::new(), Vec::new(), 0usize);
    for _ in 0..count {
        let mut goal_pose = Pose::rest(tree).q;
        for v in goal_pose.iter_mut().skip(3) {
            *v = rng.uniform(-1.0, 1.0);
        }
        fk.update(tree, &goal_pose);
        for (goal, &site) in system.goals_mut().iter_mut().zip(&ids) {
            if let GoalKind::Position { target, .. } = &mut goal.kind {
                *target = fk.site_position(site);
            }
        }
        let targets: Vec<Vector3<f64>> = ids.iter().map(|&s| fk.site_position(s)).collect();
        let mut q = Pose::rest(tree).q;
        let began = Instant::now();
        let report = solve(solver.as_mut(), &mut system, &mut q, settings);
        micros.push(began.elapsed().as_secs_f64() * 1e6);
        iterations.push(report.iterations as f64);
        let mut check = Fk::new(tree);
        check.update(tree, &q);
        successes += usize::from(
            ids.iter()
                .zip(&targets)
                .all(|(&s, t)| (check.site_position(s) - t).norm() < 1e-3),
        );
    }
    Outcome {
        success: successes as f64 / count as f64,
        mean_micros: mean(&micros),
        median_micros: median(&mut micros),
        mean_iterations: mean(&iterations),
    }
}

fn outcome_cells(o: &Outcome) -> Vec<String> {
    vec![
        format!("{:.1} %", 100.0 * o.success),
        format!("{:.2}", o.median_micros),
        format!("{:.2}", o.mean_micros),
        format!("{:.1}", o.mean_iterations),
    ]
}

/// The solvers that take part in the peer protocols.
pub const CONTENDERS: [SolverKind; 9] = [
    SolverKind::AnalyticLimb,
    SolverKind::DampedLeastSquares,
    SolverKind::SelectivelyDamped,
    SolverKind::PseudoInverse,
    SolverKind::TaskPriority,
    SolverKind::BoundedLeastSquares,
    SolverKind::CyclicCoordinateDescent,
    SolverKind::JacobianTranspose,
    SolverKind::ConstraintMaintenance,
];

/// The arm table (position only, then position + orientation).
pub fn arm_table(skeletons: &std::path::Path, count: usize) -> Table {
    let arm = Skeleton::load(skeletons.join("arm7_peer.ron")).expect("arm7_peer");
    let targets = arm_targets(&arm, count, 7);
    let mut table = Table::new(
        format!(
            "7-DOF arm peer protocol (REFERENCE_PROBLEMS §4): {count} targets from q0, tolerance 1e-4 m / 1e-4 rad, ≤ 100 iterations"
        ),
        &[
            "goal",
            "solver",
            "success",
            "median µs",
            "mean µs",
            "mean iterations",
        ],
    );
    for (label, orientation) in [("position", false), ("position + orientation", true)] {
        for kind in CONTENDERS {
            let o = arm_protocol(&arm, &targets, kind, orientation);
            let mut row = vec![label.to_owned(), kind.name().to_owned()];
            row.extend(outcome_cells(&o));
            table.row(row);
        }
    }
    table.note("peers measured on this machine (§4): k tuned 100 %, 18.5 µs (position) / 55 µs (pose); dynibo 100 %, 8.1 µs (pose)");
    table
}

/// Buss's trees with random reachable targets.
pub fn tree_table(skeletons: &std::path::Path, count: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Buss's trees, {count} reachable targets (angles uniform in ±1 rad), from all zero, every effector within 1 mm"
        ),
        &[
            "shape",
            "solver",
            "success",
            "median µs",
            "mean µs",
            "mean iterations",
        ],
    );
    for (label, file, sites) in [
        ("Y", "buss_y.ron", &["e0", "e1"][..]),
        ("double-Y", "buss_double_y.ron", &["A", "B", "C", "D"][..]),
    ] {
        let tree = Skeleton::load(skeletons.join(file)).expect("tree");
        // The analytic solver applies to limbs only; the trees are not limbs.
        for kind in CONTENDERS
            .into_iter()
            .filter(|k| *k != SolverKind::AnalyticLimb)
        {
            let o = tree_protocol(&tree, sites, kind, count, 11);
            let mut row = vec![label.to_owned(), kind.name().to_owned()];
            row.extend(outcome_cells(&o));
            table.row(row);
        }
    }
    table
        .note("Klampt measured on this machine (§4): Y 87.6 % at 80 µs, double-Y 96.3 % at 458 µs");
    table
}
