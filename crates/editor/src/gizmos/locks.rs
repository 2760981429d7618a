//! The locks in the views: each drawn where it holds (a pin for a position, axes for an
//! orientation, both for a pose, a square for a plane, a line, the support point under the centre
//! of mass, a bar between two sites held together), green while it holds within the tolerance and
//! red when it gives way, with a line from where the part is to where it should be. Hovering a
//! row of the Locks panel highlights its marker. Gripping a marker is the drag's `lock_grip`.

use bevy::prelude::*;
use marionette_document::Lock;
use marionette_editing::Document;
use marionette_ik::{GoalKind, TargetShape};
use nalgebra::Vector3;

use super::on_top::OnTop;
use crate::convert::{quat, vec3};
use crate::derived::LockStatus;
use crate::resources::{LockHover, OpenDocument, SolvingState};

/// Green while held, red when violated, yellow when hovered.
fn colour(held: bool, hovered: bool) -> Color {
    match (hovered, held) {
        (true, _) => Color::srgb(1.0, 0.9, 0.2),
        (false, true) => Color::srgb(0.25, 0.9, 0.35),
        (false, false) => Color::srgb(1.0, 0.25, 0.2),
    }
}

/// Draws the marker of every lock holding now (enabled, and on the current frame while a
/// sequence is shown).
pub fn draw_lock_markers(
    mut gizmos: Gizmos<OnTop>,
    document: Res<OpenDocument>,
    solving: Res<SolvingState>,
    status: Res<LockStatus>,
    hover: Res<LockHover>,
) {
    let tolerance = solving.runner.settings().tolerance;
    let locks = document
        .locks()
        .iter()
        .zip(&status.violations)
        .zip(&status.holding);
    for (i, ((lock, violation), &holding)) in locks.enumerate() {
        if !holding {
            continue;
        }
        let hovered = hover.0 == Some(i);
        let c = colour(violation.within(tolerance), hovered);
        let size = if hovered { 1.5 } else { 1.0 };
        draw_marker(&mut gizmos, &document, lock, c, size);
    }
}

fn draw_pin(gizmos: &mut Gizmos<OnTop>, at: Vec3, c: Color, size: f32) {
    let head = at + Vec3::Y * 0.07 * size;
    gizmos.line(at, head, c);
    gizmos.sphere(Isometry3d::from_translation(head), 0.015 * size, c);
    gizmos.sphere(Isometry3d::from_translation(at), 0.006 * size, c);
}

fn draw_axes(gizmos: &mut Gizmos<OnTop>, at: Vec3, rotation: Quat, c: Color, size: f32) {
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        gizmos.line(at, at + rotation * axis * 0.09 * size, c);
    }
    gizmos.circle(
        Isometry3d::new(
            at,
            rotation * Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        ),
        0.04 * size,
        c,
    );
}

/// A plane lock's mark: two squares across its normal at its point.
fn draw_plane(
    gizmos: &mut Gizmos<OnTop>,
    point: &Vector3<f64>,
    normal: &Vector3<f64>,
    c: Color,
    size: f32,
) {
    let facing = Quat::from_rotation_arc(Vec3::Z, vec3(normal).normalize_or(Vec3::Y));
    gizmos.rect(
        Isometry3d::new(vec3(point), facing),
        Vec2::splat(0.24 * size),
        c,
    );
    gizmos.rect(
        Isometry3d::new(vec3(point), facing),
        Vec2::splat(0.12 * size),
        c.with_alpha(0.6),
    );
}

fn draw_marker(gizmos: &mut Gizmos<OnTop>, document: &Document, lock: &Lock, c: Color, size: f32) {
    let fk = document.fk();
    // Where the part is, when it is not where the lock holds it.
    let mut gap = |from: Vector3<f64>, to: Vector3<f64>| {
        if (from - to).norm() > 1e-4 {
            gizmos.line(vec3(&from), vec3(&to), c.with_alpha(0.7));
        }
    };
    match &lock.goal().kind {
        GoalKind::Position { site, target } => {
            gap(fk.site_position(*site), *target);
            draw_pin(gizmos, vec3(target), c, size);
        }
        GoalKind::Point {
            joint,
            offset,
            target,
            shape: TargetShape::Plane(normal),
        } => {
            let p = fk.point(*joint, offset);
            gap(p, p - normal * normal.dot(&(p - target)));
            draw_plane(gizmos, target, normal, c, size);
        }
        GoalKind::Point {
            joint,
            offset,
            target,
            ..
        } => {
            gap(fk.point(*joint, offset), *target);
            draw_pin(gizmos, vec3(target), c, size);
        }
        GoalKind::Pose {
            site,
            target,
            rotation,
        } => {
            gap(fk.site_position(*site), *target);
            draw_pin(gizmos, vec3(target), c, size);
            draw_axes(gizmos, vec3(target), quat(rotation), c, size);
        }
        GoalKind::Orientation { joint, target, .. } => {
            draw_axes(
                gizmos,
                vec3(&fk.joint_position(*joint)),
                quat(target),
                c,
                size,
            );
        }
        GoalKind::Plane {
            site,
            point,
            normal,
        } => {
            let p = fk.site_position(*site);
            gap(p, p - normal * normal.dot(&(p - point)));
            draw_plane(gizmos, point, normal, c, size);
        }
        GoalKind::Line {
            site,
            point,
            direction,
        } => {
            let p = fk.site_position(*site);
            gap(p, point + direction * direction.dot(&(p - point)));
            gizmos.line(
                vec3(&(point - direction * 0.4)),
                vec3(&(point + direction * 0.4)),
                c,
            );
        }
        GoalKind::Coincide { a, b } | GoalKind::CoincidePose { a, b, .. } => {
            let (pa, pb) = (fk.site_position(*a), fk.site_position(*b));
            gizmos.line(vec3(&pa), vec3(&pb), c);
            for p in [pa, pb] {
                gizmos.sphere(Isometry3d::from_translation(vec3(&p)), 0.012 * size, c);
            }
        }
        GoalKind::CenterOfMass { target, axes } => {
            let com = fk.center_of_mass();
            let mut support = com;
            for k in 0..3 {
                if axes[k] {
                    support[k] = target[k];
                }
            }
            let ground = Vector3::new(support.x, target.y.min(com.y), support.z);
            gizmos.line(vec3(&com), vec3(&ground), c.with_alpha(0.6));
            gizmos.circle(
                Isometry3d::new(
                    vec3(&ground),
                    Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
                ),
                0.06 * size,
                c,
            );
            gizmos.sphere(Isometry3d::from_translation(vec3(&com)), 0.02 * size, c);
        }
        GoalKind::Aim { site, at, .. } => {
            gizmos.line(vec3(&fk.site_position(*site)), vec3(at), c);
            draw_pin(gizmos, vec3(at), c, size);
        }
    }
}
