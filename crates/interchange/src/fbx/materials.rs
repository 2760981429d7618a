//! An FBX material as a glTF one: its base colour, opacity and base colour texture.

use std::path::Path;

use serde_json::{Value, json};

use crate::gltf::assemble::Assembly;

/// A glTF material with `material`'s base colour (its PBR base colour, else its diffuse
/// colour), opacity and base colour texture (embedded in the file, or a PNG or JPEG file it
/// names, looked for beside it in `folder`; any other image is left out, and the colour kept).
pub(super) fn material_of(material: &ufbx::Material, whole: &mut Assembly, folder: &Path) -> Value {
    let pbr = &material.pbr.base_color;
    let diffuse = &material.fbx.diffuse_color;
    let colour = if pbr.has_value {
        pbr.value_vec4
    } else {
        diffuse.value_vec4
    };
    let clamp = |v: f64| {
        if v.is_finite() {
            v.clamp(0.0, 1.0)
        } else {
            1.0
        }
    };
    let alpha = if pbr.has_value && pbr.value_components >= 4 {
        clamp(colour.w)
    } else {
        1.0
    };
    let mut out = json!({
        "name": &*material.element.name,
        "pbrMetallicRoughness": {
            "baseColorFactor": [clamp(colour.x), clamp(colour.y), clamp(colour.z), alpha],
            "metallicFactor": 0.0,
            "roughnessFactor": 0.8,
        },
    });
    let texture = pbr.texture.as_deref().or(diffuse.texture.as_deref());
    if let Some((bytes, mime)) = texture.and_then(|t| image_of(t, folder)) {
        let view = whole.view(&bytes);
        let image = whole.push("images", json!({"bufferView": view, "mimeType": mime}));
        let index = whole.push("textures", json!({"source": image}));
        // The texture carries the colour: glTF multiplies the two.
        out["pbrMetallicRoughness"]["baseColorFactor"] = json!([1.0, 1.0, 1.0, alpha]);
        out["pbrMetallicRoughness"]["baseColorTexture"] = json!({"index": index});
    }
    out
}

/// A texture's image bytes and MIME type: its embedded content, else the file it names (by its
/// path relative to the FBX file, else its absolute path), if PNG or JPEG.
fn image_of(texture: &ufbx::Texture, folder: &Path) -> Option<(Vec<u8>, &'static str)> {
    let bytes: Vec<u8> = if !texture.content.is_empty() {
        texture.content.to_vec()
    } else {
        [&*texture.relative_filename, &*texture.absolute_filename]
            .into_iter()
            .filter(|name| !name.is_empty())
            .find_map(|name| {
                let path = folder.join(name.replace('\\', "/"));
                let size = std::fs::metadata(&path).ok()?.len();
                (size <= marionette_skeleton::ron_io::MAX_DATA_BYTES)
                    .then(|| std::fs::read(&path).ok())
                    .flatten()
            })?
    };
    let mime = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        "image/jpeg"
    } else {
        return None;
    };
    Some((bytes, mime))
}
