//! The editor's IK work per frame while the user drags, through the same path the editor takes
//! (`marionette_editing::Edit::DragTo`: the cursor-ray goal, the document's system, the
//! chosen solver's updates for the frame, forward kinematics of the result): the humanoid's right
//! forearm dragged up and around for 600 frames in a front view, in each chain mode's default
//! (nearest branch: the arm from the shoulder) and for the whole body. Issue 5's budget: ≤ 1 ms.

use marionette_editing::{ChainMode, Document, Grip, IkRunner, IkSettings, Ray};

use crate::edits;
use marionette_ik::SolverKind;
use marionette_skeleton::builtin;
use nalgebra::Vector3;

use crate::table::{Table, median};

/// Median and largest µs per frame and the mean residual (m) of a 600-frame drag.
pub fn run(kind: SolverKind, mode: ChainMode, frames: usize) -> [f64; 3] {
    run_with(
        IkSettings {
            solver: kind,
            ..IkSettings::default()
        },
        mode,
        frames,
    )
}

/// [`run`] with any IK settings.
pub fn run_with(settings: IkSettings, mode: ChainMode, frames: usize) -> [f64; 3] {
    let mut doc = Document::new(builtin::humanoid(), None);
    let mut solving = edits::solving(IkRunner::new(settings).expect("settings"), mode);
    let forearm = doc.skeleton().joint_by_name("right elbow").expect("elbow");
    let hit = doc.fk().point(forearm, &Vector3::new(0.0, -0.2, 0.0));
    let grip = Grip::Body {
        joint: forearm,
        hit,
    };
    edits::begin(&mut doc, grip, &mut solving).expect("drag");
    let (mut micros, mut residual) = (Vec::with_capacity(frames), 0.0);
    for f in 0..frames {
        let a = std::f64::consts::TAU * f as f64 / 200.0;
        let cursor = hit + Vector3::new(0.25 * a.sin(), 0.3 * (1.0 - a.cos()), 3.0);
        let ray = Ray::new(cursor, -Vector3::z()).expect("ray");
        let outcome =
            edits::timed_step(&mut doc, &ray, &mut solving, &mut micros).expect("dragging");
        residual += outcome.report.residual;
    }
    edits::end(&mut doc, &mut solving);
    let largest = micros.iter().copied().fold(0.0, f64::max);
    [median(&mut micros), largest, residual / frames as f64]
}

/// The drag table.
pub fn table(frames: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Editor drag frame ({frames} frames, humanoid right forearm, front view): the IK work of one frame as the editor does it"
        ),
        &[
            "chain",
            "solver",
            "median µs/frame",
            "largest µs",
            "mean residual (mm)",
        ],
    );
    for (label, mode) in [
        ("nearest branch", ChainMode::NearestBranch),
        ("whole body", ChainMode::WholeBody),
    ] {
        for kind in [
            SolverKind::DampedLeastSquares,
            SolverKind::SelectivelyDamped,
            SolverKind::CyclicCoordinateDescent,
            SolverKind::JacobianTranspose,
        ] {
            let [med, max, residual] = run(kind, mode, frames);
            table.row(vec![
                label.to_owned(),
                kind.name().to_owned(),
                format!("{med:.1}"),
                format!("{max:.1}"),
                format!("{:.2}", residual * 1e3),
            ]);
        }
    }
    table.note("≤ 10 updates per frame, tolerance 0.1 mm (IkSettings::default); budget 1000 µs per frame (issue 5)");
    table
}
