//! The published findings the suite reproduces, pinned down: these depend only on arithmetic,
//! never on timing, so they are tests; the times are printed by `marionette bench`.

use marionette_bench::planar;
use marionette_bench::tracking::{Shape, buss_solvers, run};
use marionette_ik::SolverKind;
use marionette_ik::solvers::pseudo_inverse::PseudoInverse;
use marionette_skeleton::Skeleton;

fn skeleton(name: &str) -> Skeleton {
    Skeleton::load(marionette_bench::skeletons_dir().join(name)).expect("reference skeleton")
}

/// REFERENCE_PROBLEMS §6: a good implementation matches Buss's code within about 1 % (we allow 3 %).
#[test]
fn buss_tracking_errors_match_buss_code() {
    let published = [
        (Shape::Y, [1067.8, 1025.4, 904.5, 892.6, 866.1]),
        (Shape::DoubleY, [5381.5, 3930.3, 3567.6, 3375.1, 3403.4]),
    ];
    for (shape, errors) in published {
        let tree = skeleton(if shape == Shape::Y {
            "buss_y.ron"
        } else {
            "buss_double_y.ron"
        });
        for ((label, mut solver), want) in buss_solvers(shape).into_iter().zip(errors) {
            let (total, _) = run(&tree, shape, solver.as_mut(), 2000);
            let off = (total - want).abs() / want;
            assert!(
                off < 0.03,
                "{shape:?} {label}: {total:.1} vs Buss {want} ({:.1} %)",
                100.0 * off
            );
        }
    }
}

/// REFERENCE_PROBLEMS §2: from the stretched start the plain pseudo-inverse makes a big jump; the
/// extended Jacobian and the damped methods keep each step small.
#[test]
fn soch_planar_chain_pseudo_inverse_jumps_and_the_others_do_not() {
    let chain = skeleton("planar6.ron");
    let first_steps = |solver: &mut dyn marionette_ik::Solver| {
        let (changes, _) = planar::lap(&chain, solver);
        changes[..10].iter().copied().fold(0.0, f64::max)
    };
    let mut plain = PseudoInverse::default();
    plain.relative_cutoff = 1e-9;
    plain.max_joint_step = f64::INFINITY;
    assert!(
        first_steps(&mut plain) > 45.0,
        "the plain pseudo-inverse jumps"
    );
    for kind in [
        SolverKind::ExtendedJacobian,
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
    ] {
        let jump = first_steps(kind.build().as_mut());
        assert!(jump < 10.0, "{kind}: {jump}°");
    }
}

#[test]
fn the_quick_suite_produces_every_table() {
    let tables = marionette_bench::run(&marionette_bench::skeletons_dir(), true);
    assert_eq!(tables.len(), marionette_bench::PROTOCOLS.len());
    for t in &tables {
        assert!(!t.rows.is_empty(), "{}", t.title);
        assert!(
            t.rows.iter().all(|r| r.len() == t.columns.len()),
            "{}",
            t.title
        );
        // A table measures: some row has a number in a column after its first (a table of
        // notes, or of rows saying what is missing, measured nothing).
        let measured = t.rows.iter().any(|r| {
            r.iter().skip(1).any(|cell| {
                cell.split(|c: char| c.is_whitespace() || c == '/' || c == '(' || c == ')')
                    .any(|w| {
                        let w = w.trim_end_matches(['%', '×', 'x', ',']);
                        !w.is_empty() && w.parse::<f64>().is_ok_and(f64::is_finite)
                    })
            })
        });
        assert!(measured, "{}: no row holds a number: {:?}", t.title, t.rows);
    }
}
