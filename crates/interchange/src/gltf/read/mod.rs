//! A glTF 2.0 file read whole (glTF 2.0 specification, Khronos, 2021): `.glb` binaries (and
//! `.vrm`, which are binaries), `.gltf` JSON whose buffers are `data:` URIs or files beside it.
//! The JSON is kept as it is (an export writes it back with only what it changes), the buffers
//! are loaded, every node's local transform and parent are found, and accessors are read into
//! plain numbers. Every defect is an error naming the file and the node, buffer or accessor;
//! nothing sized by the file is allocated before it is checked against the bytes that are there.

use std::path::{Path, PathBuf};

use marionette_skeleton::ron_io::{MAX_DATA_BYTES, read_bytes};
use nalgebra::Matrix4;
use serde_json::Value;

mod container;
mod error;
mod nodes;

use crate::gltf::glb::chunks;
use container::read_buffers;
pub use container::uri_data;
pub use error::{GltfError, MAX_NODES};
use nodes::read_nodes;
pub use nodes::{NodeInfo, decompose};

/// A glTF file, read.
#[derive(Debug, Clone)]
pub struct GltfFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The JSON document as written.
    pub json: Value,
    /// Every buffer's bytes.
    pub buffers: Vec<Vec<u8>>,
    /// Every node.
    pub nodes: Vec<NodeInfo>,
}

impl GltfFile {
    /// Reads the file at `path` (external buffers are read from beside it).
    pub fn open(path: &Path) -> Result<GltfFile, GltfError> {
        let bytes =
            read_bytes(path, MAX_DATA_BYTES, "a glTF character").map_err(|e| GltfError::Io {
                file: path.display().to_string(),
                why: e.to_string(),
            })?;
        GltfFile::from_bytes(&bytes, path)
    }

