//! A script's steps as written, and the checks that turn them into [`Step`]s: every defect of a
//! step is found, so a script's errors are all reported at once.

use std::path::PathBuf;

use marionette_ik::SolverKind;
use serde::Deserialize;

use super::step::{ReplayInterpolation, ReplayLockKind, Step};

/// The file's text as written, before names are checked.
#[derive(Debug, Deserialize)]
#[serde(rename = "Replay")]
pub(super) struct ReplayFile(pub(super) Vec<RawStep>);

#[derive(Debug, Deserialize)]
pub(super) enum RawStep {
    Wait(u32),
    Move(f32, f32),
    Press,
    Release,
    Key(String),
    Type(String),
    SetView(String),
    SetSolver(String),
    DragSite {
        site: String,
        to: (f64, f64, f64),
        frames: u32,
    },
    Screenshot(String),
    SavePose(String),
    CheckResidual(f64),
    LockSite {
        site: String,
        kind: ReplayLockKind,
    },
    LockJoint {
        joint: String,
        kind: ReplayLockKind,
    },
    DragJoint {
        joint: String,
        to: (f64, f64, f64),
        frames: u32,
    },
    CheckLocks(f64),
    SaveDocument(String),
    OpenDocument(String),
    Recover(bool),
    SetFrame(i64),
    SetKey,
    DeleteKey,
    FindFootContacts,
    Play {
        frames: u32,
    },
    Export(String),
    ClickBone(String),
    MotionPlot(String),
    ShowSequence(String),
    RetargetCapture(String),
    MapBone {
        bone: String,
        capture: String,
        target: String,
    },
    SetKeyInterpolation {
        frame: i64,
        interpolation: ReplayInterpolation,
        #[serde(default)]
        ease: f64,
    },
    RotateJoint {
        joint: String,
        dof: usize,
        degrees: f64,
    },
    SetPanel {
        panel: String,
        shown: bool,
    },
    SelectJoint(String),
    AddToSelection(String),
    MirrorPose,
    MirrorLimb,
    CopyPose,
    PastePose {
        flipped: bool,
    },
    SavePoseToLibrary(String),
    ApplyLibraryPose(String),
    UnmapBone(String),
    ConfirmRetarget,
    CheckSelection(String),
    Exit,
}

