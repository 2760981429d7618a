//! Šoch & Lórencz's planar chain (REFERENCE_PROBLEMS.md §2): the tip of the six-link chain, stretched
//! along +X (a singular start), follows the ellipse x²/4² + y²/0.5² = 1 from the point it touches,
//! one update per step. The published finding: the plain pseudo-inverse jumps in the first steps;
//! the extended Jacobian and the damped methods do not. Reported: the largest per-step joint change
//! (first 10 steps and overall) and the tracking error.

use marionette_ik::solvers::pseudo_inverse::PseudoInverse;
use marionette_ik::system::wrap_angle;
use marionette_ik::{Goal, GoalKind, Solver, SolverKind, System, track};
use marionette_skeleton::{Chain, Pose, Skeleton};
use nalgebra::Vector3;

use crate::table::Table;

/// Steps once around the ellipse.
pub const STEPS: usize = 250;

/// Per-step largest joint change (degrees) and tracking error (metres) over one lap.
pub fn lap(chain: &Skeleton, solver: &mut dyn Solver) -> (Vec<f64>, Vec<f64>) {
    let tip = chain.site_by_name("tip").expect("tip site");
    let goal = Goal::new(GoalKind::Position {
        site: tip,
        target: Vector3::new(4.0, 0.0, 0.0),
    });
    let mut system = System::new(chain, vec![goal], Chain::whole(chain, false));
    let (m, n) = system.shape();
    solver.prepare(m, n);
    let mut q = Pose::rest(chain).q;
    let (mut changes, mut errors) = (Vec::new(), Vec::new());
    for k in 1..=STEPS {
        let phi = std::f64::consts::TAU * k as f64 / STEPS as f64;
        if let GoalKind::Position { target, .. } = &mut system.goals_mut()[0].kind {
            *target = Vector3::new(4.0 * phi.cos(), 0.5 * phi.sin(), 0.0);
        }
        let before = q.clone();
        let report = track(solver, &mut system, &mut q, 0.0);
        // Unlimited hinges wrap at ±π: the change is the wrapped difference.
        let change = q
            .iter()
            .zip(&before)
            .map(|(a, b)| wrap_angle(a - b).abs())
            .fold(0.0, f64::max);
        changes.push(change.to_degrees());
        errors.push(report.residual);
    }
    (changes, errors)
}

/// The comparison table.
pub fn table(skeletons: &std::path::Path) -> Table {
    let chain = Skeleton::load(skeletons.join("planar6.ron")).expect("planar6");
    let mut plain = PseudoInverse::default();
    plain.relative_cutoff = 1e-9;
    plain.max_joint_step = f64::INFINITY;
    let mut contenders: Vec<(&str, Box<dyn Solver>)> =
        vec![("pseudo-inverse (plain: no step cap)", Box::new(plain))];
    for kind in [
        SolverKind::PseudoInverse,
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::ExtendedJacobian,
    ] {
        contenders.push((kind.name(), kind.build()));
    }
    let mut table = Table::new(
        format!(
            "Šoch & Lórencz's planar chain (REFERENCE_PROBLEMS §2): one lap of the ellipse in {STEPS} updates from the stretched (singular) start"
        ),
        &[
            "solver",
            "largest step, first 10 (°)",
            "largest step (°)",
            "mean error (m)",
            "largest error (m)",
        ],
    );
    for (label, mut solver) in contenders {
        let (changes, errors) = lap(&chain, solver.as_mut());
        let first = changes[..10].iter().copied().fold(0.0, f64::max);
        let all = changes.iter().copied().fold(0.0, f64::max);
        table.row(vec![
            label.to_owned(),
            format!("{first:.2}"),
            format!("{all:.2}"),
            format!("{:.4}", errors.iter().sum::<f64>() / errors.len() as f64),
            format!("{:.4}", errors.iter().copied().fold(0.0, f64::max)),
        ]);
    }
    table.note("pinv is Buss's set-up (1 % singular-value cutoff, 5° step cap); the plain row drops only exact zeros and has no cap");
    table
}
