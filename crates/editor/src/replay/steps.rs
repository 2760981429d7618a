//! Each step of a replay: input steps through the window's input path, the others as the
//! messages the panels send (an edit, a file or timeline request) followed by a check that no
//! error was reported, and the checks as readings of the state the panels read.

use bevy::input::ButtonState;
use bevy::prelude::*;
use marionette_document::{LockKind, LockPart};
use marionette_editing::exchange::ExportFormat;
use marionette_editing::{Edit, IkSettings, Step};

use super::input::{keys, mouse, move_cursor, type_text};
use super::{DragStage, Grip, Phase, Replay, SiteDrag, fail, screenshot};
use crate::derived::LockStatus;
use crate::messages::{
    EditRequest, FileAction, FileRequest, PickRequest, PickTarget, RecoveryAnswer, TimelineRequest,
};
use crate::resources::{Notices, OpenDocument, Prompts, SolveStatus, SolvingState};
use crate::timeline::Playback;
use crate::views::{Layout, ViewCamera};

/// Frames the cursor rests on a handle before pressing (picking updates its hover state from
/// the cursor's position first).
pub(super) const SETTLE_FRAMES: u32 = 2;
/// Frames a drag holds still at its end before releasing, so the solver finishes the last move.
const HOLD_FRAMES: u32 = 10;

/// Waits `frames` frames for what was just sent to be carried out, then fails the run if an
/// error was reported meanwhile.
fn confirm(world: &mut World, frames: u32, what: String) -> bool {
    let errors = world.resource::<Notices>().error_count();
    world.resource_mut::<Replay>().phase = Phase::Confirm {
        frames,
        errors,
        what,
    };
    true
}

/// Sends an edit, then confirms it after `frames` frames.
pub(super) fn edit(world: &mut World, edit: Edit, frames: u32, what: String) -> bool {
    let errors = world.resource::<Notices>().error_count();
    world.write_message(EditRequest(edit));
    world.resource_mut::<Replay>().phase = Phase::Confirm {
        frames,
        errors,
        what,
    };
    true
}

/// Sends a file request on `path`, then confirms it.
pub(super) fn file(
    world: &mut World,
    action: FileAction,
    path: std::path::PathBuf,
    what: &str,
) -> bool {
    let what = format!("{what} {}", path.display());
    let errors = world.resource::<Notices>().error_count();
    world.write_message(FileRequest::on(action, path));
    world.resource_mut::<Replay>().phase = Phase::Confirm {
        frames: 2,
        errors,
        what,
    };
    true
}

