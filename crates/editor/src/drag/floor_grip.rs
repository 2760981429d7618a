//! Moving and turning figures on the stage by their floor handles: around each figure's place
//! on the floor a ring (press on it and drag: the figure slides on the floor) and, ahead of it
//! the way it faces, a knob (drag it round: the figure turns about the vertical). Only on a
//! stage of several figures; drawn by the stage plan ([`crate::gizmos::stage_plan`]). Each
//! drag is one undo step (`StageEdit::PlaceFigure`, the first move new, the rest extending it).
//! The floor is the stage's (y = 0); rays are turned onto the stage, so moving the edited
//! figure (whose frame the scene is drawn in) keeps working while the cameras follow it.

use bevy::prelude::*;
use marionette_document::Placement;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit, Ray, UndoStep};
use nalgebra::Vector3;

use crate::messages::EditRequest;
use crate::resources::{ActiveDrag, CursorRay, DragGrip, FloorGrip, OpenDocument};

/// The ring's radius around a figure's place (metres): outside its feet.
pub const RING: f64 = 0.35;
/// How far ahead of a figure's place its turning knob is (metres).
pub const KNOB: f64 = 0.55;
/// How near the floor point must be to a ring or a knob to grip it (metres).
pub const REACH: f64 = 0.05;

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

/// The floor handle under the ray: a figure's knob, else its ring, nearest first.
pub fn handle_under(document: &Document, ray: &Ray) -> Option<FloorGrip> {
    if document.figures().len() < 2 {
        return None;
    }
    let at = floor_point(document, ray)?;
    document
        .figures()
        .iter()
        .enumerate()
        .flat_map(|(k, figure)| {
            let (centre, facing) = stands(&figure.placement);
            let knob = (at - (centre + facing * KNOB)).norm();
            let ring = ((at - centre).norm() - RING).abs();
            [(k, true, knob), (k, false, ring)]
        })
        .filter(|(_, _, distance)| *distance <= REACH)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(figure, turn, _)| FloorGrip {
            figure,
            turn,
            last: at,
            moved: false,
        })
}

/// A press on a floor handle grips it (before a press can begin a drag of the figure).
pub fn grip_floor(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    document: Res<OpenDocument>,
    mut active: ResMut<ActiveDrag>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let Some(ray) = super::fresh_press(&mouse, &cursor, &document, &active, egui_input.as_deref())
    else {
        return;
    };
    if let Some(grip) = handle_under(&document, &ray) {
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
    let Some(figure) = document.figures().get(grip.figure) else {
        active.clear();
        return;
    };
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
    let mut placement = figure.placement;
    if grip.turn {
        let (centre, _) = stands(&placement);
        let towards = at - centre;
        if towards.x.hypot(towards.z) < 1e-6 {
            return;
        }
        placement.facing = towards.x.atan2(towards.z).to_degrees();
    } else {
        placement.at[0] += at.x - grip.last.x;
        placement.at[1] += at.z - grip.last.z;
    }
    let undo = if grip.moved {
        UndoStep::Extend
    } else {
        UndoStep::New
    };
    edits.write(EditRequest(Edit::Stage(StageEdit::PlaceFigure {
        name: figure.name.clone(),
        placement,
        undo,
    })));
    grip.last = at;
    grip.moved = true;
    active.set_floor(grip);
}