pub(super) fn check_step(raw: RawStep) -> Result<Step, String> {
    Ok(match raw {
        RawStep::Wait(frames) => Step::Wait(frames),
        RawStep::Move(x, y) => {
            if !(x.is_finite() && y.is_finite()) {
                return Err(format!("Move({x}, {y}): pixel coordinates must be finite"));
            }
            Step::Move(x, y)
        }
        RawStep::Press => Step::Press,
        RawStep::Release => Step::Release,
        RawStep::Key(text) => Step::Key(text.parse()?),
        RawStep::Type(text) => {
            if text.chars().any(char::is_control) {
                return Err(format!(
                    "Type({text:?}): only printable characters can be typed (use Key for others)"
                ));
            }
            Step::Type(text)
        }
        RawStep::SetView(name) => Step::SetView(name.parse()?),
        RawStep::SetSolver(name) => Step::SetSolver(name.parse().map_err(|_| {
            let known: Vec<&str> = SolverKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown solver \"{name}\" (one of {})", known.join(", "))
        })?),
        RawStep::DragSite { site, to, frames } => {
            let to = drag_target(&format!("DragSite \"{site}\""), to, frames)?;
            Step::DragSite { site, to, frames }
        }
        RawStep::Screenshot(path) => Step::Screenshot(non_empty_path(path, "Screenshot")?),
        RawStep::SavePose(path) => Step::SavePose(non_empty_path(path, "SavePose")?),
        RawStep::CheckResidual(mm) => Step::CheckResidual(millimetres("CheckResidual", mm)?),
        RawStep::LockSite { site, kind } => Step::LockSite { site, kind },
        RawStep::LockJoint { joint, kind } => Step::LockJoint { joint, kind },
        RawStep::DragJoint { joint, to, frames } => {
            let to = drag_target(&format!("DragJoint \"{joint}\""), to, frames)?;
            Step::DragJoint { joint, to, frames }
        }
        RawStep::CheckLocks(mm) => Step::CheckLocks(millimetres("CheckLocks", mm)?),
        RawStep::SaveDocument(path) => Step::SaveDocument(non_empty_path(path, "SaveDocument")?),
        RawStep::OpenDocument(path) => Step::OpenDocument(non_empty_path(path, "OpenDocument")?),
        RawStep::Recover(recover) => Step::Recover(recover),
        RawStep::SetFrame(frame) => Step::SetFrame(frame),
        RawStep::SetKey => Step::SetKey,
        RawStep::DeleteKey => Step::DeleteKey,
        RawStep::FindFootContacts => Step::FindFootContacts,
        RawStep::Play { frames } => {
            if frames == 0 {
                return Err("Play: frames must be at least 1".into());
            }
            Step::Play { frames }
        }
        RawStep::Export(path) => {
            let path = non_empty_path(path, "Export")?;
            let known = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ["bvh", "glb", "json"].contains(&e.to_ascii_lowercase().as_str()));
            if !known {
                return Err(format!(
                    "Export: {} ends in none of .bvh, .glb, .json",
                    path.display()
                ));
            }
            Step::Export(path)
        }
        RawStep::ClickBone(joint) => Step::ClickBone(joint),
        RawStep::ShowSequence(name) => Step::ShowSequence(name),
        RawStep::RetargetCapture(path) => {
            Step::RetargetCapture(non_empty_path(path, "RetargetCapture")?)
        }
        RawStep::MapBone {
            bone,
            capture,
            target,
        } => Step::MapBone {
            bone: human_bone(bone, "MapBone")?,
            capture,
            target,
        },
        RawStep::UnmapBone(bone) => Step::UnmapBone(human_bone(bone, "UnmapBone")?),
        RawStep::ConfirmRetarget => Step::ConfirmRetarget,
        RawStep::SetKeyInterpolation {
            frame,
            interpolation,
            ease,
        } => {
            if !(ease.is_finite() && (0.0..=1.0).contains(&ease)) {
                return Err(format!(
                    "SetKeyInterpolation: ease {ease} is not between 0 and 1"
                ));
            }
            Step::SetKeyInterpolation {
                frame,
                interpolation: interpolation.key(),
                ease,
            }
        }
        RawStep::RotateJoint {
            joint,
            dof,
            degrees,
        } => {
            if !(degrees.is_finite() && degrees.abs() <= 720.0) {
                return Err(format!(
                    "RotateJoint: {degrees} degrees is not a number within ±720"
                ));
            }
            Step::RotateJoint {
                joint: non_empty(joint, "RotateJoint")?,
                dof,
                degrees,
            }
        }
        RawStep::SetPanel { panel, shown } => {
            if !["outliner", "ik", "timeline", "locks"].contains(&panel.as_str()) {
                return Err(format!(
                    "SetPanel: \"{panel}\" is none of outliner, ik, timeline, locks"
                ));
            }
            Step::SetPanel { panel, shown }
        }
        RawStep::SelectJoint(joint) => Step::SelectJoint(non_empty(joint, "SelectJoint")?),
        RawStep::AddToSelection(joint) => Step::AddToSelection(non_empty(joint, "AddToSelection")?),
        RawStep::MirrorPose => Step::MirrorPose,
        RawStep::MirrorLimb => Step::MirrorLimb,
        RawStep::CopyPose => Step::CopyPose,
        RawStep::PastePose { flipped } => Step::PastePose { flipped },
        RawStep::SavePoseToLibrary(name) => {
            Step::SavePoseToLibrary(non_empty(name, "SavePoseToLibrary")?)
        }
        RawStep::ApplyLibraryPose(name) => {
            Step::ApplyLibraryPose(non_empty(name, "ApplyLibraryPose")?)
        }
        RawStep::MotionPlot(site) => {
            if site.trim().is_empty() {
                return Err("MotionPlot: the site is empty".into());
            }
            Step::MotionPlot(site)
        }
        RawStep::CheckSelection(joint) => Step::CheckSelection(joint),
        RawStep::Exit => Step::Exit,
    })
}

/// A drag step's target, finite, over at least one frame.
fn drag_target(step: &str, to: (f64, f64, f64), frames: u32) -> Result<[f64; 3], String> {
    let to = [to.0, to.1, to.2];
    if to.iter().any(|v| !v.is_finite()) {
        return Err(format!("{step}: target {to:?} is not finite"));
    }
    if frames == 0 {
        return Err(format!("{step}: frames must be at least 1"));
    }
    Ok(to)
}

/// A check's bound: a number of millimetres > 0.
fn millimetres(step: &str, mm: f64) -> Result<f64, String> {
    if mm.is_finite() && mm > 0.0 {
        Ok(mm)
    } else {
        Err(format!("{step}: {mm} is not a number of millimetres > 0"))
    }
}

/// A name that is not empty.
fn non_empty(name: String, step: &str) -> Result<String, String> {
    if name.trim().is_empty() {
        Err(format!("{step}: the name is empty"))
    } else {
        Ok(name)
    }
}

/// A humanoid bone's name (VRM's), checked.
fn human_bone(bone: String, step: &str) -> Result<String, String> {
    use marionette_interchange::character::humanoid::HumanBone;
    if HumanBone::from_vrm_name(&bone).is_some() {
        Ok(bone)
    } else {
        Err(format!(
            "{step}: \"{bone}\" is not a humanoid bone (VRM's names: hips, leftUpperArm, …)"
        ))
    }
}

fn non_empty_path(path: String, step: &str) -> Result<PathBuf, String> {
    if path.trim().is_empty() {
        Err(format!("{step}: the path is empty"))
    } else {
        Ok(PathBuf::from(path))
    }
}