/// Carries out one step; true when it used up this frame.
pub(super) fn take_step(world: &mut World, window: Entity, step: Step) -> bool {
    let step = match super::tool_steps::take_tool_step(world, step) {
        Ok(used) => return used,
        Err(step) => step,
    };
    match step {
        Step::Wait(frames) => {
            world.resource_mut::<Replay>().phase = Phase::Waiting(frames.max(1));
            true
        }
        Step::Move(x, y) => {
            move_cursor(world, window, Vec2::new(x, y));
            true
        }
        Step::Press => {
            mouse(world, window, ButtonState::Pressed);
            true
        }
        Step::Release => {
            mouse(world, window, ButtonState::Released);
            true
        }
        Step::Key(chord) => {
            keys(world, window, &chord, ButtonState::Pressed);
            world.resource_mut::<Replay>().phase = Phase::KeyUp(chord);
            true
        }
        Step::Type(text) => {
            type_text(world, window, &text);
            true
        }
        Step::SetView(view) => {
            world.resource_mut::<Layout>().large = view;
            // The camera moves into the large viewport this frame; let it settle.
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::SetSolver(kind) => {
            let settings = IkSettings {
                solver: kind,
                ..*world.resource::<SolvingState>().runner.settings()
            };
            edit(world, Edit::Settings(settings), 1, format!("choose {kind}"))
        }
        Step::DragSite { site, to, frames } => {
            start_drag(world, window, Grip::Site(site), to, frames)
        }
        Step::DragJoint { joint, to, frames } => {
            start_drag(world, window, Grip::Joint(joint), to, frames)
        }
        Step::LockSite { site, kind } => {
            let part = world
                .resource::<OpenDocument>()
                .skeleton()
                .site_by_name(&site)
                .map(LockPart::Site);
            lock(world, part, kind.kind(), &format!("site \"{site}\""))
        }
        Step::LockJoint { joint, kind } => {
            let part = world
                .resource::<OpenDocument>()
                .skeleton()
                .joint_by_name(&joint)
                .map(|j| LockPart::Point(j, nalgebra::Vector3::zeros()));
            lock(world, part, kind.kind(), &format!("joint \"{joint}\""))
        }
        Step::CheckLocks(max_mm) => {
            let document = world.resource::<OpenDocument>();
            let status = world.resource::<LockStatus>();
            let broken: Vec<String> = document
                .locks()
                .iter()
                .zip(&status.violations)
                .zip(&status.holding)
                .filter(|((_, v), holding)| **holding && v.largest() * 1000.0 > max_mm)
                .map(|((l, v), _)| format!("\"{}\" gave way by {v}", l.name))
                .collect();
            if !broken.is_empty() {
                let text = format!("locks beyond {max_mm} mm: {}", broken.join(", "));
                fail(world, text);
            }
            false
        }
        Step::CheckResidual(max_mm) => {
            if let Some(text) = residual_problem(world, max_mm) {
                fail(world, text);
            }
            false
        }
        Step::SaveDocument(path) => file(
            world,
            FileAction::SaveDocumentAs,
            path,
            "save the document to",
        ),
        Step::OpenDocument(path) => {
            file(world, FileAction::OpenDocument, path, "open the document")
        }
        Step::SavePose(path) => file(world, FileAction::SavePoseAs, path, "save the pose to"),
        Step::Recover(recover) => {
            if world.resource::<Prompts>().recovery.is_none() {
                fail(
                    world,
                    "no unsaved work from an earlier session is offered".into(),
                );
                return true;
            }
            world.write_message(RecoveryAnswer(recover));
            confirm(world, 2, "answer the recovery offer".into())
        }
        Step::Screenshot(path) => {
            // The capture is of this frame's rendering: nothing else may change in it.
            screenshot(world, path);
            true
        }
        Step::SetFrame(frame) => edit(
            world,
            Edit::GoToFrame(frame),
            2,
            format!("go to frame {frame}"),
        ),
        Step::SetKey => edit(world, Edit::SetKey, 2, "set a key".into()),
        Step::DeleteKey => edit(world, Edit::DeleteKey, 2, "delete the key".into()),
        Step::Play { frames } => {
            world.resource_mut::<Playback>().fixed_step = true;
            world.write_message(TimelineRequest::Play(true));
            world.resource_mut::<Replay>().phase = Phase::Playing(frames);
            true
        }
        Step::ClickBone(joint) => {
            let Some(at) = bone_middle(world, &joint) else {
                fail(world, format!("no joint \"{joint}\""));
                return true;
            };
            let Some(pixel) = project_in_large_view(world, at) else {
                fail(world, format!("joint \"{joint}\" is not in the large view"));
                return true;
            };
            move_cursor(world, window, pixel);
            world.resource_mut::<Replay>().phase = Phase::Click(2);
            true
        }
        Step::CheckSelection(joint) => {
            let document = world.resource::<OpenDocument>();
            let selected = world
                .resource::<crate::selection::Selection>()
                .joint(document)
                .map(|j| document.skeleton().joint(j).name.clone());
            if selected.as_deref() != Some(joint.as_str()) {
                let text = format!("\"{joint}\" is not selected (selected: {selected:?})");
                fail(world, text);
            }
            false
        }
        Step::Export(path) => {
            let format = match path.extension().and_then(|e| e.to_str()) {
                Some(e) if e.eq_ignore_ascii_case("bvh") => ExportFormat::Bvh,
                Some(e) if e.eq_ignore_ascii_case("json") => ExportFormat::Json,
                _ => ExportFormat::Glb,
            };
            let what = format!("export {}", path.display());
            let errors = world.resource::<Notices>().error_count();
            world.write_message(FileRequest::on(FileAction::Export(format), path));
            world.resource_mut::<Replay>().phase = Phase::Exporting {
                errors,
                what,
                waited: 0,
            };
            true
        }
        // Taken by `take_tool_step` above.
        Step::RetargetCapture(_)
        | Step::MapBone { .. }
        | Step::UnmapBone(_)
        | Step::ConfirmRetarget
        | Step::SetKeyInterpolation { .. }
        | Step::RotateJoint { .. }
        | Step::SetPanel { .. }
        | Step::SelectJoint(_)
        | Step::AddToSelection(_)
        | Step::MirrorPose
        | Step::MirrorLimb
        | Step::CopyPose
        | Step::PastePose { .. }
        | Step::SavePoseToLibrary(_)
        | Step::ApplyLibraryPose(_)
        | Step::FindFootContacts
        | Step::ShowSequence(_)
        | Step::MotionPlot(_) => false,
        Step::Exit => {
            world.resource_mut::<Replay>().phase = Phase::Exiting;
            true
        }
    }
}

/// A lock step: locks `part` as `kind` (and waits for the panels to settle), or fails the run.
fn lock(world: &mut World, part: Option<LockPart>, kind: LockKind, what: &str) -> bool {
    let Some(part) = part else {
        fail(world, format!("no {what}"));
        return true;
    };
    // The panels change with a new lock: let the layout settle before the next step.
    edit(world, Edit::Lock { part, kind }, 2, format!("lock {what}"))
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

/// The middle of a joint's bone (its origin to its first child, or to its capsule's end).
fn bone_middle(world: &World, name: &str) -> Option<Vec3> {
    let document = world.resource::<OpenDocument>();
    let (skeleton, fk) = (document.skeleton(), document.fk());
    let j = skeleton.joint_by_name(name)?;
    let joint = skeleton.joint(j);
    let end = match (joint.children.first(), &joint.shape) {
        (Some(&c), _) => fk.joint_position(c),
        (None, Some(marionette_skeleton::Shape::Capsule { end, .. })) => fk.point(j, end),
        (None, _) => fk.joint_position(j),
    };
    Some(crate::convert::vec3(&((fk.joint_position(j) + end) * 0.5)))
}

/// The large view's active camera.
pub(super) fn large_view_camera(world: &mut World) -> Option<(Entity, Camera, GlobalTransform)> {
    let large = world.resource::<Layout>().large;
    let mut cameras = world.query::<(Entity, &ViewCamera, &Camera, &GlobalTransform)>();
    cameras
        .iter(world)
        .find(|(_, v, camera, _)| v.view == large && camera.is_active)
        .map(|(e, _, c, t)| (e, c.clone(), *t))
}

/// The window pixel where `p` appears in the large view.
fn project_in_large_view(world: &mut World, p: Vec3) -> Option<Vec2> {
    let (_, camera, transform) = large_view_camera(world)?;
    let area = *world.resource::<crate::views::ViewArea>();
    let in_image = camera.world_to_viewport(&transform, p).ok()?;
    Some(area.to_window(in_image))
}

/// Where a drag's grip is now.
fn grip_position(world: &World, grip: &Grip) -> Option<Vec3> {
    let document = world.resource::<OpenDocument>();
    let (skeleton, fk) = (document.skeleton(), document.fk());
    let at = match grip {
        Grip::Site(name) => fk.site_position(skeleton.site_by_name(name)?),
        Grip::Joint(name) | Grip::Handle(name, _) => {
            fk.joint_position(skeleton.joint_by_name(name)?)
        }
    };
    Some(crate::convert::vec3(&at))
}

/// The press of a `DragJoint` lands on the joint's origin: a pick of that point through the
/// large view, nearer than anything picking finds there.
fn grip_joint(world: &mut World, name: &str) {
    let Some(at) = grip_position(world, &Grip::Joint(name.to_owned())) else {
        return;
    };
    let Some(joint) = world
        .resource::<OpenDocument>()
        .skeleton()
        .joint_by_name(name)
    else {
        return;
    };
    if let Some((camera, _, _)) = large_view_camera(world) {
        world.write_message(PickRequest {
            target: PickTarget::Joint(joint),
            hit: at,
            depth: f32::NEG_INFINITY,
            camera,
        });
    }
}

/// Begins a scripted drag of `grip` towards world point `to`; true (the step used the frame).
fn start_drag(world: &mut World, window: Entity, grip: Grip, to: [f64; 3], frames: u32) -> bool {
    let Some(at) = grip_position(world, &grip) else {
        fail(world, format!("no {grip}"));
        return true;
    };
    let target = crate::convert::array_vec3(&to);
    let (Some(from), Some(to_px)) = (
        project_in_large_view(world, at),
        project_in_large_view(world, target),
    ) else {
        fail(
            world,
            format!("{grip} or its target is not visible in the large view"),
        );
        return true;
    };
    move_cursor(world, window, from);
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip,
        from,
        to: to_px,
        frames: frames.max(1),
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES),
        path: Vec::new(),
        pending: None,
    });
    true
}

