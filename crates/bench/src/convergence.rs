//! Welman's comparison (1993, ch. 4): time for the Jacobian transpose and CCD to bring a limb's
//! effector within tolerances 1e-1 … 1e-6 m, for a goal inside the workspace and one near its edge.
//! The limb is `arm7.ron` (human limits), starting with the elbow bent 20°.

use std::time::Instant;

use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};

use crate::table::Table;

/// The tolerances of the comparison.
pub const TOLERANCES: [f64; 6] = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6];

fn start(arm: &Skeleton) -> Vec<f64> {
    let mut q = Pose::rest(arm).q;
    let elbow = arm.joint_by_name("elbow").expect("elbow");
    q[arm.joint_dofs(elbow).next().expect("dof").state_index()] = 20f64.to_radians();
    q
}

/// The comparison table.
pub fn table(skeletons: &std::path::Path) -> Table {
    let arm = Skeleton::load(skeletons.join("arm7.ron")).expect("arm7");
    let tip = arm.site_by_name("fingertips").expect("fingertips");
    let mut fk = Fk::new(&arm);
    // Inside: where a mid-range pose puts the fingertips. Near the edge: 97 % of the full reach,
    // straight ahead of the shoulder.
    let mut mid = Pose::rest(&arm).q;
    for (k, d) in arm.dofs().iter().enumerate() {
        mid[3 + k] = d.min + 0.45 * (d.max - d.min);
    }
    fk.update(&arm, &mid);
    let inside = fk.site_position(tip);
    fk.update(&arm, &Pose::rest(&arm).q);
    let shoulder = fk.joint_position(arm.root());
    let reach = (fk.site_position(tip) - shoulder).norm();
    let edge = shoulder + nalgebra::Vector3::new(0.0, 0.0, 0.97 * reach);
    let mut table = Table::new(
        "Welman's comparison (ch. 4): µs (iterations) to reach each tolerance on arm7, elbow bent 20° at the start",
        &[
            "goal", "solver", "1e-1", "1e-2", "1e-3", "1e-4", "1e-5", "1e-6",
        ],
    );
    for (label, target) in [
        ("inside the workspace", inside),
        ("near the edge (97 % reach)", edge),
    ] {
        for kind in [
            SolverKind::JacobianTranspose,
            SolverKind::CyclicCoordinateDescent,
            SolverKind::DampedLeastSquares,
        ] {
            let mut row = vec![label.to_owned(), kind.name().to_owned()];
            for tolerance in TOLERANCES {
                let goal = Goal::new(GoalKind::Position { site: tip, target });
                let mut system = System::new(&arm, vec![goal], Chain::whole(&arm, false));
                let mut q = start(&arm);
                let mut solver = kind.build();
                let began = Instant::now();
                let report = solve(
                    solver.as_mut(),
                    &mut system,
                    &mut q,
                    Settings {
                        tolerance,
                        max_iterations: 20_000,
                    },
                );
                let micros = began.elapsed().as_secs_f64() * 1e6;
                row.push(if report.converged {
                    format!("{micros:.0} ({})", report.iterations)
                } else {
                    format!("not in 20000 ({:.0e})", report.residual)
                });
            }
            table.row(row);
        }
    }
    table
}
