//! What can be wrong with a step whatever document is open: names of views, solvers, keys and
//! humanoid bones that do not exist, numbers that are not finite or out of range, empty paths
//! and names. [`Script`](super::Script) asks every step, so all of a script's defects are
//! reported at once.

use std::path::Path;

use marionette_ik::SolverKind;

use super::keys::KeyChord;
use super::step::Step;
use crate::view::View;

/// The panels a `SetPanel` step may name.
pub const PANELS: [&str; 4] = ["outliner", "ik", "timeline", "locks"];

/// The extensions an `Export` step's path may end in.
pub const EXPORT_EXTENSIONS: [&str; 3] = ["bvh", "glb", "json"];

impl Step {
    /// What is wrong with the step, if anything, before any document is open.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Step::Move(x, y) if !(x.is_finite() && y.is_finite()) => {
                Err(format!("Move({x}, {y}): pixel coordinates must be finite"))
            }
            Step::Key(text) => text.parse::<KeyChord>().map(drop),
            Step::Type(text) if text.chars().any(char::is_control) => Err(format!(
                "Type({text:?}): only printable characters can be typed (use Key for others)"
            )),
            Step::SetView(name) => name.parse::<View>().map(drop),
            Step::SetSolver(name) => solver(name).map(drop),
            Step::DragSite { site, to, frames } => {
                drag_target(&format!("DragSite \"{site}\""), *to, *frames)
            }
            Step::DragJoint { joint, to, frames } => {
                drag_target(&format!("DragJoint \"{joint}\""), *to, *frames)
            }
            Step::Screenshot(path) => non_empty_path(path, "Screenshot"),
            Step::AddFigure {
                name,
                file,
                at,
                facing,
            } => {
                if name.trim().is_empty() {
                    return Err("AddFigure: the figure needs a name".into());
                }
                if !(at.0.is_finite() && at.1.is_finite() && facing.is_finite()) {
                    return Err(format!(
                        "AddFigure \"{name}\": at and facing must be finite"
                    ));
                }
                non_empty_path(file, "AddFigure")
            }
            Step::AddProp {
                name, at, rotation, ..
            } if ![at.0, at.1, at.2, rotation.0, rotation.1, rotation.2]
                .iter()
                .all(|v| v.is_finite()) =>
            {
                Err(format!(
                    "AddProp \"{name}\": at and rotation must be finite"
                ))
            }
            Step::SavePose(path) => non_empty_path(path, "SavePose"),
            Step::SaveDocument(path) => non_empty_path(path, "SaveDocument"),
            Step::OpenDocument(path) => non_empty_path(path, "OpenDocument"),
            Step::RetargetCapture(path) => non_empty_path(path, "RetargetCapture"),
            Step::CheckResidual(mm) => millimetres("CheckResidual", *mm),
            Step::CheckLocks(mm) => millimetres("CheckLocks", *mm),
            Step::Play { frames: 0 } => Err("Play: frames must be at least 1".into()),
            Step::Export(path) => {
                non_empty_path(path, "Export")?;
                export_format(path).map(drop)
            }
            Step::MapBone { bone, .. } => human_bone(bone, "MapBone"),
            Step::UnmapBone(bone) => human_bone(bone, "UnmapBone"),
            Step::SetKeyInterpolation { ease, .. }
                if !(ease.is_finite() && (0.0..=1.0).contains(ease)) =>
            {
                Err(format!(
                    "SetKeyInterpolation: ease {ease} is not between 0 and 1"
                ))
            }
            Step::RotateJoint { joint, degrees, .. } => {
                if !(degrees.is_finite() && degrees.abs() <= 720.0) {
                    return Err(format!(
                        "RotateJoint: {degrees} degrees is not a number within ±720"
                    ));
                }
                non_empty(joint, "RotateJoint")
            }
            Step::SetPanel { panel, .. } if !PANELS.contains(&panel.as_str()) => Err(format!(
                "SetPanel: \"{panel}\" is none of {}",
                PANELS.join(", ")
            )),
            Step::SelectJoint(joint) => non_empty(joint, "SelectJoint"),
            Step::AddToSelection(joint) => non_empty(joint, "AddToSelection"),
            Step::SavePoseToLibrary(name) => non_empty(name, "SavePoseToLibrary"),
            Step::ApplyLibraryPose(name) => non_empty(name, "ApplyLibraryPose"),
            Step::MotionPlot(site) if site.trim().is_empty() => {
                Err("MotionPlot: the site is empty".into())
            }
            Step::PhysicsGhost { .. } | Step::MarkStanding { .. } => self.check_physics(),
            // Nothing to check before a document is open (every step is named, so a new one
            // must be placed here or above).
            Step::Wait(..)
            | Step::Move(..)
            | Step::Press
            | Step::Release
            | Step::Type(..)
            | Step::LockSite { .. }
            | Step::LockJoint { .. }
            | Step::Recover(..)
            | Step::SetFrame(..)
            | Step::SetKey
            | Step::DeleteKey
            | Step::KeySelectedJoints
            | Step::ShowCurves
            | Step::ShowTrail { .. }
            | Step::ShowPhysics(..)
            | Step::ShowStagePhysics(..)
            | Step::AcceptGhost
            | Step::DiscardGhost
            | Step::DragTrail { .. }
            | Step::MoveKeys { .. }
            | Step::KeyDof { .. }
            | Step::SetHandles { .. }
            | Step::AutoHandles { .. }
            | Step::DragCurvePoints { .. }
            | Step::FindFootContacts
            | Step::Play { .. }
            | Step::ClickBone(..)
            | Step::SetPanel { .. }
            | Step::MirrorPose
            | Step::MirrorLimb
            | Step::CopyPose
            | Step::PastePose { .. }
            | Step::ConfirmRetarget
            | Step::ShowSequence(..)
            | Step::MotionPlot(..)
            | Step::CheckSelection(..)
            | Step::SelectFigure(..)
            | Step::LockBetween { .. }
            | Step::LockToProp { .. }
            | Step::Grip { .. }
            | Step::KeyProp(..)
            | Step::RemovePropKey { .. }
            | Step::RemoveHold { .. }
            | Step::ReleaseProp { .. }
            | Step::SetKeyInterpolation { .. }
            | Step::AddProp { .. }
            | Step::Exit => Ok(()),
        }
    }
}

