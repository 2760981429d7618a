//! Dragging a motion trail (issue 34): a press on a trail's dot (not the current frame's, where
//! the figure itself is) goes to that frame and drags the trail's point from there by IK, the
//! locks held; releasing keys the joints the drag moved at that frame
//! (`Edit::BeginTrailDrag`, [`marionette_editing::trail`]). No other key changes.

use bevy::prelude::*;
use marionette_editing::Edit;

use crate::derived::TrailPaths;
use crate::messages::EditRequest;
use crate::resources::{ActiveDrag, CursorCamera, CursorRay, DragGrip, OpenDocument};

/// How near the cursor ray must pass a trail's dot to grip it, as a fraction of the figure's
/// size (the rotate handles' reach).
const DOT_REACH: f64 = 0.012;

/// A press on a trail's dot (before a press can begin a drag of the figure) goes to its frame
/// and drags the trail's point from there.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
pub fn grip_trail(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    camera: Res<CursorCamera>,
    document: Res<OpenDocument>,
    paths: Res<TrailPaths>,
    mut active: ResMut<ActiveDrag>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut edits: MessageWriter<EditRequest>,
) {
    if paths.trails.is_empty() {
        return;
    }
    let Some(ray) =
        super::press::fresh_press(&mouse, &cursor, &document, &active, egui_input.as_deref())
    else {
        return;
    };
    let reach = DOT_REACH * document.handle_size();
    let now = document.frame();
    let nearest = paths
        .trails
        .iter()
        .flat_map(|t| t.points.iter().map(move |(f, p)| (t.shown.of, *f, p)))
        .filter(|&(_, f, _)| f != now)
        .map(|(of, f, p)| (of, f, (ray.closest_point_to(p) - p).norm()))
        .filter(|&(_, _, d)| d <= reach)
        .min_by(|a, b| a.2.total_cmp(&b.2));
    let Some((of, frame, _)) = nearest else {
        return;
    };
    // The press is the trail's: with a grip held, the figure's picking under it does not
    // begin a drag of its own.
    active.start(DragGrip::Figure, camera.0);
    edits.write(EditRequest(Edit::BeginTrailDrag { of, frame }));
}
