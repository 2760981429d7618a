//! The one place edits are applied: every [`EditRequest`] of the frame goes to
//! `Document::apply` (one undo step where it changes the work, refused edits changing nothing),
//! but for those that change only how solves run (`Solving::apply_setting`: the solver, what a
//! drag moves, the comparison), which leave the document untouched,
//! and what it reports becomes a notice, the status bar's last solve, or a change to the view
//! state the edit concerns (the ghosts after an undo, the playback after a sequence goes, the
//! ruler's range after a range edit). After the edits and the files, a drag the document no
//! longer has is forgotten ([`ActiveDrag`]), whatever ended it.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use marionette_editing::{Applied, Edit, EditError};

use crate::EditorSet;
use crate::drag::ghosts::Ghosts;
use crate::messages::{EditRequest, FocusSelection};
use crate::resources::{
    ActiveDrag, DragGrip, Notices, OpenDocument, Paths, SolveStatus, SolvingState,
};
use crate::timeline::{FrameRange, Playback};

/// Applies the edits.
pub struct EditPlugin;

impl Plugin for EditPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<EditRequest>()
            .init_resource::<SolvingState>()
            .init_resource::<Notices>()
            .init_resource::<Paths>()
            .add_systems(Update, apply_edits.in_set(EditorSet::Apply))
            .add_systems(Update, forget_ended_drag.in_set(EditorSet::Settle));
    }
}

/// What applying an edit may change besides the document.
#[derive(SystemParam)]
pub struct EditEffects<'w> {
    notices: ResMut<'w, Notices>,
    status: ResMut<'w, SolveStatus>,
    ghosts: ResMut<'w, Ghosts>,
    playback: ResMut<'w, Playback>,
    range: ResMut<'w, FrameRange>,
    paths: ResMut<'w, Paths>,
    focus: MessageWriter<'w, FocusSelection>,
}

/// Applies this frame's edits, in the order they were sent.
fn apply_edits(
    mut requests: MessageReader<EditRequest>,
    mut document: ResMut<OpenDocument>,
    mut solving: ResMut<SolvingState>,
    mut effects: EditEffects,
) {
    for EditRequest(edit) in requests.read() {
        // How solves run is beside the document: setting it leaves the document untouched (its
        // change detection too), so nothing that follows the document runs again.
        let applied = match solving.apply_setting(edit) {
            Some(result) => result.map(|()| Applied::Quietly),
            None => document.apply(edit.clone(), &mut solving),
        };
        match applied {
            Ok(applied) => {
                match applied {
                    Applied::Quietly => {}
                    Applied::Said(text) => effects.notices.info(text),
                    Applied::Solved(outcome, text) => {
                        effects.status.solved(document.id(), *outcome);
                        effects.notices.info(text);
                    }
                    Applied::Stepped(outcome) => effects.status.solved(document.id(), *outcome),
                    Applied::Cleaned(_, text) => effects.notices.info(text),
                }
                follow_up(edit, &mut effects);
            }
            Err(e) => effects.notices.error(refusal(edit, &e)),
        }
    }
}

/// What the user reads when `edit` was refused.
fn refusal(edit: &Edit, e: &EditError) -> String {
    match edit {
        Edit::Lock { .. } | Edit::LockTogether(..) => format!("Could not lock: {e}"),
        _ => e.to_string(),
    }
}

/// The view state an applied edit changes.
fn follow_up(edit: &Edit, effects: &mut EditEffects) {
    match *edit {
        Edit::OpenPose(ref read) => effects.paths.last_pose = Some(read.path.clone()),
        Edit::Undo | Edit::Redo | Edit::CancelDrag => effects.ghosts.clear(),
        Edit::Comparison(ref c) if !c.enabled => effects.ghosts.clear(),
        Edit::SelectSequence(_) | Edit::DeleteSequence(_) => effects.playback.playing = false,
        Edit::CutFrames { .. } | Edit::DeleteFrames { .. } => effects.range.0 = None,
        Edit::RetimeFrames { first, length, .. } => {
            effects.range.0 = Some((first, first + length - 1));
        }
        Edit::SlideFrames {
            first, last, delta, ..
        } => effects.range.0 = Some((first + delta, last + delta)),
        // The take's first frame framed in every view (wherever the capture put it).
        Edit::RetargetCapture { .. } => {
            effects.focus.write(FocusSelection);
        }
        _ => {}
    }
}

/// A drag of the figure whose document drag has ended (released, cancelled, undone, another
/// document opened, or it never began) is no longer in progress: the cursor's ray goes through
/// the view under the cursor again.
fn forget_ended_drag(document: Res<OpenDocument>, mut active: ResMut<ActiveDrag>) {
    if active.grip() == Some(DragGrip::Figure) && document.drag().is_none() {
        active.clear();
    }
}
