//! Files other tools read and write, without Bevy: BVH motion in and out ([`bvh`]), read for
//! every front end by [`capture::read_capture`]; glTF 2.0 read and written ([`gltf`]); rigged
//! characters imported from their glTF files and written back posed ([`character`]); captures
//! put onto humanoid figures ([`retarget`]); baked frames as JSON with every site's and joint's
//! world position ([`json`]); what kind a file is ([`file_kind`]). The command line, the editor,
//! the replays and the fuzzer call these; [`export`] is the one export they all make.

pub mod bvh;
pub mod capture;
pub mod character;
pub mod export;
pub mod fbx;
pub mod feet;
pub mod file_kind;
pub mod gltf;
pub mod json;
pub mod open;
pub mod retarget;
pub mod stage;
