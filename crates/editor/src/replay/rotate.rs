//! The replay's `RotateJoint` step: the joint selected, and a few frames later (the panels
//! change with a selection, and the views with them) its hinge's ring pressed where it shows
//! best in the large view, the cursor moved round the ring by the angle asked for, a few degrees
//! a frame, held and released: the mouse's path, through the handle, as a user would turn it.

use bevy::prelude::*;
use marionette_editing::rotate_handles::{HandleKind, across};
use marionette_skeleton::DofKind;
use nalgebra::{Rotation3, Unit};

use super::steps::{SETTLE_FRAMES, large_view_camera};
use super::{DragStage, Grip, Phase, Replay, SiteDrag, fail};
use crate::resources::OpenDocument;
use crate::selection::Selection;

/// Degrees the cursor goes round the ring per frame.
const DEGREES_PER_FRAME: f64 = 4.0;

/// Frames between selecting the joint and computing the mouse's path.
const LAYOUT_FRAMES: u32 = 3;

/// Starts turning `joint`'s hinge number `dof` (from 0) by `degrees` through its ring: selects
/// the joint now; the path is made when the layout has settled ([`rotate_path`]).
pub(super) fn start_rotate(world: &mut World, joint: &str, dof: usize, degrees: f64) -> bool {
    if let Err(text) = rotate_path(world, joint, dof, degrees, true) {
        fail(world, text);
        return true;
    }
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip: Grip::Handle(joint.to_owned(), dof),
        from: Vec2::ZERO,
        to: Vec2::ZERO,
        frames: 1,
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES + LAYOUT_FRAMES),
        path: Vec::new(),
        pending: Some(degrees),
    });
    true
}

/// The mouse's path round the ring of `joint`'s hinge `dof` turning it by `degrees`, window
/// pixels, one a frame (with `select_only`, the joint is selected and nothing else is done).
pub(super) fn rotate_path(
    world: &mut World,
    joint: &str,
    dof: usize,
    degrees: f64,
    select_only: bool,
) -> Result<Vec<Vec2>, String> {
    let found = world.resource_scope(|world, document: Mut<OpenDocument>| {
        let skeleton = document.skeleton();
        let j = skeleton
            .joint_by_name(joint)
            .ok_or_else(|| format!("no joint \"{joint}\""))?;
        let d = skeleton
            .joint_dofs(j)
            .nth(dof)
            .ok_or_else(|| format!("joint \"{joint}\" has no DOF {dof} (they count from 0)"))?;
        if skeleton.dof(d).kind != DofKind::Hinge {
            return Err(format!("DOF {dof} of \"{joint}\" is a slide, not a hinge"));
        }
        world.resource_mut::<Selection>().select(&document, Some(j));
        let (mine, others): (Vec<_>, Vec<_>) = document
            .handles(j)
            .into_iter()
            .partition(|h| h.kind == HandleKind::Hinge(d));
        let handle = mine
            .first()
            .copied()
            .ok_or_else(|| format!("joint \"{joint}\" has no ring for DOF {dof}"))?;
        Ok((handle, others))
    });
    let (handle, others) = found?;
    if select_only {
        return Ok(Vec::new());
    }
    let (_, camera, transform) = large_view_camera(world).ok_or("no large view")?;
    let forward = crate::convert::vector(transform.forward().as_vec3());
    if handle.axis.dot(&forward).abs() < 0.26 {
        return Err(format!(
            "the ring of \"{joint}\" DOF {dof} is seen edge-on in the large view; turn it in \
             another view"
        ));
    }
    let axis = Unit::new_normalize(handle.axis);
    let start = across(&handle.axis) * handle.size;
    let pixel = |angle: f64| {
        let p = handle.centre + Rotation3::from_axis_angle(&axis, angle) * start;
        camera
            .world_to_viewport(&transform, crate::convert::vec3(&p))
            .ok()
    };
    let centre = camera
        .world_to_viewport(&transform, crate::convert::vec3(&handle.centre))
        .map_err(|_| format!("joint \"{joint}\" is not in the large view"))?;
    // Grip the ring where it is seen wide (at least 60 % of its widest, away from its centre
    // on the screen) and the other rings of the joint pass farthest from the cursor's ray (the
    // rings of one joint cross each other).
    let candidates: Vec<(f64, Vec2)> = (0..48)
        .map(|k| std::f64::consts::TAU * f64::from(k) / 48.0)
        .filter_map(|a| Some((a, pixel(a)?)))
        .collect();
    let widest = candidates
        .iter()
        .map(|(_, p)| p.distance(centre))
        .fold(0.0f32, f32::max);
    let clearance = |p: Vec2| {
        camera
            .viewport_to_world(&transform, p)
            .ok()
            .as_ref()
            .and_then(crate::convert::ray)
            .map_or(0.0, |ray| {
                others
                    .iter()
                    .map(|h| h.distance(&ray))
                    .fold(f64::INFINITY, f64::min)
            })
    };
    let grip = candidates
        .iter()
        .filter(|(_, p)| p.distance(centre) >= 0.6 * widest)
        .map(|&(a, p)| (a, clearance(p)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| a);
    let steps = ((degrees.abs() / DEGREES_PER_FRAME).ceil() as usize).max(2);
    let path: Option<Vec<Vec2>> = grip.and_then(|g| {
        (0..=steps)
            .map(|k| pixel(g + degrees.to_radians() * k as f64 / steps as f64))
            .collect()
    });
    // The path in window pixels (the camera's are the views' image's).
    let area = *world.resource::<crate::views::ViewArea>();
    path.map(|p| p.into_iter().map(|q| area.to_window(q)).collect())
        .ok_or_else(|| format!("the ring of \"{joint}\" is not in the large view"))
}
