//! Why a character could not be imported.

use crate::fbx::FbxError;
use crate::gltf::read::GltfError;

/// Why a character could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CharacterError {
    /// The glTF file itself is broken.
    #[error(transparent)]
    Gltf(#[from] GltfError),
    /// The FBX file could not be read.
    #[error(transparent)]
    Fbx(#[from] FbxError),
    /// The file is glTF but holds no character Marionette can pose.
    #[error("{file}: {}{why}", node.as_ref().map(|n| format!("node {n}: ")).unwrap_or_default())]
    Rig {
        /// The file.
        file: String,
        /// The node at fault, if one is.
        node: Option<String>,
        /// What is wrong.
        why: String,
    },
    /// The skeleton made from the rig is refused (a bug, or a file beyond what is handled).
    #[error("{file}: the rig does not make a valid skeleton: {why}")]
    Skeleton {
        /// The file.
        file: String,
        /// The skeleton's defects.
        why: String,
    },
}
