//! The analytic limb solver (Tolani et al. 2000): exact on reachable goals, independent of the
//! start pose, and it recognises limbs in any skeleton.

use marionette_ik::analytic::limb::Limb;
use marionette_ik::goal::rotation_vector;
use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use proptest::prelude::*;
use std::f64::consts::PI;

fn load(name: &str) -> Skeleton {
    marionette_skeleton::testing::load(name)
}

/// Solves a target taken from forward kinematics of `target_q`, from `start`; returns the final
/// pose and the position and rotation errors measured by forward kinematics.
fn solve_from(
    arm: &Skeleton,
    target_q: &[f64],
    start: &[f64],
    with_orientation: bool,
) -> (Vec<f64>, f64, f64) {
    let hand = arm.site_by_name("hand").expect("hand");
    let wrist = arm.site(hand).joint;
    let mut fk = Fk::new(arm);
    fk.update(arm, target_q);
    let (position, rotation) = (fk.site_position(hand), *fk.joint_rotation(wrist));
    let mut goals = vec![Goal::new(GoalKind::Position {
        site: hand,
        target: position,
    })];
    if with_orientation {
        goals.push(Goal::new(GoalKind::Orientation {
            joint: wrist,
            target: rotation,
            axes: [true; 3],
        }));
    }
    let mut system = System::new(arm, goals, Chain::whole(arm, false));
    let mut q = start.to_vec();
    let mut solver = SolverKind::AnalyticLimb.build();
    let report = solve(
        solver.as_mut(),
        &mut system,
        &mut q,
        Settings {
            tolerance: 1e-12,
            max_iterations: 1,
        },
    );
    assert!(report.iterations <= 1);
    fk.update(arm, &q);
    let p_err = (fk.site_position(hand) - position).norm();
    let r_err = rotation_vector(&(rotation * fk.joint_rotation(wrist).transpose())).norm();
    (q, p_err, r_err)
}

/// A position goal on `site` and a full orientation goal on `joint` (the limb's wrist).
fn pose_goals(
    site: marionette_skeleton::SiteId,
    joint: marionette_skeleton::JointId,
    position: nalgebra::Vector3<f64>,
    rotation: nalgebra::Matrix3<f64>,
) -> Vec<Goal> {
    vec![
        Goal::new(GoalKind::Position {
            site,
            target: position,
        }),
        Goal::new(GoalKind::Orientation {
            joint,
            target: rotation,
            axes: [true; 3],
        }),
    ]
}

/// A pose with every DOF at `offset + span·u` of its range, u drawn from `next` DOF by DOF.
fn random_in_limits(
    arm: &Skeleton,
    offset: f64,
    span: f64,
    next: &mut impl FnMut() -> f64,
) -> Vec<f64> {
    let mut q = Pose::rest(arm).q;
    for (k, d) in arm.dofs().iter().enumerate() {
        q[3 + k] = d.min + (d.max - d.min) * (offset + span * next());
    }
    q
}

/// Whether the peer arm's elbow (the fourth of `dofs`) is within 1e-4 rad of straight or
/// folded. Its angle then comes from cos θ ≈ ±(1 − θ²/2), which double precision knows to
/// about √(2ε) ≈ 2e-8 rad: the hand, 0.33 m beyond, to about 7e-9 m.
fn elbow_nearly_straight(dofs: &[f64]) -> bool {
    let elbow = dofs[3].abs();
    elbow.min(PI - elbow) < 1e-4
}

