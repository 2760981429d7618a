//! Headless: a stage's floor handles. A press on the ring round figure B's place, moved, slides
//! B on the floor; a press on its knob, moved round, turns it; each drag is one undo step. A
//! prop's handles, under its place, slide it at its height and turn it about the vertical. The
//! rays are made in the edited figure's frame, as the views make them.

use bevy::input::ButtonState;
use bevy::prelude::*;
use marionette_editing::{Document, Edit};
use marionette_editor::drag::floor_grip::{KNOB, RING};
use marionette_editor::resources::{CursorRay, OpenDocument};

mod common;
use common::{document, mouse, release, send};

/// A ray straight down onto the stage's floor point (x, z), in the edited figure's frame.
fn down_onto(app: &App, x: f64, z: f64) -> Ray3d {
    let doc = document(app);
    let above = doc.stage_to_figure() * nalgebra::Point3::new(x, 3.0, z);
    let down = doc.stage_to_figure().rotation * -nalgebra::Vector3::y();
    Ray3d::new(
        Vec3::new(above.x as f32, above.y as f32, above.z as f32),
        Dir3::new(Vec3::new(down.x as f32, down.y as f32, down.z as f32)).expect("down"),
    )
}

/// Presses at stage floor point `from`, moves to `to` over a few frames, releases.
fn drag_on_floor(app: &mut App, from: (f64, f64), to: (f64, f64)) {
    let ray = down_onto(app, from.0, from.1);
    app.world_mut().resource_mut::<CursorRay>().0 = Some(ray);
    mouse(app, ButtonState::Pressed);
    app.update();
    for k in 1..=4 {
        let t = f64::from(k) / 4.0;
        let at = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        let ray = down_onto(app, at.0, at.1);
        app.world_mut().resource_mut::<CursorRay>().0 = Some(ray);
        app.update();
    }
    release(app);
}

fn two_dancers_app() -> App {
    let mut app = common::app("-stage");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../motion/tests/data/two-dancers.marionette.ron");
    app.world_mut().resource_mut::<OpenDocument>().0 =
        Document::open_document(path).expect("the test stage");
    app.update();
    app
}

#[test]
fn the_ring_slides_a_figure_and_the_knob_turns_it_each_one_undo_step() {
    let mut app = two_dancers_app();
    // B stands at (0, 1) facing −z. Its ring passes through (RING, 1).
    drag_on_floor(&mut app, (RING, 1.0), (RING + 0.3, 1.2));
    let b = document(&app).figures()[1].placement;
    assert!(
        (b.at[0] - 0.3).abs() < 1e-6 && (b.at[1] - 1.2).abs() < 1e-6,
        "{b:?}"
    );
    assert!((b.facing - 180.0).abs() < 1e-9);
    // Its knob is KNOB ahead, at (0.3, 1.2 − KNOB); dragged round to its right side.
    drag_on_floor(&mut app, (0.3, 1.2 - KNOB), (0.3 + KNOB, 1.2));
    let b = document(&app).figures()[1].placement;
    assert!((b.facing - 90.0).abs() < 1e-6, "faces +x now: {}", b.facing);
    assert!((b.at[0] - 0.3).abs() < 1e-6, "a turn does not move it");
    send(&mut app, Edit::Undo);
    assert!((document(&app).figures()[1].placement.facing - 180.0).abs() < 1e-9);
    send(&mut app, Edit::Undo);
    assert_eq!(document(&app).figures()[1].placement.at, [0.0, 1.0]);
}

#[test]
fn the_edited_figure_slides_too_and_a_press_away_from_the_handles_grips_nothing() {
    let mut app = two_dancers_app();
    // A is edited, at the origin: its ring through (−RING, 0).
    drag_on_floor(&mut app, (-RING, 0.0), (-RING - 0.5, 0.0));
    let a = document(&app).figures()[0].placement;
    assert!(
        (a.at[0] + 0.5).abs() < 1e-6 && a.at[1].abs() < 1e-6,
        "{a:?}"
    );
    // Far from every handle: nothing moves.
    let before: Vec<_> = document(&app)
        .figures()
        .iter()
        .map(|f| f.placement)
        .collect();
    drag_on_floor(&mut app, (3.0, 3.0), (3.5, 3.0));
    let after: Vec<_> = document(&app)
        .figures()
        .iter()
        .map(|f| f.placement)
        .collect();
    assert_eq!(before, after);
}

#[test]
fn a_prop_slides_on_the_floor_at_its_height_and_turns_about_the_vertical_by_its_handles() {
    use marionette_editor::drag::floor_grip::{PROP_KNOB, PROP_RING};
    let mut app = two_dancers_app();
    // The stick lies at (0.4, 0.9, 0.3), turned 90° about z: its heading on the floor is +z.
    drag_on_floor(&mut app, (0.4 + PROP_RING, 0.3), (0.6 + PROP_RING, 0.5));
    let stick = document(&app).props()[0].place;
    assert!(
        (stick.at[0] - 0.6).abs() < 1e-6 && (stick.at[2] - 0.5).abs() < 1e-6,
        "{stick:?}"
    );
    assert_eq!(stick.at[1], 0.9, "it keeps its height");
    assert_eq!(stick.rotation, [0.0, 0.0, 90.0], "a slide does not turn it");
    // Its knob, PROP_KNOB ahead along +z, dragged a quarter turn round to its +x side.
    drag_on_floor(&mut app, (0.6, 0.5 + PROP_KNOB), (0.6 + PROP_KNOB, 0.5));
    let turned = document(&app).props()[0].place;
    let expected =
        nalgebra::Rotation3::from_axis_angle(&nalgebra::Vector3::y_axis(), 90f64.to_radians())
            * nalgebra::Rotation3::from_axis_angle(
                &nalgebra::Vector3::z_axis(),
                90f64.to_radians(),
            );
    let got = turned.isometry().rotation.to_rotation_matrix();
    // The rays are single precision: the floor points are good to about 1e-7 m.
    assert!(
        (got.matrix() - expected.matrix()).norm() < 1e-6,
        "{:?}",
        turned.rotation
    );
    assert_eq!(turned.at, stick.at, "a turn does not move it");
    // Each drag is one undo step.
    send(&mut app, Edit::Undo);
    assert_eq!(document(&app).props()[0].place, stick);
    send(&mut app, Edit::Undo);
    assert_eq!(document(&app).props()[0].place.at, [0.4, 0.9, 0.3]);
    // The figures did not move.
    assert_eq!(document(&app).figures()[1].placement.at, [0.0, 1.0]);
}
