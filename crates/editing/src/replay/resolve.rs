//! A step resolved against the document open when it is taken: names become joints, sites,
//! sequences and DOFs of that document, the checks that read only the document are decided
//! here, and the rest becomes the [`Action`] the editor's player carries out.

use marionette_document::{LockPart, Violation};
use marionette_skeleton::{DofKind, JointId, Shape};
use nalgebra::Vector3;

use super::action::{Action, DragGrip, Panel, ReplayContext, Window};
use super::check::{export_format, solver};
use super::keys::KeyChord;
use super::names::Names;
use super::step::Step;
use crate::Edit;
use crate::beside::BesideChange;
use crate::document::Document;

/// The action of applying `edit`, given `frames` to settle, described as `what`.
pub(super) fn edit(edit: Edit, frames: u32, what: String) -> Action {
    Action::Edit { edit, frames, what }
}

/// The panel `name` names (`SetPanel`).
fn panel_named(name: &str) -> Result<Panel, String> {
    Ok(match name {
        "outliner" => Panel::Outliner,
        "ik" => Panel::Ik,
        "timeline" => Panel::Timeline,
        "locks" => Panel::Locks,
        other => return Err(format!("SetPanel: no panel \"{other}\"")),
    })
}

/// A point on the stage in the edited figure's frame (where the editor draws).
pub(super) fn on_stage(document: &Document, (x, y, z): (f64, f64, f64)) -> Vector3<f64> {
    (document.stage_to_figure() * nalgebra::Point3::new(x, y, z)).coords
}
use crate::file_action::FileAction;

/// Frames an edit that changes the panels (a new lock, a new key) is given to settle.
pub(super) const SETTLE: u32 = 2;