fn q_from(u: &[f64]) -> Vec<f64> {
    let mut q = vec![0.0; 3];
    q.extend(u.iter().copied());
    q
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn pose_goals_on_the_peer_arm_are_solved_exactly(target in prop::collection::vec(-PI..PI, 7)) {
        let arm = load("arm7_peer.ron");
        let start = q_from(&[0.1, 0.5, -0.2, 1.2, 0.3, 0.6, -0.1]);
        let (_, p_err, r_err) = solve_from(&arm, &q_from(&target), &start, true);
        let tolerance = if elbow_nearly_straight(&target) { 1e-8 } else { 1e-10 };
        prop_assert!(p_err < tolerance && r_err < tolerance, "position {p_err}, rotation {r_err}");
    }

    #[test]
    fn position_goals_keep_the_wrist_and_are_exact(target in prop::collection::vec(-PI..PI, 4)) {
        let arm = load("arm7_peer.ron");
        let start = q_from(&[0.1, 0.5, -0.2, 1.2, 0.3, 0.6, -0.1]);
        // With the wrist kept, a target is reachable when it was made with the same wrist angles.
        let mut target_q = q_from(&target);
        target_q.extend_from_slice(&start[7..]);
        let (q, p_err, _) = solve_from(&arm, &target_q, &start, false);
        prop_assert!(p_err < 1e-10, "position {p_err}");
        prop_assert_eq!(&q[7..], &start[7..], "wrist angles kept");
    }

    /// Even a start that already meets the goal gets the solver's own answer: it is not kept
    /// merely because it converged (the driver makes a direct method's step unconditionally).
    #[test]
    fn a_start_that_already_meets_the_goal_gets_the_same_answer(target in prop::collection::vec(-PI..PI, 7)) {
        let arm = load("arm7_peer.ron");
        let target = q_from(&target);
        let (from_goal, p_err, r_err) = solve_from(&arm, &target, &target, true);
        let from_rest = solve_from(&arm, &target, &q_from(&[0.0; 7]), true).0;
        if elbow_nearly_straight(&target[3..]) {
            // The swivel circle shrinks to a point: other joint values make the same pose.
            prop_assert!(p_err < 1e-8 && r_err < 1e-8, "position {p_err}, rotation {r_err}");
            return Ok(());
        }
        prop_assert!(p_err < 1e-10 && r_err < 1e-9);
        for (x, y) in from_goal.iter().zip(&from_rest) {
            prop_assert!((x - y).abs() < 1e-9, "{:?} vs {:?}", from_goal, from_rest);
        }
    }

    #[test]
    fn the_result_does_not_depend_on_the_start(target in prop::collection::vec(-PI..PI, 7), other in prop::collection::vec(-PI..PI, 7)) {
        let arm = load("arm7_peer.ron");
        let a = solve_from(&arm, &q_from(&target), &q_from(&[0.0; 7]), true).0;
        let b = solve_from(&arm, &q_from(&target), &q_from(&other), true).0;
        for (x, y) in a.iter().zip(&b) {
            prop_assert!((x - y).abs() < 1e-9, "{:?} vs {:?}", a, b);
        }
    }
}

#[test]
fn limbs_are_found_in_the_humanoid_and_refused_elsewhere() {
    let s = builtin::humanoid();
    for (base, tip) in [
        ("right shoulder", "right wrist"),
        ("left hip", "left ankle"),
    ] {
        let chain = Chain::between(
            &s,
            s.joint_by_name(base).expect("base"),
            s.joint_by_name(tip).expect("tip"),
        )
        .expect("chain");
        Limb::detect(&s, chain.columns()).unwrap_or_else(|e| panic!("{base}: {e}"));
    }
    let arm7 = load("arm7.ron");
    Limb::detect(&arm7, Chain::whole(&arm7, false).columns()).expect("arm7 is a limb");
    let stick = builtin::stickman();
    let chain = Chain::between(
        &stick,
        stick.joint_by_name("right arm").expect("arm"),
        stick.joint_by_name("right hand").expect("hand"),
    )
    .expect("chain");
    let why = Limb::detect(&stick, chain.columns()).expect_err("3 DOFs");
    assert!(why.starts_with("not a limb: a limb moves 7 DOFs"), "{why}");
    let planar = load("planar6.ron");
    assert!(Limb::detect(&planar, Chain::whole(&planar, false).columns()).is_err());
}

#[test]
fn the_humanoid_arm_reaches_exactly_within_its_limits() {
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("hand");
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
    let mut fk = Fk::new(&s);
    let mut target_pose = Pose::rest(&s);
    for (i, &c) in chain.columns().iter().enumerate() {
        let d = &s.dofs()[c - 3];
        target_pose.q[c] = d.min + (d.max - d.min) * [0.4, 0.3, 0.5, 0.5, 0.5, 0.5, 0.5][i];
    }
    fk.update(&s, &target_pose.q);
    let goal = Goal::new(GoalKind::Position {
        site: hand,
        target: fk.site_position(hand),
    });
    let mut system = System::new(&s, vec![goal], chain);
    let mut q = Pose::rest(&s).q;
    let mut solver = SolverKind::AnalyticLimb.build();
    let report = solve(
        solver.as_mut(),
        &mut system,
        &mut q,
        Settings {
            tolerance: 1e-10,
            max_iterations: 1,
        },
    );
    assert!(report.converged, "{report:?}");
    assert!(Pose { q }.within_limits(&s));
}

