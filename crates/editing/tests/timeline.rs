//! The timeline through the editor's document (issue 11): keys set where the user posed, frames
//! shown as a bake makes them with the locks held, lock frame ranges judged on the current frame,
//! every sequence edit one undo step, and sequences saved with the document.

mod edits;

use edits::Edits;
use marionette_document::{LockKind, LockPart};
use marionette_editing::{ChainMode, Document, EditError, IkRunner, IkSettings, Ray};
use marionette_skeleton::builtin;
use nalgebra::Vector3;

fn runner() -> IkRunner {
    IkRunner::new(IkSettings::default()).expect("settings")
}

fn ray_through(point: Vector3<f64>) -> Ray {
    Ray::new(point + Vector3::new(0.0, 0.0, 5.0), -Vector3::z()).expect("ray")
}

/// Drags the pelvis down by `drop` over 20 frames, then lets it settle.
fn drag_pelvis_down(doc: &mut Document, drop: f64, r: &mut IkRunner) {
    let j = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    let start = doc.fk().joint_position(j);
    doc.begin_joint_drag(j, ChainMode::NearestBranch)
        .expect("drag");
    for f in 1..=40 {
        let at = start - Vector3::new(0.0, drop * (f as f64 / 20.0).min(1.0), 0.0);
        doc.drag_step(&ray_through(at), r).expect("dragging");
    }
    doc.end_drag();
}

/// The humanoid standing with both heels locked, keyed standing at 0 and crouched at 24.
fn keyed_crouch() -> (Document, IkRunner) {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut r = runner();
    for n in ["left heel", "right heel"] {
        let part = LockPart::Site(doc.skeleton().site_by_name(n).expect(n));
        doc.lock_part(part, LockKind::Position, &mut r)
            .expect("lock");
    }
    doc.set_key().expect("a key");
    assert_eq!(doc.current_sequence(), Some(0));
    assert_eq!(doc.sequences()[0].name, "Sequence 1");
    doc.go_to_frame(24);
    drag_pelvis_down(&mut doc, 0.10, &mut r);
    doc.set_key().expect("a key");
    (doc, r)
}

#[test]
fn a_keyed_crouch_holds_the_heels_on_every_in_between_frame() {
    let (mut doc, _r) = keyed_crouch();
    let keys: Vec<i64> = doc.sequences()[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 24]);
    let frames = doc.bake_sequence(0);
    assert_eq!(frames.len(), 25);
    for f in &frames {
        assert_eq!(f.lock_errors.len(), 2);
        for &(i, e) in &f.lock_errors {
            assert!(
                e < 1e-4,
                "frame {}: {} off by {e}",
                f.frame,
                doc.locks()[i].name
            );
        }
    }
    // Scrubbing shows the baked pose: half-way the pelvis is half-way down.
    let pelvis = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    doc.go_to_frame(0);
    let top = doc.fk().joint_position(pelvis).y;
    doc.go_to_frame(24);
    let bottom = doc.fk().joint_position(pelvis).y;
    doc.go_to_frame(12);
    let middle = doc.fk().joint_position(pelvis).y;
    assert!((top - bottom - 0.10).abs() < 2e-3, "{top} {bottom}");
    assert!((middle - (top + bottom) / 2.0).abs() < 1e-9, "linear root");
    assert_eq!(doc.pose(), frames[12].q.as_slice());
}

#[test]
fn every_sequence_edit_is_one_undo_step() {
    let (mut doc, _r) = keyed_crouch();
    let frames =
        |doc: &Document| -> Vec<i64> { doc.sequences()[0].keys.iter().map(|k| k.frame).collect() };
    doc.move_key(24, 30).expect("move");
    assert_eq!(frames(&doc), [0, 30]);
    doc.insert_frames(10, 5).expect("insert");
    assert_eq!(frames(&doc), [0, 35]);
    doc.retime_frames(0, 35, 18).expect("retime");
    assert_eq!(frames(&doc), [0, 17]);
    let clip = doc.copy_frames(0, 17).expect("copy");
    doc.paste_frames(18, &clip).expect("paste");
    assert_eq!(frames(&doc), [0, 17, 18, 35]);
    doc.slide_frames(18, 35, 2).expect("slide");
    assert_eq!(frames(&doc), [0, 17, 20, 37]);
    doc.delete_frames(18, 19).expect("delete");
    assert_eq!(frames(&doc), [0, 17, 18, 35]);
    let cut = doc.cut_frames(18, 40).expect("cut");
    assert_eq!(cut.keys.len(), 2);
    assert_eq!(frames(&doc), [0, 17]);
    doc.go_to_frame(17);
    doc.delete_key().expect("delete key");
    assert_eq!(frames(&doc), [0]);
    assert!(
        matches!(doc.delete_key(), Err(EditError::Key(_))),
        "no key at 17"
    );
    doc.go_to_frame(0);
    let err = doc.delete_key().expect_err("the last key");
    assert!(err.to_string().contains("at least one key"), "{err}");
    // Undo walks back one edit at a time, to the two keys.
    let expected: [&[i64]; 8] = [
        &[0, 17],
        &[0, 17, 18, 35],
        &[0, 17, 20, 37],
        &[0, 17, 18, 35],
        &[0, 17],
        &[0, 35],
        &[0, 30],
        &[0, 24],
    ];
    for want in expected {
        doc.undo().expect("undo");
        assert_eq!(frames(&doc), want);
    }
    doc.redo().expect("redo");
    assert_eq!(frames(&doc), [0, 30]);
}

