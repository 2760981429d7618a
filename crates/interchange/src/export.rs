//! One export, whatever asks for it (`marionette export`, File ▸ Export): baked frames of a
//! skeleton written as BVH, glTF or JSON.

use std::path::{Path, PathBuf};

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_skeleton::Skeleton;

use crate::character::Character;

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

/// Where an export finds the files a skeleton names.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sources<'a> {
    /// The folder mesh bodies are read from.
    pub assets: Option<&'a Path>,
    /// The skeleton file (a character's skin is found beside it).
    pub skeleton_file: Option<&'a Path>,
    /// The character the skeleton's skin names, already read (the editor's); else it is read
    /// from its file.
    pub character: Option<&'a Character>,
    /// Where the figure stands when it is one of a stage's: BVH's root and JSON's world
    /// positions are placed on the stage; and every prop's place per frame, for JSON.
    pub stage: Option<OnStage<'a>>,
}

/// The folder mesh bodies are read from: the one `given` (the command line's `--assets`, the
/// editor's), else the skeleton file's own ([`marionette_skeleton::assets_folder`]).
pub fn assets_folder(given: Option<&Path>, skeleton_file: Option<&Path>) -> Option<PathBuf> {
    given
        .map(Path::to_path_buf)
        .or_else(|| marionette_skeleton::assets_folder(skeleton_file))
}

/// A stage figure's part of an export.
#[derive(Debug, Clone, Copy)]
pub struct OnStage<'a> {
    /// The figure's place on the stage.
    pub placement: nalgebra::Isometry3<f64>,
    /// Per frame, `{NAME: {"position": [x, y, z], "rotation": [x, y, z, w]}}` of every prop.
    pub props: &'a [serde_json::Value],
}

/// The file's bytes for `frames` (named `name`, at `fps`), and what was written otherwise than
/// asked (a glTF mesh body that could not be read). A character's glb is its own file with
/// the pose or the frames as an animation ([`crate::character::export`]).
pub fn export_bytes(
    format: ExportFormat,
    skeleton: &Skeleton,
    locks: &[Lock],
    name: &str,
    fps: f64,
    frames: &[BakedFrame],
    sources: Sources<'_>,
) -> Result<(Vec<u8>, Vec<String>), String> {
    let qs: Vec<Vec<f64>> = frames.iter().map(|f| f.q.clone()).collect();
    let assets = sources.assets;
    if format == ExportFormat::Glb
        && let Some(skin) = skeleton.skin_path(sources.skeleton_file)
    {
        let read;
        let character = match sources.character {
            Some(c) => c,
            None => {
                read = Character::open(&skin).map_err(|e| format!("the character file: {e}"))?;
                &read
            }
        };
        let bytes = crate::character::export::character_glb(character, skeleton, &qs, fps, name)
            .map_err(|e| format!("the character file: {e}"))?;
        return Ok((bytes, Vec::new()));
    }
    Ok(match format {
        ExportFormat::Bvh => (
            match &sources.stage {
                Some(stage) => {
                    crate::bvh::write::to_bvh_placed(skeleton, &qs, fps, &stage.placement)
                }
                None => crate::bvh::write::to_bvh(skeleton, &qs, fps),
            }
            .to_text()
            .into_bytes(),
            Vec::new(),
        ),
        ExportFormat::Glb => crate::gltf::to_glb(skeleton, &qs, fps, assets),
        ExportFormat::Json => {
            let mut out = Vec::new();
            match &sources.stage {
                Some(stage) => crate::json::frames_on_stage(
                    &mut out,
                    skeleton,
                    locks,
                    (name, fps, frames),
                    &stage.placement,
                    stage.props,
                ),
                None => crate::json::frames_with_world_positions(
                    &mut out, skeleton, locks, name, fps, frames,
                ),
            }
            .map_err(|e| e.to_string())?;
            (out, Vec::new())
        }
    })
}