/// The limb hangs from wherever the body above it is in the pose being solved, not from where a
/// previous evaluation left it: a fresh system, the root moved and the spine bent.
#[test]
fn the_limb_hangs_from_the_body_as_posed() {
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("hand");
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
    let mut start = Pose::rest(&s).q;
    start[..3].copy_from_slice(&[0.4, -0.2, 0.1]);
    for (k, d) in s.dofs().iter().enumerate() {
        if !chain.columns().contains(&(3 + k)) && !d.unlimited {
            start[3 + k] = d.min + 0.3 * (d.max - d.min);
        }
    }
    let mut target_pose = start.clone();
    for (i, &c) in chain.columns().iter().enumerate() {
        let d = &s.dofs()[c - 3];
        target_pose[c] = d.min + (d.max - d.min) * [0.6, 0.4, 0.5, 0.3, 0.5, 0.5, 0.5][i];
    }
    let mut fk = Fk::new(&s);
    fk.update(&s, &target_pose);
    let target = fk.site_position(hand);
    let goal = Goal::new(GoalKind::Position { site: hand, target });
    let mut system = System::new(&s, vec![goal], chain);
    let mut q = start.clone();
    let mut solver = SolverKind::AnalyticLimb.build();
    let settings = Settings {
        tolerance: 1e-10,
        max_iterations: 1,
    };
    let report = solve(solver.as_mut(), &mut system, &mut q, settings);
    fk.update(&s, &q);
    assert!(
        (fk.site_position(hand) - target).norm() < 1e-10,
        "{report:?}"
    );
    assert!(report.converged);
}

/// Tolani §3.2.4: the swivel arcs with every joint within limits, against a brute-force scan of φ
/// in 0.01° steps, for every family combination, on pose and position goals made from random
/// in-limit poses of `arm7.ron` (human limits).
#[test]
fn swivel_arcs_agree_with_a_brute_force_scan() {
    use marionette_ik::analytic::limb::{LimbGoal, Swivel};
    let arm = load("arm7.ron");
    let chain = Chain::whole(&arm, false);
    let limb = Limb::detect(&arm, chain.columns()).expect("limb");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let limits = marionette_ik::analytic::ranges::LimbLimits::of(&arm, &limb.columns);
    let reference = -nalgebra::Vector3::y();
    let mut fk = Fk::new(&arm);
    let mut rng = marionette_skeleton::testing::UnitRng::new(0x2545_f491_4f6c_dd1du64);
    let mut next = || rng.next_unit();
    let mut scratch = Vec::new();
    let mut all: [Vec<marionette_ik::analytic::intervals::Arc>; 4] = Default::default();
    for case in 0..12 {
        let q = random_in_limits(&arm, 0.05, 0.9, &mut next);
        fk.update(&arm, &q);
        let with_orientation = case % 2 == 0;
        let goal = LimbGoal {
            position: fk.site_position(tip),
            point: arm.site(tip).offset,
            orientation: with_orientation.then(|| *fk.joint_rotation(wrist)),
        };
        let mut any = false;
        for elbow in 0..2 {
            let g = limb.geometry(&arm, &fk, &q, &goal, elbow);
            limb.swivel_arcs_all(&g, &reference, &limits, &mut scratch, &mut all);
            for shoulder in 0..2 {
                for wrist_family in 0..(if with_orientation { 2 } else { 1 }) {
                    let arcs = &all[2 * shoulder + wrist_family];
                    any |= !arcs.is_empty();
                    let near_end = |phi: f64| {
                        arcs.iter().any(|a| {
                            [a.start, a.end]
                                .iter()
                                .any(|e| marionette_ik::system::wrap_angle(phi - e).abs() < 2e-4)
                        })
                    };
                    for step in 0..36_000 {
                        let phi = (-180.0 + 0.01 * step as f64).to_radians();
                        let angles = limb.angles(
                            &g,
                            &Swivel {
                                angle: phi,
                                reference,
                            },
                            shoulder,
                            wrist_family,
                        );
                        let valid = angles
                            .iter()
                            .zip(&limits.bounds)
                            .all(|(v, l)| l.is_none_or(|(lo, hi)| lo <= *v && *v <= hi));
                        let in_arcs = arcs.iter().any(|a| a.contains(phi));
                        assert!(
                            valid == in_arcs || near_end(phi),
                            "case {case} families {elbow}{shoulder}{wrist_family}: φ = {:.2}° valid {valid}, arcs {arcs:?}",
                            phi.to_degrees()
                        );
                    }
                }
            }
        }
        assert!(
            any,
            "case {case}: the goal came from an in-limit pose, so some swivel is valid"
        );
    }
}

