//! What the stage's tests share: the test stage of two dancers, and one replay step played as
//! the editor's player plays it (read as a script spells it, resolved, applied).

#![allow(dead_code, reason = "each test binary uses what it needs")]

use std::path::Path;

use marionette_editing::replay::{Action, ReplayContext};
use marionette_editing::{ChainMode, Document, Grip, Ray, Script, Solving};
use marionette_skeleton::Fk;
use nalgebra::{Point3, Vector3};

use super::edits::Edits;

/// Two humanoids face to face 1 m apart, A's right fingertips linked to B's left ("hands"),
/// both with their heels locked; B has a sequence ("sway") in whose cue a stick is gripped by
/// A at 10, handed to B at 30 and released at 40.
pub fn two_dancers() -> Document {
    Document::open_document(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron"),
    )
    .expect("the test stage opens")
}

/// Plays `step` (as a script writes it) on `doc`, solved with the default settings; panics
/// naming what failed.
pub fn play(doc: &mut Document, step: &str) {
    let script = Script::parse(&format!("Replay([{step}])"), "s.ron").expect("reads");
    let context = ReplayContext {
        selected: &[],
        retarget: None,
        beside: &marionette_editing::beside::Beside::default(),
    };
    match script.steps[0].resolve(doc, context).expect("resolves") {
        Action::Edit { edit, .. } => {
            doc.apply(edit, &mut Solving::default())
                .unwrap_or_else(|e| panic!("{step}: {e}"));
        }
        other => panic!("{step}: {other:?}"),
    }
}

/// Figure B's pose.
pub fn b_pose(doc: &Document) -> Vec<f64> {
    doc.figures()[1].document().expect("B").pose().to_vec()
}

/// The figure named `name` selected (edited).
pub fn select(doc: &mut Document, name: &str) {
    doc.apply(
        marionette_editing::Edit::Stage(marionette_editing::stage::StageEdit::SelectFigure(
            name.into(),
        )),
        &mut Solving::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
}

/// B selected and its sequence ("sway") shown.
pub fn show_b_sway(doc: &mut Document) {
    select(doc, "B");
    doc.apply(
        marionette_editing::Edit::SelectSequence(Some(0)),
        &mut Solving::default(),
    )
    .expect("B's sway");
}

/// Where `site` of figure `figure` is on the stage, at the pose `pose` (the edited figure's own
/// for it, else the one it is drawn at).
pub fn site_on_stage(doc: &Document, figure: &str, site: &str) -> Vector3<f64> {
    let k = doc
        .figure_names()
        .iter()
        .position(|n| *n == figure)
        .expect("the figure");
    let slot = &doc.figures()[k];
    let (skeleton, pose) = match slot.document() {
        Some(other) => (other.skeleton(), other.pose()),
        None => (doc.skeleton(), doc.pose()),
    };
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, pose);
    let at = fk.site_position(skeleton.site_by_name(site).expect("the site"));
    (slot.placement.isometry() * Point3::from(at)).coords
}

/// The largest error of figure `figure`'s locks at its pose.
pub fn worst_lock(doc: &Document, figure: usize) -> f64 {
    let other = doc.figures()[figure].document().unwrap_or(doc);
    let mut fk = Fk::new(other.skeleton());
    fk.update(other.skeleton(), other.pose());
    other
        .locks()
        .iter()
        .map(|l| l.goal().kind.error(other.skeleton(), &fk))
        .fold(0.0, f64::max)
}

/// How far apart A's right and B's left fingertips are on the stage.
pub fn hands_apart(doc: &Document) -> f64 {
    apart(doc, ("A", "right fingertips"), ("B", "left fingertips"))
}

/// How far apart two figures' sites are on the stage, each (figure, site).
pub fn apart(doc: &Document, a: (&str, &str), b: (&str, &str)) -> f64 {
    (site_on_stage(doc, a.0, a.1) - site_on_stage(doc, b.0, b.1)).norm()
}

/// Drags the edited figure's `site` by `by` (in its own frame) in `steps` editor frames, seen
/// from the front (rays along -z of the edited figure).
pub fn drag_site(doc: &mut Document, site: &str, by: Vector3<f64>, steps: usize) {
    let mut solving = Solving::default();
    let id = doc.skeleton().site_by_name(site).expect("the site");
    let start = doc.fk().site_position(id);
    doc.begin_grip(Grip::Site(id), ChainMode::NearestBranch)
        .expect("a drag begins");
    for i in 1..=steps {
        let to = start + by * (i as f64 / steps as f64);
        let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
        doc.drag_step(&ray, &mut solving.runner)
            .expect("a drag step");
    }
    // A few frames more with the cursor still, as a user's hand rests.
    let to = start + by;
    let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
    for _ in 0..20 {
        doc.drag_step(&ray, &mut solving.runner)
            .expect("a drag step");
    }
    doc.end_drag();
}
