//! Moving and turning figures and props on the stage by their floor handles: around each
//! figure's place on the floor a ring (press on it and drag: the figure slides on the floor)
//! and, ahead of it the way it faces, a knob (drag it round: the figure turns about the
//! vertical); the same, smaller, under each prop's place (it slides at its height and turns
//! about the vertical). Figures' handles only on a stage of several figures; drawn by the stage
//! plan ([`crate::gizmos::stage_plan`]). Each drag is one undo step (`StageEdit::PlaceFigure`
//! or `StageEdit::PlaceProp`, the first move new, the rest extending it).
//! The floor is the stage's (y = 0); rays are turned onto the stage, so moving the edited
//! figure (whose frame the scene is drawn in) keeps working while the cameras follow it.

use bevy::prelude::*;
use marionette_document::{Placement, PropPlace};
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit, Ray, UndoStep};
use nalgebra::Vector3;

use crate::messages::EditRequest;
use crate::resources::{ActiveDrag, CursorRay, DragGrip, FloorGrip, OnFloor, OpenDocument};

/// The ring's radius around a figure's place (metres): outside its feet.
pub const RING: f64 = 0.35;
/// How far ahead of a figure's place its turning knob is (metres).
pub const KNOB: f64 = 0.55;
/// How near the floor point must be to a ring or a knob to grip it (metres).
pub const REACH: f64 = 0.05;
/// The ring's radius under a prop's place (metres).
pub const PROP_RING: f64 = 0.2;
/// How far from a prop's place its turning knob is (metres).
pub const PROP_KNOB: f64 = 0.3;

/// Where `ray` (in the edited figure's frame) meets the stage's floor, on the stage.
pub fn floor_point(document: &Document, ray: &Ray) -> Option<Vector3<f64>> {
    let to_stage = document.figure_to_stage();
    let origin = to_stage * nalgebra::Point3::from(ray.origin);
    let direction = to_stage.rotation * ray.direction;
    if direction.y.abs() < 1e-9 {
        return None;
    }
    let t = -origin.y / direction.y;
    (t > 0.0).then(|| (origin + direction * t).coords)
}

/// A figure's place on the floor and the way it faces, on the stage.
fn stands(placement: &Placement) -> (Vector3<f64>, Vector3<f64>) {
    let iso = placement.isometry();
    (iso.translation.vector, iso.rotation * Vector3::z())
}

/// A prop's place on the floor (under its origin) and its heading there (its +Z turned onto
/// the floor, its +X where +Z stands upright), on the stage.
pub fn prop_stands(place: &PropPlace) -> (Vector3<f64>, Vector3<f64>) {
    let iso = place.isometry();
    let flat = |v: Vector3<f64>| Vector3::new(v.x, 0.0, v.z).try_normalize(1e-6);
    let heading = flat(iso.rotation * Vector3::z())
        .or_else(|| flat(iso.rotation * Vector3::x()))
        .unwrap_or_else(Vector3::z);
    let at = iso.translation.vector;
    (Vector3::new(at.x, 0.0, at.z), heading)
}

/// The floor handle under the ray: a knob, else a ring, of a figure (on a stage of several)
/// or a prop, nearest first.
pub fn handle_under(document: &Document, ray: &Ray) -> Option<FloorGrip> {
    let at = floor_point(document, ray)?;
    let figures = document
        .figures()
        .iter()
        .enumerate()
        .filter(|_| document.figures().len() > 1)
        .map(|(k, figure)| {
            let (centre, facing) = stands(&figure.placement);
            (OnFloor::Figure(k), centre, facing, RING, KNOB)
        });
    let props = (0..document.props().len()).map(|k| {
        let (centre, heading) = prop_stands(&document.prop_place_now(k));
        (OnFloor::Prop(k), centre, heading, PROP_RING, PROP_KNOB)
    });
    figures
        .chain(props)
        .flat_map(|(what, centre, facing, ring, knob)| {
            let to_knob = (at - (centre + facing * knob)).norm();
            let to_ring = ((at - centre).norm() - ring).abs();
            [(what, true, to_knob), (what, false, to_ring)]
        })
        .filter(|(_, _, distance)| *distance <= REACH)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(what, turn, _)| FloorGrip {
            what,
            turn,
            last: at,
            moved: false,
        })
}

