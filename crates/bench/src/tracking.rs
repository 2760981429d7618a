//! Buss's tracking test (REFERENCE_PROBLEMS.md §1, with §6's parameters): the Y and double-Y trees
//! follow moving targets, one solver update per time step of 0.005, from every angle 0 at T = 0;
//! 400 warm-up steps, then 2000 measured; the total error is the sum over measured steps of the
//! summed effector-to-target distances after each update.

use std::time::Instant;

use marionette_ik::solvers::common::ErrorClamp;
use marionette_ik::solvers::{
    dls::DampedLeastSquares, jacobian_transpose::JacobianTranspose, pseudo_inverse::PseudoInverse,
    sdls::SelectivelyDampedLeastSquares,
};
use marionette_ik::{GoalKind, Solver, System, track};
use marionette_skeleton::{Chain, Pose, Skeleton};
use nalgebra::Vector3;

use crate::table::Table;

/// Which tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// 7 joints, 2 effectors.
    Y,
    /// 25 joints, 4 effectors.
    DoubleY,
}

impl Shape {
    fn file(self) -> &'static str {
        match self {
            Shape::Y => "buss_y.ron",
            Shape::DoubleY => "buss_double_y.ron",
        }
    }

    fn sites(self) -> &'static [&'static str] {
        match self {
            Shape::Y => &["e0", "e1"],
            Shape::DoubleY => &["A", "B", "C", "D"],
        }
    }

    /// The targets at time t, in site order.
    pub fn targets(self, t: f64) -> Vec<Vector3<f64>> {
        let s = f64::sin;
        match self {
            Shape::Y => vec![
                Vector3::new(
                    2.0 + 1.5 * s(6.0 * t),
                    1.2 + 0.2 * s(7.0 * t),
                    0.3 + 0.2 * s(8.0 * t),
                ),
                Vector3::new(
                    -0.7 + 0.4 * s(4.0 * t),
                    0.8 + 0.3 * s(4.0 * t),
                    -0.2 + 0.2 * s(3.0 * t),
                ),
            ],
            Shape::DoubleY => vec![
                Vector3::new(
                    2.0 + 3.0 * s(3.0 * t),
                    0.5 + 0.4 * s(7.0 * t),
                    0.3 + 1.4 * s(5.0 * t),
                ),
                Vector3::new(
                    0.5 + 0.8 * s(4.0 * t),
                    0.4 + 0.6 * s(4.0 * t),
                    -0.2 + 2.0 * s(3.0 * t),
                ),
                Vector3::new(
                    -0.5 + 1.6 * s(6.0 * t),
                    0.6 + 0.4 * s(7.0 * t),
                    0.3 + 1.0 * s(8.0 * t),
                ),
                Vector3::new(
                    -1.6 + 1.6 * s(4.0 * t),
                    0.3 + 0.6 * s(4.0 * t),
                    -0.2 + 0.6 * s(3.0 * t),
                ),
            ],
        }
    }
}

/// The solvers of Buss's comparison with §6's parameters, by label.
pub fn buss_solvers(shape: Shape) -> Vec<(&'static str, Box<dyn Solver>)> {
    let clamp_lambda = if shape == Shape::Y { 0.6 } else { 0.7 };
    let mut jt = JacobianTranspose::default();
    jt.max_joint_step = 30f64.to_radians();
    jt.link_scaling = false;
    let mut pinv = PseudoInverse::default();
    pinv.relative_cutoff = 0.01;
    pinv.max_joint_step = 5f64.to_radians();
    vec![
        ("Jacobian transpose", Box::new(jt) as Box<dyn Solver>),
        ("pseudo-inverse", Box::new(pinv)),
        ("DLS, λ = 0.6", Box::new(DampedLeastSquares::new(0.6))),
        (
            if shape == Shape::Y {
                "DLS with error clamping, λ = 0.6"
            } else {
                "DLS with error clamping, λ = 0.7"
            },
            Box::new(DampedLeastSquares::new(clamp_lambda).with_clamp(ErrorClamp::adaptive(0.4))),
        ),
        (
            "SDLS",
            Box::new(
                SelectivelyDampedLeastSquares::default().with_clamp(ErrorClamp::adaptive(0.4)),
            ),
        ),
    ]
}

/// Total error and microseconds per update of one solver on one tree.
pub fn run(
    skeleton: &Skeleton,
    shape: Shape,
    solver: &mut dyn Solver,
    measured_steps: usize,
) -> (f64, f64) {
    let (_, goals) = crate::site_goals(skeleton, shape.sites());
    let mut system = System::new(skeleton, goals, Chain::whole(skeleton, false));
    let (m, n) = system.shape();
    solver.prepare(m, n);
    let mut q = Pose::rest(skeleton).q;
    let mut t = 0.0;
    let mut total = 0.0;
    let mut seconds = 0.0;
    for step in 0..400 + measured_steps {
        t += 0.005;
        for (goal, target) in system.goals_mut().iter_mut().zip(shape.targets(t)) {
            if let GoalKind::Position { target: tg, .. } = &mut goal.kind {
                *tg = target;
            }
        }
        let started = Instant::now();
        let report = track(solver, &mut system, &mut q, 0.0);
        let elapsed = started.elapsed().as_secs_f64();
        if step >= 400 {
            total += report.goal_errors.iter().sum::<f64>();
            seconds += elapsed;
        }
    }
    (total, seconds * 1e6 / measured_steps as f64)
}

/// The comparison table, beside Buss's own code as measured on this machine (§6).
pub fn table(skeletons: &std::path::Path) -> Table {
    let published: [(&str, f64, f64); 10] = [
        ("Y", 1067.8, 0.79),
        ("Y", 1025.4, 2.61),
        ("Y", 904.5, 0.98),
        ("Y", 892.6, 0.97),
        ("Y", 866.1, 2.74),
        ("double-Y", 5381.5, 5.47),
        ("double-Y", 3930.3, 21.4),
        ("double-Y", 3567.6, 7.38),
        ("double-Y", 3375.1, 7.3),
        ("double-Y", 3403.4, 22.5),
    ];
    let mut table = Table::new(
        "Buss's tracking test (REFERENCE_PROBLEMS §1, §6): 400 warm-up + 2000 measured updates",
        &[
            "shape",
            "method",
            "total error",
            "Buss's code",
            "difference",
            "µs/update",
            "Buss's code µs",
        ],
    );
    let mut i = 0;
    for shape in [Shape::Y, Shape::DoubleY] {
        let skeleton = Skeleton::load(skeletons.join(shape.file())).expect("reference skeleton");
        for (label, mut solver) in buss_solvers(shape) {
            let (total, micros) = run(&skeleton, shape, solver.as_mut(), 2000);
            let (name, error, time) = published[i];
            i += 1;
            table.row(vec![
                name.to_owned(),
                label.to_owned(),
                format!("{total:.1}"),
                format!("{error:.1}"),
                format!("{:+.1} %", 100.0 * (total - error) / error),
                format!("{micros:.2}"),
                format!("{time:.2}"),
            ]);
        }
    }
    table.note(
        "µs/update includes forward kinematics, the Jacobian and the error after the update.",
    );
    table
}
