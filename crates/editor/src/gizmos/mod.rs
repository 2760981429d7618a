//! What is drawn over the figure with gizmos (drawing only; what they show is measured
//! elsewhere): the ground grid, the selected joint's axes and rotate handles with the arcs of its
//! limited hinges (on request), the dragged point and its goal, and for a selected arm or leg the swivel gizmo: the
//! circle the elbow can turn on with the arcs that keep every joint within its limits (Tolani
//! §3.2.4) and the elbow where it is ([`crate::derived::SelectedLimb`]). With a sequence shown,
//! the onion skins: the figure at the previous key (blue) and the next (orange), translucent.
//! The locks' markers are drawn by [`locks`]; the stage plan (each figure's floor path) by
//! [`stage_plan`]; the physics overlays by [`physics`].

pub mod locks;
mod on_top;
pub mod physics;
pub mod stage_plan;
pub mod trails;

use bevy::prelude::*;
use marionette_editing::rotate_handles::{HandleKind, across};
use marionette_editing::swivel_gizmo::swivel_gizmo;
use marionette_ik::GoalKind;
use nalgebra::{Rotation3, Unit, Vector3};

use crate::convert::vec3;
use crate::derived::{BakedStrip, SelectedLimb};
use crate::resources::{Display, OpenDocument};
use crate::scene::Ground;
use crate::selection::Selection;
pub use on_top::OnTop;

/// The gizmos.
pub struct GizmosPlugin;

impl Plugin for GizmosPlugin {
    fn build(&self, app: &mut App) {
        app.insert_gizmo_config(
            OnTop,
            GizmoConfig {
                depth_bias: -1.0,
                line: GizmoLineConfig {
                    width: 2.5,
                    ..default()
                },
                ..default()
            },
        )
        .init_resource::<physics::PhysicsDrawTime>()
        .add_systems(
            PostUpdate,
            (
                draw_ground,
                draw_joint_axes,
                draw_drag,
                draw_swivel,
                draw_onion_skins,
                draw_bones,
                locks::draw_lock_markers,
                trails::draw_trails,
                physics::draw_physics,
                physics::draw_physics_ghost,
            )
                .in_set(crate::EditorSet::Gizmos),
        );
        stage_plan::add_systems(app);
    }
}

/// The figures at the shown sequence's previous and next keys, as baked (locks held), drawn
/// as translucent stick figures.
fn draw_onion_skins(
    mut gizmos: Gizmos<OnTop>,
    document: Res<OpenDocument>,
    display: Res<Display>,
    strip: Res<BakedStrip>,
) {
    if !display.onion_skins || strip.poses.is_empty() {
        return;
    }
    let keys = crate::timeline::key_frames(&document);
    let frame = document.frame();
    let Some(&first) = keys.first() else {
        return;
    };
    let skeleton = document.skeleton();
    let mut fk = marionette_skeleton::Fk::new(skeleton);
    let skins = [
        (
            keys.iter().rev().find(|&&k| k < frame),
            Color::srgba(0.35, 0.6, 1.0, 0.55),
        ),
        (
            keys.iter().find(|&&k| k > frame),
            Color::srgba(1.0, 0.6, 0.25, 0.55),
        ),
    ];
    for (key, colour) in skins {
        let Some(pose) = key.and_then(|&k| strip.poses.get((k - first) as usize)) else {
            continue;
        };
        fk.update(skeleton, pose);
        for j in skeleton.joint_ids() {
            if let Some(parent) = skeleton.joint(j).parent {
                gizmos.line(
                    vec3(&fk.joint_position(parent)),
                    vec3(&fk.joint_position(j)),
                    colour,
                );
            }
        }
    }
}

/// The bones (each joint to its children, each leaf to its body's end) when the overlay is on;
/// on a character, whose skin hides the joints, the selected and hovered joints' bones always.
fn draw_bones(
    mut gizmos: Gizmos<OnTop>,
    document: Res<OpenDocument>,
    display: Res<Display>,
    selection: Res<Selection>,
    hovered: Res<crate::selection::Hovered>,
) {
    if !display.bones && document.character().is_none() {
        return;
    }
    let skeleton = document.skeleton();
    let fk = document.fk();
    let selected = selection.joint(&document);
    for j in skeleton.joint_ids() {
        let colour = if selected == Some(j) {
            Color::srgb(1.0, 0.62, 0.2)
        } else if hovered.0 == Some(j) {
            Color::srgb(0.95, 0.85, 0.55)
        } else if display.bones {
            Color::srgba(0.55, 0.75, 1.0, 0.8)
        } else {
            continue;
        };
        let at = fk.joint_position(j);
        let joint = skeleton.joint(j);
        let mut ends: Vec<nalgebra::Vector3<f64>> = joint
            .children
            .iter()
            .map(|&c| fk.joint_position(c))
            .collect();
        if ends.is_empty()
            && let Some(marionette_skeleton::Shape::Capsule { end, .. }) = &joint.shape
        {
            ends.push(fk.point(j, end));
        }
        for end in ends {
            gizmos.line(vec3(&at), vec3(&end), colour);
        }
        gizmos.sphere(Isometry3d::from_translation(vec3(&at)), 0.012, colour);
    }
}

