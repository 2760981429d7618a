//! The views: a perspective camera that orbits, pans and zooms, and front, side and top
//! orthographic cameras that pan and zoom; one large view or a four-view layout (the large view
//! on the left, the other three stacked on the right), any view swappable into the large one.
//! The views share the window area the egui panels leave free ([`ViewArea`]). This plugin also
//! turns the cursor into a world ray ([`CursorRay`]) through the view it is over, or through the
//! view a drag began in ([`ActiveDrag`]), so dragging works alike in every view. The cameras
//! draw into one image egui shows under the panels, possibly at a reduced resolution
//! ([`target`]); picking sees the mouse on that image ([`pointer`]).

mod layout;
pub mod pointer;
pub mod target;

use bevy::camera::{RenderTarget, ScalingMode};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use marionette_editing::View;

use crate::EditorSet;
use crate::figure_bounds::{bounds, figure_centre, points_of};
use crate::messages::FocusSelection;
use crate::resources::{ActiveDrag, CursorCamera, CursorRay, OpenDocument};
use crate::selection::Selection;
pub use layout::{Layout, ViewArea, ViewCamera, viewports};

/// Cameras, layout, camera controls and the cursor ray.
pub struct ViewsPlugin;

impl Plugin for ViewsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Layout>()
            .init_resource::<ViewArea>()
            .init_resource::<CursorCamera>()
            .init_resource::<target::ViewResolution>()
            .init_resource::<target::ViewsImage>()
            .add_systems(
                Startup,
                (spawn_cameras, target::register_texture).in_set(EditorSet::Setup),
            )
            .add_systems(
                Update,
                (
                    control_cameras,
                    focus_on_request,
                    focus_new_skeleton.run_if(resource_changed::<OpenDocument>),
                    keep_the_stage_still,
                    target::apply_layout,
                    place_cameras,
                    // This frame's cursor, through the cameras as placed: the drag and the
                    // markers solve towards the ray of the frame they run in.
                    cursor_ray,
                )
                    .chain()
                    .in_set(EditorSet::Pointer),
            );
        pointer::add_systems(app);
    }
}

fn spawn_cameras(
    mut commands: Commands,
    document: Res<OpenDocument>,
    image: Res<target::ViewsImage>,
) {
    let focus = figure_centre(document.skeleton(), document.fk());
    for (order, view) in View::ALL.into_iter().enumerate() {
        let projection = if view == View::Perspective {
            Projection::Perspective(PerspectiveProjection {
                fov: 0.7,
                ..default()
            })
        } else {
            Projection::Orthographic(OrthographicProjection {
                scaling_mode: ScalingMode::FixedVertical {
                    viewport_height: 2.4,
                },
                near: -100.0,
                far: 100.0,
                ..OrthographicProjection::default_3d()
            })
        };
        let view_camera = ViewCamera::new(view, focus);
        commands.spawn((
            Camera3d::default(),
            Camera {
                order: order as isize,
                is_active: view == View::Perspective,
                ..default()
            },
            RenderTarget::Image(image.target()),
            // Lit by directional and ambient light only: one light cluster is all there is to sort.
            bevy::light::cluster::ClusterConfig::Single,
            projection,
            view_camera.transform(),
            view_camera,
        ));
    }
}

