//! The views' layout: each view's camera, which views are shown, the part of the window they
//! share and the viewport each takes.

use bevy::prelude::*;
use marionette_editing::View;

/// A view's camera and how it is looked through.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ViewCamera {
    /// Which view.
    pub view: View,
    /// The point looked at.
    pub focus: Vec3,
    /// Perspective: distance from the focus. Orthographic: visible height (metres).
    pub distance: f32,
    /// Perspective only: turn about +Y (radians).
    pub yaw: f32,
    /// Perspective only: elevation (radians).
    pub pitch: f32,
    /// Front, side and top only: the turn of the stage about +Y in the edited figure's frame
    /// (radians), so a view of the stage stays still when another figure is edited.
    pub turn: f32,
}

impl ViewCamera {
    pub(super) fn new(view: View, focus: Vec3) -> ViewCamera {
        ViewCamera {
            view,
            focus,
            distance: if view == View::Perspective { 3.6 } else { 2.4 },
            yaw: 0.55,
            pitch: 0.3,
            turn: 0.0,
        }
    }

    /// Where the camera sits and which way is up.
    pub fn transform(&self) -> Transform {
        let (offset, up) = match self.view {
            View::Perspective => (
                Vec3::new(
                    self.yaw.sin() * self.pitch.cos(),
                    self.pitch.sin(),
                    self.yaw.cos() * self.pitch.cos(),
                ) * self.distance,
                Vec3::Y,
            ),
            View::Front => (Vec3::Z * 10.0, Vec3::Y),
            View::Side => (Vec3::X * 10.0, Vec3::Y),
            View::Top => (Vec3::Y * 10.0, Vec3::NEG_Z),
        };
        let turn = Quat::from_rotation_y(self.turn);
        let (offset, up) = if self.view == View::Perspective {
            (offset, up)
        } else {
            (turn * offset, turn * up)
        };
        Transform::from_translation(self.focus + offset).looking_at(self.focus, up)
    }
}

/// The layout of the views.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Four views (the large one and three small) rather than the large one alone.
    pub four: bool,
    /// The view in the large viewport.
    pub large: View,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            four: false,
            large: View::Perspective,
        }
    }
}

/// The part of the window the views share (logical pixels), left by the egui panels.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct ViewArea(pub Rect);

impl Default for ViewArea {
    fn default() -> Self {
        ViewArea(Rect::new(0.0, 0.0, 1280.0, 800.0))
    }
}

/// The viewports of the layout within `area`: the large view first, then the small ones.
pub fn viewports(layout: &Layout, area: Rect) -> Vec<(View, Rect)> {
    if !layout.four {
        return vec![(layout.large, area)];
    }
    let split = area.min.x + area.width() * 0.68;
    let mut rects = vec![(
        layout.large,
        Rect::new(area.min.x, area.min.y, split, area.max.y),
    )];
    let others: Vec<View> = View::ALL
        .into_iter()
        .filter(|&v| v != layout.large)
        .collect();
    let h = area.height() / others.len() as f32;
    for (i, view) in others.into_iter().enumerate() {
        let top = area.min.y + h * i as f32;
        rects.push((view, Rect::new(split, top, area.max.x, top + h)));
    }
    rects
}