impl Step {
    /// What the player does for this step on `document`, or why it cannot be done (the run
    /// then fails naming the step).
    pub fn resolve(
        &self,
        document: &Document,
        context: ReplayContext<'_>,
    ) -> Result<Action, String> {
        let find = Names(document);
        let file = |action: FileAction, path: &std::path::Path, what: &str| Action::File {
            action,
            path: path.to_path_buf(),
            what: format!("{what} {}", path.display()),
        };
        Ok(match self {
            Step::Wait(frames) => Action::Wait((*frames).max(1)),
            Step::Move(x, y) => Action::MoveCursor(*x, *y),
            Step::Press => Action::Button(true),
            Step::Release => Action::Button(false),
            Step::Key(text) => Action::Key(text.parse::<KeyChord>()?),
            Step::Type(text) => Action::Type(text.clone()),
            Step::SetView(name) => Action::SetView(name.parse()?),
            Step::SetSolver(name) => Action::SetSolver(solver(name)?),
            // `to` is on the stage; the editor draws in the edited figure's frame.
            Step::DragSite { site, to, frames } => Action::Drag {
                grip: DragGrip::Site(find.site(site)?),
                to: on_stage(document, *to),
                frames: (*frames).max(1),
            },
            Step::DragJoint { joint, to, frames } => Action::Drag {
                grip: DragGrip::Joint(find.joint(joint)?),
                to: on_stage(document, *to),
                frames: (*frames).max(1),
            },
            Step::Screenshot(path) => Action::Screenshot(path.clone()),
            Step::SavePose(path) => file(FileAction::SavePoseAs, path, "save the pose to"),
            Step::CheckResidual(mm) => Action::CheckResidual(*mm),
            Step::CheckLocks(mm) => match locks_beyond(document, *mm) {
                None => Action::Nothing,
                Some(broken) => return Err(broken),
            },
            Step::SaveDocument(path) => {
                file(FileAction::SaveDocumentAs, path, "save the document to")
            }
            Step::OpenDocument(path) => file(FileAction::OpenDocument, path, "open the document"),
            Step::Recover(recover) => Action::Recover(*recover),
            Step::SetFrame(..)
            | Step::SetKey
            | Step::DeleteKey
            | Step::ShowTrail { .. }
            | Step::DragTrail { .. }
            | Step::ShowCurves
            | Step::KeySelectedJoints
            | Step::MoveKeys { .. }
            | Step::KeyDof { .. }
            | Step::SetHandles { .. }
            | Step::AutoHandles { .. }
            | Step::DragCurvePoints { .. }
            | Step::FindFootContacts
            | Step::Play { .. } => self.resolve_timeline(document, context)?,
            Step::Export(path) => Action::Export {
                format: export_format(path)?,
                path: path.clone(),
            },
            Step::MotionPlot(site) => {
                find.site(site)?;
                Action::Show(Window::MotionPlot(site.clone()))
            }
            Step::ShowSequence(name) => {
                let index = document
                    .sequences()
                    .iter()
                    .position(|s| &s.name == name)
                    .ok_or_else(|| format!("no sequence \"{name}\""))?;
                edit(
                    Edit::SelectSequence(Some(index)),
                    SETTLE,
                    format!("show sequence {name}"),
                )
            }
            Step::RetargetCapture(path) => file(FileAction::RetargetCapture, path, "retarget"),
            Step::MapBone {
                bone,
                capture,
                target,
            } => {
                let mut plan = open_plan(context)?;
                plan.choose(bone, Some((capture, target)))
                    .map_err(|e| format!("retarget map: {e}"))?;
                Action::SetRetargetPlan(plan)
            }
            Step::UnmapBone(bone) => {
                let mut plan = open_plan(context)?;
                plan.choose(bone, None)
                    .map_err(|e| format!("retarget map: {e}"))?;
                Action::SetRetargetPlan(plan)
            }
            Step::ConfirmRetarget => {
                let plan = context
                    .retarget
                    .ok_or("ConfirmRetarget: the retarget map window is not open")?;
                Action::ConfirmRetarget(plan.edit())
            }
            Step::SetKeyInterpolation {
                frame,
                interpolation,
                ease,
            } => edit(
                Edit::SetKeyInterpolation {
                    frame: *frame,
                    interpolation: interpolation.key(),
                    ease: *ease,
                },
                SETTLE,
                format!("set the interpolation of the key at frame {frame}"),
            ),
            Step::SetPanel { panel, shown } => Action::SetPanel(panel_named(panel)?, *shown),
            Step::AddFigure { .. }
            | Step::SelectFigure(..)
            | Step::LockBetween { .. }
            | Step::LockToProp { .. }
            | Step::AddProp { .. }
            | Step::Grip { .. }
            | Step::KeyProp(..)
            | Step::RemovePropKey { .. }
            | Step::RemoveHold { .. }
            | Step::ReleaseProp { .. } => self.resolve_stage_step()?,
            Step::ShowPhysics(..)
            | Step::ShowStagePhysics(..)
            | Step::PhysicsGhost { .. }
            | Step::AcceptGhost
            | Step::DiscardGhost
            | Step::MarkStanding { .. } => self.resolve_physics(document),
            Step::Exit => Action::Exit,
            Step::LockSite { .. }
            | Step::LockJoint { .. }
            | Step::ClickBone(..)
            | Step::RotateJoint { .. }
            | Step::SelectJoint(..)
            | Step::AddToSelection(..)
            | Step::MirrorPose
            | Step::MirrorLimb
            | Step::CopyPose
            | Step::PastePose { .. }
            | Step::SavePoseToLibrary(..)
            | Step::ApplyLibraryPose(..)
            | Step::CheckSelection(..) => self.resolve_posing(document, context)?,
        })
    }

