//! What the stage's tests share: the test stage of two dancers, and one replay step played as
//! the editor's player plays it (read as a script spells it, resolved, applied).

#![allow(dead_code, reason = "each test binary uses what it needs")]

use std::path::Path;

use marionette_editing::replay::{Action, ReplayContext};
use marionette_editing::{Document, Script, Solving};

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
