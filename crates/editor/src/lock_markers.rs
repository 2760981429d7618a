//! The locks in the views: each drawn where it holds (a pin for a position, axes for an
//! orientation, both for a pose, a square for a plane, a line, the support point under the centre
//! of mass, a bar between two sites held together), green while it holds within the tolerance and
//! red when it gives way, with a line from where the part is to where it should be. A press on a
//! marker grips it: dragging moves the lock's target in the view's plane and the limb follows,
//! one undo step per drag. Hovering a row of the Locks panel highlights its marker.

use bevy::prelude::*;
use marionette_document::Lock;
use marionette_ik::GoalKind;
use nalgebra::Vector3;

use crate::convert::vec3;
use crate::dragging::{CursorRay, DragSet};
use crate::overlays::OnTop;
use crate::state::Editor;

/// How near the cursor ray must pass a marker's anchor to grip it (metres).
pub const GRIP_DISTANCE: f64 = 0.03;

/// The lock whose row the pointer is over in the Locks panel (its marker is highlighted).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LockHover(pub Option<usize>);

/// A marker being dragged: the lock, and the plane (through the grip, facing the view) the
/// target moves in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MarkerGrip {
    /// The lock's index.
    pub lock: usize,
    /// Where the cursor ray met the plane last frame.
    pub last: Vector3<f64>,
    /// The plane's normal (the view direction at the press).
    pub normal: Vector3<f64>,
    /// Whether the target has moved yet (later moves extend the same undo step).
    pub moved: bool,
}

/// The marker drag in progress.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct MarkerDrag(pub Option<MarkerGrip>);

/// Gripping and dragging markers (runs headless too).
pub struct LockMarkersPlugin;

impl Plugin for LockMarkersPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LockHover>()
            .init_resource::<MarkerDrag>()
            .add_systems(
                Update,
                (
                    grip_marker.before(DragSet::Begin),
                    drag_marker.in_set(DragSet::Solve),
                ),
            );
    }
}

/// The lock whose marker the ray passes nearest, within [`GRIP_DISTANCE`], and its anchor; only
/// markers of locks with a target to move (a press on an orientation or two-site lock's marker
/// goes to the body or handle under it).
pub fn marker_under(
    editor: &Editor,
    ray: &marionette_editing::Ray,
) -> Option<(usize, Vector3<f64>)> {
    let document = &editor.document;
    document
        .locks()
        .iter()
        .enumerate()
        .filter(|(_, lock)| lock.enabled && lock.has_target())
        .filter_map(|(i, lock)| {
            let anchor = lock.anchor(document.fk());
            let on_ray = ray.closest_point_to(&anchor);
            let distance = (on_ray - anchor).norm();
            (distance <= GRIP_DISTANCE).then_some((i, anchor, distance))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(i, anchor, _)| (i, anchor))
}

/// A press on a marker grips it (before a press can start a drag).
pub fn grip_marker(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    editor: Res<Editor>,
    mut marker: ResMut<MarkerDrag>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if !mouse.just_pressed(MouseButton::Left)
        || editor.document.drag().is_some()
        || marker.0.is_some()
        || egui_input.is_some_and(|e| e.wants_any_pointer_input())
    {
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(crate::convert::ray) else {
        return;
    };
    if let Some((lock, anchor)) = marker_under(&editor, &ray) {
        marker.0 = Some(MarkerGrip {
            lock,
            last: anchor,
            normal: ray.direction,
            moved: false,
        });
    }
}

/// Moves the gripped lock's target with the cursor, in the plane through the grip facing the
/// view; releasing the button ends the drag.
fn drag_marker(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    mut editor: ResMut<Editor>,
    mut marker: ResMut<MarkerDrag>,
) {
    let Some(mut grip) = marker.0 else {
        return;
    };
    if !mouse.pressed(MouseButton::Left) {
        marker.0 = None;
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(crate::convert::ray) else {
        return;
    };
    let facing = ray.direction.dot(&grip.normal);
    if facing.abs() < 1e-9 {
        return;
    }
    let t = (grip.last - ray.origin).dot(&grip.normal) / facing;
    let at = ray.origin + ray.direction * t;
    let delta = at - grip.last;
    if delta.norm() < 1e-9 {
        return;
    }
    let editor = &mut *editor;
    match editor
        .document
        .move_lock_target(grip.lock, &delta, &mut editor.runner, grip.moved)
    {
        Ok(true) => {
            grip.last = at;
            grip.moved = true;
            marker.0 = Some(grip);
        }
        Ok(false) => {
            // Orientation locks and two-site locks have no point to move.
            marker.0 = None;
        }
        Err(e) => {
            marker.0 = None;
            editor.fail(e.to_string());
        }
    }
}

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
pub fn draw_lock_markers(mut gizmos: Gizmos<OnTop>, editor: Res<Editor>, hover: Res<LockHover>) {
    let document = &editor.document;
    let tolerance = editor.runner.settings().tolerance;
    let violations = document.lock_violations();
    for (i, (lock, violation)) in document.locks().iter().zip(&violations).enumerate() {
        if !lock.active_at(document.lock_frame()) {
            continue;
        }
        let hovered = hover.0 == Some(i);
        let c = colour(violation.within(tolerance), hovered);
        let size = if hovered { 1.5 } else { 1.0 };
        draw_marker(&mut gizmos, &editor, lock, c, size);
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

fn draw_marker(gizmos: &mut Gizmos<OnTop>, editor: &Editor, lock: &Lock, c: Color, size: f32) {
    let document = &editor.document;
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
            draw_axes(
                gizmos,
                vec3(target),
                crate::convert::quat(rotation),
                c,
                size,
            );
        }
        GoalKind::Orientation { joint, target, .. } => {
            draw_axes(
                gizmos,
                vec3(&fk.joint_position(*joint)),
                crate::convert::quat(target),
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
        GoalKind::Coincide { a, b } => {
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
