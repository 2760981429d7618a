//! The replay's `RotateJoint` step: the joint selected, its hinge's ring pressed where it shows
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

/// Starts turning `joint`'s hinge number `dof` (from 0) by `degrees` through its ring.
pub(super) fn start_rotate(
    world: &mut World,
    window: Entity,
    joint: &str,
    dof: usize,
    degrees: f64,
) -> bool {
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
        document
            .handles(j)
            .into_iter()
            .find(|h| h.kind == HandleKind::Hinge(d))
            .ok_or_else(|| format!("joint \"{joint}\" has no ring for DOF {dof}"))
    });
    let handle = match found {
        Ok(handle) => handle,
        Err(text) => {
            fail(world, text);
            return true;
        }
    };
    let Some((_, camera, transform)) = large_view_camera(world) else {
        fail(world, "no large view".into());
        return true;
    };
    let forward = crate::convert::vector(transform.forward().as_vec3());
    if handle.axis.dot(&forward).abs() < 0.26 {
        fail(
            world,
            format!(
                "the ring of \"{joint}\" DOF {dof} is seen edge-on in the large view; turn it \
                 in another view"
            ),
        );
        return true;
    }
    let axis = Unit::new_normalize(handle.axis);
    let start = across(&handle.axis) * handle.size;
    let pixel = |angle: f64| {
        let p = handle.centre + Rotation3::from_axis_angle(&axis, angle) * start;
        camera
            .world_to_viewport(&transform, crate::convert::vec3(&p))
            .ok()
    };
    let Some(centre) = camera
        .world_to_viewport(&transform, crate::convert::vec3(&handle.centre))
        .ok()
    else {
        fail(world, format!("joint \"{joint}\" is not in the large view"));
        return true;
    };
    // Grip the ring where it is seen widest (farthest from its centre on the screen).
    let grip = (0..24)
        .map(|k| std::f64::consts::TAU * f64::from(k) / 24.0)
        .filter_map(|a| Some((a, pixel(a)?.distance(centre))))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| a);
    let steps = ((degrees.abs() / DEGREES_PER_FRAME).ceil() as usize).max(2);
    let path: Option<Vec<Vec2>> = grip.and_then(|g| {
        (0..=steps)
            .map(|k| pixel(g + degrees.to_radians() * k as f64 / steps as f64))
            .collect()
    });
    let Some(path) = path else {
        fail(
            world,
            format!("the ring of \"{joint}\" is not in the large view"),
        );
        return true;
    };
    super::input::move_cursor(world, window, path[0]);
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip: Grip::Handle(joint.to_owned(), dof),
        from: path[0],
        to: path[steps],
        frames: steps as u32,
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES),
        path,
    });
    true
}
