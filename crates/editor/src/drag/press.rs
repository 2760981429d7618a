//! Where a press may begin a drag: not over a panel, and not while something is dragged.

use bevy::prelude::*;

use crate::resources::{ActiveDrag, CursorRay, OpenDocument};

/// Whether the pointer is over a panel (egui wants it): presses there are the panel's.
pub fn over_panel(egui_input: Option<&bevy_egui::input::EguiWantsInput>) -> bool {
    egui_input.is_some_and(|e| e.wants_any_pointer_input())
}

/// The cursor's ray when the left button was pressed this frame in a view and nothing is being
/// dragged: where a grip of a marker, a rotate handle or a floor handle may begin.
pub fn fresh_press(
    mouse: &ButtonInput<MouseButton>,
    cursor: &CursorRay,
    document: &OpenDocument,
    active: &ActiveDrag,
    egui_input: Option<&bevy_egui::input::EguiWantsInput>,
) -> Option<marionette_editing::Ray> {
    if !mouse.just_pressed(MouseButton::Left)
        || document.drag().is_some()
        || active.grip().is_some()
        || over_panel(egui_input)
    {
        return None;
    }
    cursor.0.as_ref().and_then(crate::convert::ray)
}