/// A press on a floor handle grips it (before a press can begin a drag of the figure), unless
/// something the views pick (a body, a handle, a prop) is in front of the floor there: a press
/// on a figure standing on its handle is the figure's.
pub fn grip_floor(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    document: Res<OpenDocument>,
    mut active: ResMut<ActiveDrag>,
    (egui_input, hover_map): (
        Option<Res<bevy_egui::input::EguiWantsInput>>,
        Option<Res<bevy::picking::hover::HoverMap>>,
    ),
) {
    let Some(ray) =
        super::press::fresh_press(&mouse, &cursor, &document, &active, egui_input.as_deref())
    else {
        return;
    };
    let Some(grip) = handle_under(&document, &ray) else {
        return;
    };
    let floor =
        (grip.last - document.figure_to_stage() * nalgebra::Point3::from(ray.origin).coords).norm();
    let in_front = hover_map.as_ref().is_some_and(|map| {
        map.get(&bevy::picking::pointer::PointerId::Mouse)
            .is_some_and(|hits| hits.values().any(|h| f64::from(h.depth) < floor - 1e-3))
    });
    if !in_front {
        active.start(DragGrip::Floor(grip), None);
    }
}

/// Moves (the ring) or turns (the knob) the gripped figure with the cursor on the floor;
/// releasing the button ends the drag.
pub fn move_floor(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    document: Res<OpenDocument>,
    mut active: ResMut<ActiveDrag>,
    mut edits: MessageWriter<EditRequest>,
) {
    let Some(mut grip) = active.floor() else {
        return;
    };
    if !mouse.pressed(MouseButton::Left) {
        active.clear();
        return;
    }
    let Some(at) = cursor
        .0
        .as_ref()
        .and_then(crate::convert::ray)
        .and_then(|ray| floor_point(&document, &ray))
    else {
        return;
    };
    if (at - grip.last).norm() < 1e-9 {
        return;
    }
    let undo = if grip.moved {
        UndoStep::Extend
    } else {
        UndoStep::New
    };
    let edit = match grip.what {
        OnFloor::Figure(k) => {
            let Some(figure) = document.figures().get(k) else {
                active.clear();
                return;
            };
            moved_figure(&figure.placement, &grip, &at).map(|placement| StageEdit::PlaceFigure {
                name: figure.name.clone(),
                placement,
                undo,
            })
        }
        OnFloor::Prop(k) => {
            let Some(prop) = document.props().get(k) else {
                active.clear();
                return;
            };
            moved_prop(&document.prop_place_now(k), &grip, &at).map(|place| StageEdit::PlaceProp {
                name: prop.name.clone(),
                place,
                undo,
            })
        }
    };
    let Some(edit) = edit else {
        // On the handle's centre: no way to turn; wait for the cursor to leave it.
        return;
    };
    edits.write(EditRequest(Edit::Stage(edit)));
    grip.last = at;
    grip.moved = true;
    active.set_floor(grip);
}

/// A figure's placement after its handle moved from `grip.last` to `at`: slid by the move
/// (the ring), or facing `at` (the knob); `None` when `at` is on its place.
fn moved_figure(placement: &Placement, grip: &FloorGrip, at: &Vector3<f64>) -> Option<Placement> {
    let mut placement = *placement;
    if grip.turn {
        let (centre, _) = stands(&placement);
        let towards = at - centre;
        if towards.x.hypot(towards.z) < 1e-6 {
            return None;
        }
        placement.facing = towards.x.atan2(towards.z).to_degrees();
    } else {
        placement.at[0] += at.x - grip.last.x;
        placement.at[1] += at.z - grip.last.z;
    }
    Some(placement)
}

/// A prop's place after its handle moved from `grip.last` to `at`: slid on the floor at its
/// height (the ring), or turned about the vertical through its origin by the angle the cursor
/// swept round it (the knob); `None` when either point is on its place.
fn moved_prop(place: &PropPlace, grip: &FloorGrip, at: &Vector3<f64>) -> Option<PropPlace> {
    let mut place = *place;
    if grip.turn {
        let (centre, _) = prop_stands(&place);
        let (from, to) = (grip.last - centre, at - centre);
        if from.x.hypot(from.z) < 1e-6 || to.x.hypot(to.z) < 1e-6 {
            return None;
        }
        let swept = to.x.atan2(to.z) - from.x.atan2(from.z);
        let turn = marionette_skeleton::rotation::coordinate_axis_rotation(1, swept);
        let rotation =
            turn * marionette_skeleton::rotation::orientation_from_degrees(place.rotation);
        place.rotation = marionette_skeleton::rotation::degrees_from_orientation(&rotation);
    } else {
        place.at[0] += at.x - grip.last.x;
        place.at[2] += at.z - grip.last.z;
    }
    Some(place)
}
