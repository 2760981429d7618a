//! The curve editor's edits through the editor's document (issue 34): a key on one DOF, free
//! handles set and given back, several points dragged in time and value together, each one
//! undo step that undo takes back whole; bad requests are refused and change nothing; the
//! replay steps `KeyDof`, `SetHandles`, `AutoHandles` and `DragCurvePoints` name curves as the
//! curve editor does and resolve to those edits (values in degrees or millimetres).

mod edits;

use edits::Edits;
use marionette_editing::replay::{ReplayContext, Script};
use marionette_editing::{Document, Edit, UndoStep};
use marionette_skeleton::builtin;

/// The humanoid standing, keyed whole at 0, 10 and 20, the left elbow bent at 10.
fn keyed() -> Document {
    let mut doc = Document::new(builtin::humanoid(), None).standing();
    doc.set_key().expect("key 0");
    doc.go_to_frame(20);
    doc.set_key().expect("key 20");
    doc.go_to_frame(10);
    let elbow = doc.skeleton().joint_by_name("left elbow").expect("elbow");
    let dof = doc.skeleton().joint_dofs(elbow).next().expect("dof");
    doc.set_dof(dof, 1.2, UndoStep::New).expect("bent");
    doc.set_key().expect("key 10");
    doc
}

fn state(doc: &Document, joint: &str, i: usize) -> usize {
    let s = doc.skeleton();
    let j = s.joint_by_name(joint).expect(joint);
    s.joint_dofs(j).nth(i).expect("DOF").state_index()
}

#[test]
fn a_dof_key_and_handles_are_one_undo_step_each() {
    let mut doc = keyed();
    let shoulder = state(&doc, "left shoulder", 1);
    let before = doc.sequences().to_vec();
    doc.key_dofs(&[(15, shoulder, 0.4)]).expect("keyed");
    let key = doc.sequences()[0].key_at(15).expect("key at 15");
    let s = doc.skeleton();
    let d = s.dof_at_state(shoulder).expect("DOF");
    let joint = s.dof(d).joint;
    assert!(key.holds_dof(joint, d) && !key.holds_joint(joint));
    assert!((key.pose.q[shoulder] - s.dof(d).clamp(0.4)).abs() < 1e-15);
    let elbow = state(&doc, "left elbow", 0);
    doc.set_handles(&[(10, elbow, Some(([-3.0, 0.1], [3.0, -0.1])))])
        .expect("handles");
    assert_eq!(doc.sequences()[0].key_at(10).expect("key").handles.len(), 1);
    // Refused, nothing changed: a key that does not hold the DOF, a backwards handle, the root
    // on a key that does not hold it.
    let now = doc.sequences().to_vec();
    let other = state(&doc, "left shoulder", 0);
    assert!(
        doc.set_handles(&[(15, other, Some(([-1.0, 0.0], [1.0, 0.0])))])
            .is_err()
    );
    assert!(
        doc.set_handles(&[(10, elbow, Some(([1.0, 0.0], [1.0, 0.0])))])
            .is_err()
    );
    assert!(
        doc.set_handles(&[(15, 1, Some(([-1.0, 0.0], [1.0, 0.0])))])
            .is_err()
    );
    assert_eq!(doc.sequences(), now.as_slice());
    doc.set_handles(&[(10, elbow, None)]).expect("auto again");
    assert!(
        doc.sequences()[0]
            .key_at(10)
            .expect("key")
            .handles
            .is_empty()
    );
    // The root's height at the whole key at 10 (metres).
    doc.set_handles(&[(10, 1, Some(([-2.0, 0.01], [2.0, -0.01])))])
        .expect("root handles");
    assert!(
        doc.sequences()[0]
            .key_at(10)
            .expect("key")
            .handles_of(1)
            .is_some()
    );
    for _ in 0..4 {
        doc.undo().expect("an undo step");
    }
    assert_eq!(doc.sequences(), before.as_slice());
}

