//! Gripping a rotate handle of the selected joint ([`marionette_editing::rotate_handles`]): a
//! press near one of its rings (or arrows) grips it before the press can begin a drag of the
//! figure; moving the cursor round the ring turns the hinge by the angle it went round (Ctrl
//! snaps the value to 5°), along an arrow slides the DOF or moves the root; the cursor is read
//! against the handle as it was when gripped, so locks solved again around the joint (which
//! may move its parents) do not turn it further
//! (`Edit::TurnDof` / `Edit::MoveRoot`, the first move a new undo step, the later ones
//! extending it); releasing ends it. The handles are drawn by the gizmos.

use bevy::prelude::*;
use marionette_editing::rotate_handles::{HandleKind, snapped, turned};
use marionette_editing::{Edit, UndoStep};

use crate::messages::{EditRequest, PickRequest, PickTarget};
use crate::resources::{ActiveDrag, CursorCamera, CursorRay, DragGrip, HandleGrip, OpenDocument};
use crate::selection::Selection;

/// How near the cursor ray must pass a handle to grip it, as a fraction of the figure's size.
pub const HANDLE_REACH: f64 = 0.012;

/// A press near a handle of the selected joint grips it (before a press can begin a drag),
/// unless it lands on a site's handle (a hand or a heel, which the rings of its joint pass
/// near): those are dragged as ever.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
pub fn grip_handle(
    mut presses: MessageReader<PickRequest>,
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    camera: Res<CursorCamera>,
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    mut active: ResMut<ActiveDrag>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    keys: Res<ButtonInput<KeyCode>>,
) {
    let on_site = presses
        .read()
        .any(|p| matches!(p.target, PickTarget::Site(_)));
    if on_site || keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
        return;
    }
    let Some(ray) =
        super::press::fresh_press(&mouse, &cursor, &document, &active, egui_input.as_deref())
    else {
        return;
    };
    let Some(joint) = selection.joint(&document) else {
        return;
    };
    let reach = HANDLE_REACH * document.handle_size();
    let Some(handle) = document.handle_under(joint, &ray, reach) else {
        return;
    };
    let Some(reading) = handle.reading(&ray) else {
        return;
    };
    let value = match handle.kind {
        HandleKind::Hinge(dof) | HandleKind::Slide(dof) => document.pose()[dof.state_index()],
        HandleKind::Root(i) => document.pose()[i],
    };
    let grip = HandleGrip {
        joint,
        handle,
        kind: handle.kind,
        last: reading,
        value,
        moved: false,
    };
    active.start(DragGrip::Handle(grip), camera.0);
}

/// Turns or moves what the gripped handle holds as the cursor goes round or along it.
pub fn move_handle(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorRay>,
    mut active: ResMut<ActiveDrag>,
    mut edits: MessageWriter<EditRequest>,
) {
    let Some(mut grip) = active.handle() else {
        return;
    };
    if !mouse.pressed(MouseButton::Left) {
        active.clear();
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(crate::convert::ray) else {
        return;
    };
    let handle = grip.handle;
    let Some(reading) = handle.reading(&ray) else {
        return;
    };
    let undo = if grip.moved {
        UndoStep::Extend
    } else {
        UndoStep::New
    };
    let edit = match grip.kind {
        HandleKind::Hinge(dof) => {
            let step = turned(grip.last, reading);
            if step.abs() < 1e-9 {
                return;
            }
            grip.value += step;
            let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
            let value = if ctrl {
                snapped(grip.value)
            } else {
                grip.value
            };
            Edit::TurnDof { dof, value, undo }
        }
        HandleKind::Slide(dof) => {
            let step = reading - grip.last;
            if step.abs() < 1e-9 {
                return;
            }
            grip.value += step;
            Edit::TurnDof {
                dof,
                value: grip.value,
                undo,
            }
        }
        HandleKind::Root(_) => {
            let step = reading - grip.last;
            if step.abs() < 1e-9 {
                return;
            }
            Edit::MoveRoot {
                delta: handle.axis * step,
                undo,
            }
        }
    };
    edits.write(EditRequest(edit));
    grip.last = reading;
    grip.moved = true;
    active.set_handle(grip);
}
