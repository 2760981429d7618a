//! Where the views are drawn: all four cameras render into one image the size of the free area
//! ([`ViewsImage`]), each into its own viewport of it, and egui shows that image under the panels.
//! The image can be made at half the window's resolution ([`ViewResolution`]): on a software
//! renderer (Mesa's llvmpipe, no GPU) shading the 3D views' pixels is most of a frame, and a
//! quarter of the pixels brings the editor to 30 frames per second there. The status bar says so
//! and turns it off; the View menu turns it on and off.
//!
//! The cameras' coordinates are the image's, in logical pixels with the free area's top-left
//! corner at the origin ([`ViewArea::to_target`] and [`ViewArea::to_window`] convert), so the
//! image's scale factor is the window's times the resolution scale.

use bevy::camera::{ImageRenderTarget, RenderTarget, Viewport};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureFormat};
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiTextureHandle, EguiUserTextures, egui};

use super::layout::{Layout, ViewArea, ViewCamera, viewports};

/// The resolution scale of the 3D views when reduced: half the window's pixels each way.
pub const REDUCED_SCALE: f32 = 0.5;

/// Whether the 3D views are drawn at a reduced resolution (on by default on a software renderer).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ViewResolution {
    /// Drawn at [`REDUCED_SCALE`] of the window's resolution and stretched to fill the views.
    pub reduced: bool,
}

impl ViewResolution {
    /// Image pixels per window pixel.
    pub fn scale(&self) -> f32 {
        if self.reduced { REDUCED_SCALE } else { 1.0 }
    }
}

/// The image the views are drawn into, and how egui knows it.
#[derive(Resource, Debug, Clone)]
pub struct ViewsImage {
    /// The image (a render target).
    pub handle: Handle<Image>,
    /// Its size in pixels now.
    pub size: UVec2,
    /// Image pixels per logical window pixel (the window's scale factor times the resolution
    /// scale): the cameras' target scale factor.
    pub scale_factor: f32,
    /// The image's id in egui, once registered.
    pub texture: Option<egui::TextureId>,
}

impl ViewsImage {
    /// The cameras' render target.
    pub fn target(&self) -> ImageRenderTarget {
        ImageRenderTarget {
            handle: self.handle.clone(),
            scale_factor: self.scale_factor,
        }
    }
}

impl FromWorld for ViewsImage {
    fn from_world(world: &mut World) -> Self {
        let mut image = Image::new_target_texture(1, 1, TextureFormat::Rgba8UnormSrgb, None);
        // Drawn into every frame, never read back: no copy in main memory, nothing kept when it
        // is resized.
        image.data = None;
        image.copy_on_resize = false;
        // Stretched smoothly when drawn at a reduced resolution.
        image.sampler = bevy::image::ImageSampler::linear();
        let handle = world.resource_mut::<Assets<Image>>().add(image);
        ViewsImage {
            handle,
            size: UVec2::ONE,
            scale_factor: 1.0,
            texture: None,
        }
    }
}

impl ViewArea {
    /// A window position (logical pixels) in the views' image coordinates.
    pub fn to_target(&self, window: Vec2) -> Vec2 {
        window - self.0.min
    }

    /// A position in the views' image coordinates as a window position (logical pixels).
    pub fn to_window(&self, target: Vec2) -> Vec2 {
        target + self.0.min
    }
}

/// egui is told of the views' image once (bevy_egui's user textures).
pub(super) fn register_texture(
    textures: Option<ResMut<EguiUserTextures>>,
    mut image: ResMut<ViewsImage>,
) {
    if image.texture.is_some() {
        return;
    }
    if let Some(mut textures) = textures {
        image.texture = Some(textures.add_image(EguiTextureHandle::Strong(image.handle.clone())));
    }
}