#[test]
fn sequences_are_made_renamed_duplicated_and_deleted_undoably() {
    let (mut doc, _r) = keyed_crouch();
    let copy = doc.duplicate_sequence(0).expect("duplicate");
    assert_eq!(doc.sequences()[copy].name, "Sequence 1 copy");
    assert!(matches!(
        doc.rename_sequence(copy, "Sequence 1"),
        Err(EditError::SequenceName(_))
    ));
    assert!(doc.rename_sequence(copy, "  ").is_err());
    doc.rename_sequence(copy, "crouch").expect("rename");
    let fresh = doc.new_sequence();
    // "Sequence 1" is taken: the new one's name takes a number.
    assert_eq!(doc.sequences()[fresh].name, "Sequence 1 2");
    assert_eq!(doc.current_sequence(), Some(fresh));
    doc.delete_sequence(0).expect("delete");
    assert_eq!(doc.current_sequence(), Some(1), "the shown one moved up");
    let names = |doc: &Document| -> Vec<String> {
        doc.sequences().iter().map(|s| s.name.clone()).collect()
    };
    assert_eq!(names(&doc), ["crouch", "Sequence 1 2"]);
    doc.undo().expect("undo delete");
    assert_eq!(names(&doc), ["Sequence 1", "crouch", "Sequence 1 2"]);
    doc.undo().expect("undo new");
    assert_eq!(names(&doc), ["Sequence 1", "crouch"]);
    assert!(doc.current_sequence().is_none_or(|i| i < 2));
    assert!(doc.select_sequence(Some(7)).is_err());
}

#[test]
fn a_lock_with_a_frame_range_holds_only_on_its_frames() {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut r = runner();
    let part = LockPart::Site(doc.skeleton().site_by_name("left heel").expect("heel"));
    let lock = doc
        .lock_part(part, LockKind::Position, &mut r)
        .expect("lock");
    doc.set_lock_frames(lock, Some((0, 10))).expect("frames");
    // The blend is one undo step, and a negative one is refused.
    doc.set_lock_blend(lock, 3).expect("blend");
    assert!(doc.set_lock_blend(lock, -1).is_err());
    assert_eq!(
        doc.history().next_undo(),
        Some("Blend of lock left heel position")
    );
    doc.undo().expect("undo");
    assert_eq!(doc.locks()[lock].blend(), 0);
    doc.set_key().expect("a key");
    doc.go_to_frame(20);
    // Off its frames the lock does not hold the heel: a pelvis drag moves it freely.
    let heel = doc.skeleton().site_by_name("left heel").expect("heel");
    let before = doc.fk().site_position(heel);
    drag_pelvis_down(&mut doc, 0.05, &mut r);
    assert!((doc.fk().site_position(heel) - before).norm() > 0.02);
    // On them it does.
    doc.undo().expect("undo drag");
    doc.go_to_frame(5);
    drag_pelvis_down(&mut doc, 0.05, &mut r);
    assert!((doc.fk().site_position(heel) - before).norm() < 1e-4);
}

#[test]
fn sequences_save_and_open_with_the_document() {
    let (mut doc, _r) = keyed_crouch();
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("crouch.marionette.ron");
    doc.save_document(&file).expect("save");
    let opened = Document::open_document(&file).expect("open");
    // Files hold degrees: radians → degrees → radians may move the last bit.
    let (a, b) = (&opened.sequences()[0], &doc.sequences()[0]);
    assert_eq!(
        (&a.name, a.fps, a.keys.len()),
        (&b.name, b.fps, b.keys.len())
    );
    for (ka, kb) in a.keys.iter().zip(&b.keys) {
        assert_eq!(ka.frame, kb.frame);
        let worst = ka
            .pose
            .q
            .iter()
            .zip(&kb.pose.q)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-14, "{worst}");
    }
}
