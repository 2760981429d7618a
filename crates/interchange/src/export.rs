//! One export, whatever asks for it (`marionette export`, File ▸ Export): baked frames of a
//! skeleton written as BVH, glTF or JSON.

use std::path::Path;

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_skeleton::Skeleton;

/// A format to export to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// Biovision hierarchy.
    Bvh,
    /// glTF 2.0 binary.
    Glb,
    /// Baked frames with world positions.
    Json,
}

impl ExportFormat {
    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Bvh => "bvh",
            ExportFormat::Glb => "glb",
            ExportFormat::Json => "json",
        }
    }
}

/// The file's bytes for `frames` (named `name`, at `fps`), and what was written otherwise than
/// asked (a glTF mesh body that could not be read from `assets`).
pub fn export_bytes(
    format: ExportFormat,
    skeleton: &Skeleton,
    locks: &[Lock],
    name: &str,
    fps: f64,
    frames: &[BakedFrame],
    assets: Option<&Path>,
) -> std::io::Result<(Vec<u8>, Vec<String>)> {
    let qs: Vec<Vec<f64>> = frames.iter().map(|f| f.q.clone()).collect();
    Ok(match format {
        ExportFormat::Bvh => (
            crate::bvh::write::to_bvh(skeleton, &qs, fps)
                .to_text()
                .into_bytes(),
            Vec::new(),
        ),
        ExportFormat::Glb => crate::gltf::to_glb(skeleton, &qs, fps, assets),
        ExportFormat::Json => {
            let mut out = Vec::new();
            crate::json::frames_with_world_positions(&mut out, skeleton, locks, name, fps, frames)?;
            (out, Vec::new())
        }
    })
}
