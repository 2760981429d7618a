//! Links held while editing: a drag of a figure tied to another by a link moves both (the
//! joined hands stay joined, each figure's feet stay locked), is one undo step for both, and is
//! drawn where it was left until the timeline shows another frame; a figure tied to nothing is
//! dragged alone, as before.

mod edits;

mod stage_common;

use edits::Edits;
use marionette_document::LinkTarget;
use marionette_editing::stage::StageEdit;
use marionette_editing::{ChainMode, Document, Edit, Grip, Ray, Solving};
use marionette_skeleton::Fk;
use nalgebra::Vector3;
use stage_common::*;

#[test]
fn dragging_a_linked_figure_moves_the_other_s_hand_with_it_and_undo_puts_both_back() {
    let mut doc = two_dancers();
    let (a_before, b_before) = (doc.pose().to_vec(), b_pose(&doc));
    let undo_steps = doc.history().revision();
    // A's right hand up and to A's left by 15 cm: B's left hand must follow it.
    drag_site(
        &mut doc,
        "right fingertips",
        Vector3::new(0.15, 0.1, 0.0),
        15,
    );
    let b_after = b_pose(&doc);
    assert_ne!(b_after, b_before, "B moved with A");
    let apart = hands_apart(&doc);
    assert!(apart < 1e-3, "the joined hands are {apart} m apart");
    for figure in [0, 1] {
        let worst = worst_lock(&doc, figure);
        assert!(worst < 1e-3, "figure {figure}'s feet slid {worst} m");
    }
    assert!(
        doc.figures()[1].linked_pose().is_some(),
        "B is drawn where the drag left it"
    );
    assert_eq!(doc.history().next_undo(), Some("Drag right wrist"));
    assert_eq!(doc.history().revision(), undo_steps + 1, "one undo step");
    // Undo puts both figures back exactly; redo moves both again.
    let a_after = doc.pose().to_vec();
    doc.undo().expect("the drag is undone");
    assert_eq!(doc.pose(), a_before.as_slice());
    assert_eq!(b_pose(&doc), b_before);
    doc.redo().expect("and done again");
    assert_eq!(doc.pose(), a_after.as_slice());
    assert_eq!(b_pose(&doc), b_after);
}

#[test]
fn the_undo_step_holds_whichever_figure_is_edited_afterwards() {
    let mut doc = two_dancers();
    let b_before = b_pose(&doc);
    drag_site(
        &mut doc,
        "right fingertips",
        Vector3::new(0.1, 0.0, 0.05),
        10,
    );
    let b_dragged = b_pose(&doc);
    assert_ne!(b_dragged, b_before, "B moved with A");
    // B edited: its pose is the one A's drag left; undo is A's, so select A again to undo.
    select(&mut doc, "B");
    assert_eq!(doc.pose(), b_dragged.as_slice());
    select(&mut doc, "A");
    doc.undo().expect("A's drag is undone");
    assert_eq!(b_pose(&doc), b_before);
}

#[test]
fn cancelling_a_linked_drag_puts_every_figure_back_and_records_nothing() {
    let mut doc = two_dancers();
    let b_before = b_pose(&doc);
    let a_before = doc.pose().to_vec();
    let revision = doc.history().revision();
    let mut solving = Solving::default();
    let id = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let start = doc.fk().site_position(id);
    doc.begin_grip(Grip::Site(id), ChainMode::NearestBranch)
        .expect("a drag begins");
    let ray = Ray::new(start + Vector3::new(0.1, 0.1, 3.0), -Vector3::z()).expect("ray");
    for _ in 0..10 {
        doc.drag_step(&ray, &mut solving.runner).expect("a step");
    }
    assert_ne!(b_pose(&doc), b_before);
    doc.cancel_drag();
    assert_eq!(doc.pose(), a_before.as_slice());
    assert_eq!(b_pose(&doc), b_before);
    assert_eq!(doc.history().revision(), revision, "nothing recorded");
}