/// The part of the open figure a step names, checked against its skeleton before a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedPart<'a> {
    /// A site.
    Site(&'a str),
    /// A joint.
    Joint(&'a str),
}

impl Step {
    /// The site or joint of the open figure this step names, if any. Every step is named, so a
    /// new one must be placed here (trails, curves, figures and props are checked when taken).
    pub fn named_part(&self) -> Option<NamedPart<'_>> {
        match self {
            Step::DragSite { site, .. } | Step::LockSite { site, .. } => {
                Some(NamedPart::Site(site))
            }
            Step::DragJoint { joint, .. }
            | Step::LockJoint { joint, .. }
            | Step::ClickBone(joint)
            | Step::CheckSelection(joint)
            | Step::MoveKeys { joint, .. }
            | Step::RotateJoint { joint, .. }
            | Step::SelectJoint(joint)
            | Step::AddToSelection(joint) => Some(NamedPart::Joint(joint)),
            Step::Wait(..)
            | Step::Move(..)
            | Step::Press
            | Step::Release
            | Step::Key(..)
            | Step::Type(..)
            | Step::SetView(..)
            | Step::SetSolver(..)
            | Step::Screenshot(..)
            | Step::SavePose(..)
            | Step::CheckResidual(..)
            | Step::CheckLocks(..)
            | Step::SaveDocument(..)
            | Step::OpenDocument(..)
            | Step::Recover(..)
            | Step::SetFrame(..)
            | Step::SetKey
            | Step::DeleteKey
            | Step::KeySelectedJoints
            | Step::ShowCurves
            | Step::ShowTrail { .. }
            | Step::ShowPhysics(..)
            | Step::ShowStagePhysics(..)
            | Step::PhysicsGhost { .. }
            | Step::AcceptGhost
            | Step::DiscardGhost
            | Step::MarkStanding { .. }
            | Step::DragTrail { .. }
            | Step::KeyDof { .. }
            | Step::SetHandles { .. }
            | Step::AutoHandles { .. }
            | Step::DragCurvePoints { .. }
            | Step::FindFootContacts
            | Step::Play { .. }
            | Step::RetargetCapture(..)
            | Step::SetKeyInterpolation { .. }
            | Step::SetPanel { .. }
            | Step::MirrorPose
            | Step::MirrorLimb
            | Step::CopyPose
            | Step::PastePose { .. }
            | Step::SavePoseToLibrary(..)
            | Step::ApplyLibraryPose(..)
            | Step::MapBone { .. }
            | Step::UnmapBone(..)
            | Step::ConfirmRetarget
            | Step::ShowSequence(..)
            | Step::MotionPlot(..)
            | Step::Export(..)
            | Step::AddFigure { .. }
            | Step::SelectFigure(..)
            | Step::LockBetween { .. }
            | Step::LockToProp { .. }
            | Step::AddProp { .. }
            | Step::Grip { .. }
            | Step::KeyProp(..)
            | Step::RemovePropKey { .. }
            | Step::RemoveHold { .. }
            | Step::ReleaseProp { .. }
            | Step::Exit => None,
        }
    }
}

