//! A whole stage as one binary glTF (`marionette export STAGE --format glb`): every figure as
//! its own export makes it (a character its own file with its skin, mesh and materials; a
//! built-in figure its skinned bodies), under a node named after the figure that places it on
//! the stage; every prop as a node named after it (its shape made here, or its mesh file's
//! scene), keyed on every frame; and one animation moving all of them. Node names are prefixed
//! by the figure's or prop's name and a slash ("A/pelvis"), so two figures on one skeleton stay
//! apart in any tool.
//!
//! A skinned mesh node is put at the scene's root, beside its figure's node rather than under
//! it: glTF ignores a skinned mesh node's own transform (its joints place it), and validators
//! warn of a parent's (glTF 2.0 §3.7.3.3).

use std::path::Path;

use marionette_document::{PropShape, Stage};
use marionette_motion::BakedFrame;
use marionette_skeleton::rotation::quaternion_of;
use nalgebra::{Isometry3, UnitQuaternion};
use serde_json::{Value, json};

use crate::export::{ExportFormat, Sources, assets_folder, export_bytes};
use crate::gltf::assemble::{Assembly, GltfPart};
use crate::gltf::write::shape_part;

/// A stage's frames, as the stage bake made them.
#[derive(Debug, Clone, Copy)]
pub struct StageFrames<'a> {
    /// The sequence's name (the animation's), or the document's for a pose.
    pub name: &'a str,
    /// Frames per second.
    pub fps: f64,
    /// Per figure (in stage order), its frames.
    pub figures: &'a [Vec<BakedFrame>],
    /// Per prop (in stage order), its place on every frame.
    pub props: &'a [Vec<Isometry3<f64>>],
}

/// Where the files a stage names are found.
#[derive(Debug, Clone, Copy)]
pub struct StageSources<'a> {
    /// The folder of the stage document (prop meshes are relative to it).
    pub folder: &'a Path,
    /// Where every figure's mesh bodies are read from (else each skeleton's own assets folder,
    /// [`marionette_skeleton::assets_folder`]).
    pub assets: Option<&'a Path>,
}

/// The GLB bytes of the whole stage, and what was written otherwise than asked (a mesh body
/// drawn as a sphere, a VRM file's metadata dropped).
pub fn stage_glb(
    stage: &Stage,
    frames: StageFrames<'_>,
    sources: StageSources<'_>,
) -> Result<(Vec<u8>, Vec<String>), String> {
    let mut assembly = Assembly::default();
    let mut warnings = Vec::new();
    let mut scene = Vec::new();
    for (figure, figure_frames) in stage.figures.iter().zip(frames.figures) {
        let doc = &figure.document;
        let assets = assets_folder(sources.assets, Some(&doc.skeleton_path));
        let figure_sources = Sources {
            assets: assets.as_deref(),
            skeleton_file: Some(&doc.skeleton_path),
            character: None,
            stage: None,
        };
        let (bytes, figure_warnings) = export_bytes(
            ExportFormat::Glb,
            &doc.skeleton,
            &doc.locks,
            frames.name,
            frames.fps,
            figure_frames,
            figure_sources,
        )
        .map_err(|e| format!("figure \"{}\": {e}", figure.name))?;
        warnings.extend(
            figure_warnings
                .into_iter()
                .map(|w| format!("figure \"{}\": {w}", figure.name)),
        );
        let part =
            GltfPart::from_glb(&bytes).map_err(|e| format!("figure \"{}\": {e}", figure.name))?;
        let roots = assembly.add(part, &format!("{}/", figure.name), true);
        let (skinned, placed): (Vec<usize>, Vec<usize>) = roots
            .into_iter()
            .partition(|&n| assembly.is_skinned_leaf(n));
        let mut node = place_node(&figure.name, &figure.placement.isometry());
        if !placed.is_empty() {
            node["children"] = json!(placed);
        }
        scene.push(assembly.push("nodes", node));
        scene.extend(skinned);
    }
    let count = frames.props.first().map_or(0, Vec::len);
    let times: Vec<f32> = (0..count).map(|k| (k as f64 / frames.fps) as f32).collect();
    let input = (count > 0).then(|| assembly.floats(&times, "SCALAR", true));
    for (prop, places) in stage.props.iter().zip(frames.props) {
        let part = match &prop.shape {
            PropShape::Mesh(file) => mesh_part(&sources.folder.join(file))
                .map_err(|e| format!("prop \"{}\": mesh \"{file}\": {e}", prop.name))?,
            shape => {
                let (json, bin) = shape_part(shape, &prop.name);
                GltfPart { json, bin }
            }
        };
        let children = assembly.add(part, &format!("{}/", prop.name), false);
        let start = places
            .first()
            .copied()
            .unwrap_or_else(|| prop.place.isometry());
        let mut node = place_node(&prop.name, &start);
        if !children.is_empty() {
            node["children"] = json!(children);
        }
        let node = assembly.push("nodes", node);
        scene.push(node);
        if let Some(input) = input {
            let translations: Vec<f32> = places
                .iter()
                .flat_map(|p| {
                    p.translation
                        .vector
                        .iter()
                        .map(|v| *v as f32)
                        .collect::<Vec<_>>()
                })
                .collect();
            let output = assembly.floats(&translations, "VEC3", false);
            assembly.channel(node, "translation", input, output);
            let output = assembly.floats(&rotations(places), "VEC4", false);
            assembly.channel(node, "rotation", input, output);
        }
    }
    warnings.append(&mut assembly.warnings);
    Ok((assembly.finish(frames.name, &scene, frames.name), warnings))
}

/// A node placed by `place`, named `name`.
fn place_node(name: &str, place: &Isometry3<f64>) -> Value {
    let t = place.translation.vector;
    let q = place.rotation;
    json!({"name": name, "translation": [t.x, t.y, t.z], "rotation": [q.i, q.j, q.k, q.w]})
}

/// The rotations of `places` as quaternions (x, y, z, w), each in the hemisphere of the one
/// before so a player interpolates the short way.
fn rotations(places: &[Isometry3<f64>]) -> Vec<f32> {
    let mut previous: Option<UnitQuaternion<f64>> = None;
    places
        .iter()
        .flat_map(|p| {
            let mut q = quaternion_of(p.rotation.to_rotation_matrix().matrix());
            if previous.is_some_and(|last| last.coords.dot(&q.coords) < 0.0) {
                q = UnitQuaternion::new_unchecked(-q.into_inner());
            }
            previous = Some(q);
            [q.i as f32, q.j as f32, q.k as f32, q.w as f32]
        })
        .collect()
}

/// A prop's mesh file (glTF, or FBX converted) as a part: its JSON with every buffer and image gathered into one BIN
/// chunk.
fn mesh_part(path: &Path) -> Result<GltfPart, String> {
    let file = crate::character::open_as_gltf(path).map_err(|e| e.to_string())?;
    let mut json = file.json.clone();
    let bin =
        crate::character::export::gather_buffers(&file, &mut json).map_err(|e| e.to_string())?;
    Ok(GltfPart {
        json,
        bin: bin.bytes,
    })
}
