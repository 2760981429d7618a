//! Gripping a lock's marker: a press near the marker of a lock with a target (a position, pose,
//! point, plane, line or centre of mass) grips it before the press can begin a drag of the
//! figure; dragging moves the lock's target in the plane through the grip facing the view
//! (`Edit::MoveLockTarget`, the first move a new undo step, the later ones extending it) and the
//! limb follows. The markers are drawn by the gizmos' locks module.

use bevy::prelude::*;
use marionette_editing::{Document, Edit, Ray, UndoStep};
use nalgebra::Vector3;

use crate::messages::EditRequest;
use crate::resources::{ActiveDrag, CursorRay, DragGrip, MarkerGrip, OpenDocument};

/// How near the cursor ray must pass a marker's anchor to grip it (metres).
pub const GRIP_DISTANCE: f64 = 0.03;

/// The lock whose marker the ray passes nearest, within [`GRIP_DISTANCE`], and its anchor; only
/// markers of locks with a target to move (a press on an orientation or two-site lock's marker
/// goes to the body or handle under it).
pub fn marker_under(document: &Document, ray: &Ray) -> Option<(usize, Vector3<f64>)> {
    document
        .locks()
        .iter()
        .enumerate()
        .filter(|(_, lock)| lock.enabled && lock.has_target())
        .filter_map(|(i, lock)| {
            let anchor = lock.anchor(document.fk());
            let on_ray = ray.closest_point_to(&anchor);
            let distance = (on_ray - anchor).norm();
            (distance <= GRIP_DISTANCE).then_some((i, anchor, distance))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(i, anchor, _)| (i, anchor))
}

/// A press on a marker grips it (before a press can begin a drag).
pub fn grip_marker(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    document: Res<OpenDocument>,
    mut active: ResMut<ActiveDrag>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    let Some(ray) =
        super::press::fresh_press(&mouse, &cursor, &document, &active, egui_input.as_deref())
    else {
        return;
    };
    if let Some((lock, anchor)) = marker_under(&document, &ray) {
        let grip = MarkerGrip {
            lock,
            last: anchor,
            normal: ray.direction,
            moved: false,
        };
        active.start(DragGrip::LockMarker(grip), None);
    }
}

/// Moves the gripped lock's target with the cursor, in the plane through the grip facing the
/// view; releasing the button ends the marker's drag.
pub fn move_marker(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    mut active: ResMut<ActiveDrag>,
    mut edits: MessageWriter<EditRequest>,
) {
    let Some(mut grip) = active.marker() else {
        return;
    };
    if !mouse.pressed(MouseButton::Left) {
        active.clear();
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(crate::convert::ray) else {
        return;
    };
    let facing = ray.direction.dot(&grip.normal);
    if facing.abs() < 1e-9 {
        return;
    }
    let t = (grip.last - ray.origin).dot(&grip.normal) / facing;
    let at = ray.origin + ray.direction * t;
    let delta = at - grip.last;
    if delta.norm() < 1e-9 {
        return;
    }
    let undo = if grip.moved {
        UndoStep::Extend
    } else {
        UndoStep::New
    };
    edits.write(EditRequest(Edit::MoveLockTarget {
        lock: grip.lock,
        delta,
        undo,
    }));
    grip.last = at;
    grip.moved = true;
    active.set_marker(grip);
}
