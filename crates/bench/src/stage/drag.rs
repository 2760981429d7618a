//! The editor's IK work per frame while the user drags a figure linked to another (issue 32):
//! two built-in humanoids face to face, both heels of each locked, the first's right hand
//! linked to the second's left; the first's right forearm dragged up and around in a front
//! view, through the editor's path ([`marionette_editing::Edit::DragTo`]), which solves both figures as one
//! skeleton. Beside it, the same drag with the link removed (each figure alone), so the cost
//! of holding the link is read off the table. Also the largest gap of the joined hands over
//! the drag, measured by forward kinematics of both figures on the stage.

use std::time::Instant;

use marionette_document::{LockKind, LockPart, Placement};
use marionette_editing::stage::StageEdit;
use marionette_editing::{ChainMode, Document, Edit, Grip, IkRunner, IkSettings, Ray, Solving};

use crate::edits;
use marionette_skeleton::{Fk, builtin};
use nalgebra::{Point3, Vector3};

use crate::table::{Table, median};

/// The first figure's name (the built-in humanoid's).
const A: &str = "humanoid";

/// Both figures, heels locked, facing each other; hands linked when `linked`.
fn two_figures(linked: bool) -> Document {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut solving = Solving::default();
    let placement = Placement {
        at: [0.2, 0.9],
        facing: 180.0,
    };
    let apply = |doc: &mut Document, edit: Edit, solving: &mut Solving| {
        doc.apply(edit, solving).expect("the bench's stage");
    };
    apply(
        &mut doc,
        Edit::Stage(StageEdit::AddFigure {
            name: "B".into(),
            file: None,
            placement,
        }),
        &mut solving,
    );
    for figure in ["B", A] {
        apply(
            &mut doc,
            Edit::Stage(StageEdit::SelectFigure(figure.into())),
            &mut solving,
        );
        for heel in ["left heel", "right heel"] {
            let site = doc.skeleton().site_by_name(heel).expect("heel");
            edits::lock(
                &mut doc,
                LockPart::Site(site),
                LockKind::Position,
                &mut solving,
            );
        }
    }
    if linked {
        apply(
            &mut doc,
            Edit::Stage(StageEdit::LockBetween {
                a: (A.into(), "right fingertips".into()),
                b: ("B".into(), "left fingertips".into()),
                turned: false,
            }),
            &mut solving,
        );
    }
    doc
}

/// Where `site` of figure `k` is on the stage.
fn on_stage(doc: &Document, k: usize, site: &str) -> Vector3<f64> {
    let slot = &doc.figures()[k];
    let figure = slot.document().unwrap_or(doc);
    let mut fk = Fk::new(figure.skeleton());
    fk.update(figure.skeleton(), figure.pose());
    let id = figure.skeleton().site_by_name(site).expect("site");
    (slot.placement.isometry() * Point3::from(fk.site_position(id))).coords
}

/// Median and largest µs per frame, mean residual (m) and the hands' largest gap (m) over a
/// drag of `frames` frames.
pub fn run(linked: bool, frames: usize) -> [f64; 4] {
    let mut doc = two_figures(linked);
    let runner = IkRunner::new(IkSettings::default()).expect("settings");
    let mut solving = edits::solving(runner, ChainMode::NearestBranch);
    let forearm = doc.skeleton().joint_by_name("right elbow").expect("elbow");
    let hit = doc.fk().point(forearm, &Vector3::new(0.0, -0.2, 0.0));
    let grip = Grip::Body {
        joint: forearm,
        hit,
    };
    edits::begin(&mut doc, grip, &mut solving).expect("drag");
    let (mut micros, mut residual, mut gap) = (Vec::with_capacity(frames), 0.0, 0.0_f64);
    for f in 0..frames {
        let a = std::f64::consts::TAU * f as f64 / 200.0;
        let cursor = hit + Vector3::new(0.1 * a.sin(), 0.15 * (1.0 - a.cos()), 3.0);
        let ray = Ray::new(cursor, -Vector3::z()).expect("ray");
        let outcome =
            edits::timed_step(&mut doc, &ray, &mut solving, &mut micros).expect("dragging");
        residual += outcome.report.residual;
        if linked {
            gap = gap.max(
                (on_stage(&doc, 0, "right fingertips") - on_stage(&doc, 1, "left fingertips"))
                    .norm(),
            );
        }
    }
    edits::end(&mut doc, &mut solving);
    let largest = micros.iter().copied().fold(0.0, f64::max);
    [median(&mut micros), largest, residual / frames as f64, gap]
}

/// Median µs to show a frame of a sequence on the linked stage (what the timeline and playback
/// do on every frame: the stage's bake of that one frame, the link solved), over `frames`
/// frames: a key of the first figure at frame 0 and another, its pelvis 10 cm lower, at 48.
pub fn show_frame_micros(frames: usize) -> f64 {
    let mut doc = two_figures(true);
    let mut solving = Solving::default();
    doc.apply(Edit::SetKey, &mut solving).expect("key at 0");
    doc.apply(Edit::GoToFrame(48), &mut solving)
        .expect("frame 48");
    let pelvis = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    let at = doc.fk().joint_position(pelvis);
    solving.chain_mode = ChainMode::NearestBranch;
    edits::begin(&mut doc, Grip::Joint(pelvis), &mut solving).expect("drag");
    let ray = Ray::new(at + Vector3::new(0.0, -0.1, 3.0), -Vector3::z()).expect("ray");
    for _ in 0..30 {
        edits::step(&mut doc, &ray, &mut solving);
    }
    edits::end(&mut doc, &mut solving);
    doc.apply(Edit::SetKey, &mut solving).expect("key at 48");
    let mut micros: Vec<f64> = (0..frames)
        .map(|f| {
            let began = Instant::now();
            doc.apply(Edit::GoToFrame((f % 49) as i64), &mut solving)
                .expect("a frame");
            began.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    median(&mut micros)
}

/// The linked drag table.
pub fn table(frames: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Editor drag frame on a stage ({frames} frames, two humanoids with heels locked, the first's right forearm dragged in a front view)"
        ),
        &[
            "figures",
            "median µs/frame",
            "largest µs",
            "mean residual (mm)",
            "hands' largest gap (mm)",
        ],
    );
    for (label, linked) in [
        ("each alone (no link)", false),
        ("hand in hand (solved together)", true),
    ] {
        let [med, max, residual, gap] = run(linked, frames);
        table.row(vec![
            label.to_owned(),
            format!("{med:.1}"),
            format!("{max:.1}"),
            format!("{:.2}", residual * 1e3),
            if linked {
                format!("{:.3}", gap * 1e3)
            } else {
                "-".to_owned()
            },
        ]);
    }
    table.note("DLS, ≤ 10 updates per frame, tolerance 0.1 mm (IkSettings::default); budget 1000 µs per frame (issue 5)");
    table.note(format!(
        "showing a frame of a sequence on this stage (the timeline, playback: the stage's bake of the frame, the link solved): median {:.0} µs",
        show_frame_micros(frames)
    ));
    table
}
