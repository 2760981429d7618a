//! The physics ghost on hand-keyed jumps (crates/cli/tests/data): made, accepted as one undo
//! step, and measured on the bake afterwards with the check's own momentum and a least-squares
//! parabola fitted here.

use std::path::{Path, PathBuf};

use marionette_document::{Body, BodySex};
use marionette_editing::physics_ghost::{GhostError, GhostFix, GhostRequest};
use marionette_editing::{Document, Edit, Solving};
use marionette_physics::track::Track;
use marionette_physics::{MassModel, MassSettings};
use nalgebra::Vector3;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The test document `name`, opened from a folder that also holds the humanoid.
fn open(name: &str) -> (tempfile::TempDir, Document) {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::create_dir(dir.path().join("skeletons")).expect("skeletons folder");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        dir.path().join("skeletons/humanoid.ron"),
    )
    .expect("humanoid copied");
    let doc = dir.path().join(name);
    std::fs::copy(repo().join("crates/cli/tests/data").join(name), &doc).expect("copied");
    let mut opened = Document::open_document(&doc).expect("the jump opens");
    apply(&mut opened, Edit::SelectSequence(Some(0)));
    (dir, opened)
}

fn apply(doc: &mut Document, edit: Edit) {
    let mut solving = Solving::default();
    doc.apply(edit, &mut solving).expect("the edit applies");
}

fn request(from: i64, to: i64, momentum: bool) -> GhostRequest {
    GhostRequest {
        from,
        to,
        fix: GhostFix::Flight {
            ballistic: true,
            momentum,
            apex: None,
            marks: Vec::new(),
        },
        body: MassSettings::default(),
    }
}

/// The baked poses of sequence 0.
fn baked(doc: &Document) -> Vec<Vec<f64>> {
    doc.bake_sequence(0).into_iter().map(|f| f.q).collect()
}

/// The largest deviation of the angular momentum from its mean over `from..=to`, as a
/// fraction of the mean's length, and that length per kg.
fn momentum_spread(doc: &Document, from: usize, to: usize) -> (f64, f64) {
    let model = MassModel::of(doc.skeleton(), MassSettings::default()).expect("weighed");
    let poses = baked(doc);
    let track = Track::of(
        doc.skeleton(),
        &model,
        poses.iter().map(Vec::as_slice),
        24.0,
    );
    let span = &track.momentum[from..=to];
    let mean: Vector3<f64> = span.iter().sum::<Vector3<f64>>() / span.len() as f64;
    let worst = span.iter().map(|l| (l - mean).norm()).fold(0.0, f64::max);
    (worst / mean.norm(), mean.norm() / model.total)
}

#[test]
fn a_swinging_jump_keeps_its_momentum_and_the_rest_of_the_take() {
    let (_dir, mut doc) = open("jump-swing.marionette.ron");
    let before = baked(&doc);
    let (spread, _) = momentum_spread(&doc, 15, 33);
    assert!(
        spread > 0.5,
        "the keyed flight already holds its momentum: {spread}"
    );
    let ghost = doc.physics_ghost(request(15, 33, true)).expect("a ghost");
    assert_eq!(ghost.poses.len(), 19, "the flight has 19 frames");
    apply(&mut doc, Edit::AcceptGhost(Box::new(ghost)));
    let after = baked(&doc);
    let (spread, per_kg) = momentum_spread(&doc, 15, 33);
    eprintln!("momentum after: spread {spread}, {per_kg} m²/s per kg");
    assert!(spread <= 0.01 || per_kg * spread <= 1e-4, "spread {spread}");
    assert_eq!(before.len(), after.len());
    for f in (0..=13).chain(35..before.len()) {
        let off = (before[f].iter().zip(&after[f]))
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(off <= 1e-12, "frame {f} changed by {off}");
    }
}