/// Sizes the views' image to the free area at the chosen resolution, and sets each camera's
/// viewport in it and whether it draws, from the layout.
pub(super) fn apply_layout(
    layout: Res<Layout>,
    area: Res<ViewArea>,
    resolution: Res<ViewResolution>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut images: ResMut<Assets<Image>>,
    mut views_image: ResMut<ViewsImage>,
    mut cameras: Query<(&ViewCamera, &mut Camera, &mut RenderTarget)>,
) {
    let Ok(window) = window.single() else { return };
    let scale = window.scale_factor() * resolution.scale();
    let size = (area.0.size() * scale).round().max(Vec2::ONE).as_uvec2();
    if views_image.size != size || views_image.scale_factor != scale {
        if let Some(mut image) = images.get_mut(&views_image.handle) {
            image.resize(Extent3d {
                width: size.x,
                height: size.y,
                depth_or_array_layers: 1,
            });
        }
        views_image.size = size;
        views_image.scale_factor = scale;
    }
    let target = views_image.target();
    let rects = viewports(&layout, area.0);
    for (view_camera, mut camera, mut render_target) in &mut cameras {
        if !matches!(&*render_target, RenderTarget::Image(t) if *t == target) {
            *render_target = RenderTarget::Image(target.clone());
        }
        let viewport = rects
            .iter()
            .find(|(v, _)| *v == view_camera.view)
            .and_then(|(_, r)| viewport_in_image(*r, area.0, scale, size));
        let active = viewport.is_some();
        if camera.is_active != active {
            camera.is_active = active;
        }
        let same = match (&camera.viewport, &viewport) {
            (Some(a), Some(b)) => {
                a.physical_position == b.physical_position && a.physical_size == b.physical_size
            }
            (None, None) => true,
            _ => false,
        };
        if active && !same {
            camera.viewport = viewport;
        }
    }
}

/// A view's rectangle (window logical pixels) as a viewport of the views' image, or `None` when
/// nothing of it is left.
fn viewport_in_image(rect: Rect, area: Rect, scale: f32, image: UVec2) -> Option<Viewport> {
    let pixel = |p: Vec2| {
        ((p - area.min) * scale)
            .round()
            .max(Vec2::ZERO)
            .as_uvec2()
            .min(image)
    };
    let (min, mut max) = (pixel(rect.min), pixel(rect.max));
    // The views reaching the area's far edges fill the image to its last pixel, whatever the
    // rounding.
    if (rect.max.x - area.max.x).abs() < 0.01 {
        max.x = image.x;
    }
    if (rect.max.y - area.max.y).abs() < 0.01 {
        max.y = image.y;
    }
    let size = max.saturating_sub(min);
    (size.x >= 1 && size.y >= 1).then_some(Viewport {
        physical_position: min,
        physical_size: size,
        ..default()
    })
}

/// Paints the views' image over the free area, under every panel and window (egui's background
/// layer), within `visible` (where the panels leave room now).
pub fn paint_views(ctx: &egui::Context, image: &ViewsImage, area: &ViewArea, visible: egui::Rect) {
    let Some(texture) = image.texture else {
        return;
    };
    let r = area.0;
    let rect = egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y), egui::pos2(r.max.x, r.max.y));
    let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    ctx.layer_painter(egui::LayerId::background())
        .with_clip_rect(visible)
        .image(texture, rect, uv, egui::Color32::WHITE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::View;

    #[test]
    fn viewports_tile_the_image_at_any_scale() {
        let area = Rect::new(300.0, 23.0, 970.0, 777.0);
        let layout = Layout {
            four: true,
            large: View::Front,
        };
        for scale in [1.0, REDUCED_SCALE, 2.0 * REDUCED_SCALE * 0.75] {
            let image = (area.size() * scale).round().as_uvec2();
            let ports: Vec<Viewport> = viewports(&layout, area)
                .into_iter()
                .filter_map(|(_, r)| viewport_in_image(r, area, scale, image))
                .collect();
            assert_eq!(ports.len(), 4);
            let pixels: u32 = ports
                .iter()
                .map(|v| v.physical_size.x * v.physical_size.y)
                .sum();
            assert_eq!(pixels, image.x * image.y, "no gap, no overlap at {scale}");
            for v in &ports {
                let end = v.physical_position + v.physical_size;
                assert!(end.x <= image.x && end.y <= image.y);
            }
        }
        let gone = Rect::new(970.0, 23.0, 970.0, 777.0);
        assert!(viewport_in_image(gone, area, 1.0, UVec2::new(670, 754)).is_none());
    }

    #[test]
    fn window_and_image_coordinates_convert_both_ways() {
        let area = ViewArea(Rect::new(300.0, 23.0, 970.0, 777.0));
        let p = Vec2::new(512.5, 400.25);
        assert_eq!(area.to_target(p), Vec2::new(212.5, 377.25));
        assert_eq!(area.to_window(area.to_target(p)), p);
    }
}
