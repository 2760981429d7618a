//! Reading the triangles of a glTF mesh body (`Mesh(path: ...)` in a skeleton) so the glTF
//! export can skin it: `.glb` files and `.gltf` files whose buffers are `data:` URIs or files
//! beside them; every triangle primitive of every mesh placed in the default scene, with the
//! nodes' transforms applied; positions and, where given, normals.

use std::path::Path;

use nalgebra::{Matrix4, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;

/// A mesh's triangles, in the file's own frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Triangles {
    /// Vertex positions.
    pub positions: Vec<Vector3<f64>>,
    /// Vertex normals (computed per face where the file has none).
    pub normals: Vec<Vector3<f64>>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
}

/// Reads the triangles of the glTF file at `path`.
pub fn read_triangles(path: &Path) -> Result<Triangles, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (json, bin) = if bytes.starts_with(b"glTF") {
        glb_chunks(&bytes).ok_or_else(|| format!("{}: not a valid GLB file", path.display()))?
    } else {
        let json: Value = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: not glTF JSON: {e}", path.display()))?;
        (json, None)
    };
    let buffers: Vec<Vec<u8>> = json["buffers"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, b)| match b["uri"].as_str() {
            None if i == 0 => bin.clone().ok_or("buffer 0 has no data".to_owned()),
            None => Err(format!("buffer {i} has no uri")),
            Some(uri) => buffer_data(uri, path),
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Triangles::default();
    let scene = json["scene"].as_u64().unwrap_or(0) as usize;
    let roots: Vec<usize> = json["scenes"][scene]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .map(|n| n as usize)
        .collect();
    let mut stack: Vec<(usize, Matrix4<f64>)> = roots
        .into_iter()
        .map(|n| (n, Matrix4::identity()))
        .collect();
    let mut visited = 0;
    while let Some((n, parent)) = stack.pop() {
        visited += 1;
        if visited > 10_000 {
            return Err(format!("{}: the node tree does not end", path.display()));
        }
        let node = &json["nodes"][n];
        let m = parent * node_matrix(node);
        if let Some(mesh) = node["mesh"].as_u64() {
            for p in json["meshes"][mesh as usize]["primitives"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if p["mode"].as_u64().unwrap_or(4) != 4 {
                    continue;
                }
                add_primitive(&json, &buffers, p, &m, &mut out)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        for c in node["children"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
        {
            stack.push((c as usize, m));
        }
    }
    Ok(out)
}

fn glb_chunks(bytes: &[u8]) -> Option<(Value, Option<Vec<u8>>)> {
    let u32_at = |i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?) as usize)
    };
    let json_len = u32_at(12)?;
    let json: Value = serde_json::from_slice(bytes.get(20..20 + json_len)?).ok()?;
    let bin_at = 20 + json_len;
    let bin = u32_at(bin_at)
        .and_then(|len| bytes.get(bin_at + 8..bin_at + 8 + len))
        .map(<[u8]>::to_vec);
    Some((json, bin))
}

fn buffer_data(uri: &str, path: &Path) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, data) = rest
            .split_once(";base64,")
            .ok_or("a data URI that is not base64")?;
        return base64(data);
    }
    let file = path.with_file_name(uri);
    std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))
}

/// Standard base64 (padding optional).
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| -> Result<u32, String> {
        Ok(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(format!("'{}' is not base64", c as char)),
        } as u32)
    };
    let clean: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= value(c)? << (18 - 6 * i);
        }
        let n = match chunk.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => return Err("truncated base64".into()),
        };
        out.extend_from_slice(&acc.to_be_bytes()[1..1 + n]);
    }
    Ok(out)
}

fn node_matrix(node: &Value) -> Matrix4<f64> {
    let nums = |v: &Value| -> Vec<f64> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .collect()
    };
    let m = nums(&node["matrix"]);
    if m.len() == 16 {
        return Matrix4::from_column_slice(&m);
    }
    let t = nums(&node["translation"]);
    let r = nums(&node["rotation"]);
    let s = nums(&node["scale"]);
    let mut out = Matrix4::identity();
    if r.len() == 4 {
        let q = UnitQuaternion::new_normalize(Quaternion::new(r[3], r[0], r[1], r[2]));
        out = q.to_homogeneous();
    }
    if s.len() == 3 {
        out *= Matrix4::new_nonuniform_scaling(&Vector3::new(s[0], s[1], s[2]));
    }
    if t.len() == 3 {
        out = Matrix4::new_translation(&Vector3::new(t[0], t[1], t[2])) * out;
    }
    out
}

