//! One export of a document of either version, whatever asks for it (`marionette export`, the
//! Python package's `Document.export`): a version-1 document's one figure baked with its locks
//! (or its pose) and written as BVH, glb or JSON; a stage's through [`export_stage`].

use marionette_motion::{BakeSettings, BakedFrame, Baker, bake_with_threads};

use crate::export::{Sources, assets_folder, export_bytes};
use crate::stage::export::{StageExport, StageExported, export_stage};

/// Why a document could not be exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentExportError {
    /// The one-figure document has no sequence of that name, or no figure of that name: the
    /// message lists what it has.
    NotFound(String),
    /// The bake or the writer failed.
    Write(String),
}

/// The export's bytes: a one-figure document ([`marionette_document::Stage::is_one_figure`])
/// exported on its own, the figure unplaced (`export.figure` may only name its one figure,
/// index 0); any other stage as [`export_stage`] writes it.
pub fn export_document(
    export: StageExport<'_>,
    progress: &(dyn Fn() + Sync),
) -> Result<StageExported, DocumentExportError> {
    let stage = export.stage;
    if !stage.is_one_figure() {
        return export_stage(export, progress).map_err(DocumentExportError::Write);
    }
    let figure = &stage.figures[0];
    if let Some(f) = export.figure.filter(|&f| f != 0) {
        return Err(DocumentExportError::NotFound(format!(
            "no figure number {f} (the document's one figure is \"{}\")",
            figure.name
        )));
    }
    let doc = &figure.document;
    let (name, fps, frames) = match export.sequence {
        None => {
            let frame = BakedFrame {
                frame: 0,
                q: doc.pose.q.clone(),
                lock_errors: Vec::new(),
            };
            (export.pose_name.to_owned(), 24.0, vec![frame])
        }
        Some(wanted) => {
            let sequence = doc
                .sequences
                .iter()
                .find(|s| s.name == wanted)
                .ok_or_else(|| {
                    DocumentExportError::NotFound(no_sequence(&doc.sequences, wanted))
                })?;
            let baker = Baker::new(&doc.skeleton, sequence, &doc.locks, BakeSettings::default());
            let frames = bake_with_threads(&baker, 0, progress).map_err(|e| {
                DocumentExportError::Write(format!("cannot start the baking threads: {e}"))
            })?;
            (sequence.name.clone(), sequence.fps, frames)
        }
    };
    let assets = assets_folder(export.assets, Some(&doc.skeleton_path));
    let sources = Sources {
        assets: assets.as_deref(),
        skeleton_file: Some(&doc.skeleton_path),
        character: None,
        stage: None,
    };
    let (bytes, warnings) = export_bytes(
        export.format,
        &doc.skeleton,
        &doc.locks,
        &name,
        fps,
        &frames,
        sources,
    )
    .map_err(DocumentExportError::Write)?;
    Ok(StageExported {
        bytes,
        warnings,
        frames: frames.len(),
        name,
    })
}

/// "no sequence named "x" (the document has "a", "b")", as the commands say it.
pub fn no_sequence(sequences: &[marionette_document::Sequence], wanted: &str) -> String {
    let names: Vec<String> = sequences
        .iter()
        .map(|s| format!("\"{}\"", s.name))
        .collect();
    format!(
        "no sequence named \"{wanted}\" (the document has {})",
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    )
}