/// Limits on: goals made from in-limit poses of `arm7.ron` are solved exactly and within limits,
/// with φ in the middle of the widest valid interval.
#[test]
fn limited_arm_goals_are_solved_exactly_within_limits() {
    let arm = load("arm7.ron");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let mut fk = Fk::new(&arm);
    let mut rng = marionette_skeleton::testing::UnitRng::new(0x9e37_79b9_7f4a_7c15u64);
    let mut next = || rng.next_unit();
    let (mut worst_p, mut worst_r) = (0.0f64, 0.0f64);
    for case in 0..2000 {
        let target = random_in_limits(&arm, 0.0, 1.0, &mut next);
        fk.update(&arm, &target);
        let (position, rotation) = (fk.site_position(tip), *fk.joint_rotation(wrist));
        let goals = pose_goals(tip, wrist, position, rotation);
        let mut system = System::new(&arm, goals, Chain::whole(&arm, false));
        let mut q = Pose::rest(&arm).q;
        let mut solver = SolverKind::AnalyticLimb.build();
        let report = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-9,
                max_iterations: 1,
            },
        );
        assert!(Pose { q: q.clone() }.within_limits(&arm), "case {case}");
        let swivel = report.swivel.as_ref().expect("a swivel report");
        assert!(
            !swivel.intervals.is_empty(),
            "case {case}: the goal came from an in-limit pose"
        );
        fk.update(&arm, &q);
        worst_p = worst_p.max((fk.site_position(tip) - position).norm());
        worst_r =
            worst_r.max(rotation_vector(&(rotation * fk.joint_rotation(wrist).transpose())).norm());
    }
    assert!(
        worst_p < 1e-9 && worst_r < 1e-9,
        "worst position {worst_p}, rotation {worst_r}"
    );
}

/// Tolani's Fig. 13: goals going once round a closed path give a closed path of joint values
/// (the solution depends on the goal only), with limits on.
#[test]
fn a_closed_path_of_goals_gives_a_closed_path_of_joints() {
    let arm = load("arm7.ron");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let mut fk = Fk::new(&arm);
    let mut centre_pose = Pose::rest(&arm).q;
    for (k, f) in [0.5, 0.3, 0.5, 0.4, 0.5, 0.5, 0.5].iter().enumerate() {
        let d = &arm.dofs()[k];
        centre_pose[3 + k] = d.min + (d.max - d.min) * f;
    }
    fk.update(&arm, &centre_pose);
    let (centre, rotation) = (fk.site_position(tip), *fk.joint_rotation(wrist));
    let goals = pose_goals(tip, wrist, centre, rotation);
    let mut system = System::new(&arm, goals, Chain::whole(&arm, false));
    let mut solver = SolverKind::AnalyticLimb.build();
    let mut q = Pose::rest(&arm).q;
    let mut path = Vec::new();
    for step in 0..=72 {
        let a = std::f64::consts::TAU * step as f64 / 72.0;
        if let GoalKind::Position { target, .. } = &mut system.goals_mut()[0].kind {
            *target = centre + nalgebra::Vector3::new(0.0, 0.05 * a.cos(), 0.05 * a.sin());
        }
        let report = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-9,
                max_iterations: 1,
            },
        );
        assert!(report.converged, "step {step}: {report:?}");
        path.push(q.clone());
    }
    let (first, last) = (&path[0], &path[72]);
    for (a, b) in first.iter().zip(last) {
        assert!(
            (a - b).abs() < 1e-12,
            "the path does not close: {first:?} vs {last:?}"
        );
    }
}