#[test]
fn points_dragged_together_move_in_time_and_value_as_one_step() {
    let mut doc = keyed();
    let elbow = state(&doc, "left elbow", 0);
    let knee = state(&doc, "left knee", 0);
    let before = doc.sequences().to_vec();
    let value =
        |doc: &Document, f: i64, s: usize| doc.sequences()[0].key_at(f).expect("key").pose.q[s];
    let (e10, k10) = (value(&doc, 10, elbow), value(&doc, 10, knee));
    // Two curves' points at key 10, dragged 2 frames later and 5 degrees up.
    doc.drag_curve_points(&[(elbow, 10), (knee, 10)], 2, 5.0)
        .expect("dragged");
    let seq = &doc.sequences()[0];
    let s = doc.skeleton();
    let (ej, kj) = (
        s.joint_by_name("left elbow").expect("elbow"),
        s.joint_by_name("left knee").expect("knee"),
    );
    assert_eq!(seq.joint_key_frames(s, ej), [0, 12, 20]);
    assert_eq!(seq.joint_key_frames(s, kj), [0, 12, 20]);
    assert!((value(&doc, 12, elbow) - (e10 + 5f64.to_radians())).abs() < 1e-12);
    let clamp = |v: f64| s.dof(s.dof_at_state(knee).expect("DOF")).clamp(v);
    assert!((value(&doc, 12, knee) - clamp(k10 + 5f64.to_radians())).abs() < 1e-12);
    // The other joints stay at 10.
    let shoulder = s.joint_by_name("left shoulder").expect("shoulder");
    assert_eq!(seq.joint_key_frames(s, shoulder), [0, 10, 20]);
    doc.undo().expect("one step");
    assert_eq!(doc.sequences(), before.as_slice());
    // A point with no key is refused, nothing changed.
    assert!(
        doc.drag_curve_points(&[(elbow, 10), (elbow, 11)], 1, 0.0)
            .is_err()
    );
    assert_eq!(doc.sequences(), before.as_slice());
}

#[test]
fn the_replay_steps_name_curves_and_resolve_to_the_edits() {
    let doc = keyed();
    let (elbow, shoulder) = (
        state(&doc, "left elbow", 0),
        state(&doc, "left shoulder", 1),
    );
    let script = Script::parse(
        r#"Replay([
            KeyDof(curve: "left shoulder 2", frame: 15, value: 30.0),
            SetHandles(curve: "left elbow 1", frame: 10, before: (-3.0, -9.0), after: (2.0, 18.0)),
            AutoHandles(curve: "left elbow 1", frame: 10),
            DragCurvePoints(points: [("left elbow 1", 10), ("root y", 0)], by: (2, 5.0)),
            KeyDof(curve: "left shoulder 4", frame: 15, value: 30.0),
            KeyDof(curve: "left shoulder", frame: 15, value: 30.0),
        ])"#,
        "curves.ron",
    )
    .expect("reads");
    let context = ReplayContext {
        selected: &[],
        retarget: None,
        beside: &marionette_editing::beside::Beside::default(),
    };
    let r: Vec<String> = script
        .steps
        .iter()
        .map(|s| format!("{:?}", s.resolve(&doc, context)))
        .collect();
    let deg = 30f64.to_radians();
    let expected = [
        format!("{:?}", Edit::KeyDofs(vec![(15, shoulder, deg)])),
        format!(
            "{:?}",
            Edit::SetHandles(vec![(
                10,
                elbow,
                Some(([-3.0, (-9f64).to_radians()], [2.0, 18f64.to_radians()]))
            )])
        ),
        format!("{:?}", Edit::SetHandles(vec![(10, elbow, None)])),
        format!(
            "{:?}",
            Edit::DragCurvePoints {
                points: vec![(elbow, 10), (1, 0)],
                frames: 2,
                by: 5.0
            }
        ),
    ];
    for (got, want) in r.iter().zip(&expected) {
        assert!(got.contains(want), "{got}\nshould hold\n{want}");
    }
    assert!(
        r[4].contains("\\\"left shoulder\\\" has no DOF 4"),
        "{}",
        r[4]
    );
    assert!(r[5].contains("names no curve"), "{}", r[5]);
}
