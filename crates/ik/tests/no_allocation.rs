//! Solver iterations allocate nothing: after the first update has sized the workspaces, a counting
//! allocator sees no allocation in further evaluations and updates, for every solver, on the
//! humanoid (several goal kinds and priorities) and on the planar chain (for the extended Jacobian).

use marionette_ik::{Goal, GoalKind, SolverKind, System};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use nalgebra::{Matrix3, Vector3};

fn humanoid_system(s: &Skeleton) -> (System<'_>, Vec<f64>) {
    let mut pose = Pose::rest(s);
    for (i, v) in pose.q.iter_mut().enumerate().skip(3) {
        *v = 0.02 * ((i % 7) as f64 - 3.0);
    }
    let mut fk = Fk::new(s);
    fk.update(s, &pose.q);
    let site = |n: &str| s.site_by_name(n).expect("site");
    let hand = site("right fingertips");
    let goals = vec![
        Goal::new(GoalKind::Position {
            site: site("left heel"),
            target: fk.site_position(site("left heel")),
        }),
        Goal {
            priority: 1,
            ..Goal::new(GoalKind::Position {
                site: hand,
                target: fk.site_position(hand) + Vector3::new(0.0, 0.1, 0.2),
            })
        },
        Goal {
            priority: 1,
            ..Goal::new(GoalKind::Orientation {
                joint: s.joint_by_name("head").expect("head"),
                target: Matrix3::identity(),
                axes: [false, true, false],
            })
        },
        Goal {
            priority: 1,
            ..Goal::new(GoalKind::Aim {
                site: site("head top"),
                axis: Vector3::z(),
                at: Vector3::new(0.0, 1.5, 2.0),
            })
        },
        Goal {
            priority: 2,
            ..Goal::new(GoalKind::CenterOfMass {
                target: Vector3::new(0.0, 0.0, 0.05),
                axes: [true, false, true],
            })
        },
    ];
    let mut q = pose.q.clone();
    // Keep every DOF inside its limits.
    for (k, d) in s.dofs().iter().enumerate() {
        q[3 + k] = d.clamp(q[3 + k]);
    }
    (System::new(s, goals, Chain::whole(s, true)), q)
}

fn assert_steps_allocate_nothing(kind: SolverKind, system: &mut System<'_>, q: &mut [f64]) {
    let mut solver = kind.build();
    let (m, n) = system.shape();
    solver.prepare(m, n);
    system.evaluate(q);
    solver.step(system, q); // sizes anything sized lazily
    let counted = allocation_counter::measure(|| {
        for _ in 0..5 {
            system.evaluate(q);
            solver.step(system, q);
        }
    });
    assert_eq!(
        counted.count_total, 0,
        "{kind}: {} allocations in 5 iterations",
        counted.count_total
    );
}

#[test]
fn no_solver_allocates_per_iteration() {
    let s = builtin::humanoid();
    for kind in SolverKind::ALL {
        if kind == SolverKind::ExtendedJacobian {
            continue;
        }
        let (mut system, mut q) = humanoid_system(&s);
        assert_steps_allocate_nothing(kind, &mut system, &mut q);
    }
    let planar = Skeleton::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/planar6.ron"),
    )
    .expect("planar6");
    let tip = planar.site_by_name("tip").expect("tip");
    let goal = Goal::new(GoalKind::Position {
        site: tip,
        target: Vector3::new(3.0, 0.5, 0.0),
    });
    let mut system = System::new(&planar, vec![goal], Chain::whole(&planar, false));
    let mut q = Pose::rest(&planar).q;
    q[4] = 0.2;
    assert_steps_allocate_nothing(SolverKind::ExtendedJacobian, &mut system, &mut q);
    // The analytic limb solver on a limb, including the fallback starts of a position goal
    // that is out of reach with the wrist kept.
    let arm = Skeleton::load(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/arm7_peer.ron"),
    )
    .expect("arm");
    let hand = arm.site_by_name("hand").expect("hand");
    for target in [Vector3::new(0.2, 0.1, 0.3), Vector3::new(0.01, 0.0, 0.005)] {
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut system = System::new(&arm, vec![goal], Chain::whole(&arm, false));
        let mut q = Pose::rest(&arm).q;
        q[6] = 1.0;
        assert_steps_allocate_nothing(SolverKind::AnalyticLimb, &mut system, &mut q);
    }
}
