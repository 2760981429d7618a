//! A stage exported: every figure baked with its locks and links and the props where their cues
//! put them, written as one glb ([`glb`]) or, one figure at a time, as BVH or JSON
//! ([`export`]).

pub mod document_export;
pub mod export;
pub mod glb;