    /// Reads a file's bytes; `path` names it and locates external buffers.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<GltfFile, GltfError> {
        let file = path.display().to_string();
        let not = |why: String| GltfError::NotGltf {
            file: file.clone(),
            why,
        };
        let (json, bin) = if bytes.starts_with(b"glTF") {
            chunks(bytes).map_err(not)?
        } else {
            let json: Value = serde_json::from_slice(bytes).map_err(|e| not(e.to_string()))?;
            (json, None)
        };
        if !json.is_object() {
            return Err(not("the JSON is not an object".into()));
        }
        match json["asset"]["version"].as_str() {
            Some(v) if v.starts_with("2.") => {}
            Some(v) => return Err(not(format!("asset version {v} (this program reads 2.x)"))),
            None => return Err(not("no asset.version".into())),
        }
        let buffers = read_buffers(&json, bin, path, &file)?;
        let nodes = read_nodes(&json, &file)?;
        Ok(GltfFile {
            path: path.to_path_buf(),
            json,
            buffers,
            nodes,
        })
    }

    /// The file's name for messages.
    pub fn file(&self) -> String {
        self.path.display().to_string()
    }

    /// A node as messages name it: `3 ("hips")`.
    pub fn node_label(&self, node: usize) -> String {
        match self.nodes.get(node).and_then(|n| n.name.as_deref()) {
            Some(name) => format!("{node} (\"{name}\")"),
            None => node.to_string(),
        }
    }

    /// The roots of the default scene (every parentless node when the file names no scene).
    pub fn scene_roots(&self) -> Vec<usize> {
        let scene = self.json["scene"].as_u64().unwrap_or(0) as usize;
        match self.json["scenes"][scene]["nodes"].as_array() {
            Some(roots) => roots
                .iter()
                .filter_map(Value::as_u64)
                .map(|n| n as usize)
                .filter(|&n| n < self.nodes.len())
                .collect(),
            None => (0..self.nodes.len())
                .filter(|&n| self.nodes[n].parent.is_none())
                .collect(),
        }
    }

    /// Mesh `mesh`'s primitives made of triangles (mode 4, the default), with their indices in
    /// the mesh.
    pub fn triangle_primitives(&self, mesh: usize) -> impl Iterator<Item = (usize, &Value)> {
        self.json["meshes"][mesh]["primitives"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .filter(|(_, p)| p["mode"].as_u64().unwrap_or(4) == 4)
    }

    /// Every node's transform in the world (the product of its ancestors' local transforms).
    pub fn world_matrices(&self) -> Vec<Matrix4<f64>> {
        let mut world: Vec<Option<Matrix4<f64>>> = vec![None; self.nodes.len()];
        for n in 0..self.nodes.len() {
            // Walk up to the first known ancestor (parents were checked to form a forest).
            let mut chain = vec![n];
            while let Some(p) = self.nodes[*chain.last().unwrap_or(&n)].parent {
                if world[p].is_some() {
                    break;
                }
                chain.push(p);
            }
            for &k in chain.iter().rev() {
                if world[k].is_some() {
                    continue;
                }
                let above = self.nodes[k]
                    .parent
                    .and_then(|p| world[p])
                    .unwrap_or_else(Matrix4::identity);
                world[k] = Some(above * self.nodes[k].local);
            }
        }
        world
            .into_iter()
            .map(|m| m.unwrap_or_else(Matrix4::identity))
            .collect()
    }

    fn accessor_error(&self, accessor: usize, why: impl Into<String>) -> GltfError {
        GltfError::Accessor {
            file: self.file(),
            accessor,
            why: why.into(),
        }
    }

    /// Reads accessor `index` as `width` numbers per element (SCALAR 1, VEC2 2, VEC3 3, VEC4 4,
    /// MAT4 16), each converted to f64 (normalised integers to [0, 1]).
    pub fn read_accessor(&self, index: usize, width: usize) -> Result<Vec<Vec<f64>>, GltfError> {
        let a = &self.json["accessors"][index];
        if !a.is_object() {
            return Err(self.accessor_error(index, "there is no such accessor"));
        }
        let components = match a["type"].as_str() {
            Some("SCALAR") => 1,
            Some("VEC2") => 2,
            Some("VEC3") => 3,
            Some("VEC4") => 4,
            Some("MAT4") => 16,
            other => {
                return Err(self.accessor_error(index, format!("type {other:?} is not read here")));
            }
        };
        if components != width {
            return Err(self.accessor_error(
                index,
                format!("has {components} numbers per element, {width} expected"),
            ));
        }
        if a.get("sparse").is_some() {
            return Err(self.accessor_error(index, "sparse accessors are not read here"));
        }
        let component_type = a["componentType"].as_u64().unwrap_or(0);
        let size = match component_type {
            5120 | 5121 => 1,
            5122 | 5123 => 2,
            5125 | 5126 => 4,
            other => return Err(self.accessor_error(index, format!("componentType {other}"))),
        };
        let normalized = a["normalized"].as_bool().unwrap_or(false);
        let count = a["count"]
            .as_u64()
            .ok_or_else(|| self.accessor_error(index, "no count"))? as usize;
        let Some(view) = a["bufferView"].as_u64() else {
            // No buffer view: all zeros (the specification's rule), bounded by the count check
            // of a real use below.
            if count > 10_000_000 {
                return Err(self.accessor_error(index, format!("count {count} without data")));
            }
            return Ok(vec![vec![0.0; width]; count]);
        };
        let v = &self.json["bufferViews"][view as usize];
        let buffer = v["buffer"].as_u64().unwrap_or(u64::MAX) as usize;
        let data = self
            .buffers
            .get(buffer)
            .ok_or_else(|| self.accessor_error(index, format!("buffer {buffer} is missing")))?;
        let view_offset = v["byteOffset"].as_u64().unwrap_or(0) as usize;
        let view_length = v["byteLength"].as_u64().unwrap_or(0) as usize;
        let view_bytes = view_offset
            .checked_add(view_length)
            .and_then(|end| data.get(view_offset..end))
            .ok_or_else(|| {
                self.accessor_error(index, format!("buffer view {view} runs past its buffer"))
            })?;
        let element = size * components;
        let stride = v["byteStride"]
            .as_u64()
            .map_or(element, |s| s as usize)
            .max(element);
        let offset = a["byteOffset"].as_u64().unwrap_or(0) as usize;
        let needed = count
            .checked_sub(1)
            .map_or(Some(0), |last| {
                last.checked_mul(stride)
                    .and_then(|x| x.checked_add(offset))
                    .and_then(|x| x.checked_add(element))
            })
            .ok_or_else(|| self.accessor_error(index, "its size overflows"))?;
        if needed > view_bytes.len() {
            return Err(self.accessor_error(
                index,
                format!(
                    "{count} elements need {needed} bytes, its buffer view {view} has {}",
                    view_bytes.len()
                ),
            ));
        }
        let read = |at: usize| -> f64 {
            let b = &view_bytes[at..at + size];
            let x = match component_type {
                5120 => f64::from(b[0] as i8),
                5121 => f64::from(b[0]),
                5122 => f64::from(i16::from_le_bytes([b[0], b[1]])),
                5123 => f64::from(u16::from_le_bytes([b[0], b[1]])),
                5125 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                _ => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            };
            match (normalized, component_type) {
                (true, 5120) => (x / 127.0).max(-1.0),
                (true, 5121) => x / 255.0,
                (true, 5122) => (x / 32767.0).max(-1.0),
                (true, 5123) => x / 65535.0,
                _ => x,
            }
        };
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let at = offset + i * stride;
            out.push((0..components).map(|c| read(at + c * size)).collect());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_decompose_and_refuse_what_is_not_a_rotation_and_a_scale() {
        let mut m = Matrix4::identity();
        let r = nalgebra::Rotation3::from_euler_angles(0.3, -0.2, 1.1);
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&(r.matrix() * 2.0));
        m[(1, 3)] = 0.5;
        let (rot, t, s) = decompose(&m).expect("rotation, translation, scale");
        assert!((rot - r.matrix()).abs().max() < 1e-12);
        assert_eq!((t.y, s), (0.5, 2.0));
        let mut squashed = m;
        squashed[(0, 0)] *= 1.5;
        assert!(decompose(&squashed).is_err());
        let mut mirrored = Matrix4::identity();
        mirrored[(0, 0)] = -1.0;
        assert!(decompose(&mirrored).expect_err("mirror").contains("mirror"));
    }

    #[test]
    fn broken_framing_and_json_are_errors_that_name_the_file() {
        for bytes in [
            &b"glTF"[..],
            b"glTF\x02\x00\x00\x00\x10\x00\x00\x00\xff\x00\x00\x00JSON{}",
            b"{\"asset\": {\"version\": \"1.0\"}}",
            b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"children\": [0]}]}",
            b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"children\": [1]}, {\"children\": [0]}]}",
            b"{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"byteLength\": 10, \"uri\": \"data:,x\"}]}",
            b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [{\"scale\": [1, \"a\", 1]}]}",
        ] {
            let err = GltfFile::from_bytes(bytes, Path::new("x.gltf")).expect_err("refused");
            assert!(err.to_string().starts_with("x.gltf: "), "{err}");
        }
    }

    #[test]
    fn a_file_of_more_nodes_than_are_read_is_refused_and_one_of_as_many_is_read() {
        let nodes = |n: usize| {
            format!(
                "{{\"asset\": {{\"version\": \"2.0\"}}, \"nodes\": [{}]}}",
                vec!["{}"; n].join(",")
            )
        };
        let Err(err) = GltfFile::from_bytes(nodes(MAX_NODES + 1).as_bytes(), Path::new("n.gltf"))
        else {
            panic!("a file of {} nodes was read", MAX_NODES + 1);
        };
        assert!(
            err.to_string()
                .contains(&format!("{} nodes (at most {MAX_NODES}", MAX_NODES + 1)),
            "{err}"
        );
        let file = GltfFile::from_bytes(nodes(MAX_NODES).as_bytes(), Path::new("n.gltf"))
            .expect("as many as are read");
        assert_eq!(file.nodes.len(), MAX_NODES);
    }

    #[test]
    fn an_accessor_longer_than_its_data_is_refused_before_anything_is_allocated() {
        let text = r#"{"asset": {"version": "2.0"},
            "buffers": [{"byteLength": 12, "uri": "data:application/octet-stream;base64,AACAPwAAAEAAAEBA"}],
            "bufferViews": [{"buffer": 0, "byteLength": 12}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"},
                {"bufferView": 0, "componentType": 5126, "count": 4000000000, "type": "VEC3"}
            ]}"#;
        let file = GltfFile::from_bytes(text.as_bytes(), Path::new("a.gltf")).expect("reads");
        assert_eq!(
            file.read_accessor(0, 3).expect("fits"),
            vec![vec![1.0, 2.0, 3.0]]
        );
        let err = file.read_accessor(1, 3).expect_err("too long");
        assert!(err.to_string().contains("accessor 1"), "{err}");
        assert!(file.read_accessor(0, 4).is_err(), "wrong width");
        assert!(file.read_accessor(7, 3).is_err(), "no such accessor");
    }
}
