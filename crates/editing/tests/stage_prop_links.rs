//! Props held on the stage: a hand held to a prop stays on it while the body moves, a prop a
//! site is held to cannot be gripped (the refusal names the link), and a hand kept turned to a
//! prop follows the cursor without turning.

mod edits;

mod stage_common;

use edits::Edits;
use marionette_document::LinkTarget;
use marionette_editing::stage::StageEdit;
use marionette_editing::{ChainMode, Edit, Grip, Ray, Solving};
use nalgebra::{Point3, Vector3};
use stage_common::*;

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
            mass: None,
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
            mass: None,
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
