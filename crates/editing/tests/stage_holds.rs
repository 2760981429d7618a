//! A prop's grips and releases removed in the editor: the one at a frame goes, a release no grip
//! comes before any more goes with it, one undo step; a frame without one is refused by name.

use std::path::Path;

use marionette_document::Hold;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit, Solving};

#[test]
fn removing_a_grip_takes_the_release_it_leaves_alone_and_undo_brings_both_back() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../motion/tests/data/two-dancers.marionette.ron");
    let mut doc = Document::open_document(path).expect("the test stage");
    let mut solving = Solving::default();
    doc.apply(
        Edit::Stage(StageEdit::SelectFigure("B".into())),
        &mut solving,
    )
    .expect("B");
    doc.apply(Edit::SelectSequence(Some(0)), &mut solving)
        .expect("sway");
    let frames =
        |doc: &Document| -> Vec<i64> { doc.cues()[0].holds.iter().map(Hold::frame).collect() };
    assert_eq!(frames(&doc), [10, 30, 40]);
    // The hand-over at 30 goes (as a script spells it): A holds it until the release at 40.
    let script = marionette_editing::Script::parse(
        r#"Replay([RemoveHold(prop: "stick", frame: 30)])"#,
        "s.ron",
    )
    .expect("reads");
    let context = marionette_editing::replay::ReplayContext {
        selected: &[],
        retarget: None,
    };
    match script.steps[0].resolve(&doc, context).expect("resolves") {
        marionette_editing::replay::Action::Edit { edit, .. } => {
            doc.apply(edit, &mut solving).expect("removed");
        }
        other => panic!("{other:?}"),
    }
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
