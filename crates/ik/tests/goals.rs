//! Every goal's Jacobian rows against central finite differences of its "current" value, on
//! random skeletons and poses; weights scale rows by √weight.

use marionette_ik::{Goal, GoalKind, System, TargetShape};
use marionette_skeleton::testing::skeleton_and_pose;
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};
use nalgebra::{DMatrix, DVector, Rotation3, Vector3};
use proptest::prelude::*;

/// All the goals a random skeleton supports, targets derived from `seed`.
fn goals(s: &Skeleton, seed: f64) -> Vec<GoalKind> {
    let sites: Vec<_> = s.site_ids().collect();
    let a = sites[0];
    let b = *sites.last().expect("a site");
    let last_joint = s.joint_ids().last().expect("a joint");
    let target = Rotation3::from_euler_angles(seed, -0.5 * seed, 0.3).into_inner();
    let normal = Vector3::new(0.3, 1.0, seed).normalize();
    vec![
        GoalKind::Position {
            site: a,
            target: Vector3::new(seed, 1.0, -0.5),
        },
        GoalKind::Orientation {
            joint: last_joint,
            target,
            axes: [false, true, false],
        },
        GoalKind::Aim {
            site: b,
            axis: Vector3::new(0.0, 0.0, 1.0),
            at: Vector3::new(3.0, seed, 2.0),
        },
        GoalKind::Plane {
            site: a,
            point: Vector3::new(0.0, seed, 0.0),
            normal,
        },
        GoalKind::Line {
            site: b,
            point: Vector3::new(seed, 0.0, 0.0),
            direction: normal,
        },
        GoalKind::Coincide { a, b },
        GoalKind::Point {
            joint: last_joint,
            offset: Vector3::new(0.1, -0.2, 0.05),
            target: Vector3::new(0.3, seed, 0.2),
            shape: TargetShape::Point,
        },
        GoalKind::Point {
            joint: last_joint,
            offset: Vector3::new(-0.1, 0.15, 0.05),
            target: Vector3::new(0.2, 0.1, seed),
            shape: TargetShape::Line(Vector3::new(0.6, 0.0, -0.8)),
        },
        GoalKind::Point {
            joint: last_joint,
            offset: Vector3::new(0.05, -0.1, 0.2),
            target: Vector3::new(seed, 0.1, 0.3),
            shape: TargetShape::Plane(Vector3::new(0.0, 0.8, 0.6)),
        },
        GoalKind::CenterOfMass {
            target: Vector3::new(0.1, 0.0, seed),
            axes: [true, false, true],
        },
    ]
}

