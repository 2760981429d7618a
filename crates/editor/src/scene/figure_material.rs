//! The figure's material: a matte colour lit by the scene's two directional lights and an ambient
//! term (bodies, site handles), or a flat colour (the ground, joint markers). Bevy's physically
//! based material runs a long shader for every pixel; under a software renderer (Mesa's
//! llvmpipe) the ground plane alone cost about 7 ms a frame with it, the bodies about 5 ms. This
//! one is a few operations per pixel, on every renderer alike. glTF characters and the ghosts keep
//! Bevy's material.

use bevy::asset::{AssetPath, embedded_asset, embedded_path};
use bevy::pbr::{Material, MaterialPlugin};
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;

/// Where the key light shines from (towards the origin); the scene's directional light too.
pub const KEY_LIGHT_FROM: Vec3 = Vec3::new(2.0, 5.0, 4.0);
/// Where the fill light shines from.
pub const FILL_LIGHT_FROM: Vec3 = Vec3::new(-3.0, 2.0, -4.0);
/// How much of a colour the key light, the fill light and the ambient light give.
const KEY: f32 = 1.08;
const FILL: f32 = 0.34;
const AMBIENT: f32 = 0.38;

/// Registers [`FigureMaterial`] and its shader.
pub struct FigureMaterialPlugin;

impl Plugin for FigureMaterialPlugin {
    fn build(&self, app: &mut App) {
        embedded_asset!(app, "figure_material.wgsl");
        app.add_plugins(MaterialPlugin::<FigureMaterial>::default());
    }
}

/// A colour, lit (matte) or flat.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct FigureMaterial {
    /// What the shader reads.
    #[uniform(0)]
    pub params: FigureParams,
}

/// The shader's uniform (`figure_material.wgsl`).
#[derive(ShaderType, Debug, Clone, Copy, PartialEq)]
pub struct FigureParams {
    /// The colour (linear).
    pub colour: Vec4,
    /// Light of its own, added (linear).
    pub emissive: Vec4,
    /// Towards the key light, and its strength.
    pub key: Vec4,
    /// Towards the fill light, and its strength.
    pub fill: Vec4,
    /// The ambient term.
    pub ambient: f32,
    /// 1: lit; 0: the colour as it is.
    pub lit: u32,
}

impl FigureMaterial {
    /// A matte colour in the scene's light.
    pub fn matte(colour: Color) -> FigureMaterial {
        FigureMaterial::glowing(colour, LinearRgba::BLACK)
    }

    /// A matte colour in the scene's light, with light of its own.
    pub fn glowing(colour: Color, emissive: LinearRgba) -> FigureMaterial {
        let towards = |from: Vec3, strength: f32| from.normalize().extend(strength);
        FigureMaterial {
            params: FigureParams {
                colour: colour.to_linear().to_vec4(),
                emissive: emissive.to_vec4(),
                key: towards(KEY_LIGHT_FROM, KEY),
                fill: towards(FILL_LIGHT_FROM, FILL),
                ambient: AMBIENT,
                lit: 1,
            },
        }
    }

    /// A colour drawn as it is, unlit.
    pub fn flat(colour: Color) -> FigureMaterial {
        let mut material = FigureMaterial::matte(colour);
        material.params.lit = 0;
        material
    }
}

impl Material for FigureMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(
            AssetPath::from_path_buf(embedded_path!("figure_material.wgsl"))
                .with_source("embedded"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lights_point_where_the_scene_lights_are_and_flat_is_unlit() {
        let matte = FigureMaterial::matte(Color::srgb(0.5, 0.5, 0.5)).params;
        assert_eq!(matte.lit, 1);
        assert!((matte.key.truncate().length() - 1.0).abs() < 1e-6);
        assert!(matte.key.truncate().dot(KEY_LIGHT_FROM) > 0.0);
        assert!(matte.fill.truncate().dot(FILL_LIGHT_FROM) > 0.0);
        assert!(
            (matte.colour.x - 0.214).abs() < 1e-3,
            "linear: {}",
            matte.colour.x
        );
        let flat = FigureMaterial::flat(Color::srgb(0.5, 0.5, 0.5)).params;
        assert_eq!(flat.lit, 0);
        assert_eq!(flat.colour, matte.colour);
    }
}