/// Orbit (right button, perspective), pan (middle button, or right button in orthographic
/// views) and zoom (wheel) in the view under the cursor, unless the cursor is over a panel.
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn control_cameras(
    window: Query<&Window, With<PrimaryWindow>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    layout: Res<Layout>,
    area: Res<ViewArea>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut cameras: Query<&mut ViewCamera>,
    mut grabbed: Local<Option<View>>,
) {
    let Ok(window) = window.single() else { return };
    let over_panel = egui_input.is_some_and(|e| e.wants_any_pointer_input());
    let orbiting = mouse.pressed(MouseButton::Right) || mouse.pressed(MouseButton::Middle);
    if !orbiting {
        *grabbed = None;
    }
    let cursor = window.cursor_position();
    let under_cursor = cursor.and_then(|c| {
        viewports(&layout, area.0)
            .into_iter()
            .find(|(_, r)| r.contains(c))
            .map(|(v, _)| v)
    });
    if orbiting && grabbed.is_none() && !over_panel {
        *grabbed = under_cursor;
    }
    let zoom = if over_panel {
        0.0
    } else {
        match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        }
    };
    for mut camera in &mut cameras {
        if zoom != 0.0 && under_cursor == Some(camera.view) {
            camera.distance = (camera.distance * 0.88f32.powf(zoom)).clamp(0.05, 200.0);
        }
        if *grabbed != Some(camera.view) || motion.delta == Vec2::ZERO {
            continue;
        }
        let pan = mouse.pressed(MouseButton::Middle) || camera.view != View::Perspective;
        if pan {
            let transform = camera.transform();
            let per_pixel = camera.distance / area.0.height().max(1.0)
                * if camera.view == View::Perspective {
                    0.8
                } else {
                    1.0
                };
            let right = transform.right();
            let up = transform.up();
            camera.focus += (-motion.delta.x * *right + motion.delta.y * *up) * per_pixel;
        } else {
            camera.yaw -= motion.delta.x * 0.008;
            camera.pitch = (camera.pitch + motion.delta.y * 0.008).clamp(-1.5, 1.5);
        }
    }
}

/// F: frames the selected joint's subtree, or the whole stage, in every view.
fn focus_on_request(
    mut requests: MessageReader<FocusSelection>,
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    mut cameras: Query<&mut ViewCamera>,
) {
    if requests.read().count() == 0 {
        return;
    }
    let skeleton = document.skeleton();
    let points = match selection.joint(&document) {
        Some(top) => {
            let subtree: Vec<_> = skeleton.subtree(top).collect();
            points_of(skeleton, document.fk(), |j| subtree.contains(&j))
        }
        None => stage_points(&document),
    };
    let Some((min, max)) = bounds(&points) else {
        return;
    };
    let centre = (min + max) * 0.5;
    let size = (max - min).length().max(0.6);
    for mut camera in &mut cameras {
        camera.focus = centre;
        camera.distance = if camera.view == View::Perspective {
            size * 1.9
        } else {
            size * 1.25
        };
    }
}

/// With nothing selected, F frames the whole stage: every figure (the others at their own
/// poses, where they stand) and every prop, in the edited figure's frame.
fn stage_points(document: &marionette_editing::Document) -> Vec<Vec3> {
    let mut points = points_of(document.skeleton(), document.fk(), |_| true);
    let to_figure = document.stage_to_figure();
    for figure in document.figures() {
        if let Some(other) = figure.document() {
            let place = to_figure * figure.placement.isometry();
            points.extend(
                points_of(other.skeleton(), other.fk(), |_| true)
                    .into_iter()
                    .map(|p| {
                        let p = place * nalgebra::Point3::from(crate::convert::vector(p));
                        crate::convert::vec3(&p.coords)
                    }),
            );
        }
    }
    for prop in document.props() {
        let p = to_figure * prop.place.isometry() * nalgebra::Point3::origin();
        points.push(crate::convert::vec3(&p.coords));
    }
    points
}

/// A newly opened document's figure is framed whole (the cameras remember which document they
/// framed; selecting another figure of the same stage keeps the view, [`keep_the_stage_still`]).
fn focus_new_skeleton(
    document: Res<OpenDocument>,
    mut framed: Local<Option<u64>>,
    mut requests: MessageWriter<FocusSelection>,
) {
    if *framed == Some(document.stage_id()) {
        return;
    }
    if framed.is_some() {
        requests.write(FocusSelection);
    }
    *framed = Some(document.stage_id());
}

