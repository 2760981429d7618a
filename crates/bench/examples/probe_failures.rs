//! Lists the peer-protocol targets a solver misses (distance from the shoulder, final error).
use marionette_bench::peer;
use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};

fn main() {
    let arm = Skeleton::load(marionette_bench::skeletons_dir().join("arm7_peer.ron")).expect("arm");
    let hand = arm.site_by_name("hand").expect("hand");
    for (i, t) in peer::arm_targets(&arm, 1000, 7).iter().enumerate() {
        let goal = Goal::new(GoalKind::Position {
            site: hand,
            target: t.position,
        });
        let mut system = System::new(&arm, vec![goal], Chain::whole(&arm, false));
        let mut q = Pose::rest(&arm).q;
        q[3..].copy_from_slice(&peer::Q0);
        let mut solver = SolverKind::AnalyticLimb.build();
        let r = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-4,
                max_iterations: 100,
            },
        );
        let mut fk = Fk::new(&arm);
        fk.update(&arm, &q);
        let err = (fk.site_position(hand) - t.position).norm();
        if err >= 1e-3 {
            println!(
                "target {i}: distance {:.4} m, error {err:.4}, iterations {}, q {:?}",
                t.position.norm(),
                r.iterations,
                &q[3..]
            );
        }
    }
}
