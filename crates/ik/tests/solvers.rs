//! Invariants every solver keeps, on random skeletons, poses and targets (reachable, unreachable
//! and degenerate): poses stay within limits, nothing becomes NaN or infinite, the same input gives
//! bit-identical output; and each solver converges on reachable problems.

use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve, track};
use marionette_skeleton::testing::{pose_from_unit, skeleton_and_pose};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use nalgebra::{Rotation3, Vector3};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Target {
    /// Where the site is in another random pose: reachable (with the root moving).
    Reachable(Vec<f64>),
    /// Far outside any reach.
    Far(f64),
    /// Exactly where the site already is (zero error) or at a joint pivot.
    Degenerate,
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        prop::collection::vec(0.0..1.0f64, 40).prop_map(Target::Reachable),
        (10.0..1e6f64).prop_map(Target::Far),
        Just(Target::Degenerate),
    ]
}

fn goals_for(s: &Skeleton, pose: &Pose, t: &Target) -> Vec<Goal> {
    let mut fk = Fk::new(s);
    let site = s.site_ids().next().expect("site");
    let joint = s.site(site).joint;
    let (position, rotation) = match t {
        Target::Reachable(u) => {
            let other = pose_from_unit(s, u, [0.0; 3]);
            fk.update(s, &other.q);
            (fk.site_position(site), *fk.joint_rotation(joint))
        }
        Target::Far(d) => (
            Vector3::new(*d, -d, 0.5 * d),
            Rotation3::from_euler_angles(1.0, 2.0, 3.0).into_inner(),
        ),
        Target::Degenerate => {
            fk.update(s, &pose.q);
            (fk.site_position(site), *fk.joint_rotation(joint))
        }
    };
    let mut goals = vec![Goal::new(GoalKind::Position {
        site,
        target: position,
    })];
    if let Target::Reachable(u) = t
        && u[0] > 0.5
    {
        goals.push(Goal {
            weight: 0.5,
            ..Goal::new(GoalKind::Orientation {
                joint,
                target: rotation,
                axes: [true, true, true],
            })
        });
    }
    if let Some(last) = s.site_ids().nth(1) {
        goals.push(Goal::new(GoalKind::Aim {
            site: last,
            axis: Vector3::z(),
            at: position,
        }));
    }
    goals
}

fn run(
    kind: SolverKind,
    s: &Skeleton,
    pose: &Pose,
    goals: &[Goal],
    iterations: usize,
) -> (Vec<f64>, marionette_ik::Report) {
    let mut sys = System::new(s, goals.to_vec(), Chain::whole(s, false));
    let mut q = pose.q.clone();
    let mut solver = kind.build();
    let report = solve(
        solver.as_mut(),
        &mut sys,
        &mut q,
        Settings {
            tolerance: 1e-6,
            max_iterations: iterations,
        },
    );
    (q, report)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Forward kinematics limited to the goals' joints and their ancestors changes nothing a
    /// Jacobian method computes: the same pose, bit for bit, and the same report.
    #[test]
    fn limiting_forward_kinematics_to_the_goals_changes_no_jacobian_solve((s, pose) in skeleton_and_pose(), t in target()) {
        let goals = goals_for(&s, &pose, &t);
        for kind in [SolverKind::DampedLeastSquares, SolverKind::PseudoInverse, SolverKind::JacobianTranspose, SolverKind::SelectivelyDamped] {
            let (full, full_report) = run(kind, &s, &pose, &goals, 30);
            let mut sys = System::new(&s, goals.clone(), Chain::whole(&s, false));
            sys.limit_fk_to_goals();
            let mut q = pose.q.clone();
            let mut solver = kind.build();
            let report = solve(solver.as_mut(), &mut sys, &mut q, Settings { tolerance: 1e-6, max_iterations: 30 });
            prop_assert!(q.iter().zip(&full).all(|(a, b)| a.to_bits() == b.to_bits()), "{kind}: {q:?} against {full:?}");
            prop_assert_eq!(report, full_report);
        }
    }

    #[test]
    fn every_solver_keeps_limits_finiteness_and_determinism((s, pose) in skeleton_and_pose(), t in target()) {
        let goals = goals_for(&s, &pose, &t);
        for kind in SolverKind::ALL {
            let (q, report) = run(kind, &s, &pose, &goals, 30);
            prop_assert!(q.iter().all(|v| v.is_finite()), "{kind}: non-finite pose");
            let rest = Pose { q: q.clone() };
            prop_assert!(rest.within_limits(&s), "{kind}: outside limits");
            prop_assert!(report.residual.is_finite() && report.goal_errors.iter().all(|e| e.is_finite()), "{kind}: {report:?} {q:?}");
            prop_assert!(report.iterations <= 30);
            let (again, report2) = run(kind, &s, &pose, &goals, 30);
            prop_assert!(q.iter().zip(&again).all(|(a, b)| a.to_bits() == b.to_bits()), "{kind}: not deterministic");
            prop_assert_eq!(report, report2);
        }
    }

    #[test]
    fn tracking_makes_exactly_one_update_where_supported((s, pose) in skeleton_and_pose(), t in target()) {
        let goals = goals_for(&s, &pose, &t);
        for kind in SolverKind::ALL {
            let mut sys = System::new(&s, goals.clone(), Chain::whole(&s, false));
            let mut q = pose.q.clone();
            let mut solver = kind.build();
            let (m, n) = sys.shape();
            solver.prepare(m, n);
            // A system the method does not solve (the limb solver off a limb, the planar
            // extended Jacobian off a planar chain) gets none.
            let updates = usize::from(solver.supports(&sys).is_ok());
            let report = track(solver.as_mut(), &mut sys, &mut q, 1e-4);
            prop_assert_eq!(report.iterations, updates, "{}", kind);
            let inside = Pose { q }.within_limits(&s);
            prop_assert!(inside, "{kind}: outside limits");
        }
    }
}

