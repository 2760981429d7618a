//! The replay steps of the animator's tools and of the Sequence menu: selecting joints, the
//! Pose menu, the pose library, a key's interpolation, the rotate handles, the panels, the
//! retarget map window's rows and button, the foot contacts, the shown sequence, the motion plot. Each acts as the menu, window or handle does.

use bevy::prelude::*;
use marionette_editing::{Edit, Step};

use super::fail;
use super::steps::{edit, file};
use crate::messages::FileAction;
use crate::panels::retarget_map::PendingRetarget;
use crate::resources::{Display, OpenDocument};
use crate::selection::Selection;

/// Carries out `step` if it is one of these: `Ok(true)` when it used up this frame; the step
/// back when it is not.
pub(super) fn take_tool_step(world: &mut World, step: Step) -> Result<bool, Step> {
    Ok(match step {
        Step::RetargetCapture(path) => file(world, FileAction::RetargetCapture, path, "retarget"),
        Step::MapBone {
            bone,
            capture,
            target,
        } => change_map(world, &bone, Some((&capture, &target))),
        Step::UnmapBone(bone) => change_map(world, &bone, None),
        Step::SetKeyInterpolation {
            frame,
            interpolation,
            ease,
        } => edit(
            world,
            Edit::SetKeyInterpolation {
                frame,
                interpolation,
                ease,
            },
            2,
            format!("set the interpolation of the key at frame {frame}"),
        ),
        Step::RotateJoint {
            joint,
            dof,
            degrees,
        } => super::rotate::start_rotate(world, &joint, dof, degrees),
        Step::SetPanel { panel, shown } => {
            let mut panels = world.resource_mut::<crate::panels::panel_memory::PanelLayout>();
            match panel.as_str() {
                "outliner" => panels.outliner.shown = shown,
                "ik" => panels.ik.shown = shown,
                "timeline" => panels.timeline.shown = shown,
                _ => panels.locks.shown = shown,
            }
            true
        }
        Step::SelectJoint(name) => select(world, &name, false),
        Step::AddToSelection(name) => select(world, &name, true),
        Step::MirrorPose => edit(world, Edit::MirrorPose, 2, "mirror the pose".into()),
        Step::MirrorLimb => {
            let joints = selected(world);
            let Some(&joint) = joints.last() else {
                fail(world, "MirrorLimb: no joint is selected".into());
                return Ok(true);
            };
            edit(world, Edit::MirrorLimb(joint), 2, "mirror the limb".into())
        }
        Step::CopyPose => {
            let joints = selected(world);
            edit(world, Edit::CopyPose(joints), 2, "copy the pose".into())
        }
        Step::PastePose { flipped } => edit(
            world,
            Edit::PastePose { flipped },
            2,
            "paste the pose".into(),
        ),
        Step::SavePoseToLibrary(name) => {
            world.resource_mut::<Display>().pose_library = true;
            edit(
                world,
                Edit::SavePoseToLibrary(name.clone()),
                2,
                format!("save {name} to the pose library"),
            )
        }
        Step::ApplyLibraryPose(name) => edit(
            world,
            Edit::ApplyLibraryPose {
                name: name.clone(),
                blend: 1.0,
                joints: Vec::new(),
            },
            2,
            format!("apply {name}"),
        ),
        Step::ConfirmRetarget => {
            let Some(plan) = world.resource_mut::<PendingRetarget>().0.take() else {
                fail(
                    world,
                    "ConfirmRetarget: the retarget map window is not open".into(),
                );
                return Ok(true);
            };
            let what = format!("retarget {}", plan.path.display());
            edit(world, PendingRetarget::edit(&plan), 2, what)
        }
        Step::FindFootContacts => edit(
            world,
            Edit::FindFootContacts,
            2,
            "find the foot contacts".into(),
        ),
        Step::ShowSequence(name) => {
            let index = world
                .resource::<OpenDocument>()
                .sequences()
                .iter()
                .position(|s| s.name == name);
            let Some(index) = index else {
                fail(world, format!("no sequence \"{name}\""));
                return Ok(true);
            };
            edit(
                world,
                Edit::SelectSequence(Some(index)),
                2,
                format!("show sequence {name}"),
            )
        }
        Step::MotionPlot(site) => {
            let known = world
                .resource::<OpenDocument>()
                .skeleton()
                .site_by_name(&site)
                .is_some();
            if !known {
                fail(world, format!("no site \"{site}\""));
                return Ok(true);
            }
            world.resource_mut::<Display>().motion_plot = true;
            world.resource_mut::<crate::panels::motion::MotionSite>().0 = Some(site);
            true
        }
        other => return Err(other),
    })
}

/// Selects the joint `name` (alone, or `add`ed to the selection as Shift+click does).
fn select(world: &mut World, name: &str, add: bool) -> bool {
    let failed = world.resource_scope(|world, document: Mut<OpenDocument>| {
        let joint = document.skeleton().joint_by_name(name)?;
        let mut selection = world.resource_mut::<Selection>();
        if add {
            selection.extend(&document, joint);
        } else {
            selection.select(&document, Some(joint));
        }
        Some(())
    });
    if failed.is_none() {
        fail(world, format!("no joint \"{name}\""));
    }
    true
}

/// The joints selected now.
fn selected(world: &World) -> Vec<marionette_skeleton::JointId> {
    world
        .resource::<Selection>()
        .joints(&world.resource::<OpenDocument>().0)
}

/// Changes a row of the open retarget map window, as its combo boxes do.
fn change_map(world: &mut World, bone: &str, joints: Option<(&str, &str)>) -> bool {
    let changed = match &mut world.resource_mut::<PendingRetarget>().0 {
        Some(plan) => plan.choose(bone, joints),
        None => Err("the retarget map window is not open".into()),
    };
    if let Err(e) = changed {
        fail(world, format!("retarget map: {e}"));
    }
    true
}
