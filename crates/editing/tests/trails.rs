//! Motion trails through the editor's document (issue 34): a hand's trail matches the test's own
//! bake and forward kinematics within 0.01 mm on every frame (a held heel's trail is still); a
//! trail drag at frame f puts the hand within 1 mm of where it was dropped, keys the joints the
//! drag moved at f, and leaves every other key exactly as it was (compared as text).

use marionette_document::{LockKind, LockPart};
use marionette_editing::{ChainMode, Document, Grip, IkRunner, IkSettings, Ray, UndoStep};
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::{Fk, builtin};
use nalgebra::Vector3;

fn ray_through(point: Vector3<f64>) -> Ray {
    Ray::new(point + Vector3::new(0.0, 0.0, 5.0), -Vector3::z()).expect("ray")
}

/// The humanoid with both heels locked, keyed standing at 0 and 20, the right shoulder raised
/// at 10 on its own.
fn waving() -> (Document, IkRunner) {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut r = IkRunner::new(IkSettings::default()).expect("settings");
    for n in ["left heel", "right heel"] {
        let part = LockPart::Site(doc.skeleton().site_by_name(n).expect(n));
        doc.lock_part(part, LockKind::Position, &mut r)
            .expect("lock");
    }
    doc.set_key().expect("key 0");
    doc.go_to_frame(20);
    doc.set_key().expect("key 20");
    doc.go_to_frame(10);
    let shoulder = doc.skeleton().joint_by_name("right shoulder").expect("j");
    let dof = doc.skeleton().joint_dofs(shoulder).nth(1).expect("dof");
    doc.set_dof(dof, 1.2, UndoStep::New).expect("raised");
    doc.key_joints(&[shoulder]).expect("keyed");
    (doc, r)
}

#[test]
fn a_trail_is_the_baked_path_and_a_held_heel_stands_still() {
    let (mut doc, _) = waving();
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    let heel = doc.skeleton().site_by_name("left heel").expect("heel");
    doc.show_trail(Grip::Site(hand), 0, 20).expect("shown");
    doc.show_trail(Grip::Site(heel), 0, 20).expect("shown");
    let trails = doc.trails();
    assert_eq!(trails.len(), 2);
    // The test's own bake of the sequence with the document's locks.
    let seq = &doc.sequences()[0];
    let baker = Baker::new(doc.skeleton(), seq, doc.locks(), BakeSettings::default());
    let frames = bake_with_threads(&baker, 1, &|| {}).expect("bakes");
    let mut fk = Fk::new(doc.skeleton());
    let mut farthest = 0.0f64;
    for (f, at) in &trails[0].points {
        let q = &frames.iter().find(|b| b.frame == *f).expect("frame").q;
        fk.update(doc.skeleton(), q);
        farthest = farthest.max((fk.site_position(hand) - at).norm());
    }
    assert!(farthest < 1e-5, "the trail is {farthest} m off the bake");
    println!("the hand's trail within {farthest:e} m of the test's bake");
    assert_eq!(trails[0].points.len(), 21);
    // The shoulder's keys: the hand's trail has a bigger dot there.
    assert_eq!(trails[0].keys, [0, 10, 20]);
    let first = trails[1].points[0].1;
    let moved = trails[1]
        .points
        .iter()
        .map(|(_, p)| (p - first).norm())
        .fold(0.0, f64::max);
    assert!(moved < 1e-4, "the held heel's trail moves {moved} m");
    assert!(doc.show_trail(Grip::Site(hand), 5, 4).is_err());
}

#[test]
fn a_trail_drag_keys_its_frame_and_no_other_key() {
    let (mut doc, mut r) = waving();
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    doc.show_trail(Grip::Site(hand), 0, 20).expect("shown");
    let before: Vec<String> = doc.sequences()[0]
        .keys
        .iter()
        .map(|k| format!("{k:?}"))
        .collect();
    let at_5 = doc.trails()[0].points[5].1;
    doc.go_to_frame(17);
    doc.begin_trail_drag(Grip::Site(hand), 5, ChainMode::NearestBranch)
        .expect("begins");
    assert_eq!(doc.frame(), 5);
    let drop = at_5 + Vector3::new(0.06, 0.1, 0.0);
    for i in 1..=30 {
        let t = (i as f64 / 20.0).min(1.0);
        doc.drag_step(&ray_through(at_5 + (drop - at_5) * t), &mut r);
    }
    doc.end_drag();
    let seq = &doc.sequences()[0];
    let key = seq.key_at(5).expect("a key at the dragged frame");
    let only = key.only.as_ref().expect("on the dragged joints only");
    let names: Vec<&str> = only
        .joints
        .iter()
        .map(|&j| doc.skeleton().joint(j).name.as_str())
        .collect();
    assert!(names.contains(&"right elbow"), "{names:?}");
    assert!(!names.contains(&"left knee"), "{names:?}");
    // Every other key, as text, exactly as before.
    let after: Vec<String> = seq
        .keys
        .iter()
        .filter(|k| k.frame != 5)
        .map(|k| format!("{k:?}"))
        .collect();
    assert_eq!(after, before);
    // The bake puts the hand where it was dropped.
    doc.go_to_frame(0);
    let trail = &doc.trails()[0];
    let off = (trail.points[5].1 - drop).norm();
    assert!(off < 1e-3, "the hand is {:.2} mm from the drop", off * 1e3);
    println!(
        "after the trail drag the bake puts the hand {:.4} mm from the drop",
        off * 1e3
    );
    assert!(trail.keys.contains(&5));
    // Undo takes the key back, then the drag.
    assert!(doc.undo().is_some_and(|l| l.contains("frame 5")));
    assert!(doc.sequences()[0].key_at(5).is_none());
}
