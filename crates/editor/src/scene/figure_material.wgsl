// The figure's material (scene/figure_material.rs): a matte colour lit by the scene's two
// directional lights and an ambient term, or a flat colour. A few operations per pixel, where
// Bevy's physically based shader costs hundreds under a software renderer.
#import bevy_pbr::forward_io::VertexOutput

struct FigureMaterial {
    colour: vec4<f32>,
    emissive: vec4<f32>,
    // Towards the key light (xyz) and its strength (w); the same for the fill light.
    key: vec4<f32>,
    fill: vec4<f32>,
    // The ambient term.
    ambient: f32,
    // 1: lit by the above; 0: the colour drawn flat.
    lit: u32,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> material: FigureMaterial;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    if material.lit == 0u {
        return vec4<f32>(material.colour.rgb + material.emissive.rgb, 1.0);
    }
    let n = normalize(in.world_normal);
    let light = material.ambient
        + material.key.w * max(dot(n, material.key.xyz), 0.0)
        + material.fill.w * max(dot(n, material.fill.xyz), 0.0);
    return vec4<f32>(material.colour.rgb * light + material.emissive.rgb, 1.0);
}
