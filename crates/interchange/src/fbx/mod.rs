//! An FBX file (binary or ASCII, as Mixamo, Maya, MotionBuilder, Unity, Unreal and the asset
//! stores write it) read with ufbx (a reader in one C file, the one Godot's and Blender's
//! new importers use, through the `ufbx` crate) and turned into the glTF 2.0 binary Marionette
//! already reads ([`crate::character`]): the file's nodes with their names and hierarchy, its
//! skinned meshes (positions, normals, texture coordinates, the four strongest joint weights of
//! each vertex), each skin's joints with its bind pose, and its materials' base colour.
//!
//! Units and axes are converted on reading (ufbx's `target_unit_meters` and `target_axes`, the
//! change made to the geometry and the transforms, not put on a root node): a character in
//! centimetres with Z up comes in in metres with Y up, facing +Z as glTF's do. A material's
//! base colour texture is carried over when the file embeds it or names a PNG or JPEG file
//! beside it. The bind pose is the rest pose: a joint's rest transform is the one its skin was
//! bound at (the clusters' `TransformLink`), which an FBX may hold apart from the node's own
//! transform, and which is what the skin's vertices were made against.

pub mod capture;
mod content;
mod corners;
mod gltf_out;
mod materials;
mod nodes;

use std::path::Path;

pub(crate) use content::{FbxContent, fbx_content};

use marionette_skeleton::ron_io::{MAX_DATA_BYTES, read_bytes};

/// Why an FBX file could not be turned into a character.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {why}")]
pub struct FbxError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub why: String,
}

/// Whether `head` (a file's first bytes) starts an FBX file: the binary's magic, or an ASCII
/// file's header comment (`; FBX 7.4.0 project file`).
pub fn looks_like_fbx(head: &[u8]) -> bool {
    if head.starts_with(b"Kaydara FBX Binary") {
        return true;
    }
    let text = String::from_utf8_lossy(&head[..head.len().min(4096)]);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with(';') && text.lines().next().is_some_and(|l| l.contains("FBX"))
}

/// The FBX file at `path` as the bytes of a glTF binary (`.glb`) holding the same character.
pub fn fbx_to_glb(path: &Path) -> Result<Vec<u8>, FbxError> {
    let scene = read_scene(path)?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    gltf_out::glb_of(&scene, folder).map_err(|why| FbxError {
        file: path.display().to_string(),
        why,
    })
}

/// The FBX file at `path`, read whole.
fn read_scene(path: &Path) -> Result<ufbx::SceneRoot, FbxError> {
    let fail = |why: String| FbxError {
        file: path.display().to_string(),
        why,
    };
    let bytes = read_bytes(path, MAX_DATA_BYTES, "an FBX file").map_err(|e| fail(e.to_string()))?;
    if !looks_like_fbx(&bytes) {
        return Err(fail(
            "not an FBX file (neither the binary's \"Kaydara FBX Binary\" nor an ASCII FBX header)"
                .into(),
        ));
    }
    load(&bytes).map_err(fail)
}

/// The scene in `bytes`, in metres with Y up.
fn load(bytes: &[u8]) -> Result<ufbx::SceneRoot, String> {
    let opts = ufbx::LoadOpts {
        target_axes: ufbx::CoordinateAxes::right_handed_y_up(),
        target_unit_meters: 1.0,
        space_conversion: ufbx::SpaceConversion::ModifyGeometry,
        // Nothing beside the file is opened: a character is read from its one file.
        load_external_files: false,
        ignore_missing_external_files: true,
        generate_missing_normals: true,
        clean_skin_weights: true,
        node_depth_limit: 512,
        ..Default::default()
    };
    ufbx::load_memory(bytes, opts).map_err(|e| {
        let info = e.info();
        if info.is_empty() {
            e.description.to_string()
        } else {
            format!("{} ({info})", &*e.description)
        }
    })
}
