//! A step taken: resolved against the open document by the editing crate, then carried out as
//! its [`Action`] says: window input through the window's input path, an edit or a file request
//! sent as the panels send them and confirmed a few frames later (the run fails if an error
//! was reported meanwhile), a drag or click through the large view, a check of the state the
//! panels read, or a change of the editor's view state.

use bevy::input::ButtonState;
use bevy::prelude::*;
use marionette_editing::replay::{Action, Panel, ReplayContext, Window};
use marionette_editing::{Edit, IkSettings, Step};

use super::drag::{click_at, start_drag, start_rotate};
use super::input::{keys, mouse, move_cursor, type_text};
use super::state::{Phase, Replay, fail, screenshot};
use crate::beside::{BesideRequest, BesideState};
use crate::messages::{EditRequest, FileRequest, RecoveryAnswer, TimelineRequest};
use crate::resources::{Display, Notices, OpenDocument, Prompts, SolveStatus, SolvingState};
use crate::selection::Selection;
use crate::timeline::Playback;
use crate::views::Layout;

/// Frames a change beside the document is given before it is confirmed (a paste becomes an
/// edit, applied a frame later).
const BESIDE_FRAMES: u32 = 3;

/// Takes `step`: true when it used up this frame.
pub(super) fn take_step(world: &mut World, window: Entity, step: &Step) -> bool {
    let resolved = {
        let document = world.resource::<OpenDocument>();
        let selected = world.resource::<Selection>().joints(document);
        let context = ReplayContext {
            selected: &selected,
            retarget: world.resource::<Prompts>().retarget.as_ref(),
            beside: world.resource::<BesideState>(),
        };
        step.resolve(document, context)
    };
    match resolved {
        Ok(action) => carry_out(world, window, action),
        Err(text) => {
            fail(world, text);
            true
        }
    }
}

/// Waits `frames` frames for what was just sent to be carried out, then fails the run if an
/// error was reported meanwhile.
fn confirm(world: &mut World, errors: u64, frames: u32, what: String) -> bool {
    world.resource_mut::<Replay>().phase = Phase::Confirm {
        frames,
        errors,
        what,
    };
    true
}