/// The stacked e = target − current; J must equal −∂e/∂q (targets fixed).
fn errors(s: &Skeleton, kinds: &[GoalKind], q: &[f64]) -> DVector<f64> {
    let goals = kinds.iter().cloned().map(Goal::new).collect();
    let mut sys = System::new(s, goals, Chain::whole(s, true));
    sys.evaluate(q);
    sys.e.clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn goal_jacobians_match_finite_differences((s, pose) in skeleton_and_pose(), seed in -1.0..1.0f64) {
        let kinds = goals(&s, seed);
        let goals: Vec<Goal> = kinds.iter().cloned().map(Goal::new).collect();
        let mut sys = System::new(&s, goals, Chain::whole(&s, true));
        sys.evaluate(&pose.q);
        let analytic = sys.j.clone();
        // The errors derived from the rows equal the goals' own error functions.
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        for (kind, e) in kinds.iter().zip(sys.goal_errors()) {
            let direct = kind.error(&s, &fk);
            prop_assert!((direct - e).abs() <= 1e-9 * (1.0 + direct), "{}: {} vs {}", kind.label(), direct, e);
        }
        let h = 1e-6;
        let mut numeric = DMatrix::zeros(analytic.nrows(), analytic.ncols());
        let mut q = pose.q.clone();
        for c in 0..q.len() {
            q[c] = pose.q[c] + h;
            let plus = errors(&s, &kinds, &q);
            q[c] = pose.q[c] - h;
            let minus = errors(&s, &kinds, &q);
            q[c] = pose.q[c];
            numeric.set_column(c, &(-(plus - minus) / (2.0 * h)));
        }
        // Aim rows are singular when the target sits on the site; skip those rare cases.
        let scale = 1.0 + numeric.abs().max();
        let diff = (&analytic - &numeric).abs().max();
        prop_assert!(diff < 1e-5 * scale, "max difference {diff}");
    }

    #[test]
    fn full_orientation_rows_are_the_angular_velocity_jacobian((s, pose) in skeleton_and_pose()) {
        let joint = s.joint_ids().last().expect("joint");
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        // At the solution the error is zero and J is J_ω exactly.
        let target = *fk.joint_rotation(joint);
        let goal = Goal::new(GoalKind::Orientation { joint, target, axes: [true, true, true] });
        let mut sys = System::new(&s, vec![goal], Chain::whole(&s, true));
        sys.evaluate(&pose.q);
        prop_assert!(sys.e.norm() < 1e-9);
        let cols: Vec<usize> = (0..s.state_len()).collect();
        let mut jw = DMatrix::zeros(3, cols.len());
        fk.orientation_jacobian(&s, joint, &cols, &mut jw, 0);
        prop_assert!((&sys.j - jw).abs().max() < 1e-12);
    }

    /// A pose goal's rows: the site's position Jacobian over the joint's angular-velocity
    /// Jacobian (exact at the solution, like the full orientation's); its error is the larger
    /// part. Restricted to some columns, its rows are zero in the others and its error is
    /// unchanged.
    #[test]
    fn pose_rows_stack_position_and_orientation((s, pose) in skeleton_and_pose(), keep in 0usize..1000) {
        let site = s.site_ids().next().expect("a site");
        let joint = s.site(site).joint;
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let goal = Goal::new(GoalKind::Pose {
            site,
            target: fk.site_position(site),
            rotation: *fk.joint_rotation(joint),
        });
        let mut sys = System::new(&s, vec![goal.clone()], Chain::whole(&s, true));
        sys.evaluate(&pose.q);
        prop_assert!(sys.e.norm() < 1e-9);
        let cols: Vec<usize> = (0..s.state_len()).collect();
        let mut want = DMatrix::zeros(6, cols.len());
        fk.site_jacobian(&s, site, &cols, &mut want, 0);
        fk.orientation_jacobian(&s, joint, &cols, &mut want, 3);
        prop_assert!((&sys.j - &want).abs().max() < 1e-12);
        // Moved 3 cm: the error is the position part.
        let mut moved = goal;
        if let GoalKind::Pose { target, .. } = &mut moved.kind {
            target.y += 0.03;
        }
        let mut sys = System::new(&s, vec![moved], Chain::whole(&s, true));
        let mask: Vec<bool> = (0..cols.len()).map(|c| (keep >> (c % 10)) & 1 == 1).collect();
        sys.restrict_goal(0, &mask);
        sys.evaluate(&pose.q);
        prop_assert!((sys.goal_errors()[0] - 0.03).abs() < 1e-12);
        for (c, &kept) in mask.iter().enumerate() {
            for r in 0..6 {
                let expected = if kept { want[(r, c)] } else { 0.0 };
                prop_assert!((sys.j[(r, c)] - expected).abs() < 1e-12, "row {r} column {c}");
            }
        }
    }

    /// Two sites meeting turned ([`GoalKind::CoincidePose`]): the position rows are the
    /// difference of the sites' Jacobians, the orientation rows the difference of the joints'
    /// angular-velocity Jacobians (exact where the relative turn is met, as a pose goal's);
    /// its error is the larger of the distance and the angle.
    #[test]
    fn coincide_pose_rows_are_the_differences_of_both_sites((s, pose) in skeleton_and_pose()) {
        let sites: Vec<_> = s.site_ids().collect();
        let (a, b) = (sites[0], *sites.last().expect("a site"));
        let (ja, jb) = (s.site(a).joint, s.site(b).joint);
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let relative = fk.joint_rotation(jb).transpose() * fk.joint_rotation(ja);
        let goal = Goal::new(GoalKind::CoincidePose { a, b, relative });
        let mut sys = System::new(&s, vec![goal.clone()], Chain::whole(&s, true));
        sys.evaluate(&pose.q);
        let apart = fk.site_position(b) - fk.site_position(a);
        prop_assert!((sys.e.rows(0, 3) - apart).norm() < 1e-12);
        prop_assert!(sys.e.rows(3, 3).norm() < 1e-9);
        prop_assert!((sys.goal_errors()[0] - apart.norm()).abs() < 1e-9);
        let cols: Vec<usize> = (0..s.state_len()).collect();
        let n = cols.len();
        let (mut pa, mut pb) = (DMatrix::zeros(3, n), DMatrix::zeros(3, n));
        let (mut wa, mut wb) = (DMatrix::zeros(3, n), DMatrix::zeros(3, n));
        fk.site_jacobian(&s, a, &cols, &mut pa, 0);
        fk.site_jacobian(&s, b, &cols, &mut pb, 0);
        fk.orientation_jacobian(&s, ja, &cols, &mut wa, 0);
        fk.orientation_jacobian(&s, jb, &cols, &mut wb, 0);
        prop_assert!((sys.j.rows(0, 3) - (pa - pb)).abs().max() < 1e-12);
        prop_assert!((sys.j.rows(3, 3) - (wa - wb)).abs().max() < 1e-12);
        // Turned away by 0.2 rad about x at the first site's joint: the angle is the error
        // where the sites are nearer than that.
        let mut turned = goal;
        if let GoalKind::CoincidePose { relative, .. } = &mut turned.kind {
            *relative *= Rotation3::from_axis_angle(&Vector3::x_axis(), 0.2).into_inner();
        }
        let mut sys = System::new(&s, vec![turned], Chain::whole(&s, true));
        sys.evaluate(&pose.q);
        prop_assert!((sys.goal_errors()[0] - apart.norm().max(0.2)).abs() < 1e-9);
    }
}

#[test]
fn weights_scale_rows_by_their_square_root() {
    let s = marionette_skeleton::builtin::stickman();
    let site = s.site_by_name("right fingertips").expect("site");
    let kind = GoalKind::Position {
        site,
        target: Vector3::new(0.3, 1.2, 0.4),
    };
    let q = Pose::rest(&s).q;
    let mut one = System::new(&s, vec![Goal::new(kind.clone())], Chain::whole(&s, false));
    one.evaluate(&q);
    let mut four = System::new(
        &s,
        vec![Goal {
            weight: 4.0,
            ..Goal::new(kind)
        }],
        Chain::whole(&s, false),
    );
    four.evaluate(&q);
    assert!((&four.e - &one.e * 2.0).norm() < 1e-15);
    assert!((&four.j - &one.j * 2.0).abs().max() < 1e-15);
    assert_eq!(
        four.goal_errors(),
        one.goal_errors(),
        "reported errors are unweighted"
    );
}