/// Tolani §3.2.2 (Fig. 3): with a desired elbow position, the solver puts the elbow at the point
/// of its circle nearest to it (checked against a scan of the circle in 0.1° steps).
#[test]
fn a_desired_elbow_position_picks_the_nearest_swivel() {
    use marionette_ik::Solver;
    use marionette_ik::analytic::AnalyticLimb;
    let arm = load("arm7_peer.ron");
    let hand = arm.site_by_name("hand").expect("hand");
    let wrist = arm.site(hand).joint;
    let elbow = arm.joint_by_name("elbow").expect("elbow");
    let mut fk = Fk::new(&arm);
    let target_q = q_from(&[0.4, 0.9, -0.3, 1.1, 0.2, -0.5, 0.3]);
    fk.update(&arm, &target_q);
    let goals = pose_goals(
        hand,
        wrist,
        fk.site_position(hand),
        *fk.joint_rotation(wrist),
    );
    for desired in [
        nalgebra::Vector3::new(0.3, 0.2, 0.1),
        nalgebra::Vector3::new(-0.2, -0.1, 0.25),
    ] {
        let mut system = System::new(&arm, goals.clone(), Chain::whole(&arm, false));
        let mut solver = AnalyticLimb::default();
        solver.elbow_target = Some(desired);
        let mut q = q_from(&[0.0; 7]);
        let report = solve(
            &mut solver,
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-10,
                max_iterations: 1,
            },
        );
        assert!(report.converged, "{report:?}");
        fk.update(&arm, &q);
        let ours = (fk.joint_position(elbow) - desired).norm();
        // Scan the swivel circle with the solver's own swivel parameter.
        let mut best = f64::INFINITY;
        for step in 0..3600 {
            let mut scan = AnalyticLimb::default();
            scan.swivel.angle = (-180.0 + 0.1 * step as f64).to_radians();
            let mut system = System::new(&arm, goals.clone(), Chain::whole(&arm, false));
            let mut q = q_from(&[0.0; 7]);
            system.evaluate(&q);
            scan.step(&mut system, &mut q);
            fk.update(&arm, &q);
            best = best.min((fk.joint_position(elbow) - desired).norm());
        }
        assert!(
            ours <= best + 1e-9,
            "elbow {ours} from the target, the scan found {best}"
        );
    }
}

/// Position + partial orientation (one held axis of the wrist frame, Tolani §4.2): the position
/// and the held axis are met exactly, within limits, on goals made from in-limit poses of arm7.
#[test]
fn position_and_one_held_axis_are_met_exactly() {
    let arm = load("arm7.ron");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let mut fk = Fk::new(&arm);
    let mut rng = marionette_skeleton::testing::UnitRng::new(0x1234_5678_9abc_def1u64);
    let mut next = || rng.next_unit();
    let mut missed = 0;
    let cases = 300;
    for case in 0..cases {
        let target = random_in_limits(&arm, 0.1, 0.8, &mut next);
        fk.update(&arm, &target);
        let axis = case % 3;
        let mut axes = [false; 3];
        axes[axis] = true;
        let (position, rotation) = (fk.site_position(tip), *fk.joint_rotation(wrist));
        let goals = vec![
            Goal::new(GoalKind::Position {
                site: tip,
                target: position,
            }),
            Goal::new(GoalKind::Orientation {
                joint: wrist,
                target: rotation,
                axes,
            }),
        ];
        let mut system = System::new(&arm, goals, Chain::whole(&arm, false));
        let mut q = Pose::rest(&arm).q;
        let mut solver = SolverKind::AnalyticLimb.build();
        let report = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-9,
                max_iterations: 1,
            },
        );
        let inside = Pose { q: q.clone() }.within_limits(&arm);
        assert!(inside, "case {case}: limits broken");
        if !report.converged {
            missed += 1;
        }
    }
    // The held axis leaves ψ free and ψ is searched numerically (10° scan, then golden
    // section): a valid ψ region narrower than the scan could be missed; none is on these goals.
    assert!(missed == 0, "{missed} of {cases} goals missed");
}