/// Carries out `action`; true when it used up this frame.
fn carry_out(world: &mut World, window: Entity, action: Action) -> bool {
    let errors = world.resource::<Notices>().error_count();
    match action {
        Action::Wait(frames) => {
            world.resource_mut::<Replay>().phase = Phase::Waiting(frames.max(1));
            true
        }
        Action::MoveCursor(x, y) => {
            move_cursor(world, window, Vec2::new(x, y));
            true
        }
        Action::Button(pressed) => {
            let state = if pressed {
                ButtonState::Pressed
            } else {
                ButtonState::Released
            };
            mouse(world, window, state);
            true
        }
        Action::Key(chord) => {
            keys(world, window, &chord, ButtonState::Pressed);
            world.resource_mut::<Replay>().phase = Phase::KeyUp(chord);
            true
        }
        Action::Type(text) => {
            type_text(world, window, &text);
            true
        }
        Action::SetView(view) => {
            world.resource_mut::<Layout>().large = view;
            // The camera moves into the large viewport this frame; let it settle.
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Action::SetSolver(kind) => {
            let settings = IkSettings {
                solver: kind,
                ..*world.resource::<SolvingState>().runner.settings()
            };
            world.write_message(EditRequest(Edit::Settings(settings)));
            confirm(world, errors, 1, format!("choose {kind}"))
        }
        Action::Edit { edit, frames, what } => {
            world.write_message(EditRequest(edit));
            confirm(world, errors, frames, what)
        }
        Action::Beside(change) => {
            let what = change.what().into();
            world.write_message(BesideRequest(change));
            confirm(world, errors, BESIDE_FRAMES, what)
        }
        Action::File { action, path, what } => {
            world.write_message(FileRequest::on(action, path));
            confirm(world, errors, 2, what)
        }
        Action::Export { format, path } => export(world, format, path, errors),
        Action::Drag { grip, to, frames } => start_drag(world, window, grip, to, frames),
        Action::Rotate {
            joint,
            dof,
            degrees,
        } => start_rotate(world, joint, dof, degrees),
        Action::Click(at) => click_at(world, window, at),
        Action::Screenshot(path) => {
            // The capture is of this frame's rendering: nothing else may change in it.
            screenshot(world, path);
            true
        }
        Action::CheckResidual(max_mm) => {
            if let Some(text) = residual_problem(world, max_mm) {
                fail(world, text);
            }
            false
        }
        Action::CheckSelection(joint) => {
            check_selection(world, joint);
            false
        }
        Action::Recover(recover) => {
            if world.resource::<Prompts>().recovery.is_none() {
                fail(
                    world,
                    "no unsaved work from an earlier session is offered".into(),
                );
                return true;
            }
            world.write_message(RecoveryAnswer(recover));
            confirm(world, errors, 2, "answer the recovery offer".into())
        }
        Action::Play(frames) => {
            world.resource_mut::<Playback>().fixed_step = true;
            world.write_message(TimelineRequest::Play(true));
            world.resource_mut::<Replay>().phase = Phase::Playing(frames);
            true
        }
        Action::SetPanel(panel, shown) => {
            set_panel(world, panel, shown);
            true
        }
        Action::Select { joint, add } => {
            select(world, joint, add);
            true
        }
        Action::Show(Window::PoseLibrary) => {
            world.resource_mut::<Display>().pose_library = true;
            false
        }
        Action::Show(Window::Curves) => {
            world.resource_mut::<Display>().curves = true;
            true
        }
        Action::Show(Window::MotionPlot(site)) => {
            world.resource_mut::<Display>().motion_plot = true;
            world.resource_mut::<crate::panels::motion::MotionSite>().0 = Some(site);
            true
        }
        Action::SetRetargetPlan(plan) => {
            world.resource_mut::<Prompts>().retarget = Some(plan);
            true
        }
        Action::ConfirmRetarget(edit) => {
            world.resource_mut::<Prompts>().retarget = None;
            let what = match &edit {
                Edit::RetargetCapture { capture, .. } => {
                    format!("retarget {}", capture.path.display())
                }
                _ => "retarget".to_owned(),
            };
            world.write_message(EditRequest(edit));
            confirm(world, errors, 2, what)
        }
        Action::Then(actions) => {
            let mut used = false;
            for action in actions {
                used = carry_out(world, window, action);
            }
            used
        }
        Action::Nothing => false,
        Action::Exit => {
            world.resource_mut::<Replay>().phase = Phase::Exiting;
            true
        }
    }
}

/// Asks for an export of the shown sequence as `format` to `path`, and waits for it.
fn export(
    world: &mut World,
    format: marionette_editing::exchange::ExportFormat,
    path: std::path::PathBuf,
    errors: u64,
) -> bool {
    let what = format!("export {}", path.display());
    world.write_message(FileRequest::on(
        marionette_editing::file_action::FileAction::Export(format),
        path,
    ));
    world.resource_mut::<Replay>().phase = Phase::Exporting {
        errors,
        what,
        waited: 0,
    };
    true
}

/// Fails the replay unless `joint` is the selected joint.
fn check_selection(world: &mut World, joint: marionette_skeleton::JointId) {
    let document = world.resource::<OpenDocument>();
    let selected = world.resource::<Selection>().joint(document);
    if selected != Some(joint) {
        let name = |j: marionette_skeleton::JointId| document.skeleton().joint(j).name.clone();
        let text = format!(
            "\"{}\" is not selected (selected: {:?})",
            name(joint),
            selected.map(name)
        );
        fail(world, text);
    }
}

/// Shows or hides a docked panel.
fn set_panel(world: &mut World, panel: Panel, shown: bool) {
    let mut panels = world.resource_mut::<crate::panels::panel_memory::PanelLayout>();
    match panel {
        Panel::Outliner => panels.outliner.shown = shown,
        Panel::Ik => panels.ik.shown = shown,
        Panel::Timeline => panels.timeline.shown = shown,
        Panel::Locks => panels.locks.shown = shown,
    }
}

/// Selects `joint`, or adds it to the selection.
fn select(world: &mut World, joint: marionette_skeleton::JointId, add: bool) {
    world.resource_scope(|world, mut selection: Mut<Selection>| {
        let document = world.resource::<OpenDocument>();
        if add {
            selection.extend(document, joint);
        } else {
            selection.select(document, Some(joint));
        }
    });
}

/// Why the last solve does not pass `CheckResidual(max_mm)`, if it does not.
fn residual_problem(world: &World, max_mm: f64) -> Option<String> {
    let document = world.resource::<OpenDocument>();
    let status = world.resource::<SolveStatus>();
    match status.outcome(document.id()) {
        None => Some("no solve has run".to_owned()),
        Some(outcome) if outcome.report.residual * 1000.0 > max_mm => {
            let why = outcome
                .report
                .worst_shortfall()
                .map(|(_, s)| s.describe(document.skeleton()))
                .unwrap_or_default();
            Some(format!(
                "{}: residual {:.4} mm is above {max_mm} mm ({why})",
                outcome.ran,
                outcome.report.residual * 1000.0
            ))
        }
        Some(_) => None,
    }
}
