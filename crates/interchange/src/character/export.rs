//! A posed character written back for other tools: the original file's meshes, materials,
//! textures, skins, node names and hierarchy unchanged, in one binary glTF (buffers and images
//! gathered into its BIN chunk), with one animation of the frames (a single key for a pose): a
//! reader that plays the file's first animation shows Marionette's frames, and for a pose the
//! joint nodes' own transforms are posed too, so one that shows the nodes as they stand shows it
//! as well (a sequence's nodes keep the file's rest). The animations the file had are dropped
//! (a player would otherwise show one of them). Each joint
//! node's transform is its world transform from Marionette's forward kinematics (with the file's
//! scale) relative to its parent node's, so a reader's joints land where Marionette's are.

use nalgebra::{Matrix4, UnitQuaternion};
use serde_json::{Value, json};

use marionette_skeleton::Skeleton;

use super::posing::{joint_nodes, posed_locals};
use super::{Character, CharacterError};
use crate::gltf::glb::frame;
use crate::gltf::read::{GltfFile, decompose, uri_data};
use crate::gltf::write::BinChunk;
use marionette_skeleton::rotation::quaternion_of;

/// The character posed by the skeleton's `frames` (at least one) at `fps`, as GLB bytes: the
/// frames as an animation named `name`, the joint nodes' transforms those of the first frame.
pub fn character_glb(
    character: &Character,
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    fps: f64,
    name: &str,
) -> Result<Vec<u8>, CharacterError> {
    let (file, rig) = (&character.file, &character.rig);
    if frames.is_empty() {
        return Err(CharacterError::Rig {
            file: file.file(),
            node: None,
            why: "no frames to write".into(),
        });
    }
    let nodes = joint_nodes(skeleton, rig);
    if nodes.iter().all(Option::is_none) {
        return Err(CharacterError::Rig {
            file: file.file(),
            node: None,
            why: format!(
                "none of skeleton \"{}\"'s joints drives a node of this file",
                skeleton.name()
            ),
        });
    }
    let locals = posed_locals(file, rig, skeleton, frames);
    let mut json = file.json.clone();
    let mut bin = gather_buffers(file, &mut json)?;
    let driven: Vec<usize> = nodes.iter().flatten().copied().collect();
    let trs = |m: &Matrix4<f64>, n: usize| trs(file, m, n);
    // Driven nodes are written as TRS (an animated node may not have a matrix): a pose's nodes
    // posed, a sequence's as the file has them (its rest, so the file imports again as the
    // same skeleton), the animation moving them.
    let statics: Vec<Matrix4<f64>> = (0..file.nodes.len())
        .map(|n| {
            if frames.len() == 1 {
                locals[0][n]
            } else {
                file.nodes[n].local
            }
        })
        .collect();
    for &n in &driven {
        let (r, t, s) = trs(&statics[n], n)?;
        let q = quaternion_of(&r);
        let node = &mut json["nodes"][n];
        if let Some(object) = node.as_object_mut() {
            object.remove("matrix");
        }
        node["translation"] = json!([t.x, t.y, t.z]);
        node["rotation"] = json!([q.i, q.j, q.k, q.w]);
        node["scale"] = json!([s, s, s]);
    }
    animation(
        file,
        &mut json,
        &mut bin,
        (&locals, &statics),
        &driven,
        fps,
        name,
    )?;
    bin.pad(4);
    json["buffers"] = json!([{"byteLength": bin.bytes.len()}]);
    json["bufferViews"] = Value::Array(bin.views);
    json["asset"]["generator"] = json!("Marionette (posed from the original file)");
    Ok(frame(&json, &bin.bytes))
}

/// A node's posed transform as rotation, translation and uniform scale.
fn trs(
    file: &GltfFile,
    m: &Matrix4<f64>,
    n: usize,
) -> Result<(nalgebra::Matrix3<f64>, nalgebra::Vector3<f64>, f64), CharacterError> {
    decompose(m).map_err(|why| CharacterError::Rig {
        file: file.file(),
        node: Some(file.node_label(n)),
        why: format!("its posed transform: {why}"),
    })
}

/// `file` as one glTF binary, as it was read: its buffers and the images it names gathered into
/// the BIN chunk (a character read from FBX, handed to a glTF loader as it was converted).
pub fn file_glb(file: &GltfFile) -> Result<Vec<u8>, CharacterError> {
    let mut json = file.json.clone();
    let bin = gather_buffers(file, &mut json)?;
    Ok(frame(&json, &bin.bytes))
}

