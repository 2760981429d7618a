//! The mouse as Bevy's picking sees it. The views' cameras draw into an image
//! ([`super::target`]), and picking only casts rays from cameras whose target the pointer is on:
//! this input replaces Bevy's own mouse input for picking, placing the mouse on the views' image
//! (in its coordinates) while it is over the free area, and on the window elsewhere.

use bevy::camera::NormalizedRenderTarget;
use bevy::camera::RenderTarget;
use bevy::input::ButtonState;
use bevy::picking::PickingSystems;
use bevy::picking::input::PointerInputSettings;
use bevy::picking::pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput};
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowEvent, WindowRef};

use super::layout::ViewArea;
use super::target::ViewsImage;

/// Bevy's mouse input for picking off, the views' own on.
pub(super) fn add_systems(app: &mut App) {
    app.insert_resource(PointerInputSettings {
        is_mouse_enabled: false,
        is_touch_enabled: true,
    })
    .add_systems(
        First,
        mouse_on_views
            .in_set(PickingSystems::Input)
            .in_set(crate::EditorSet::Locate),
    );
}

/// Where a window position (logical pixels) is for picking: on the views' image over the free
/// area, else on the window.
fn locate(
    window: Entity,
    primary: Option<Entity>,
    position: Vec2,
    area: &ViewArea,
    image: &ViewsImage,
) -> Option<Location> {
    if area.0.contains(position) {
        return Some(Location {
            target: NormalizedRenderTarget::Image(image.target()),
            position: area.to_target(position),
        });
    }
    Some(Location {
        target: RenderTarget::Window(WindowRef::Entity(window)).normalize(primary)?,
        position,
    })
}

/// The mouse's moves, presses and releases as picking pointer input, located by [`locate`].
fn mouse_on_views(
    mut window_events: MessageReader<WindowEvent>,
    primary: Query<Entity, With<PrimaryWindow>>,
    area: Res<ViewArea>,
    image: Res<ViewsImage>,
    mut last: Local<Vec2>,
    mut inputs: MessageWriter<PointerInput>,
) {
    let primary = primary.single().ok();
    for event in window_events.read() {
        match event {
            WindowEvent::CursorMoved(moved) => {
                let delta = moved.position - *last;
                *last = moved.position;
                if let Some(location) = locate(moved.window, primary, *last, &area, &image) {
                    inputs.write(PointerInput::new(
                        PointerId::Mouse,
                        location,
                        PointerAction::Move { delta },
                    ));
                }
            }
            WindowEvent::MouseButtonInput(input) => {
                let button = match input.button {
                    MouseButton::Left => PointerButton::Primary,
                    MouseButton::Right => PointerButton::Secondary,
                    MouseButton::Middle => PointerButton::Middle,
                    _ => continue,
                };
                let action = match input.state {
                    ButtonState::Pressed => PointerAction::Press(button),
                    ButtonState::Released => PointerAction::Release(button),
                };
                if let Some(location) = locate(input.window, primary, *last, &area, &image) {
                    inputs.write(PointerInput::new(PointerId::Mouse, location, action));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::camera::NormalizedRenderTarget;

    #[test]
    fn the_mouse_is_on_the_image_over_the_views_and_on_the_window_elsewhere() {
        let mut world = World::new();
        let window = world.spawn_empty().id();
        let image = ViewsImage {
            handle: Handle::default(),
            size: UVec2::new(335, 377),
            scale_factor: 0.5,
            texture: None,
        };
        let area = ViewArea(Rect::new(300.0, 23.0, 970.0, 777.0));
        let over_views = locate(window, Some(window), Vec2::new(310.0, 30.0), &area, &image);
        let over_views = over_views.expect("located");
        assert_eq!(over_views.position, Vec2::new(10.0, 7.0));
        assert_eq!(
            over_views.target,
            NormalizedRenderTarget::Image(image.target())
        );
        let over_panel = locate(window, Some(window), Vec2::new(100.0, 30.0), &area, &image);
        let over_panel = over_panel.expect("located");
        assert_eq!(over_panel.position, Vec2::new(100.0, 30.0));
        assert!(matches!(
            over_panel.target,
            NormalizedRenderTarget::Window(_)
        ));
    }
}
