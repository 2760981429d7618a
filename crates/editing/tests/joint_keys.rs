//! Keys on some joints through the editor's document (issue 34): Key selected joints keys only
//! them (the other joints keep going between their own keys), a joint's key moved on its lane
//! and all of a joint's keys offset change that joint alone, each one undo step; nothing
//! selected is refused with a message; the replay steps `KeySelectedJoints` and
//! `MoveKeys(joint: J, from: f, to: g)` read and resolve to those edits.

mod edits;

use edits::Edits;
use marionette_editing::replay::{ReplayContext, Script};
use marionette_editing::{Document, Edit, EditError, UndoStep};
use marionette_skeleton::builtin;

/// The humanoid standing, keyed whole at 0 and 20, the left elbow bent at 10 on its own.
fn keyed() -> Document {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    doc.set_key().expect("key 0");
    doc.go_to_frame(20);
    doc.set_key().expect("key 20");
    doc.go_to_frame(10);
    let elbow = doc.skeleton().joint_by_name("left elbow").expect("elbow");
    let dof = doc.skeleton().joint_dofs(elbow).next().expect("dof");
    doc.set_dof(dof, 1.2, UndoStep::New).expect("bent");
    doc.key_joints(&[elbow]).expect("keyed");
    doc
}

#[test]
fn keying_selected_joints_leaves_the_others_between_their_own_keys() {
    let mut doc = keyed();
    let s = doc.skeleton().clone();
    let elbow = s.joint_by_name("left elbow").expect("elbow");
    let knee = s.joint_by_name("left knee").expect("knee");
    let seq = &doc.sequences()[0];
    assert_eq!(seq.joint_key_frames(&s, elbow), [0, 10, 20]);
    assert_eq!(seq.joint_key_frames(&s, knee), [0, 20]);
    let e = s.joint_dofs(elbow).next().expect("dof").state_index();
    doc.go_to_frame(5);
    let halfway = doc.pose()[e];
    let rest = doc.sequences()[0].keys[0].pose.q[e];
    assert!(
        (halfway - (rest + 1.2) / 2.0).abs() < 1e-9,
        "{halfway} {rest}"
    );
    // The elbow's key moved alone, then all its keys by 3: one undo step each.
    doc.move_joint_keys(&[(elbow, 10, 12)]).expect("moved");
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, elbow), [0, 12, 20]);
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, knee), [0, 20]);
    doc.offset_joint_keys(elbow, 3).expect("offset");
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, elbow), [3, 15, 23]);
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, knee), [0, 20]);
    assert!(doc.undo().is_some_and(|l| l.contains("by 3 frames")));
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, elbow), [0, 12, 20]);
    assert!(doc.undo().is_some_and(|l| l.contains("12")));
    assert_eq!(doc.sequences()[0].joint_key_frames(&s, elbow), [0, 10, 20]);
    // Nothing selected: refused, nothing changed.
    let before = doc.sequences().to_vec();
    assert!(matches!(
        doc.key_joints(&[]),
        Err(EditError::NoSelection(_))
    ));
    assert_eq!(doc.sequences(), before.as_slice());
}

#[test]
fn the_replay_steps_resolve_to_the_edits() {
    let doc = keyed();
    let elbow = doc.skeleton().joint_by_name("left elbow").expect("elbow");
    let script = Script::parse(
        r#"Replay([KeySelectedJoints, MoveKeys(joint: "left elbow", from: 10, to: 12), MoveKeys(joint: "left elbo", from: 10, to: 12)])"#,
        "keys.ron",
    )
    .expect("reads");
    let selected = [elbow];
    let context = ReplayContext {
        selected: &selected,
        retarget: None,
        beside: &marionette_editing::beside::Beside::default(),
    };
    let edits: Vec<String> = script
        .steps
        .iter()
        .map(|s| format!("{:?}", s.resolve(&doc, context)))
        .collect();
    assert!(
        edits[0].contains(&format!("{:?}", Edit::KeyJoints(vec![elbow]))),
        "{}",
        edits[0]
    );
    assert!(
        edits[1].contains(&format!("{:?}", Edit::MoveJointKeys(vec![(elbow, 10, 12)]))),
        "{}",
        edits[1]
    );
    assert!(
        edits[2].contains("no joint \\\"left elbo\\\""),
        "{}",
        edits[2]
    );
}

#[test]
fn tween_and_a_key_value_set_are_one_undo_step_each() {
    let mut doc = keyed();
    let s = doc.skeleton().clone();
    let elbow = s.joint_by_name("left elbow").expect("elbow");
    let e = s.joint_dofs(elbow).next().expect("dof").state_index();
    let at = |doc: &Document, f: i64| doc.sequences()[0].key_at(f).expect("key").pose.q[e];
    let (k0, k10) = (at(&doc, 0), at(&doc, 10));
    doc.go_to_frame(4);
    doc.tween(&[elbow], 0.25).expect("tweened");
    let key = doc.sequences()[0].key_at(4).expect("a key at 4");
    assert_eq!(
        key.only.as_ref().map(|o| o.joints.clone()),
        Some(vec![elbow])
    );
    assert!((key.pose.q[e] - (k0 + 0.25 * (k10 - k0))).abs() < 1e-12);
    // Its neighbours' keys are where they were; a key before and after is needed.
    assert_eq!((at(&doc, 0), at(&doc, 10)), (k0, k10));
    doc.go_to_frame(30);
    assert!(doc.tween(&[elbow], 0.5).is_err());
    // A key's value dragged: clamped to the elbow's limits, one undo step.
    doc.set_key_value(10, e, 9.0).expect("set");
    let max = s.dof(s.dof_at_state(e).expect("dof")).max;
    assert_eq!(at(&doc, 10), max);
    assert!(doc.undo().is_some_and(|l| l.contains("Key 10")));
    assert_eq!(at(&doc, 10), k10);
    assert!(doc.undo().is_some_and(|l| l.contains("Tween")));
    assert!(doc.sequences()[0].key_at(4).is_none());
}