fn draw_ground(mut gizmos: Gizmos, ground: Query<&GlobalTransform, With<Ground>>) {
    let y = ground.iter().next().map_or(0.0, |g| g.translation().y) + 0.002;
    gizmos
        .grid(
            Isometry3d::new(
                Vec3::new(0.0, y, 0.0),
                Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            ),
            UVec2::splat(16),
            Vec2::splat(0.25),
            Color::srgba(0.6, 0.6, 0.65, 0.35),
        )
        .outer_edges();
}

/// The selected joint's DOF axes (X red, Y green, Z blue by the axis' main direction) and its
/// rotate handles: a ring per hinge in the plane it turns in, the arc of a limited hinge's range
/// drawn bright on it with a tick at the current angle; an arrow per slide and, on the root,
/// per world axis. The gripped handle is drawn yellow.
fn draw_joint_axes(
    mut gizmos: Gizmos<OnTop>,
    document: Res<OpenDocument>,
    display: Res<Display>,
    selection: Res<Selection>,
    active: Res<crate::resources::ActiveDrag>,
) {
    let Some(joint) = selection.joint(&document).filter(|_| display.joint_axes) else {
        return;
    };
    let skeleton = document.skeleton();
    let fk = document.fk();
    let q = document.pose();
    for dof in skeleton.joint_dofs(joint) {
        let axis = fk.dof_axis(dof);
        let pivot = fk.dof_pivot(dof);
        gizmos.arrow(
            vec3(&pivot),
            vec3(&(pivot + axis * 0.06)),
            axis_colour(&axis),
        );
    }
    let gripped = active.handle().map(|h| h.kind);
    for handle in document.handles(joint) {
        let colour = if gripped == Some(handle.kind) {
            Color::srgb(1.0, 0.9, 0.2)
        } else {
            axis_colour(&handle.axis)
        };
        let HandleKind::Hinge(dof) = handle.kind else {
            let end = handle.centre + handle.axis * handle.size;
            gizmos.arrow(vec3(&handle.centre), vec3(&end), colour);
            continue;
        };
        let ring: Vec<Vec3> = handle.outline(64).iter().map(vec3).collect();
        gizmos.linestrip(ring, colour.with_alpha(0.45));
        let d = skeleton.dof(dof);
        let value = q[dof.state_index()];
        let unit = Unit::new_normalize(handle.axis);
        let start = across(&handle.axis) * handle.size;
        let at = |angle: f64| {
            vec3(&(handle.centre + Rotation3::from_axis_angle(&unit, angle - value) * start))
        };
        gizmos.line(vec3(&handle.centre), at(value), Color::WHITE);
        if d.unlimited {
            continue;
        }
        let steps = 32;
        let arc: Vec<Vec3> = (0..=steps)
            .map(|k| at(d.min + (d.max - d.min) * f64::from(k) / f64::from(steps)))
            .collect();
        gizmos.linestrip(arc, colour);
        gizmos.line(vec3(&handle.centre), at(d.min), colour.with_alpha(0.5));
        gizmos.line(vec3(&handle.centre), at(d.max), colour.with_alpha(0.5));
    }
}

fn axis_colour(axis: &Vector3<f64>) -> Color {
    let a = axis.abs();
    if a.x >= a.y && a.x >= a.z {
        Color::srgb(0.95, 0.3, 0.3)
    } else if a.y >= a.z {
        Color::srgb(0.3, 0.9, 0.35)
    } else {
        Color::srgb(0.35, 0.55, 1.0)
    }
}

/// The dragged point and its goal on the cursor ray.
fn draw_drag(mut gizmos: Gizmos<OnTop>, document: Res<OpenDocument>) {
    let Some(drag) = document.drag() else {
        return;
    };
    let effector = vec3(&drag.effector(document.fk()));
    gizmos.sphere(
        Isometry3d::from_translation(effector),
        0.015,
        Color::srgb(1.0, 0.9, 0.2),
    );
    if let Some((goal, _)) = document.last_edit()
        && let GoalKind::Point { target, .. } = &goal.kind
    {
        let target = vec3(target);
        gizmos.line(effector, target, Color::srgb(1.0, 0.9, 0.2));
        gizmos.sphere(Isometry3d::from_translation(target), 0.01, Color::WHITE);
    }
}

/// The swivel gizmo of the selected limb.
fn draw_swivel(mut gizmos: Gizmos<OnTop>, document: Res<OpenDocument>, limb: Res<SelectedLimb>) {
    let Some(Ok(measured)) = &limb.measured else {
        return;
    };
    let fk = document.fk();
    let gizmo = swivel_gizmo(
        &measured.limb,
        fk,
        &measured.placed,
        &measured.reference,
        &measured.report,
        96,
    );
    let circle = gizmo.circle;
    let full: Vec<Vec3> = (0..=96)
        .map(|k| vec3(&circle.point(std::f64::consts::TAU * f64::from(k) / 96.0)))
        .collect();
    gizmos.linestrip(full, Color::srgba(0.8, 0.3, 0.3, 0.6));
    for arc in &gizmo.valid_arcs {
        gizmos.linestrip(arc.iter().map(vec3), Color::srgb(0.3, 1.0, 0.45));
    }
    let elbow = vec3(&fk.joint_position(measured.limb.joints[1]));
    gizmos.line(vec3(&circle.centre), elbow, Color::srgb(0.3, 1.0, 0.45));
    gizmos.sphere(
        Isometry3d::from_translation(elbow),
        0.02,
        Color::srgb(0.3, 1.0, 0.45),
    );
}
