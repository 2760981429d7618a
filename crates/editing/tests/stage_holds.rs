//! A prop's keys, grips and releases in the editor. A grip or release removed: the one at a
//! frame goes, a release no grip comes before any more goes with it, one undo step; a frame
//! without one is refused by name. A key made where the prop is; a keyed prop moved on a frame
//! keyed there, as the stage's bake plays it.

mod edits;
use edits::Edits;

mod stage_common;

use marionette_document::Hold;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit, Solving};
use stage_common::{play, show_b_sway, two_dancers};

#[test]
fn removing_a_grip_takes_the_release_it_leaves_alone_and_undo_brings_both_back() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    show_b_sway(&mut doc);
    let frames =
        |doc: &Document| -> Vec<i64> { doc.cues()[0].holds.iter().map(Hold::frame).collect() };
    assert_eq!(frames(&doc), [10, 30, 40]);
    // The hand-over at 30 goes (as a script spells it): A holds it until the release at 40.
    play(&mut doc, r#"RemoveHold(prop: "stick", frame: 30)"#);
    assert_eq!(frames(&doc), [10, 40]);
    // The grip at 10 goes: the release at 40 has nothing to let go, and goes too.
    doc.apply(
        Edit::Stage(StageEdit::RemoveHold {
            prop: "stick".into(),
            frame: 10,
        }),
        &mut solving,
    )
    .expect("removed");
    assert!(frames(&doc).is_empty());
    doc.undo().expect("undone");
    assert_eq!(frames(&doc), [10, 40]);
    let err = doc
        .apply(
            Edit::Stage(StageEdit::RemoveHold {
                prop: "stick".into(),
                frame: 12,
            }),
            &mut solving,
        )
        .expect_err("nothing at 12");
    assert!(
        err.to_string().contains("no grip or release at frame 12"),
        "{err}"
    );
}

#[test]
fn a_prop_is_keyed_where_it_is_and_moved_on_a_keyed_frame_keys_it_there() {
    use marionette_document::PropPlace;
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    let mut apply = |doc: &mut Document, edit: Edit| {
        doc.apply(edit, &mut solving).expect("applies");
    };
    apply(&mut doc, Edit::Stage(StageEdit::SelectFigure("B".into())));
    apply(&mut doc, Edit::SelectSequence(Some(0)));
    apply(&mut doc, Edit::GoToFrame(0));
    let rest = doc.props()[0].place;
    // As a script spells it.
    play(&mut doc, r#"KeyProp("stick")"#);
    assert_eq!(doc.prop_keys(0).len(), 1);
    assert_eq!(doc.prop_keys(0)[0].place, rest, "keyed where it is");
    // On frame 8 (before the grip at 10) it is moved: that keys it there, its rest unchanged.
    apply(&mut doc, Edit::GoToFrame(8));
    let moved = PropPlace {
        at: [0.6, 1.1, 0.3],
        rotation: [0.0, 0.0, 90.0],
    };
    apply(
        &mut doc,
        Edit::Stage(StageEdit::PlaceProp {
            name: "stick".into(),
            place: moved,
            undo: marionette_editing::UndoStep::New,
        }),
    );
    let frames: Vec<i64> = doc.prop_keys(0).iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0, 8]);
    assert_eq!(doc.props()[0].place, rest, "where it rests is unchanged");
    assert_eq!(doc.prop_place_now(0), moved);
    // Half way, half way there; the stage's bake has it so.
    apply(&mut doc, Edit::GoToFrame(4));
    let half = doc.prop_place_now(0);
    assert!(
        (half.at[0] - 0.5).abs() < 1e-12 && (half.at[1] - 1.0).abs() < 1e-12,
        "{half:?}"
    );
    let stage = doc.to_stage();
    let baker = marionette_motion::stage::StageBaker::new(&stage, "sway", Default::default())
        .expect("bakes");
    let baked = baker.bake(&|| {});
    let at4 = baked.props[0][4].translation.vector;
    assert!(
        (at4 - nalgebra::Vector3::new(0.5, 1.0, 0.3)).norm() < 1e-12,
        "{at4}"
    );
    // The key at 8 removed, one undo step; undone, back.
    apply(
        &mut doc,
        Edit::Stage(StageEdit::RemovePropKey {
            prop: "stick".into(),
            frame: 8,
        }),
    );
    assert_eq!(doc.prop_keys(0).len(), 1);
    doc.undo().expect("undone");
    assert_eq!(doc.prop_keys(0).len(), 2);
    let err = doc
        .apply(
            Edit::Stage(StageEdit::RemovePropKey {
                prop: "stick".into(),
                frame: 3,
            }),
            &mut Solving::default(),
        )
        .expect_err("no key at 3");
    assert!(err.to_string().contains("no key at frame 3"), "{err}");
}