/// Aiming (Tolani §4.3–4.4): a hand axis points exactly at the target, with the elbow kept or
/// chosen, within limits on arm7 (targets made by aiming from in-limit poses).
#[test]
fn aiming_points_the_hand_axis_at_the_target() {
    use marionette_ik::analytic::{AimElbow, AnalyticLimb};
    for (file, site) in [("arm7_peer.ron", "hand"), ("arm7.ron", "fingertips")] {
        let arm = load(file);
        let tip = arm.site_by_name(site).expect("site");
        let wrist = arm.site(tip).joint;
        let axis = nalgebra::Vector3::new(0.0, 0.6, 0.8);
        let mut fk = Fk::new(&arm);
        let mut rng = marionette_skeleton::testing::UnitRng::new(0x0bad_5eed_1234_5678u64);
        let mut next = || rng.next_unit();
        for case in 0..200 {
            let mut made = Pose::rest(&arm).q;
            for (k, d) in arm.dofs().iter().enumerate() {
                let (lo, hi) = if d.unlimited {
                    (-3.0, 3.0)
                } else {
                    (d.min, d.max)
                };
                made[3 + k] = lo + (hi - lo) * (0.1 + 0.8 * next());
            }
            fk.update(&arm, &made);
            let at = fk.site_position(tip) + fk.joint_rotation(wrist) * axis * (0.3 + next());
            let goal = Goal::new(GoalKind::Aim {
                site: tip,
                axis,
                at,
            });
            for elbow in [AimElbow::Keep, AimElbow::Free] {
                // Aiming keeps the wrist angles (and, with Keep, the elbow): start with those.
                let mut q = Pose::rest(&arm).q;
                q[7..].copy_from_slice(&made[7..]);
                if elbow == AimElbow::Keep {
                    q[6] = made[6];
                }
                let mut system = System::new(&arm, vec![goal.clone()], Chain::whole(&arm, false));
                let mut solver = AnalyticLimb::default();
                solver.aim_elbow = elbow;
                let report = solve(
                    &mut solver,
                    &mut system,
                    &mut q,
                    Settings {
                        tolerance: 1e-9,
                        max_iterations: 1,
                    },
                );
                // Where the free elbow lands near the reach of the aim ray (the distance along it
                // is a square root of a vanishing discriminant), rounding grows to a few 1e-9 rad.
                assert!(
                    report.residual < 1e-8,
                    "{file} case {case} {elbow:?}: {report:?}"
                );
                assert!(
                    Pose { q: q.clone() }.within_limits(&arm),
                    "{file} case {case} {elbow:?}"
                );
                if elbow == AimElbow::Keep {
                    assert_eq!(q[6], made[6], "the elbow is kept");
                }
            }
        }
    }
}

/// Tolani §3.2.4: "reachable only outside the limits" is reported exactly: on arm7 goals made
/// from unrestricted poses, a goal said to be within limits is met within them, and one said to be
/// outside them has no valid (family, swivel) in a brute-force scan; none is called unreachable.
#[test]
fn outside_limits_is_reported_exactly() {
    use marionette_ik::Reach;
    use marionette_ik::analytic::limb::{LimbGoal, Swivel};
    let arm = load("arm7.ron");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let chain = Chain::whole(&arm, false);
    let limb = Limb::detect(&arm, chain.columns()).expect("limb");
    let limits: Vec<(f64, f64)> = chain
        .columns()
        .iter()
        .map(|&c| (arm.dofs()[c - 3].min, arm.dofs()[c - 3].max))
        .collect();
    let mut fk = Fk::new(&arm);
    let mut rng = marionette_skeleton::testing::UnitRng::new(0x5555_aaaa_3333_ccccu64);
    let mut next = || rng.next_unit();
    let (mut within, mut outside) = (0, 0);
    for case in 0..60 {
        let mut made = Pose::rest(&arm).q;
        for v in made.iter_mut().skip(3) {
            *v = -3.0 + 6.0 * next();
        }
        fk.update(&arm, &made);
        let (position, rotation) = (fk.site_position(tip), *fk.joint_rotation(wrist));
        let goals = pose_goals(tip, wrist, position, rotation);
        let mut system = System::new(&arm, goals, chain.clone());
        let mut q = Pose::rest(&arm).q;
        let mut solver = SolverKind::AnalyticLimb.build();
        let report = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-9,
                max_iterations: 1,
            },
        );
        let reach = report.swivel.as_ref().expect("swivel report").reach;
        assert!(
            Pose { q: q.clone() }.within_limits(&arm),
            "case {case}: the pose is always clamped into the limits"
        );
        match reach {
            Reach::WithinLimits => {
                within += 1;
                assert!(report.converged, "case {case}: {report:?}");
            }
            Reach::OutsideLimits => {
                outside += 1;
                fk.update(&arm, &Pose::rest(&arm).q);
                let goal = LimbGoal {
                    position,
                    point: arm.site(tip).offset,
                    orientation: Some(rotation),
                };
                for elbow in 0..2 {
                    let g = limb.geometry(&arm, &fk, &Pose::rest(&arm).q, &goal, elbow);
                    for step in 0..3600 {
                        let swivel = Swivel {
                            angle: (-180.0 + 0.1 * step as f64).to_radians(),
                            ..Swivel::default()
                        };
                        for (s, w) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                            let angles = limb.angles(&g, &swivel, s, w);
                            let valid = angles
                                .iter()
                                .zip(&limits)
                                .all(|(v, (lo, hi))| lo + 1e-6 <= *v && *v <= hi - 1e-6);
                            assert!(
                                !valid,
                                "case {case}: called outside the limits, but φ = {:.1}° is valid",
                                swivel.angle.to_degrees()
                            );
                        }
                    }
                }
            }
            Reach::Unreachable => {
                panic!("case {case}: a goal made by forward kinematics is reachable")
            }
        }
    }
    assert!(
        within > 0 && outside > 0,
        "both kinds occur: {within} within, {outside} outside"
    );
}

