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
use nalgebra::{Point3, Vector3};
use stage_common::{b_pose, play, select, show_b_sway, two_dancers};

/// Where `site` of figure `figure` is on the stage, at the pose `pose` (the edited figure's own
/// for it, else the one it is drawn at).
fn site_on_stage(doc: &Document, figure: &str, site: &str) -> Vector3<f64> {
    let k = doc
        .figure_names()
        .iter()
        .position(|n| *n == figure)
        .expect("the figure");
    let slot = &doc.figures()[k];
    let (skeleton, pose) = match slot.document() {
        Some(other) => (other.skeleton(), other.pose()),
        None => (doc.skeleton(), doc.pose()),
    };
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, pose);
    let at = fk.site_position(skeleton.site_by_name(site).expect("the site"));
    (slot.placement.isometry() * Point3::from(at)).coords
}

/// The largest error of figure `figure`'s locks at its pose.
fn worst_lock(doc: &Document, figure: usize) -> f64 {
    let other = doc.figures()[figure].document().unwrap_or(doc);
    let mut fk = Fk::new(other.skeleton());
    fk.update(other.skeleton(), other.pose());
    other
        .locks()
        .iter()
        .map(|l| l.goal().kind.error(other.skeleton(), &fk))
        .fold(0.0, f64::max)
}

fn hands_apart(doc: &Document) -> f64 {
    apart(doc, ("A", "right fingertips"), ("B", "left fingertips"))
}

fn apart(doc: &Document, a: (&str, &str), b: (&str, &str)) -> f64 {
    (site_on_stage(doc, a.0, a.1) - site_on_stage(doc, b.0, b.1)).norm()
}

/// Drags the edited figure's `site` by `by` (in its own frame) in `steps` editor frames, seen
/// from the front (rays along -z of the edited figure).
fn drag_site(doc: &mut Document, site: &str, by: Vector3<f64>, steps: usize) {
    let mut solving = Solving::default();
    let id = doc.skeleton().site_by_name(site).expect("the site");
    let start = doc.fk().site_position(id);
    doc.begin_grip(Grip::Site(id), ChainMode::NearestBranch)
        .expect("a drag begins");
    for i in 1..=steps {
        let to = start + by * (i as f64 / steps as f64);
        let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
        doc.drag_step(&ray, &mut solving.runner)
            .expect("a drag step");
    }
    // A few frames more with the cursor still, as a user's hand rests.
    let to = start + by;
    let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
    for _ in 0..20 {
        doc.drag_step(&ray, &mut solving.runner)
            .expect("a drag step");
    }
    doc.end_drag();
}

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
fn a_hand_held_to_a_prop_stays_on_it_while_the_body_moves() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    doc.apply(
        Edit::Stage(StageEdit::RemoveLink("hands".into())),
        &mut solving,
    )
    .expect("the hands' link goes");
    // A rail beside A (the stick is carried in B's sequence: it cannot hold a site).
    doc.apply(
        Edit::Stage(StageEdit::AddProp(marionette_document::Prop {
            name: "rail".into(),
            shape: marionette_document::PropShape::Box {
                size: [1.0, 0.05, 0.05],
            },
            place: marionette_document::PropPlace {
                at: [-0.5, 0.9, 0.2],
                rotation: [0.0, 0.0, 0.0],
            },
        })),
        &mut solving,
    )
    .expect("the rail");
    // As a script spells it.
    play(
        &mut doc,
        r#"LockToProp(figure: "A", site: "right fingertips", prop: "rail", hold: Point)"#,
    );
    let link = &doc.links()[0];
    let LinkTarget::Prop { point, .. } = link.b else {
        panic!("{link:?}");
    };
    // Made where the hand is: nothing jumps.
    let hand = site_on_stage(&doc, "A", "right fingertips");
    let on_prop = doc.props()[1].place.isometry() * Point3::from(Vector3::from(point));
    assert!((on_prop.coords - hand).norm() < 1e-9);
    // A's left hand held to the rail as it is now, position and orientation.
    doc.apply(
        Edit::Stage(StageEdit::LockToProp {
            figure: "A".into(),
            site: "left fingertips".into(),
            prop: "rail".into(),
            hold: marionette_editing::stage::PropHold::Pose,
        }),
        &mut solving,
    )
    .expect("a pose");
    let left = doc
        .skeleton()
        .site_by_name("left fingertips")
        .expect("site");
    let left_joint = doc.skeleton().site(left).joint;
    let left_at = doc.fk().site_position(left);
    let left_turn = *doc.fk().joint_rotation(left_joint);
    // The pelvis dragged down 6 cm: the hand stays on the prop's point, the heels locked.
    let pelvis = doc.skeleton().joint_by_name("pelvis").expect("pelvis");
    let start = doc.fk().joint_position(pelvis);
    doc.begin_grip(Grip::Joint(pelvis), ChainMode::NearestBranch)
        .expect("a drag begins");
    for i in 1..=30 {
        let to = start + Vector3::new(0.0, -0.06, 0.0) * (i.min(10) as f64 / 10.0);
        let ray = Ray::new(to + Vector3::new(0.0, 0.0, 3.0), -Vector3::z()).expect("ray");
        doc.drag_step(&ray, &mut solving.runner).expect("a step");
    }
    doc.end_drag();
    let dropped = start.y - doc.fk().joint_position(pelvis).y;
    assert!(
        (dropped - 0.06).abs() < 2e-3,
        "the pelvis went down {dropped} m"
    );
    let held = (site_on_stage(&doc, "A", "right fingertips") - hand).norm();
    assert!(held < 1e-3, "the hand left the prop by {held} m");
    let moved = (doc.fk().site_position(left) - left_at).norm();
    let turned = nalgebra::Rotation3::from_matrix_unchecked(
        doc.fk().joint_rotation(left_joint).transpose() * left_turn,
    )
    .angle();
    assert!(
        moved < 1e-3 && turned < 0.5f64.to_radians(),
        "the left hand moved {moved} m and turned {turned} rad"
    );
    assert!(worst_lock(&doc, 0) < 1e-3);
    // A plane across the rail's axis nearest the vertical (its y), a line along its longest.
    doc.apply(
        Edit::Stage(StageEdit::LockToProp {
            figure: "B".into(),
            site: "left heel".into(),
            prop: "rail".into(),
            hold: marionette_editing::stage::PropHold::Plane,
        }),
        &mut solving,
    )
    .expect("a plane");
    assert!(matches!(
        doc.links()[2].b,
        LinkTarget::Prop { contact: marionette_document::PropContact::Plane(n), .. } if n == [0.0, 1.0, 0.0]
    ));
    doc.apply(
        Edit::Stage(StageEdit::LockToProp {
            figure: "B".into(),
            site: "right heel".into(),
            prop: "rail".into(),
            hold: marionette_editing::stage::PropHold::Line,
        }),
        &mut solving,
    )
    .expect("a line");
    assert!(matches!(
        doc.links()[3].b,
        LinkTarget::Prop { contact: marionette_document::PropContact::Line(d), .. } if d == [1.0, 0.0, 0.0]
    ));
    // What is not there is named.
    let err = doc
        .apply(
            Edit::Stage(StageEdit::LockToProp {
                figure: "A".into(),
                site: "left fingertips".into(),
                prop: "table".into(),
                hold: marionette_editing::stage::PropHold::Line,
            }),
            &mut solving,
        )
        .expect_err("no table");
    assert!(err.to_string().contains("table"), "{err}");
}

