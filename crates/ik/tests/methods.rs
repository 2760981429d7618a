//! What each specialised method promises beyond the shared invariants.

use marionette_ik::solvers::nlp::{BoundedLeastSquares, solve_in_stages};
use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use nalgebra::Vector3;

fn load(name: &str) -> Skeleton {
    marionette_skeleton::testing::load(name)
}

/// Welman's constraint maintenance: the feet are constraints (priority 0) and stay put to first
/// order while the hand (priority 1) is dragged; the feedback term removes the drift.
#[test]
fn lagrange_drags_a_hand_while_the_feet_stay_planted() {
    let s = builtin::humanoid();
    let start = marionette_skeleton::builtin::standing(&s);
    let mut fk = Fk::new(&s);
    fk.update(&s, &start.q);
    let mut goals = Vec::new();
    for site in ["right heel", "left heel", "right toe tip", "left toe tip"] {
        let id = s.site_by_name(site).expect("site");
        goals.push(Goal::new(GoalKind::Position {
            site: id,
            target: fk.site_position(id),
        }));
    }
    let hand = s.site_by_name("right fingertips").expect("hand");
    let target = fk.site_position(hand) + Vector3::new(0.0, 0.25, 0.3);
    goals.push(Goal {
        priority: 1,
        ..Goal::new(GoalKind::Position { site: hand, target })
    });
    let mut sys = System::new(&s, goals, Chain::whole(&s, true));
    let mut q = start.q.clone();
    let mut solver = SolverKind::ConstraintMaintenance.build();
    let report = solve(
        solver.as_mut(),
        &mut sys,
        &mut q,
        Settings {
            tolerance: 1e-3,
            max_iterations: 3000,
        },
    );
    assert!(report.converged, "{report:?}");
    for e in &report.goal_errors[..4] {
        assert!(*e < 1e-3, "a foot moved {e} m");
    }
}

/// Task priority: the first level is met exactly even when a lower level asks for something
/// incompatible (Buss's Y: e0 reachable at priority 0, e1 far away at priority 1).
#[test]
fn priority_meets_the_top_level_exactly_under_conflict() {
    let s = load("buss_y.ron");
    let e0 = s.site_by_name("e0").expect("e0");
    let e1 = s.site_by_name("e1").expect("e1");
    // A target e0 reaches in a real pose.
    let mut reached = Pose::rest(&s);
    for v in reached.q.iter_mut().skip(3) {
        *v = 0.5;
    }
    let mut fk = Fk::new(&s);
    fk.update(&s, &reached.q);
    let goals = vec![
        Goal::new(GoalKind::Position {
            site: e0,
            target: fk.site_position(e0),
        }),
        Goal {
            priority: 1,
            ..Goal::new(GoalKind::Position {
                site: e1,
                target: Vector3::new(-5.0, 0.0, 0.0),
            })
        },
    ];
    let mut sys = System::new(&s, goals.clone(), Chain::whole(&s, false));
    let mut q = Pose::rest(&s).q;
    let mut solver = SolverKind::TaskPriority.build();
    let report = solve(
        solver.as_mut(),
        &mut sys,
        &mut q,
        Settings {
            tolerance: 1e-9,
            max_iterations: 300,
        },
    );
    assert!(report.goal_errors[0] < 1e-6, "{report:?}");
    assert!(
        report.goal_errors[1] > 1.0,
        "the lower level cannot be met: {report:?}"
    );
    // With both at the same priority, DLS trades one against the other instead.
    let flat: Vec<Goal> = goals
        .into_iter()
        .map(|g| Goal { priority: 0, ..g })
        .collect();
    let mut sys = System::new(&s, flat, Chain::whole(&s, false));
    let mut q = Pose::rest(&s).q;
    let mut dls = SolverKind::DampedLeastSquares.build();
    let traded = solve(
        dls.as_mut(),
        &mut sys,
        &mut q,
        Settings {
            tolerance: 1e-9,
            max_iterations: 300,
        },
    );
    assert!(traded.goal_errors[0] > 1e-3, "{traded:?}");
}

/// The bounded solver walks a long reach in stages and ends within limits on the target.
#[test]
fn nlp_walks_to_a_far_target_in_stages() {
    let s = load("arm7.ron");
    let tip = s.site_by_name("fingertips").expect("tip");
    let mut target_pose = Pose::rest(&s);
    for (k, d) in s.dofs().iter().enumerate() {
        target_pose.q[3 + k] = d.min + 0.7 * (d.max - d.min);
    }
    let mut fk = Fk::new(&s);
    fk.update(&s, &target_pose.q);
    let goal = Goal::new(GoalKind::Position {
        site: tip,
        target: fk.site_position(tip),
    });
    let mut sys = System::new(&s, vec![goal], Chain::whole(&s, false));
    // The rest arm is straight with the elbow at its 0° bound: start slightly bent.
    let mut q = Pose::rest(&s).q;
    q[3 + 3] = 10f64.to_radians();
    let mut solver = BoundedLeastSquares::default();
    let report = solve_in_stages(
        &mut solver,
        &mut sys,
        &mut q,
        Settings {
            tolerance: 1e-6,
            max_iterations: 500,
        },
        4,
    );
    assert!(report.converged, "{report:?}");
    assert!(Pose { q }.within_limits(&s));
}

/// Šoch & Lórencz's method applies to planar serial chains with one position goal, and says why not
/// otherwise.
#[test]
fn the_extended_jacobian_states_what_it_supports() {
    let planar = load("planar6.ron");
    let tip = planar.site_by_name("tip").expect("tip");
    let goal = Goal::new(GoalKind::Position {
        site: tip,
        target: Vector3::new(3.0, 0.5, 0.0),
    });
    let mut sys = System::new(&planar, vec![goal], Chain::whole(&planar, false));
    let mut solver = SolverKind::ExtendedJacobian.build();
    sys.evaluate(&Pose::rest(&planar).q);
    assert_eq!(solver.supports(&sys), Ok(()));
    let arm = load("arm7_peer.ron");
    let hand = arm.site_by_name("hand").expect("hand");
    let goal = Goal::new(GoalKind::Position {
        site: hand,
        target: Vector3::new(0.2, 0.1, 0.3),
    });
    let mut sys = System::new(&arm, vec![goal], Chain::whole(&arm, false));
    sys.evaluate(&Pose::rest(&arm).q);
    let why = solver.supports(&sys).expect_err("not planar");
    assert!(why.contains("not planar"), "{why}");
}
