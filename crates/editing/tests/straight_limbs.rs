//! Issue 15, "limbs bend when dragged": the stickman's limbs are straight at rest with their
//! elbows and knees at the 0° limit, so dragging a hand or a heel towards its base in a view used
//! to stall every numeric solver (zero first-order gain). Each drag here glides the cursor from
//! the grip to the target over 30 frames through `Edit::DragTo`, as the editor does.

mod edits;

use edits::Edits;
use marionette_editing::{ChainMode, Document, IkRunner, IkSettings, Ray};
use marionette_ik::{Shortfall, SolverKind};
use marionette_skeleton::builtin;
use nalgebra::Vector3;

/// The drags: both hands towards the hips and out, both heels up and out (front view,
/// looking along −Z), and the left limbs in the side view (looking along −X).
const DRAGS: [(&str, [f64; 3], [f64; 3]); 6] = [
    ("right fingertips", [0.0, 0.0, -1.0], [-0.55, 1.10, 0.0]),
    ("left fingertips", [0.0, 0.0, -1.0], [0.55, 1.10, 0.0]),
    ("right heel", [0.0, 0.0, -1.0], [-0.35, 0.30, 0.0]),
    ("left heel", [0.0, 0.0, -1.0], [0.35, 0.30, 0.0]),
    ("left fingertips", [-1.0, 0.0, 0.0], [0.0, 1.10, 0.30]),
    ("left heel", [-1.0, 0.0, 0.0], [0.0, 0.45, -0.40]),
];

/// The grip's distance from the target's view ray after the drag and 30 frames more, and why
/// the last frame left the goal unmet, if it did.
fn drag(
    kind: SolverKind,
    preference: f64,
    (site, view, to): (&str, [f64; 3], [f64; 3]),
) -> (f64, Option<Shortfall>) {
    let mut doc = Document::new(builtin::stickman(), None);
    let mut runner = IkRunner::new(IkSettings {
        solver: kind,
        preference,
        ..IkSettings::default()
    })
    .expect("settings");
    let site = doc.skeleton().site_by_name(site).expect("site");
    let view = Vector3::from(view);
    let target = Vector3::from(to);
    let start = doc.fk().site_position(site);
    doc.begin_site_drag(site, ChainMode::NearestBranch)
        .expect("drag");
    let ray_through = |p: Vector3<f64>| Ray::new(p - view * 10.0, view).expect("ray");
    let mut why = None;
    for frame in 1..=60 {
        let t = (frame as f64 / 30.0).min(1.0);
        let outcome = doc
            .drag_step(&ray_through(start + (target - start) * t), &mut runner)
            .expect("dragging");
        why = outcome.report.worst_shortfall().map(|(_, s)| s.clone());
    }
    let grip = doc.fk().site_position(site);
    let ray = ray_through(target);
    assert!(
        marionette_skeleton::Pose {
            q: doc.pose().to_vec()
        }
        .within_limits(doc.skeleton()),
        "{kind}: limits kept"
    );
    ((ray.closest_point_to(&grip) - grip).norm(), why)
}

#[test]
fn straight_limbs_bend_when_dragged_towards_their_base() {
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::PseudoInverse,
        SolverKind::TaskPriority,
        SolverKind::BoundedLeastSquares,
    ] {
        for d in DRAGS {
            let (off, _) = drag(kind, 0.1, d);
            assert!(off < 1e-3, "{kind}: {} ended {off} m from the ray", d.0);
        }
    }
}

#[test]
fn the_slow_methods_reach_or_say_why_not() {
    for kind in [
        SolverKind::JacobianTranspose,
        SolverKind::CyclicCoordinateDescent,
        SolverKind::ConstraintMaintenance,
    ] {
        for d in DRAGS {
            match drag(kind, 0.1, d) {
                (off, _) if off < 1e-3 => {}
                (off, Some(why)) => assert!(
                    why != Shortfall::Stalled,
                    "{kind}: {} ended {off} m from the ray, stalled",
                    d.0
                ),
                (off, None) => panic!("{kind}: {} ended {off} m off with no reason", d.0),
            }
        }
    }
}

#[test]
fn the_driver_escapes_the_stall_even_without_bend_hints() {
    // With the hints off, only the driver's stall escape can leave the straight pose.
    for d in DRAGS {
        let (off, _) = drag(SolverKind::DampedLeastSquares, 0.0, d);
        assert!(off < 1e-3, "{} ended {off} m from the ray", d.0);
    }
}

#[test]
fn the_same_drag_twice_gives_the_same_pose_bit_for_bit() {
    let run = || {
        let mut doc = Document::new(builtin::stickman(), None);
        let mut runner = IkRunner::new(IkSettings::default()).expect("settings");
        let site = doc
            .skeleton()
            .site_by_name("right fingertips")
            .expect("site");
        let start = doc.fk().site_position(site);
        doc.begin_site_drag(site, ChainMode::NearestBranch)
            .expect("drag");
        for frame in 1..=40 {
            let t = (f64::from(frame) / 30.0).min(1.0);
            let at = start + (Vector3::new(-0.55, 1.10, 0.0) - start) * t;
            let ray = Ray::new(at + Vector3::z() * 10.0, -Vector3::z()).expect("ray");
            doc.drag_step(&ray, &mut runner).expect("dragging");
        }
        doc.pose().iter().map(|v| v.to_bits()).collect::<Vec<u64>>()
    };
    assert_eq!(run(), run());
}