#[test]
fn a_prop_a_site_is_held_to_cannot_be_gripped_and_the_refusal_names_the_link() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    // The stick is gripped in B's "sway": it cannot hold a site.
    let err = doc
        .apply(
            Edit::Stage(StageEdit::LockToProp {
                figure: "A".into(),
                site: "right fingertips".into(),
                prop: "stick".into(),
                hold: marionette_editing::stage::PropHold::Point,
            }),
            &mut solving,
        )
        .expect_err("refused");
    assert!(
        err.to_string().contains("gripped in sequence \"sway\""),
        "{err}"
    );
    // Without its grips, it can; then it cannot be gripped.
    show_b_sway(&mut doc);
    for frame in [40, 30, 10] {
        doc.apply(
            Edit::Stage(StageEdit::RemoveHold {
                prop: "stick".into(),
                frame,
            }),
            &mut solving,
        )
        .expect("the hold goes");
    }
    doc.apply(
        Edit::Stage(StageEdit::LockToProp {
            figure: "A".into(),
            site: "right fingertips".into(),
            prop: "stick".into(),
            hold: marionette_editing::stage::PropHold::Point,
        }),
        &mut solving,
    )
    .expect("held");
    show_b_sway(&mut doc);
    let cues = doc.cues().to_vec();
    let err = doc
        .apply(
            Edit::Stage(StageEdit::Grip {
                prop: "stick".into(),
                figure: "B".into(),
                site: "left fingertips".into(),
                frame: 45,
            }),
            &mut solving,
        )
        .expect_err("refused");
    assert!(
        err.to_string().contains("A right fingertips - stick"),
        "{err}"
    );
    assert_eq!(doc.cues(), cues.as_slice(), "nothing changed");
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

#[test]
fn a_hand_kept_turned_to_a_prop_follows_the_cursor_without_turning() {
    let mut doc = two_dancers();
    let mut solving = Solving::default();
    for edit in [
        Edit::Stage(StageEdit::RemoveLink("hands".into())),
        Edit::Stage(StageEdit::SelectFigure("B".into())),
        Edit::Stage(StageEdit::AddProp(marionette_document::Prop {
            name: "tray".into(),
            shape: marionette_document::PropShape::Box {
                size: [0.4, 0.02, 0.3],
            },
            place: marionette_document::PropPlace {
                at: [0.3, 1.0, 0.8],
                rotation: [0.0, 20.0, 0.0],
            },
        })),
        Edit::Stage(StageEdit::LockToProp {
            figure: "B".into(),
            site: "right fingertips".into(),
            prop: "tray".into(),
            hold: marionette_editing::stage::PropHold::Turn,
        }),
    ] {
        doc.apply(edit, &mut solving).expect("applies");
    }
    assert!(matches!(
        doc.links()[0].b,
        LinkTarget::Prop {
            contact: marionette_document::PropContact::Turn(_),
            ..
        }
    ));
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let joint = doc.skeleton().site(hand).joint;
    let turn = *doc.fk().joint_rotation(joint);
    let target = doc.fk().site_position(hand) + Vector3::new(-0.1, 0.15, 0.0);
    drag_site(
        &mut doc,
        "right fingertips",
        Vector3::new(-0.1, 0.15, 0.0),
        15,
    );
    let reached = doc.fk().site_position(hand) - target;
    assert!(
        reached.x.hypot(reached.y) < 1e-3,
        "{reached:?} from the cursor"
    );
    let turned = nalgebra::Rotation3::from_matrix_unchecked(
        doc.fk().joint_rotation(joint).transpose() * turn,
    )
    .angle();
    assert!(turned < 0.5f64.to_radians(), "the hand turned {turned} rad");
}
