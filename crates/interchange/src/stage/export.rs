//! One export of a stage, whatever asks for it (`marionette export`, File ▸ Export in the
//! editor): its sequence baked with the whole stage (links held, props carried by their grips),
//! or its pose; then the whole stage as one glb ([`crate::stage::glb`]), or one figure as BVH or
//! JSON, placed on the stage (JSON frames carry every prop's place).

use std::path::Path;

use marionette_document::Stage;
use marionette_motion::stage::StageBaker;
use marionette_motion::stage::frames_file::place_json;
use marionette_motion::{BakeSettings, BakedFrame};
use nalgebra::Isometry3;
use serde_json::Value;

use crate::export::{ExportFormat, OnStage, Sources, assets_folder, export_bytes};
use crate::stage::glb::{StageFrames, StageSources, stage_glb};

/// What to export of a stage.
#[derive(Debug, Clone, Copy)]
pub struct StageExport<'a> {
    /// The stage.
    pub stage: &'a Stage,
    /// The sequence to bake, or `None` for the pose.
    pub sequence: Option<&'a str>,
    /// The figure (index into the stage's figures) for BVH and JSON; `None` for a glb.
    pub figure: Option<usize>,
    /// The format.
    pub format: ExportFormat,
    /// The stage document's folder (prop meshes are relative to it).
    pub folder: &'a Path,
    /// Where mesh bodies are read from (else each skeleton's own assets folder).
    pub assets: Option<&'a Path>,
    /// The animation's name for a pose (a sequence's is its own).
    pub pose_name: &'a str,
}

/// What a stage export wrote.
#[derive(Debug, Clone)]
pub struct StageExported {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// What was written otherwise than asked.
    pub warnings: Vec<String>,
    /// Frames written.
    pub frames: usize,
    /// The sequence's name, or the pose's.
    pub name: String,
}

/// Bakes (calling `progress` after each frame) and writes the export's bytes, or says what is
/// wrong (a figure asked of a glb, none of a BVH or JSON, a sequence that cannot be baked).
pub fn export_stage(
    export: StageExport<'_>,
    progress: &(dyn Fn() + Sync),
) -> Result<StageExported, String> {
    let stage = export.stage;
    match (export.format, export.figure) {
        (ExportFormat::Glb, Some(f)) => {
            return Err(format!(
                "a glb holds the whole stage (every figure and prop), not figure \"{}\" alone; \
                 export that figure as BVH or JSON",
                stage.figures.get(f).map_or("?", |fig| fig.name.as_str())
            ));
        }
        (ExportFormat::Bvh | ExportFormat::Json, None) => {
            return Err(format!(
                "a stage holds several figures; say which to export (figures: {})",
                stage.figure_list()
            ));
        }
        _ => {}
    }
    let (name, fps, figures, props) = bake(stage, export.sequence, export.pose_name, progress)?;
    let frames = figures.first().map_or(0, Vec::len);
    let (bytes, warnings) = match export.figure {
        None => {
            let frames = StageFrames {
                name: &name,
                fps,
                figures: &figures,
                props: &props,
            };
            let sources = StageSources {
                folder: export.folder,
                assets: export.assets,
            };
            stage_glb(stage, frames, sources)?
        }
        Some(f) => {
            let figure = stage.figures.get(f).ok_or_else(|| {
                format!("no figure number {f} (figures: {})", stage.figure_list())
            })?;
            let per_frame: Vec<Value> = (0..frames)
                .map(|k| {
                    Value::Object(
                        stage
                            .props
                            .iter()
                            .zip(&props)
                            .map(|(p, places)| (p.name.clone(), place_json(&places[k])))
                            .collect(),
                    )
                })
                .collect();
            let doc = &figure.document;
            let assets = assets_folder(export.assets, Some(&doc.skeleton_path));
            let sources = Sources {
                assets: assets.as_deref(),
                skeleton_file: Some(&doc.skeleton_path),
                character: None,
                stage: Some(OnStage {
                    placement: figure.placement.isometry(),
                    props: &per_frame,
                }),
            };
            export_bytes(
                export.format,
                &doc.skeleton,
                &doc.locks,
                &name,
                fps,
                &figures[f],
                sources,
            )?
        }
    };
    Ok(StageExported {
        bytes,
        warnings,
        frames,
        name,
    })
}

/// Per figure its frames, per prop its places, with the name and fps: the sequence baked with
/// the whole stage, or the pose as one frame.
type Baked = (String, f64, Vec<Vec<BakedFrame>>, Vec<Vec<Isometry3<f64>>>);

fn bake(
    stage: &Stage,
    sequence: Option<&str>,
    pose_name: &str,
    progress: &(dyn Fn() + Sync),
) -> Result<Baked, String> {
    let Some(sequence) = sequence else {
        let figures = stage
            .figures
            .iter()
            .map(|f| {
                vec![BakedFrame {
                    frame: 0,
                    q: f.document.pose.q.clone(),
                    lock_errors: Vec::new(),
                }]
            })
            .collect();
        let props = stage
            .props
            .iter()
            .map(|p| vec![p.place.isometry()])
            .collect();
        return Ok((pose_name.to_owned(), 24.0, figures, props));
    };
    let baker = StageBaker::new(stage, sequence, BakeSettings::default())?;
    let bake = baker
        .bake_with_threads(0, progress)
        .map_err(|e| format!("cannot start the baking threads: {e}"))?;
    let mut figures: Vec<Vec<BakedFrame>> = vec![Vec::new(); stage.figures.len()];
    for frame in &bake.frames {
        for (f, figure) in frame.figures.iter().enumerate() {
            figures[f].push(figure.clone());
        }
    }
    Ok((sequence.to_owned(), baker.fps(), figures, bake.props))
}
