//! Files for other tools from the editor: the shown sequence (baked, locks held) or the current
//! pose exported as BVH, glTF or JSON, and a BVH capture imported as a new document
//! ([`marionette_interchange`]). Failures are errors that change nothing.

use std::path::{Path, PathBuf};

use marionette_interchange::bvh::{import::import, parse::parse};
use marionette_motion::{BakeSettings, BakedFrame, Baker, bake_with_threads};

use crate::document::Document;

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

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// Frames written.
    pub frames: usize,
    /// The sequence's name, or "pose".
    pub what: String,
}

/// What an import made.
#[derive(Debug)]
pub struct ImportedCapture {
    /// The new document (unsaved; its skeleton written beside the capture).
    pub document: Document,
    /// The skeleton file written.
    pub skeleton_path: PathBuf,
    /// The scale applied to the capture's lengths.
    pub scale: f64,
    /// Rows after the declared frame count, ignored.
    pub extra_rows: usize,
}

impl Document {
    /// Writes the shown sequence (every frame from its first key to its last, locks held), or
    /// the current pose when no sequence is shown, to `path` as `format`.
    pub fn export(&self, format: ExportFormat, path: &Path) -> Result<Exported, String> {
        let (what, fps, frames) = match self.current_sequence().and_then(|i| self.sequences.get(i))
        {
            Some(seq) => {
                let baker = Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default());
                let frames = bake_with_threads(&baker, 0, &|| {}).map_err(|e| e.to_string())?;
                (seq.name.clone(), seq.fps, frames)
            }
            None => {
                let frame = BakedFrame {
                    frame: 0,
                    q: self.pose.clone(),
                    lock_errors: Vec::new(),
                };
                ("pose".to_owned(), 24.0, vec![frame])
            }
        };
        let qs: Vec<Vec<f64>> = frames.iter().map(|f| f.q.clone()).collect();
        let bytes = match format {
            ExportFormat::Bvh => {
                marionette_interchange::bvh::write::to_bvh(&self.skeleton, &qs, fps)
                    .to_text()
                    .into_bytes()
            }
            ExportFormat::Glb => marionette_interchange::gltf::to_glb(&self.skeleton, &qs, fps),
            ExportFormat::Json => {
                let mut out = Vec::new();
                marionette_interchange::json::frames_with_world_positions(
                    &mut out,
                    &self.skeleton,
                    &self.locks,
                    &what,
                    fps,
                    &frames,
                )
                .map_err(|e| e.to_string())?;
                out
            }
        };
        marionette_skeleton::ron_io::write_bytes_atomically(path, &bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Exported {
            frames: frames.len(),
            what,
        })
    }

    /// Imports a BVH capture: its skeleton written beside it (`NAME.skeleton.ron`), a new
    /// unsaved document with one sequence keyed on every frame, shown. Lengths are taken as
    /// centimetres (× 0.01) when the figure is taller than 10 units, else as metres.
    pub fn import_bvh(path: &Path) -> Result<ImportedCapture, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let parsed = parse(&String::from_utf8_lossy(&bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let height = if parsed.bvh.frames.is_empty() {
            0.0
        } else {
            let ys: Vec<f64> = parsed.bvh.world_positions(0).iter().map(|p| p.y).collect();
            ys.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - ys.iter().copied().fold(f64::INFINITY, f64::min)
        };
        let scale = if height > 10.0 { 0.01 } else { 1.0 };
        let name = path.file_stem().map_or_else(
            || "capture".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let imported =
            import(&parsed.bvh, scale, 1, &name).map_err(|e| format!("{}: {e}", path.display()))?;
        let skeleton_path = path.with_file_name(format!("{name}.skeleton.ron"));
        let text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
            .map_err(|e| e.to_string())?;
        marionette_skeleton::ron_io::write_atomically(&skeleton_path, &text)
            .map_err(|e| format!("{}: {e}", skeleton_path.display()))?;
        let mut document = Document::from_file(imported.document(skeleton_path.clone()));
        document.sequence = Some(0);
        document.frame = 0;
        document.saved_revision = u64::MAX; // unsaved until saved
        Ok(ImportedCapture {
            document,
            skeleton_path,
            scale,
            extra_rows: parsed.extra_rows,
        })
    }
}