/// A rest pose with the right elbow bent 20°: the straight rest arm is a singular configuration.
fn bent_arm_pose(s: &Skeleton) -> Pose {
    let mut pose = Pose::rest(s);
    let elbow = s.joint_by_name("right elbow").expect("elbow");
    let dof = s.joint_dofs(elbow).next().expect("dof");
    pose.q[dof.state_index()] = 20f64.to_radians();
    pose
}

/// The humanoid's right arm reaching points it can reach (found by FK of in-limit poses).
#[test]
fn every_solver_converges_on_reachable_arm_targets() {
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("site");
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
    let mut fk = Fk::new(&s);
    for (i, fractions) in [
        [0.3, 0.6, 0.5, 0.2],
        [0.6, 0.5, 0.4, 0.7],
        [0.45, 0.2, 0.6, 0.5],
    ]
    .iter()
    .enumerate()
    {
        let mut target_pose = Pose::rest(&s);
        for (k, f) in chain.columns().iter().zip(fractions.iter().cycle()) {
            let d = &s.dofs()[k - 3];
            target_pose.q[*k] = d.min + (d.max - d.min) * f;
        }
        fk.update(&s, &target_pose.q);
        let target = fk.site_position(hand);
        for kind in SolverKind::ALL {
            let goal = Goal::new(GoalKind::Position { site: hand, target });
            let mut sys = System::new(&s, vec![goal], chain.clone());
            let mut q = bent_arm_pose(&s).q;
            let mut solver = kind.build();
            sys.evaluate(&q);
            if solver.supports(&sys).is_err() {
                assert_eq!(
                    kind,
                    SolverKind::ExtendedJacobian,
                    "only the planar method declines an arm"
                );
                continue;
            }
            let report = solve(
                solver.as_mut(),
                &mut sys,
                &mut q,
                Settings {
                    tolerance: 1e-4,
                    max_iterations: 2000,
                },
            );
            assert!(report.converged, "{kind} target {i}: {report:?}");
        }
    }
}

/// Buss: damped methods stay calm when the target cannot be reached: the arm stretches towards it
/// and then stops moving instead of oscillating.
#[test]
fn damped_solvers_settle_on_unreachable_targets() {
    let s = Skeleton::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/arm7_peer.ron"),
    )
    .expect("arm");
    let hand = s.site_by_name("hand").expect("hand");
    let target = Vector3::new(0.5, 0.4, 0.6); // 0.88 m away; the arm reaches 0.63 m
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
    ] {
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut sys = System::new(&s, vec![goal], Chain::whole(&s, false));
        let mut q = vec![0.0, 0.0, 0.0, 0.1, 0.5, -0.2, 1.2, 0.3, 0.6, -0.1];
        let mut solver = kind.build();
        let report = solve(
            solver.as_mut(),
            &mut sys,
            &mut q,
            Settings {
                tolerance: 1e-6,
                max_iterations: 300,
            },
        );
        assert!(!report.converged);
        let best = target.norm() - 0.63;
        assert!(
            report.residual >= best - 1e-9 && report.residual - best < 0.02,
            "{kind}: {} vs {best}",
            report.residual
        );
        let before = q.clone();
        let mut solver = kind.build();
        solve(
            solver.as_mut(),
            &mut sys,
            &mut q,
            Settings {
                tolerance: 1e-6,
                max_iterations: 10,
            },
        );
        let moved = q
            .iter()
            .zip(&before)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            moved < 1e-3,
            "{kind} still moves {moved} rad per 10 updates"
        );
    }
}

/// Welman (1993, ch. 4, "A complementary heuristic approach"): pulling the tip of a fully
/// extended chain inwards leaves the Jacobian transpose stuck, because the force points along the
/// singular direction; CCD, which needs no Jacobian, folds the elbow. Here the straight arm's
/// elbow also sits at its 0° limit. The transpose's own update gains nothing there, but the
/// driver's stall escape (issue 15) folds the elbow for it, so both now converge.
#[test]
fn a_straight_arm_pulled_inwards_stalls_the_transpose_step_but_not_the_solve() {
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("site");
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
    let mut fk = Fk::new(&s);
    fk.update(&s, &Pose::rest(&s).q);
    // Straight up the arm's own line, half way to the shoulder.
    let target = (fk.site_position(hand) + fk.joint_position(shoulder)) * 0.5;
    let run = |kind: SolverKind| {
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut sys = System::new(&s, vec![goal], chain.clone());
        let mut q = Pose::rest(&s).q;
        let mut solver = kind.build();
        solve(
            solver.as_mut(),
            &mut sys,
            &mut q,
            Settings {
                tolerance: 1e-4,
                max_iterations: 500,
            },
        )
    };
    // One update of the transpose alone: the pull is along the singular direction.
    let goal = Goal::new(GoalKind::Position { site: hand, target });
    let mut sys = System::new(&s, vec![goal], chain.clone());
    let mut q = Pose::rest(&s).q;
    let mut solver = SolverKind::JacobianTranspose.build();
    let (m, n) = sys.shape();
    solver.prepare(m, n);
    let one = marionette_ik::track(solver.as_mut(), &mut sys, &mut q, 1e-4);
    assert!(one.residual > 0.1, "{one:?}");
    for kind in [
        SolverKind::JacobianTranspose,
        SolverKind::CyclicCoordinateDescent,
    ] {
        let report = run(kind);
        assert!(report.converged, "{kind}: {report:?}");
    }
}
