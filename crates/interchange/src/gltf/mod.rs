//! glTF 2.0 (Khronos, 2021), read and written: any glTF file read whole, JSON or binary
//! ([`read`]: the container, buffers, nodes and accessors, each defect naming the file and the
//! node, buffer or accessor at fault); the triangles of a mesh body read from one ([`mesh`]);
//! and a skeleton's baked frames written as a binary glTF with a skinned mesh and an animation
//! ([`mod@write`]). A rigged character's own file, read as a skeleton and written back posed, is
//! [`crate::character`].

pub mod assemble;
pub(crate) mod glb;
pub mod mesh;
pub mod read;
pub mod write;

pub use read::{GltfError, GltfFile};
pub use write::to_glb;