    /// [`Step::resolve`] of a step that poses the figure, locks it or selects its joints.
    fn resolve_posing(
        &self,
        document: &Document,
        context: ReplayContext<'_>,
    ) -> Result<Action, String> {
        let find = Names(document);
        Ok(match self {
            Step::LockSite { site, kind } => edit(
                Edit::Lock {
                    part: LockPart::Site(find.site(site)?),
                    kind: kind.kind(),
                },
                SETTLE,
                format!("lock site \"{site}\""),
            ),
            Step::LockJoint { joint, kind } => edit(
                Edit::Lock {
                    part: LockPart::Point(find.joint(joint)?, Vector3::zeros()),
                    kind: kind.kind(),
                },
                SETTLE,
                format!("lock joint \"{joint}\""),
            ),
            Step::ClickBone(joint) => Action::Click(bone_middle(document, find.joint(joint)?)),
            Step::RotateJoint {
                joint,
                dof,
                degrees,
            } => {
                let j = find.joint(joint)?;
                let skeleton = document.skeleton();
                let d = skeleton.joint_dofs(j).nth(*dof).ok_or_else(|| {
                    format!("joint \"{joint}\" has no DOF {dof} (they count from 0)")
                })?;
                if skeleton.dof(d).kind != DofKind::Hinge {
                    return Err(format!("DOF {dof} of \"{joint}\" is a slide, not a hinge"));
                }
                Action::Rotate {
                    joint: j,
                    dof: d,
                    degrees: *degrees,
                }
            }
            Step::SelectJoint(joint) => Action::Select {
                joint: find.joint(joint)?,
                add: false,
            },
            Step::AddToSelection(joint) => Action::Select {
                joint: find.joint(joint)?,
                add: true,
            },
            Step::MirrorPose => edit(Edit::MirrorPose, SETTLE, "mirror the pose".into()),
            Step::MirrorLimb => {
                let joint = context
                    .selected
                    .last()
                    .ok_or("MirrorLimb: no joint is selected")?;
                edit(Edit::MirrorLimb(*joint), SETTLE, "mirror the limb".into())
            }
            Step::CopyPose => Action::Beside(BesideChange::CopyPose(context.selected.to_vec())),
            Step::PastePose { flipped } => {
                Action::Beside(BesideChange::PastePose { flipped: *flipped })
            }
            Step::SavePoseToLibrary(name) => Action::Then(vec![
                Action::Show(Window::PoseLibrary),
                edit(
                    Edit::SavePoseToLibrary(name.clone()),
                    SETTLE,
                    format!("save {name} to the pose library"),
                ),
            ]),
            Step::ApplyLibraryPose(name) => edit(
                Edit::ApplyLibraryPose {
                    name: name.clone(),
                    blend: 1.0,
                    joints: Vec::new(),
                },
                SETTLE,
                format!("apply {name}"),
            ),
            Step::CheckSelection(joint) => Action::CheckSelection(find.joint(joint)?),
            other => return Err(format!("{other:?} is not a posing step")),
        })
    }
}

/// The retarget map window's plan, to change.
fn open_plan(context: ReplayContext<'_>) -> Result<crate::retarget_capture::RetargetPlan, String> {
    context
        .retarget
        .cloned()
        .ok_or_else(|| "retarget map: the retarget map window is not open".to_owned())
}

/// The locks holding now (enabled, and on the current frame while a sequence is shown) that
/// are off by more than `max_mm` millimetres (or milliradians), named with how far.
fn locks_beyond(document: &Document, max_mm: f64) -> Option<String> {
    let frame = document.lock_frame();
    let violations: Vec<Violation> = document.lock_violations();
    let broken: Vec<String> = document
        .locks()
        .iter()
        .zip(&violations)
        .filter(|(l, v)| l.active_at(frame) && v.largest() * 1000.0 > max_mm)
        .map(|(l, v)| format!("\"{}\" gave way by {v}", l.name))
        .collect();
    (!broken.is_empty()).then(|| format!("locks beyond {max_mm} mm: {}", broken.join(", ")))
}

/// The middle of a joint's bone (its origin to its first child, or to its capsule's end).
fn bone_middle(document: &Document, j: JointId) -> Vector3<f64> {
    let (skeleton, fk) = (document.skeleton(), document.fk());
    let joint = skeleton.joint(j);
    let end = match (joint.children.first(), &joint.shape) {
        (Some(&c), _) => fk.joint_position(c),
        (None, Some(Shape::Capsule { end, .. })) => fk.point(j, end),
        (None, _) => fk.joint_position(j),
    };
    (fk.joint_position(j) + end) * 0.5
}