/// One frame of a scripted drag; the phase that follows (`None` when the replay failed and
/// already moved on).
pub(super) fn drag_frame(world: &mut World, window: Entity, mut drag: SiteDrag) -> Option<Phase> {
    if let (Some(degrees), Grip::Handle(joint, dof), DragStage::Settle(n)) =
        (drag.pending, &drag.grip, drag.stage)
        && n <= SETTLE_FRAMES
    {
        match super::rotate::rotate_path(world, &joint.clone(), *dof, degrees, false) {
            Ok(path) => {
                move_cursor(world, window, path[0]);
                drag.from = path[0];
                drag.to = path[path.len() - 1];
                drag.frames = (path.len() - 1) as u32;
                drag.path = path;
                drag.pending = None;
            }
            Err(text) => {
                fail(world, text);
                return None;
            }
        }
    }
    match drag.stage {
        DragStage::Settle(n) if n > 1 => drag.stage = DragStage::Settle(n - 1),
        DragStage::Settle(_) => {
            mouse(world, window, ButtonState::Pressed);
            if let Grip::Joint(name) = &drag.grip {
                grip_joint(world, name);
            }
            drag.stage = DragStage::Press;
        }
        DragStage::Press => {
            let gripped = match &drag.grip {
                Grip::Handle(name, dof) => {
                    let document = world.resource::<OpenDocument>();
                    let skeleton = document.skeleton();
                    let wanted = skeleton
                        .joint_by_name(name)
                        .and_then(|j| skeleton.joint_dofs(j).nth(*dof));
                    world
                        .resource::<crate::resources::ActiveDrag>()
                        .handle()
                        .is_some_and(|h| {
                            Some(h.kind)
                                == wanted.map(marionette_editing::rotate_handles::HandleKind::Hinge)
                        })
                }
                _ => world.resource::<OpenDocument>().drag().is_some(),
            };
            if !gripped {
                mouse(world, window, ButtonState::Released);
                fail(
                    world,
                    format!(
                        "the press at ({:.1}, {:.1}) did not start a drag on {} \
                         (is its handle hidden behind a panel or another body?)",
                        drag.from.x, drag.from.y, drag.grip
                    ),
                );
                return None;
            }
            drag.stage = DragStage::Move;
            drag_move(world, window, &mut drag);
        }
        DragStage::Move => drag_move(world, window, &mut drag),
        DragStage::Hold(n) if n > 1 => drag.stage = DragStage::Hold(n - 1),
        DragStage::Hold(_) => {
            mouse(world, window, ButtonState::Released);
            return Some(Phase::Ready);
        }
    }
    Some(Phase::Drag(drag))
}

/// Moves the cursor one step along the drag's line; after the last, the drag holds.
fn drag_move(world: &mut World, window: Entity, drag: &mut SiteDrag) {
    drag.frame += 1;
    let t = drag.frame as f32 / drag.frames as f32;
    let at = match drag.path.get(drag.frame as usize) {
        Some(&p) => p,
        None => drag.from.lerp(drag.to, t.min(1.0)),
    };
    move_cursor(world, window, at);
    if drag.frame >= drag.frames {
        drag.stage = DragStage::Hold(HOLD_FRAMES);
    }
}
