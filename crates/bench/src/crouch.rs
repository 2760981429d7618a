//! Issue 15's crouch, with issue 10's locks: the humanoid standing at rest (straight knees, the
//! singular start), both heels position-locked where they stand, the pelvis dragged straight
//! down 10, 20 and 30 cm in the front view through the editor's document
//! ([`marionette_editing::Edit::DragTo`]). Dragging the root body moves the root translation; the locks'
//! limbs (hip, knee, ankle) must fold to keep the heels, which at straight knees only a
//! second-order move can start.

use marionette_document::{LockKind, LockPart};
use marionette_editing::{ChainMode, Document, Grip, Ray};

use crate::edits;
use marionette_ik::SolverKind;
use marionette_skeleton::builtin;
use nalgebra::Vector3;

use crate::drag_reach::{GLIDE_FRAMES, MAX_FRAMES};
use crate::table::Table;

/// The heels' largest error (m), the pelvis's distance from the cursor ray (m) and the frames
/// after the cursor stopped until both were within 0.1 mm and 1 mm (`None`: not within
/// [`MAX_FRAMES`]).
pub fn run(kind: SolverKind, depth: f64) -> (f64, f64, Option<usize>) {
    let mut doc = Document::new(builtin::humanoid(), None);
    let mut solving = edits::solving_by(kind, ChainMode::NearestBranch);
    for heel in ["left heel", "right heel"] {
        let site = doc.skeleton().site_by_name(heel).expect("heel");
        edits::lock(
            &mut doc,
            LockPart::Site(site),
            LockKind::Position,
            &mut solving,
        );
    }
    let pelvis = doc.skeleton().root();
    let start = doc.fk().joint_position(pelvis);
    edits::begin(&mut doc, Grip::Joint(pelvis), &mut solving).expect("the root can be dragged");
    let mut result = (f64::INFINITY, f64::INFINITY, None);
    for frame in 0..MAX_FRAMES {
        let t = ((frame + 1) as f64 / GLIDE_FRAMES as f64).min(1.0);
        let cursor = start - Vector3::y() * depth * t;
        let ray = ray_through(&cursor);
        edits::step(&mut doc, &ray, &mut solving).expect("dragging");
        let heel = doc
            .lock_violations()
            .iter()
            .map(|v| v.largest())
            .fold(0.0, f64::max);
        let at = doc.fk().joint_position(pelvis);
        let off_ray = (ray.closest_point_to(&at) - at).norm();
        result = (heel, off_ray, None);
        if t >= 1.0 && heel <= 1e-4 && off_ray <= 1e-3 {
            return (heel, off_ray, Some(frame + 1 - GLIDE_FRAMES));
        }
    }
    result
}

/// The front view's ray through `point`.
pub(crate) fn ray_through(point: &Vector3<f64>) -> Ray {
    Ray::new(point + Vector3::z() * 10.0, -Vector3::z()).expect("a unit direction")
}

/// The crouch table.
pub fn table() -> Table {
    let mut table = Table::new(
        "Crouch from the standing rest pose (humanoid, straight knees): heels position-locked, pelvis dragged down in the front view, ≤ 10 updates a frame",
        &[
            "solver",
            "depth (cm)",
            "heel error (mm)",
            "pelvis off the cursor ray (mm)",
            "frames after the cursor stops",
        ],
    );
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::TaskPriority,
        SolverKind::ConstraintMaintenance,
    ] {
        for depth in [0.1, 0.2, 0.3] {
            let (heel, pelvis, frames) = run(kind, depth);
            table.row(vec![
                kind.name().to_owned(),
                format!("{:.0}", depth * 100.0),
                format!("{:.4}", heel * 1e3),
                format!("{:.4}", pelvis * 1e3),
                frames.map_or_else(|| "not reached".to_owned(), |f| f.to_string()),
            ]);
        }
    }
    table.note(format!(
        "held: heels within 0.1 mm and the pelvis within 1 mm of the ray; the cursor glides {GLIDE_FRAMES} frames; the drag moves the root translation, each heel's lock its limb (hip, knee, ankle)"
    ));
    table
}
