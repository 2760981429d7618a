//! Issue 10's budget: the IK work of one editor frame with locks. The humanoid standing, both
//! feet pose-locked (heel position and foot orientation), the left hand position-locked and the
//! centre of mass locked over its ground point, while the right hand is dragged around for 600
//! frames in the front view through the editor's document ([`marionette_editing::Edit::DragTo`]). The
//! centre-of-mass lock moves every DOF, so every lock is in every frame's goal set.

use marionette_document::{LockKind, LockPart};
use marionette_editing::{ChainMode, Document, Grip};

use crate::edits;
use marionette_ik::SolverKind;
use marionette_skeleton::builtin;
use nalgebra::Vector3;

use crate::crouch::ray_through;
use crate::table::{Table, median};

/// What one run measured.
#[derive(Debug, Clone, Copy)]
pub struct LockedDrag {
    /// Median µs of IK per frame.
    pub median_micros: f64,
    /// Largest µs of a frame.
    pub largest_micros: f64,
    /// The largest lock violation over every frame (m or rad).
    pub worst_lock: f64,
    /// Frames on which some lock was violated beyond 0.1 mm / 0.1 mrad.
    pub frames_violated: usize,
    /// Mean distance of the hand from the cursor ray (m).
    pub mean_drag_residual: f64,
    /// Mean solver updates per frame.
    pub mean_updates: f64,
}

/// The locked drag with `kind` for `frames` frames.
pub fn run(kind: SolverKind, frames: usize) -> LockedDrag {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut solving = edits::solving_by(kind, ChainMode::NearestBranch);
    let site = |doc: &Document, n: &str| LockPart::Site(doc.skeleton().site_by_name(n).expect(n));
    for (part, kind) in [
        (site(&doc, "left heel"), LockKind::Pose),
        (site(&doc, "right heel"), LockKind::Pose),
        (site(&doc, "left fingertips"), LockKind::Position),
        (site(&doc, "left heel"), LockKind::CenterOfMass),
    ] {
        edits::lock(&mut doc, part, kind, &mut solving);
    }
    let hand = doc.skeleton().joint_by_name("right wrist").expect("wrist");
    let start = doc.fk().joint_position(hand);
    edits::begin(&mut doc, Grip::Joint(hand), &mut solving).expect("drag");
    let mut micros = Vec::with_capacity(frames);
    let (mut worst, mut violated, mut residual, mut updates) = (0.0_f64, 0, 0.0, 0);
    for f in 0..frames {
        let a = std::f64::consts::TAU * f as f64 / 200.0;
        let cursor = start + Vector3::new(0.2 * a.sin(), 0.25 * (1.0 - a.cos()), 0.0);
        let ray = ray_through(&cursor);
        let outcome =
            edits::timed_step(&mut doc, &ray, &mut solving, &mut micros).expect("dragging");
        let lock = doc
            .lock_violations()
            .iter()
            .map(|v| v.largest())
            .fold(0.0, f64::max);
        worst = worst.max(lock);
        violated += usize::from(lock > 1e-4);
        let at = doc.fk().joint_position(hand);
        residual += (ray.closest_point_to(&at) - at).norm();
        updates += outcome.report.iterations;
    }
    edits::end(&mut doc, &mut solving);
    let largest = micros.iter().copied().fold(0.0, f64::max);
    LockedDrag {
        median_micros: median(&mut micros),
        largest_micros: largest,
        worst_lock: worst,
        frames_violated: violated,
        mean_drag_residual: residual / frames as f64,
        mean_updates: updates as f64 / frames as f64,
    }
}

/// The locked-drag table.
pub fn table(frames: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Editor frame with locks ({frames} frames, humanoid standing): both feet pose-locked, left hand position-locked, centre of mass over its ground point; right hand dragged in the front view, ≤ 10 updates a frame"
        ),
        &[
            "solver",
            "median µs/frame",
            "largest µs",
            "updates/frame",
            "worst lock (mm or mrad)",
            "frames with a lock > 0.1",
            "hand off the ray, mean (mm)",
        ],
    );
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::TaskPriority,
        SolverKind::SelectivelyDamped,
        SolverKind::ConstraintMaintenance,
    ] {
        let r = run(kind, frames);
        table.row(vec![
            kind.name().to_owned(),
            format!("{:.1}", r.median_micros),
            format!("{:.1}", r.largest_micros),
            format!("{:.1}", r.mean_updates),
            format!("{:.4}", r.worst_lock * 1e3),
            r.frames_violated.to_string(),
            format!("{:.2}", r.mean_drag_residual * 1e3),
        ]);
    }
    table.note("issue 10's budget: median ≤ 100 µs with DLS and with task priority; the hand's circle reaches beyond what the locked body allows at its top, so its residual there is the reach it lacks");
    table
}