#[test]
fn every_limb_of_the_humanoid_is_found() {
    let s = builtin::humanoid();
    let names: Vec<String> = Limb::find_all(&s)
        .iter()
        .map(|l| {
            l.joints
                .iter()
                .map(|&j| s.joint(j).name.as_str())
                .collect::<Vec<_>>()
                .join(" > ")
        })
        .collect();
    assert_eq!(
        names,
        [
            "right shoulder > right elbow > right wrist",
            "left shoulder > left elbow > left wrist",
            "right hip > right knee > right ankle",
            "left hip > left knee > left ankle",
        ]
    );
    assert!(Limb::find_all(&builtin::stickman()).is_empty());
}

/// Tolani §3.2.4: a goal reachable only outside the limits, or not at all, gets a constrained
/// optimisation after the analytic answer: later updates lower the error while every joint stays
/// within its limits, and the result still does not depend on the start pose.
#[test]
fn goals_beyond_the_limits_are_refined_within_them() {
    use marionette_ik::Reach;
    let arm = load("arm7.ron");
    let tip = arm.site_by_name("fingertips").expect("tip");
    let wrist = arm.site(tip).joint;
    let chain = Chain::whole(&arm, false);
    let mut fk = Fk::new(&arm);
    let mut rng = marionette_skeleton::testing::UnitRng::new(0x0123_4567_89ab_cdefu64);
    let mut next = || rng.next_unit();
    let (mut refined, mut much_better) = (0, 0);
    for case in 0..40 {
        let mut made = Pose::rest(&arm).q;
        for v in made.iter_mut().skip(3) {
            *v = -3.0 + 6.0 * next();
        }
        fk.update(&arm, &made);
        // Every other case: a position twice as far from the shoulder (out of reach).
        let position = if case % 2 == 0 {
            fk.site_position(tip)
        } else {
            let shoulder = fk.joint_position(chain_joint(&arm, &chain, 0));
            shoulder + 2.0 * (fk.site_position(tip) - shoulder)
        };
        let goals = pose_goals(tip, wrist, position, *fk.joint_rotation(wrist));
        let mut system = System::new(&arm, goals, chain.clone());
        let run = |start: &[f64], updates: usize, system: &mut System<'_>| {
            let mut q = start.to_vec();
            let mut solver = SolverKind::AnalyticLimb.build();
            let settings = Settings {
                tolerance: 1e-9,
                max_iterations: updates,
            };
            let report = solve(solver.as_mut(), system, &mut q, settings);
            (q, report)
        };
        let rest = Pose::rest(&arm).q;
        let (_, first) = run(&rest, 1, &mut system);
        let reach = first.swivel.as_ref().expect("swivel").reach;
        if reach == Reach::WithinLimits {
            continue;
        }
        refined += 1;
        let (q, last) = run(&rest, 300, &mut system);
        assert!(Pose { q: q.clone() }.within_limits(&arm), "case {case}");
        assert!(
            last.residual <= first.residual + 1e-12,
            "case {case}: {} → {}",
            first.residual,
            last.residual
        );
        assert_eq!(last.swivel.expect("swivel").reach, reach, "case {case}");
        if last.residual < 0.9 * first.residual {
            much_better += 1;
        }
        // Another start: the same answer.
        let mut other = rest.clone();
        other[3 + 3] = 1.0;
        other[3 + 1] = -0.4;
        let (q_other, _) = run(&other, 300, &mut system);
        assert_eq!(q, q_other, "case {case}: the start pose matters");
    }
    assert!(refined >= 10, "{refined} cases beyond the limits");
    assert!(
        2 * much_better >= refined,
        "the optimisation improved only {much_better} of {refined}"
    );
}

