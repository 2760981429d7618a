//! Motion trails through the editor's document (issue 34): a hand's trail matches the test's own
//! bake and forward kinematics within 0.01 mm on every frame (a held heel's trail is still); a
//! trail drag at frame f puts the hand within 1 mm of where it was dropped, keys the joints the
//! drag moved at f, and leaves every other key exactly as it was (compared as text).

mod edits;

use edits::Edits;
use marionette_document::{LockKind, LockPart};
use marionette_editing::trail::ShownTrails;
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
    let (doc, _) = waving();
    let mut shown = ShownTrails::default();
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    let heel = doc.skeleton().site_by_name("left heel").expect("heel");
    shown.show(&doc, Grip::Site(hand), 0, 20).expect("shown");
    shown.show(&doc, Grip::Site(heel), 0, 20).expect("shown");
    let trails = doc.trails(&shown);
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
    assert!(shown.show(&doc, Grip::Site(hand), 5, 4).is_err());
}

#[test]
fn a_trail_drag_keys_its_frame_and_no_other_key() {
    let (mut doc, mut r) = waving();
    let mut shown = ShownTrails::default();
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    shown.show(&doc, Grip::Site(hand), 0, 20).expect("shown");
    let before: Vec<String> = doc.sequences()[0]
        .keys
        .iter()
        .map(|k| format!("{k:?}"))
        .collect();
    let at_5 = doc.trails(&shown)[0].points[5].1;
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
    let trail = &doc.trails(&shown)[0];
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

/// Every frame of `doc`'s first sequence baked with its locks, by frame.
fn baked(doc: &Document) -> Vec<(i64, Vec<f64>)> {
    let seq = &doc.sequences()[0];
    let baker = Baker::new(doc.skeleton(), seq, doc.locks(), BakeSettings::default());
    bake_with_threads(&baker, 1, &|| {})
        .expect("bakes")
        .into_iter()
        .map(|b| (b.frame, b.q))
        .collect()
}

/// Issue 48's follow-through wave: the right shoulder, elbow and wrist keyed at 0, then the
/// shoulder alone at 12, the elbow at 14, the wrist at 16; the fingertips' trail dragged at 8
/// in the front view. The drag turns a joint that had no key (the clavicle): keyed at 8 alone
/// it would change on every frame. Every joint's baked value at each of its own key frames but
/// 8, and every value at the sequence's ends, stays as it was (1e-12), and the hand lands where
/// it was dropped.
#[test]
fn a_trail_drag_changes_only_the_frames_between_the_neighbouring_keys() {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    let mut r = IkRunner::new(IkSettings::default()).expect("settings");
    let mut shown = ShownTrails::default();
    let joint = |doc: &Document, n: &str| doc.skeleton().joint_by_name(n).expect(n);
    let arm: Vec<_> = ["right shoulder", "right elbow", "right wrist"]
        .iter()
        .map(|n| joint(&doc, n))
        .collect();
    doc.key_joints(&arm).expect("key 0");
    for (frame, &j, dof, value) in [
        (12, &arm[0], 1, 1.2),
        (14, &arm[1], 0, 1.0),
        (16, &arm[2], 1, 0.6),
    ] {
        doc.go_to_frame(frame);
        let d = doc.skeleton().joint_dofs(j).nth(dof).expect("dof");
        doc.set_dof(d, value, UndoStep::New).expect("turned");
        doc.key_joints(&[j]).expect("keyed");
    }
    let before = baked(&doc);
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    shown.show(&doc, Grip::Site(hand), 0, 16).expect("shown");
    let at_8 = doc.trails(&shown)[0].points[8].1;
    doc.begin_trail_drag(Grip::Site(hand), 8, ChainMode::NearestBranch)
        .expect("begins");
    // Towards the body and up, in the front view (the ray along -z).
    let drop = at_8 + Vector3::new(0.12, 0.15, 0.0);
    for i in 1..=30 {
        let t = (i as f64 / 20.0).min(1.0);
        doc.drag_step(&ray_through(at_8 + (drop - at_8) * t), &mut r);
    }
    doc.end_drag();
    let clavicle = joint(&doc, "right clavicle");
    let keyed = doc.sequences()[0].joint_key_frames(doc.skeleton(), clavicle);
    assert!(
        keyed.contains(&8),
        "the drag turned the clavicle, keyed at 8: {keyed:?}"
    );
    let after = baked(&doc);
    assert_eq!(before.len(), after.len(), "the same frames");
    // Each joint at each of its own keys but 8, and the whole pose at the sequence's ends
    // (the nearest keys of the sequence around 8 are 0 and 12: the clavicle, keyed nowhere
    // before, is keyed there as it was).
    assert_eq!(
        doc.sequences()[0].joint_key_frames(doc.skeleton(), clavicle),
        [0, 8, 12]
    );
    let mut largest = 0.0f64;
    for j in doc.skeleton().joint_ids() {
        let own = doc.sequences()[0].joint_key_frames(doc.skeleton(), j);
        for ((f, a), (g, b)) in before.iter().zip(&after) {
            assert_eq!(f, g);
            if *f == 8 || !(own.contains(f) || [0, 16].contains(f)) {
                continue;
            }
            for d in doc.skeleton().joint_dofs(j) {
                let change = (a[d.state_index()] - b[d.state_index()]).abs();
                largest = largest.max(change);
                assert!(
                    change <= 1e-12,
                    "{} at frame {f} changed by {change:e}",
                    doc.skeleton().joint(j).name
                );
            }
        }
    }
    let q8 = &after.iter().find(|(f, _)| *f == 8).expect("frame 8").1;
    let mut fk = Fk::new(doc.skeleton());
    fk.update(doc.skeleton(), q8);
    let hand_at = fk.site_position(hand);
    // In the front view the drop is a point on the screen: the hand is on its ray.
    let off = ((hand_at - drop).x.powi(2) + (hand_at - drop).y.powi(2)).sqrt();
    assert!(
        off < 1e-3,
        "the hand is {:.2} mm from the drop across the view",
        off * 1e3
    );
    println!(
        "after the trail drag at 8: every joint at its own key frames and the ends changes by at most {largest:e}; the hand {:.3} mm from the drop across the front view",
        off * 1e3
    );
}