/// Every buffer of `file` and every image it names by URI, gathered into one BIN chunk; the
/// buffer views and images of `json` point into it.
pub(crate) fn gather_buffers(
    file: &GltfFile,
    json: &mut Value,
) -> Result<BinChunk, CharacterError> {
    let mut bin = BinChunk::default();
    let mut starts = Vec::new();
    for data in &file.buffers {
        bin.pad(16);
        starts.push(bin.bytes.len());
        bin.bytes.extend_from_slice(data);
    }
    for view in json["bufferViews"].as_array().cloned().unwrap_or_default() {
        let mut view = view;
        let buffer = view["buffer"].as_u64().unwrap_or(0) as usize;
        let offset = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        view["buffer"] = json!(0);
        view["byteOffset"] = json!(starts.get(buffer).copied().unwrap_or(0) + offset);
        bin.views.push(view);
    }
    let images = json["images"].as_array().cloned().unwrap_or_default();
    for (i, image) in images.iter().enumerate() {
        let Some(uri) = image["uri"].as_str() else {
            continue;
        };
        let data = uri_data(uri, &file.path).map_err(|why| CharacterError::Rig {
            file: file.file(),
            node: None,
            why: format!("image {i}: {why}"),
        })?;
        let mime = match uri.strip_prefix("data:").and_then(|r| r.split_once(';')) {
            Some((mime, _)) => mime.to_owned(),
            None if uri.to_ascii_lowercase().ends_with(".png") => "image/png".into(),
            None => "image/jpeg".into(),
        };
        let view = bin.view(&data, None);
        json["images"][i] = json!({"bufferView": view, "mimeType": mime});
        if let Some(name) = image["name"].as_str() {
            json["images"][i]["name"] = json!(name);
        }
    }
    Ok(bin)
}

/// Makes one animation of `locals` (per frame, per node) for the driven nodes the file's only
/// one.
fn animation(
    file: &GltfFile,
    json: &mut Value,
    bin: &mut BinChunk,
    (locals, statics): (&[Vec<Matrix4<f64>>], &[Matrix4<f64>]),
    driven: &[usize],
    fps: f64,
    name: &str,
) -> Result<(), CharacterError> {
    let mut accessors = json["accessors"].as_array().cloned().unwrap_or_default();
    let mut add = |bin: &mut BinChunk, values: &[f32], kind: &str, extremes: bool| {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = bin.view(&bytes, None);
        let width = match kind {
            "SCALAR" => 1,
            "VEC3" => 3,
            _ => 4,
        };
        let mut a = json!({"bufferView": view, "componentType": 5126,
            "count": values.len() / width, "type": kind});
        if extremes {
            let lo = values.iter().copied().fold(f32::INFINITY, f32::min);
            let hi = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            a["min"] = json!([lo]);
            a["max"] = json!([hi]);
        }
        accessors.push(a);
        accessors.len() - 1
    };
    let times: Vec<f32> = (0..locals.len()).map(|k| (k as f64 / fps) as f32).collect();
    let input = add(bin, &times, "SCALAR", true);
    let mut samplers = Vec::new();
    let mut channels = Vec::new();
    for &n in driven {
        let mut rotations = Vec::with_capacity(locals.len() * 4);
        let mut translations = Vec::with_capacity(locals.len() * 3);
        let mut previous: Option<UnitQuaternion<f64>> = None;
        for frame in locals {
            let (r, t, _) = trs(file, &frame[n], n)?;
            let mut q = quaternion_of(&r);
            // The same hemisphere as the last key, so interpolation takes the short way.
            if previous.is_some_and(|p| p.coords.dot(&q.coords) < 0.0) {
                q = UnitQuaternion::new_unchecked(-q.into_inner());
            }
            previous = Some(q);
            rotations.extend([q.i, q.j, q.k, q.w].map(|v| v as f32));
            translations.extend([t.x, t.y, t.z].map(|v| v as f32));
        }
        let rotation = add(bin, &rotations, "VEC4", false);
        samplers.push(json!({"input": input, "output": rotation, "interpolation": "LINEAR"}));
        channels.push(
            json!({"sampler": samplers.len() - 1, "target": {"node": n, "path": "rotation"}}),
        );
        // A translation channel where some frame's translation is not the node's own.
        let (_, standing, _) = trs(file, &statics[n], n)?;
        let standing = [standing.x, standing.y, standing.z].map(|v| v as f32);
        let moves = translations
            .chunks(3)
            .any(|t| t.iter().zip(&standing).any(|(a, b)| (a - b).abs() > 1e-7));
        if moves {
            let translation = add(bin, &translations, "VEC3", false);
            samplers
                .push(json!({"input": input, "output": translation, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": n, "path": "translation"}}));
        }
    }
    json["accessors"] = Value::Array(accessors);
    json["animations"] = json!([{"name": name, "samplers": samplers, "channels": channels}]);
    Ok(())
}