/// The joint of the chain's `k`-th column.
fn chain_joint(skeleton: &Skeleton, chain: &Chain, k: usize) -> marionette_skeleton::JointId {
    let dof = skeleton
        .dof_at_state(chain.columns()[k])
        .expect("a DOF column");
    skeleton.dof(dof).joint
}

/// A system that is not one limb is left as it is, after 0 updates, by `solve` and by `track`
/// (the direct method says so from its step instead of being asked first).
#[test]
fn a_system_that_is_not_a_limb_is_left_alone() {
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("hand");
    let elbow = s.joint_by_name("right elbow").expect("elbow");
    let forearm = Chain::between(&s, elbow, s.site(hand).joint).expect("chain");
    let start = Pose::rest(&s).q;
    let mut fk = Fk::new(&s);
    fk.update(&s, &start);
    let target = fk.site_position(hand) + nalgebra::Vector3::new(0.0, 0.1, 0.1);
    let goal = Goal::new(GoalKind::Position { site: hand, target });
    let mut system = System::new(&s, vec![goal], forearm);
    let mut solver = SolverKind::AnalyticLimb.build();
    let mut q = start.clone();
    let report = solve(solver.as_mut(), &mut system, &mut q, Settings::default());
    assert_eq!((report.iterations, report.converged), (0, false));
    assert!(
        (report.residual - 0.1 * 2f64.sqrt()).abs() < 1e-9,
        "{report:?}"
    );
    assert_eq!(q, start);
    let report = marionette_ik::track(solver.as_mut(), &mut system, &mut q, 1e-4);
    assert_eq!(report.iterations, 0);
    assert_eq!(q, start);
}

/// The elbow circle measured on the solved pose agrees with the swivel the solver reports: the
/// elbow sits on it at the reported angle (what the editor's swivel gizmo draws).
#[test]
fn the_elbow_circle_shows_the_reported_swivel() {
    use marionette_ik::SolverOptions;
    use marionette_ik::analytic::limb::Swivel;
    let s = builtin::humanoid();
    let hand = s.site_by_name("right fingertips").expect("hand");
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
    let limb = Limb::detect(&s, chain.columns()).expect("limb");
    let mut fk = Fk::new(&s);
    let mut target_pose = Pose::rest(&s).q;
    for (i, &c) in chain.columns().iter().enumerate() {
        let d = &s.dofs()[c - 3];
        target_pose[c] = d.min + (d.max - d.min) * [0.5, 0.4, 0.5, 0.4, 0.5, 0.5, 0.5][i];
    }
    fk.update(&s, &target_pose);
    let target = fk.site_position(hand);
    for desired in [-0.6, 0.0, 0.5] {
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut system = System::new(&s, vec![goal], chain.clone());
        let options = SolverOptions {
            swivel: Some(desired),
            ..SolverOptions::default()
        };
        let mut solver = SolverKind::AnalyticLimb
            .build_with(&options)
            .expect("swivel");
        let mut q = Pose::rest(&s).q;
        let report = solve(solver.as_mut(), &mut system, &mut q, Settings::default());
        assert!(report.converged, "{report:?}");
        let angle = report.swivel.expect("swivel").angle;
        fk.update(&s, &q);
        // A position goal: the swivel turns about the line from the shoulder to the fingertips.
        let placed = fk.site_position(hand);
        let circle = limb.elbow_circle(&fk, &placed, &Swivel::default().reference);
        let elbow = fk.joint_position(limb.joints[1]);
        assert!(
            (circle.point(angle) - elbow).norm() < 1e-9,
            "desired {desired}"
        );
        let measured = limb.current_swivel(&fk, &placed, &Swivel::default().reference);
        assert!(
            marionette_ik::system::wrap_angle(measured - angle).abs() < 1e-9,
            "{measured} vs {angle}"
        );
    }
}