/// An accessor's components as f64 (`width` per element).
fn accessor(json: &Value, buffers: &[Vec<u8>], index: u64) -> Result<(Vec<f64>, usize), String> {
    let a = &json["accessors"][index as usize];
    let count = a["count"].as_u64().ok_or("an accessor without a count")? as usize;
    let width = match a["type"].as_str() {
        Some("SCALAR") => 1,
        Some("VEC2") => 2,
        Some("VEC3") => 3,
        Some("VEC4") => 4,
        other => return Err(format!("accessor type {other:?} is not read")),
    };
    let (size, read): (usize, fn(&[u8]) -> f64) = match a["componentType"].as_u64() {
        Some(5121) => (1, |b| f64::from(b[0])),
        Some(5123) => (2, |b| f64::from(u16::from_le_bytes([b[0], b[1]]))),
        Some(5125) => (4, |b| {
            f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        }),
        Some(5126) => (4, |b| {
            f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        }),
        other => return Err(format!("component type {other:?} is not read")),
    };
    let view = &json["bufferViews"][a["bufferView"]
        .as_u64()
        .ok_or("a sparse accessor is not read")? as usize];
    let data = buffers
        .get(view["buffer"].as_u64().unwrap_or(0) as usize)
        .ok_or("an accessor on a missing buffer")?;
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let stride = view["byteStride"]
        .as_u64()
        .map_or(size * width, |s| s as usize);
    let mut out = Vec::with_capacity(count * width);
    for e in 0..count {
        for k in 0..width {
            let at = start + e * stride + k * size;
            let bytes = data
                .get(at..at + size)
                .ok_or("an accessor runs past its buffer")?;
            out.push(read(bytes));
        }
    }
    Ok((out, width))
}

fn add_primitive(
    json: &Value,
    buffers: &[Vec<u8>],
    p: &Value,
    m: &Matrix4<f64>,
    out: &mut Triangles,
) -> Result<(), String> {
    let position = p["attributes"]["POSITION"]
        .as_u64()
        .ok_or("a primitive without POSITION")?;
    let (pos, _) = accessor(json, buffers, position)?;
    let count = pos.len() / 3;
    let normals = match p["attributes"]["NORMAL"].as_u64() {
        Some(n) => Some(accessor(json, buffers, n)?.0),
        None => None,
    };
    let indices: Vec<u32> = match p["indices"].as_u64() {
        Some(i) => accessor(json, buffers, i)?
            .0
            .into_iter()
            .map(|v| v as u32)
            .collect(),
        None => (0..count as u32).collect(),
    };
    if indices.iter().any(|&i| i as usize >= count) {
        return Err("an index past the vertices".into());
    }
    let rotation = m.fixed_view::<3, 3>(0, 0).into_owned();
    let normal_matrix = rotation
        .try_inverse()
        .map_or(rotation, |inv| inv.transpose());
    // Each triangle gets vertices of its own, so faces without normals get flat ones.
    for tri in indices.chunks_exact(3) {
        let corners: Vec<Vector3<f64>> = tri
            .iter()
            .map(|&i| {
                let i = i as usize;
                m.transform_point(&nalgebra::Point3::new(
                    pos[3 * i],
                    pos[3 * i + 1],
                    pos[3 * i + 2],
                ))
                .coords
            })
            .collect();
        let flat = (corners[1] - corners[0])
            .cross(&(corners[2] - corners[0]))
            .try_normalize(1e-15)
            .unwrap_or_else(Vector3::y);
        for (k, &i) in tri.iter().enumerate() {
            let n = normals.as_ref().map_or(flat, |ns| {
                let i = i as usize;
                (normal_matrix * Vector3::new(ns[3 * i], ns[3 * i + 1], ns[3 * i + 2]))
                    .try_normalize(1e-15)
                    .unwrap_or(flat)
            });
            out.indices.push(out.positions.len() as u32);
            out.positions.push(corners[k]);
            out.normals.push(n);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes() {
        assert_eq!(base64("TWFu").expect("ok"), b"Man");
        assert_eq!(base64("TWE=").expect("ok"), b"Ma");
        assert_eq!(base64("TQ==").expect("ok"), b"M");
        assert!(base64("T!==").is_err());
    }

    #[test]
    fn the_editor_test_block_reads_as_twelve_triangles() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../editor/tests/data/assets/meshes/block.gltf");
        let t = read_triangles(&path).expect("reads");
        assert_eq!(t.indices.len(), 36);
        let lowest = t
            .positions
            .iter()
            .map(|p| p.y)
            .fold(f64::INFINITY, f64::min);
        assert!((lowest + 0.18).abs() < 1e-6, "{lowest}");
    }
}
