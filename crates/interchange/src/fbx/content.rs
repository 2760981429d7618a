//! An FBX file told apart by what it holds, from one load: a character (it has a skinned mesh)
//! converted to the glTF binary Marionette reads, or an animation's take.

use std::path::Path;

use super::capture::{FbxCapture, capture_of_scene};
use super::{FbxError, gltf_out, load};

/// What an FBX file holds, told by reading it once: a character (it has a skinned mesh), as the
/// glTF binary Marionette reads, or an animation's take.
pub(crate) enum FbxContent {
    /// The character as a glTF binary.
    Character(Vec<u8>),
    /// The take read (`take`'s, else the first).
    Take(FbxCapture),
}

/// The FBX file in `bytes` (read from `path`), loaded once and told apart by what it holds.
pub(crate) fn fbx_content(
    bytes: &[u8],
    path: &Path,
    take: Option<&str>,
) -> Result<FbxContent, FbxError> {
    let file = path.display().to_string();
    let fail = |why: String| FbxError {
        file: file.clone(),
        why,
    };
    let scene = load(bytes).map_err(fail)?;
    if scene.skin_deformers.is_empty() {
        if scene.anim_stacks.is_empty() {
            return Err(fail(
                "it has no skin (no skinned mesh) and no animation: neither a character nor a \
                 capture"
                    .into(),
            ));
        }
        return Ok(FbxContent::Take(capture_of_scene(&scene, &file, take)?));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    gltf_out::glb_of(&scene, folder)
        .map(FbxContent::Character)
        .map_err(fail)
}
