//! The 7-DOF arm peer protocol (REFERENCE_PROBLEMS.md §4) with the `k` crate beside Marionette, in
//! one run on the same targets, success checked by Marionette's forward kinematics for both.
//! Run: `cargo bench -p marionette-bench --bench peers` (1000 targets; `-- --quick` for 100).
//! Under `cargo test` (no `--bench` argument) it makes a 100-target smoke run.

use std::time::Instant;

use k::nalgebra as kna;
use k::prelude::*;
use k::{JacobianIkSolver, JointType, NodeBuilder, SerialChain};
use marionette_bench::peer::{self, ArmTarget, Q0};
use marionette_bench::table::{Table, mean, median};
use marionette_ik::SolverKind;
use marionette_skeleton::{Fk, Skeleton};

fn rotational(name: &str, axis: kna::Unit<kna::Vector3<f64>>, offset: [f64; 3]) -> k::Node<f64> {
    NodeBuilder::new()
        .name(name)
        .joint_type(JointType::Rotational { axis })
        .translation(kna::Translation3::new(offset[0], offset[1], offset[2]))
        .finalize()
        .into()
}

/// The protocol's arm in `k`: Z-Y-Z shoulder, Y elbow at 0.30, Z-Y-Z wrist 0.25 further, hand 0.08.
fn k_arm() -> SerialChain<f64> {
    let z = kna::Vector3::z_axis();
    let y = kna::Vector3::y_axis();
    let nodes = [
        rotational("s0", z, [0.0; 3]),
        rotational("s1", y, [0.0; 3]),
        rotational("s2", z, [0.0; 3]),
        rotational("e", y, [0.0, 0.0, 0.30]),
        rotational("w0", z, [0.0, 0.0, 0.25]),
        rotational("w1", y, [0.0; 3]),
        rotational("w2", z, [0.0; 3]),
    ];
    let hand: k::Node<f64> = NodeBuilder::new()
        .name("hand")
        .joint_type(JointType::Fixed)
        .translation(kna::Translation3::new(0.0, 0.0, 0.08))
        .finalize()
        .into();
    for pair in nodes.windows(2) {
        pair[1].set_parent(&pair[0]);
    }
    hand.set_parent(&nodes[6]);
    SerialChain::new_unchecked(k::Chain::from_root(nodes[0].clone()))
}

fn k_run(
    label: &str,
    solver: &JacobianIkSolver<f64>,
    targets: &[ArmTarget],
    with_orientation: bool,
    arm: &Skeleton,
    table: &mut Table,
) {
    let chain = k_arm();
    let hand = arm.site_by_name("hand").expect("hand");
    let wrist = arm.site(hand).joint;
    let mut check = Fk::new(arm);
    let constraints = if with_orientation {
        k::Constraints::default()
    } else {
        k::Constraints {
            rotation_x: false,
            rotation_y: false,
            rotation_z: false,
            ..Default::default()
        }
    };
    let (mut micros, mut ok) = (Vec::new(), 0usize);
    for t in targets {
        let rotation =
            kna::Rotation3::from_matrix_unchecked(kna::Matrix3::from_fn(|r, c| t.rotation[(r, c)]));
        let pose = kna::Isometry3::from_parts(
            kna::Translation3::new(t.position.x, t.position.y, t.position.z),
            kna::UnitQuaternion::from_rotation_matrix(&rotation),
        );
        chain.set_joint_positions_clamped(&Q0);
        chain.update_transforms();
        let began = Instant::now();
        let _ = solver.solve_with_constraints(&chain, &pose, &constraints);
        micros.push(began.elapsed().as_secs_f64() * 1e6);
        let mut q = vec![0.0; 3];
        q.extend(chain.joint_positions());
        check.update(arm, &q);
        let position_ok = (check.site_position(hand) - t.position).norm() < 1e-3;
        let rotation_ok = !with_orientation
            || marionette_ik::goal::rotation_vector(
                &(t.rotation * check.joint_rotation(wrist).transpose()),
            )
            .norm()
                < 0.01;
        ok += usize::from(position_ok && rotation_ok);
    }
    table.row(vec![
        goal_label(with_orientation),
        label.to_owned(),
        format!("{:.1} %", 100.0 * ok as f64 / targets.len() as f64),
        format!("{:.2}", median(&mut micros.clone())),
        format!("{:.2}", mean(&micros)),
    ]);
}

/// The table's name for the goal kind.
fn goal_label(with_orientation: bool) -> String {
    if with_orientation {
        "position + orientation"
    } else {
        "position"
    }
    .to_owned()
}

fn main() {
    let quick =
        std::env::args().any(|a| a == "--quick") || !std::env::args().any(|a| a == "--bench");
    let count = if quick { 100 } else { 1000 };
    let arm =
        Skeleton::load(marionette_bench::skeletons_dir().join("arm7_peer.ron")).expect("arm7_peer");
    let targets = peer::arm_targets(&arm, count, 7);
    let mut table = Table::new(
        format!(
            "7-DOF arm peer protocol beside k 0.32 ({count} targets, same run, success by Marionette's FK)"
        ),
        &["goal", "solver", "success", "median µs", "mean µs"],
    );
    let k_default = JacobianIkSolver::default();
    let k_tuned = JacobianIkSolver::new(1e-4, 1e-3, 1.0, 100);
    for with_orientation in [false, true] {
        k_run(
            "k JacobianIkSolver (defaults)",
            &k_default,
            &targets,
            with_orientation,
            &arm,
            &mut table,
        );
        k_run(
            "k JacobianIkSolver (tuned: 1e-4, 1.0, 100)",
            &k_tuned,
            &targets,
            with_orientation,
            &arm,
            &mut table,
        );
        for kind in [
            SolverKind::AnalyticLimb,
            SolverKind::DampedLeastSquares,
            SolverKind::SelectivelyDamped,
        ] {
            let o = peer::arm_protocol(&arm, &targets, kind, with_orientation);
            table.row(vec![
                goal_label(with_orientation),
                format!("marionette {}", kind.name()),
                format!("{:.1} %", 100.0 * o.success),
                format!("{:.2}", o.median_micros),
                format!("{:.2}", o.mean_micros),
            ]);
        }
    }
    print!("{}", table.render());
}