#[test]
fn a_figure_tied_to_nothing_is_dragged_alone() {
    let mut doc = two_dancers();
    doc.apply(
        Edit::Stage(StageEdit::RemoveLink("hands".into())),
        &mut Solving::default(),
    )
    .expect("the link goes");
    let b_before = b_pose(&doc);
    drag_site(
        &mut doc,
        "right fingertips",
        Vector3::new(0.15, 0.1, 0.0),
        10,
    );
    assert_eq!(b_pose(&doc), b_before);
    assert!(doc.figures()[1].linked_pose().is_none());
    assert_eq!(doc.history().next_undo(), Some("Drag right wrist"));
}

#[test]
fn with_a_sequence_shown_the_figures_start_where_the_stage_s_bake_has_them() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    show_b_sway(&mut doc);
    doc.apply(Edit::GoToFrame(24), &mut solving)
        .expect("frame 24");
    // B shows the stage's bake of the frame: the hands are joined there.
    let stage = doc.to_stage();
    let baker = marionette_motion::stage::StageBaker::new(&stage, "sway", Default::default())
        .expect("bake");
    let frame = baker.frame(24, &mut baker.scratch());
    assert_eq!(doc.pose(), frame.figures[1].q.as_slice());
    assert!(matches!(stage.links[0].b, LinkTarget::Site(_)));
    // B's pelvis dragged down 5 cm: A's hand follows, the feet of both stay.
    let before = doc.history().revision();
    let pelvis = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    let start = doc.fk().joint_position(pelvis);
    doc.begin_grip(Grip::Joint(pelvis), ChainMode::NearestBranch)
        .expect("a drag begins");
    // A starts where the bake has it on this frame.
    assert_eq!(
        doc.figures()[0]
            .linked_pose()
            .expect("A is drawn as the drag leaves it"),
        frame.figures[0].q.as_slice()
    );
    for i in 1..=30 {
        let to = start + Vector3::new(0.0, -0.05, 0.0) * (i.min(10) as f64 / 10.0);
        let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
        doc.drag_step(&ray, &mut solving.runner).expect("a step");
    }
    doc.end_drag();
    assert_eq!(doc.history().revision(), before + 1);
    let apart = hands_apart(&doc);
    assert!(apart < 1e-3, "the joined hands are {apart} m apart");
    for figure in [0, 1] {
        let worst = worst_lock(&doc, figure);
        assert!(worst < 1e-3, "figure {figure}'s feet slid {worst} m");
    }
    let dropped = start.y - doc.fk().joint_position(pelvis).y;
    assert!(
        (dropped - 0.05).abs() < 2e-3,
        "the pelvis went down {dropped} m"
    );
    // Another frame shows the stage's bake again.
    let revision = doc.linked_poses_revision();
    doc.apply(Edit::GoToFrame(25), &mut solving)
        .expect("frame 25");
    assert!(doc.figures()[0].linked_pose().is_none());
    assert_ne!(doc.linked_poses_revision(), revision);
}

