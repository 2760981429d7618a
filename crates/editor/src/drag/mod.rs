//! Dragging (Welman's figure editor: Welman, "Inverse kinematics and geometric constraints for
//! articulated figure manipulation", MSc thesis, Simon Fraser University, 1993, ch. 6): a press
//! on a body or a site handle begins a drag (`Edit::BeginDrag`), every frame the dragged point is
//! pulled towards the cursor ray by the chosen solver (the live preview, [`solve_drag`]), and
//! releasing the button ends it as one undo step (`Edit::EndDrag`; Escape sends
//! `Edit::CancelDrag` through the key table). The press comes from Bevy's picking
//! ([`PickRequest`], written by the scene); the cursor ray from the view under the cursor
//! ([`CursorRay`]). Both are plain data, so headless tests drive this plugin without a window.
//! A press on a lock's marker grips the marker instead ([`lock_grip`]), one on a figure's floor
//! handle moves or turns the figure on the stage ([`floor_grip`]); the comparison ghosts
//! follow the drag with their own solvers ([`ghosts`]).

pub mod floor_grip;
pub mod ghosts;
pub mod handle_grip;
pub mod lock_grip;
mod press;
pub mod trail_grip;

use bevy::prelude::*;
use marionette_editing::{Applied, Edit, Grip};

use crate::EditorSet;
use crate::messages::{EditRequest, PickRequest, PickTarget};
use crate::resources::{ActiveDrag, CursorRay, DragGrip, OpenDocument, SolveStatus, SolvingState};
use crate::selection::Selection;
use ghosts::Ghosts;
pub use press::{fresh_press, over_panel};

/// Begins, previews and ends drags of the figure and of lock markers.
pub struct DragPlugin;

impl Plugin for DragPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PickRequest>()
            .init_resource::<CursorRay>()
            .init_resource::<crate::resources::CursorCamera>()
            .init_resource::<SolveStatus>()
            .init_resource::<ActiveDrag>()
            .init_resource::<Ghosts>()
            .add_systems(
                Update,
                (
                    lock_grip::grip_marker,
                    handle_grip::grip_handle,
                    floor_grip::grip_floor,
                    trail_grip::grip_trail,
                    lock_grip::move_marker,
                    handle_grip::move_handle,
                    floor_grip::move_floor,
                    press_to_drag,
                    release_drag,
                )
                    .chain()
                    .in_set(EditorSet::Input),
            )
            .add_systems(Update, solve_drag.in_set(EditorSet::Solve))
            .init_resource::<crate::derived::TrailPaths>();
    }
}

/// Turns this frame's presses into a drag: the nearest hit, site handles counted a little nearer
/// ([`PickRequest::preference`]); the picked part is selected. A click on empty space in a view
/// clears the selection.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn press_to_drag(
    mut presses: MessageReader<PickRequest>,
    document: Res<OpenDocument>,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorRay>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut active: ResMut<ActiveDrag>,
    mut selection: ResMut<Selection>,
    mut edits: MessageWriter<EditRequest>,
) {
    if active.grip().is_some() || document.drag().is_some() {
        // A drag (of the figure or of a lock's marker) holds the button.
        presses.clear();
        return;
    }
    let best = presses
        .read()
        .copied()
        .min_by(|a, b| a.preference().total_cmp(&b.preference()));
    let mut chosen = selection.clone();
    match best {
        None => {
            let over_panel = over_panel(egui_input.as_deref());
            if mouse.just_pressed(MouseButton::Left) && cursor.0.is_some() && !over_panel {
                chosen.select(&document, None);
            }
        }
        // Shift+click adds the part's joint to the selection (or takes it out); no drag.
        Some(press) if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) => {
            let joint = match press.target {
                PickTarget::Site(site) => document.skeleton().site(site).joint,
                PickTarget::Joint(joint) | PickTarget::Body(joint) => joint,
            };
            chosen.extend(&document, joint);
        }
        Some(press) => {
            let grip = match press.target {
                PickTarget::Site(site) => {
                    chosen.pick_site(&document, site);
                    Grip::Site(site)
                }
                PickTarget::Joint(joint) => {
                    chosen.select(&document, Some(joint));
                    Grip::Joint(joint)
                }
                PickTarget::Body(joint) => {
                    chosen.select(&document, Some(joint));
                    Grip::Body {
                        joint,
                        hit: crate::convert::vector(press.hit),
                    }
                }
            };
            // Cleared again after the edits are applied if the drag could not begin.
            active.start(DragGrip::Figure, Some(press.camera));
            edits.write(EditRequest(Edit::BeginDrag(grip)));
        }
    }
    selection.set_if_neq(chosen);
}

/// Releasing the primary button ends the figure's drag (one undo step).
fn release_drag(
    document: Res<OpenDocument>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut edits: MessageWriter<EditRequest>,
) {
    if document.drag().is_some() && !mouse.pressed(MouseButton::Left) {
        edits.write(EditRequest(Edit::EndDrag));
    }
}

/// One step of IK towards the cursor ray, for the pose and for every ghost (not in the frame the
/// button is released: the drag ends as it was last shown).
fn solve_drag(
    mut document: ResMut<OpenDocument>,
    mut solving: ResMut<SolvingState>,
    mut status: ResMut<SolveStatus>,
    mut ghosts: ResMut<Ghosts>,
    active: Res<ActiveDrag>,
    cursor: Res<CursorRay>,
    mouse: Res<ButtonInput<MouseButton>>,
) {
    if document.drag().is_none() || !mouse.pressed(MouseButton::Left) {
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(crate::convert::ray) else {
        return;
    };
    let started = std::time::Instant::now();
    let (document, solving) = (&mut document.0, &mut solving.0);
    if !ghosts.follow(active.started()) {
        ghosts.start(active.started(), document, solving);
    }
    if !ghosts.tracks.is_empty() {
        ghosts.advance(document, solving, &ray);
    }
    if mouse.just_pressed(MouseButton::Left) {
        // The drag began this frame: the plot starts afresh.
        status.trace.clear();
    }
    if let Ok(Applied::Stepped(outcome)) = document.apply(Edit::DragTo(ray), solving) {
        status.step(document.id(), *outcome, started.elapsed());
    }
}