/// The solver of that short name.
pub(super) fn solver(name: &str) -> Result<SolverKind, String> {
    name.parse().map_err(|_| {
        let known: Vec<&str> = SolverKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown solver \"{name}\" (one of {})", known.join(", "))
    })
}

/// The export format an `Export` step's path names by its extension.
pub(super) fn export_format(path: &Path) -> Result<crate::exchange::ExportFormat, String> {
    use crate::exchange::ExportFormat;
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("bvh") => Ok(ExportFormat::Bvh),
        Some("glb") => Ok(ExportFormat::Glb),
        Some("json") => Ok(ExportFormat::Json),
        _ => Err(format!(
            "Export: {} ends in none of .{}",
            path.display(),
            EXPORT_EXTENSIONS.join(", .")
        )),
    }
}

/// A drag step's target, finite, over at least one frame.
fn drag_target(step: &str, to: (f64, f64, f64), frames: u32) -> Result<(), String> {
    let to = [to.0, to.1, to.2];
    if to.iter().any(|v| !v.is_finite()) {
        return Err(format!("{step}: target {to:?} is not finite"));
    }
    if frames == 0 {
        return Err(format!("{step}: frames must be at least 1"));
    }
    Ok(())
}

/// A check's bound: a number of millimetres > 0.
fn millimetres(step: &str, mm: f64) -> Result<(), String> {
    if mm.is_finite() && mm > 0.0 {
        Ok(())
    } else {
        Err(format!("{step}: {mm} is not a number of millimetres > 0"))
    }
}

/// A name that is not empty.
fn non_empty(name: &str, step: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        Err(format!("{step}: the name is empty"))
    } else {
        Ok(())
    }
}

/// A humanoid bone's name (VRM's).
fn human_bone(bone: &str, step: &str) -> Result<(), String> {
    use marionette_interchange::character::humanoid::HumanBone;
    if HumanBone::from_vrm_name(bone).is_some() {
        Ok(())
    } else {
        Err(format!(
            "{step}: \"{bone}\" is not a humanoid bone (VRM's names: hips, leftUpperArm, …)"
        ))
    }
}

/// A path that is not empty.
fn non_empty_path(path: &Path, step: &str) -> Result<(), String> {
    if path.as_os_str().to_string_lossy().trim().is_empty() {
        Err(format!("{step}: the path is empty"))
    } else {
        Ok(())
    }
}