#[test]
fn locking_two_figures_hands_brings_both_hands_together_in_one_undo_step() {
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None).standing();
    let mut solving = Solving::default();
    doc.apply(
        Edit::Stage(StageEdit::AddFigure {
            name: "B".into(),
            file: None,
            placement: marionette_document::Placement {
                at: [0.2, 0.9],
                facing: 180.0,
            },
        }),
        &mut solving,
    )
    .expect("B");
    let hands = (("humanoid", "right fingertips"), ("B", "left fingertips"));
    let before = apart(&doc, hands.0, hands.1);
    assert!(before > 0.3, "the hands start {before} m apart");
    let (a_pose, b_before) = (doc.pose().to_vec(), b_pose(&doc));
    let revision = doc.history().revision();
    doc.apply(
        Edit::Stage(StageEdit::LockBetween {
            a: ("humanoid".into(), "right fingertips".into()),
            b: ("B".into(), "left fingertips".into()),
            turned: false,
        }),
        &mut solving,
    )
    .expect("the lock");
    let after = apart(&doc, hands.0, hands.1);
    assert!(after < 1e-3, "the hands are {after} m apart");
    assert_eq!(doc.history().revision(), revision + 1, "one undo step");
    for figure in doc.figures() {
        let other = figure.document().unwrap_or(&doc);
        let pose = marionette_skeleton::Pose {
            q: other.pose().to_vec(),
        };
        assert!(pose.within_limits(other.skeleton()), "{}", figure.name);
    }
    // Both arms moved to meet: neither figure did it alone.
    assert_ne!(doc.pose(), a_pose.as_slice());
    assert_ne!(b_pose(&doc), b_before);
    doc.undo().expect("undone");
    assert!(doc.links().is_empty());
    assert_eq!(doc.pose(), a_pose.as_slice());
    assert_eq!(b_pose(&doc), b_before);
    doc.redo().expect("redone");
    assert_eq!(doc.links().len(), 1);
    assert!(apart(&doc, hands.0, hands.1) < 1e-3);
}

#[test]
fn hands_clasped_meet_and_keep_their_turn_while_a_figure_is_dragged() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    doc.apply(
        Edit::Stage(StageEdit::RemoveLink("hands".into())),
        &mut solving,
    )
    .expect("the plain link goes");
    // As a script spells it: the hands meet, turned to each other as they are now.
    let step =
        r#"LockBetween(a: ("A", "right fingertips"), b: ("B", "left fingertips"), turned: true)"#;
    let turn_between = |doc: &Document| {
        let frame = |figure: usize, site: &str| {
            let slot = &doc.figures()[figure];
            let d = slot.document().unwrap_or(doc);
            let mut fk = Fk::new(d.skeleton());
            fk.update(d.skeleton(), d.pose());
            let joint = d
                .skeleton()
                .site(d.skeleton().site_by_name(site).expect("site"))
                .joint;
            slot.placement
                .isometry()
                .rotation
                .to_rotation_matrix()
                .into_inner()
                * fk.joint_rotation(joint)
        };
        frame(1, "left fingertips").transpose() * frame(0, "right fingertips")
    };
    let before = turn_between(&doc);
    play(&mut doc, step);
    assert!(matches!(doc.links()[0].b, LinkTarget::SitePose { .. }));
    let angle = |a: &nalgebra::Matrix3<f64>, b: &nalgebra::Matrix3<f64>| {
        nalgebra::Rotation3::from_matrix_unchecked(a.transpose() * b).angle()
    };
    assert!(hands_apart(&doc) < 1e-3, "{}", hands_apart(&doc));
    let now = turn_between(&doc);
    assert!(
        angle(&before, &now) < 0.5f64.to_radians(),
        "{}",
        angle(&before, &now)
    );
    // A's pelvis dragged down 5 cm: still together, still turned so, feet locked.
    let pelvis = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    let start = doc.fk().joint_position(pelvis);
    doc.begin_grip(Grip::Joint(pelvis), ChainMode::NearestBranch)
        .expect("a drag begins");
    for i in 1..=30 {
        let to = start + Vector3::new(0.0, -0.05, 0.0) * (i.min(10) as f64 / 10.0);
        let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
        doc.drag_step(&ray, &mut solving.runner).expect("a step");
    }
    doc.end_drag();
    assert!(hands_apart(&doc) < 1e-3, "{}", hands_apart(&doc));
    let after = turn_between(&doc);
    assert!(
        angle(&before, &after) < 0.5f64.to_radians(),
        "{}",
        angle(&before, &after)
    );
    for figure in [0, 1] {
        assert!(worst_lock(&doc, figure) < 1e-3);
    }
    let dropped = start.y - doc.fk().joint_position(pelvis).y;
    assert!(
        (dropped - 0.05).abs() < 2e-3,
        "the pelvis went down {dropped} m"
    );
}
