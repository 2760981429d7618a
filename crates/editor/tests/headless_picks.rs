//! The editor's logic without a window: a press goes to the nearest hit (handles slightly
//! preferred), and a click on empty space clears the selection.

use bevy::input::ButtonState;
use bevy::prelude::*;
use marionette_editor::convert::vec3;
use marionette_editor::messages::PickTarget;
use marionette_editor::resources::{CursorRay, OpenDocument};

mod common;
use common::*;

fn app() -> App {
    common::app("")
}

#[test]
fn a_click_on_empty_space_clears_the_selection() {
    let mut app = app();
    let wrist = joint(&app, "right wrist");
    app.world_mut().resource_scope(
        |world, mut selection: Mut<marionette_editor::selection::Selection>| {
            selection.select(&world.resource::<OpenDocument>().0, Some(wrist));
        },
    );
    // A press with the cursor in a view but on nothing (no picking hit).
    app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(Vec3::new(2.0, 2.0, 0.0)));
    mouse(&mut app, ButtonState::Pressed);
    app.update();
    release(&mut app);
    assert_eq!(selected(&app), None);
    assert_eq!(
        document(&app).history().next_undo(),
        None,
        "nothing was edited"
    );
}

#[test]
fn a_press_goes_to_the_nearest_hit_with_handles_slightly_preferred() {
    // The right fingertips' handle just behind the hand's surface wins over the hand…
    let mut app = app();
    let site = document(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let hand = joint(&app, "right wrist");
    let torso = joint(&app, "upper spine");
    let at = site_position(&app, "right fingertips");
    press_hits(
        &mut app,
        at,
        &[
            (PickTarget::Body(hand), 2.95),
            (PickTarget::Site(site), 3.0),
        ],
    );
    let drag = document(&app).drag().cloned().expect("a drag");
    let s = document(&app).skeleton();
    assert_eq!(
        drag.local_point,
        s.site(site).offset,
        "the site is the dragged point"
    );
    release(&mut app);

    // …but a handle far behind a nearer body (seen through the torso) does not.
    let mut app = self::app();
    let left = document(&app)
        .skeleton()
        .site_by_name("left fingertips")
        .expect("site");
    let chest = vec3(&document(&app).fk().joint_position(torso));
    press_hits(
        &mut app,
        chest,
        &[
            (PickTarget::Body(torso), 2.9),
            (PickTarget::Site(left), 3.3),
        ],
    );
    assert_eq!(document(&app).drag().expect("a drag").joint, torso);
}