/// The scene is drawn in the edited figure's frame: when another figure is selected, or the
/// edited one moves on the floor, every camera moves with the change of frame, so the stage
/// stays where it was on screen.
fn keep_the_stage_still(
    document: Res<OpenDocument>,
    mut cameras: Query<&mut ViewCamera>,
    mut last: Local<Option<(u64, nalgebra::Isometry3<f64>)>>,
) {
    if !document.is_changed() {
        return;
    }
    let now = (document.stage_id(), document.figure_to_stage());
    if let Some((stage, before)) = *last
        && stage == now.0
        && before != now.1
    {
        // From the old figure's frame to the new one's.
        let change = now.1.inverse() * before;
        let turn = change.rotation.scaled_axis().y as f32;
        for mut camera in &mut cameras {
            let focus = change * nalgebra::Point3::from(crate::convert::vector(camera.focus));
            camera.focus = crate::convert::vec3(&focus.coords);
            camera.yaw += turn;
            camera.turn += turn;
        }
    }
    *last = Some(now);
}

/// Moves the cameras to their orbit / pan / zoom state.
fn place_cameras(mut cameras: Query<(&ViewCamera, &mut Transform, &mut Projection)>) {
    for (view_camera, mut transform, mut projection) in &mut cameras {
        let wanted = view_camera.transform();
        if *transform != wanted {
            *transform = wanted;
        }
        if let Projection::Orthographic(ortho) = projection.as_mut() {
            let height = view_camera.distance;
            let current = match ortho.scaling_mode {
                ScalingMode::FixedVertical { viewport_height } => Some(viewport_height),
                _ => None,
            };
            if current != Some(height) {
                ortho.scaling_mode = ScalingMode::FixedVertical {
                    viewport_height: height,
                };
            }
        }
    }
}

/// The cursor's world ray through the drag's view, or else the view under the cursor.
pub fn cursor_ray(
    window: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(Entity, &Camera, &GlobalTransform), With<ViewCamera>>,
    area: Res<ViewArea>,
    active: Res<ActiveDrag>,
    mut ray: ResMut<CursorRay>,
    mut through_camera: ResMut<CursorCamera>,
) {
    let Some(cursor) = window.single().ok().and_then(Window::cursor_position) else {
        ray.set_if_neq(CursorRay(None));
        return;
    };
    // The cameras see the views' image, whose origin is the free area's corner.
    let cursor = area.to_target(cursor);
    let through = |camera: &Camera, transform: &GlobalTransform| {
        camera.viewport_to_world(transform, cursor).ok()
    };
    if let Some(entity) = active.camera()
        && let Ok((_, camera, transform)) = cameras.get(entity)
    {
        ray.set_if_neq(CursorRay(through(camera, transform)));
        through_camera.set_if_neq(CursorCamera(Some(entity)));
        return;
    }
    let under = cameras
        .iter()
        .filter(|(_, camera, _)| camera.is_active)
        .filter(|(_, camera, _)| {
            camera
                .logical_viewport_rect()
                .is_some_and(|r| r.contains(cursor))
        })
        .max_by_key(|(_, camera, _)| camera.order);
    ray.set_if_neq(CursorRay(
        under.and_then(|(_, camera, transform)| through(camera, transform)),
    ));
    through_camera.set_if_neq(CursorCamera(under.map(|(e, _, _)| e)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_tile_the_free_area() {
        let area = Rect::new(300.0, 23.0, 970.0, 777.0);
        let single = Layout {
            four: false,
            large: View::Side,
        };
        assert_eq!(viewports(&single, area), vec![(View::Side, area)]);
        let four = Layout {
            four: true,
            large: View::Top,
        };
        let rects = viewports(&four, area);
        assert_eq!(rects.len(), 4);
        assert_eq!(rects[0].0, View::Top, "the large view comes first");
        let mut views: Vec<&str> = rects.iter().map(|(v, _)| v.name()).collect();
        views.sort_unstable();
        assert_eq!(views, ["front", "perspective", "side", "top"]);
        let total: f32 = rects.iter().map(|(_, r)| r.width() * r.height()).sum();
        assert!(
            (total - area.width() * area.height()).abs() < 1.0,
            "no gap, no overlap"
        );
        for (i, (_, a)) in rects.iter().enumerate() {
            assert!(area.contains(a.min) && area.contains(a.max));
            for (_, b) in &rects[i + 1..] {
                assert!(a.intersect(*b).is_empty() || a.intersect(*b).area() < 1e-3);
            }
        }
    }
}