#[test]
fn accepting_is_one_undo_step_and_a_stale_ghost_is_refused() {
    let (_dir, mut doc) = open("jump-swing.marionette.ron");
    let sequences = doc.sequences().to_vec();
    let locks = doc.locks().to_vec();
    // With an apex the flight grows, and the landing's locks move with the keys after it.
    let mut higher = request(15, 33, true);
    if let GhostFix::Flight { apex, .. } = &mut higher.fix {
        *apex = Some(1.0);
    }
    let ghost = doc.physics_ghost(higher).expect("a ghost");
    assert!(ghost.shift() > 0, "a higher flight lasts longer");
    apply(&mut doc, Edit::AcceptGhost(Box::new(ghost.clone())));
    let landing = |doc: &Document| doc.locks()[2].frames().expect("frames");
    assert_eq!(landing(&doc).0, 36 + ghost.shift());
    apply(&mut doc, Edit::Undo);
    assert_eq!(doc.sequences(), sequences.as_slice());
    assert_eq!(doc.locks(), locks.as_slice());
    // A ghost made before the sequence changed is not written over the change.
    let stale = doc.physics_ghost(request(15, 33, false)).expect("a ghost");
    apply(&mut doc, Edit::GoToFrame(4));
    apply(&mut doc, Edit::SetKey);
    let changed = doc.sequences().to_vec();
    let mut solving = Solving::default();
    let refused = doc.apply(Edit::AcceptGhost(Box::new(stale)), &mut solving);
    assert!(
        refused.is_err_and(|e| e.to_string().contains("changed since the ghost was made")),
        "a stale ghost"
    );
    assert_eq!(doc.sequences(), changed.as_slice());
}

#[test]
fn a_ghost_that_cannot_be_made_says_why() {
    let (_dir, doc) = open("jump-swing.marionette.ron");
    let refused = |r: GhostRequest| doc.physics_ghost(r).expect_err("refused");
    assert!(matches!(
        refused(request(3, 10, false)),
        GhostError::NotAFlight { frame: 3, .. }
    ));
    assert!(matches!(
        refused(request(0, 10, false)),
        GhostError::Outside { .. }
    ));
    let mut nothing = request(15, 33, false);
    if let GhostFix::Flight { ballistic, .. } = &mut nothing.fix {
        *ballistic = false;
    }
    assert_eq!(refused(nothing), GhostError::NothingAsked);
    let mut marked = request(15, 33, true);
    if let GhostFix::Flight { marks, .. } = &mut marked.fix {
        *marks = vec![40];
    }
    assert!(matches!(refused(marked), GhostError::Mark { mark: 40, .. }));
    let mut weightless = request(15, 33, true);
    weightless.body.total_kg = 0.0;
    assert!(matches!(refused(weightless), GhostError::Mass(_)));
}

#[test]
fn the_figures_body_is_one_undoable_edit_and_weighs_its_ghost() {
    let (_dir, mut doc) = open("jump-swing.marionette.ron");
    assert_eq!(doc.body(), None);
    assert_eq!(doc.mass_settings(), MassSettings::default());
    let light = Body {
        mass: 50.0,
        sex: BodySex::Female,
    };
    apply(&mut doc, Edit::SetBody(Some(light)));
    assert_eq!(doc.mass_settings().total_kg, 50.0);
    let mut solving = Solving::default();
    let refused = doc.apply(
        Edit::SetBody(Some(Body {
            mass: f64::NAN,
            sex: BodySex::Male,
        })),
        &mut solving,
    );
    assert!(refused.is_err_and(|e| e.to_string().contains("kg")));
    assert_eq!(doc.body(), Some(light), "a refused body changes nothing");
    apply(&mut doc, Edit::Undo);
    assert_eq!(doc.body(), None);
    apply(&mut doc, Edit::Redo);
    assert_eq!(doc.body(), Some(light));
    // The ghost's momentum scales with the mass it is weighed by.
    let mut weighed = request(15, 33, true);
    weighed.body = doc.mass_settings();
    let held = |r: GhostRequest| {
        let m = doc
            .physics_ghost(r)
            .expect("a ghost")
            .momentum
            .expect("held");
        (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).sqrt()
    };
    let (at_50, at_75) = (held(weighed), held(request(15, 33, true)));
    assert!(at_50 < at_75 * 0.8, "{at_50} against {at_75}");
}
