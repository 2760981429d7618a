//! Files other tools read and write, without Bevy: BVH motion in and out ([`bvh`]), glTF 2.0
//! binaries with a skinned mesh and an animation ([`gltf`]) and baked frames as JSON with every site's and joint's world position ([`json`]). The command line's
//! `export` and `import` and the editor's File menu call these; [`export`] is the one export both
//! make.

pub mod bvh;
pub mod character;
pub mod export;
pub mod feet;
pub mod gltf;
pub mod gltf_file;
pub mod gltf_read;
pub mod json;
pub mod retarget;
