//! The triangles of a glTF mesh body (`Mesh(path: ...)` in a skeleton) so the glTF
//! export can skin it: every triangle primitive of every mesh placed in the default scene of a
//! glTF file ([`GltfFile`]), with the nodes' transforms applied; positions and, where given,
//! normals.

use std::path::Path;

use nalgebra::{Matrix4, Vector3};
use serde_json::Value;

use super::read::GltfFile;

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
    let file = GltfFile::open(path).map_err(|e| e.to_string())?;
    let world = file.world_matrices();
    let mut out = Triangles::default();
    let mut stack = file.scene_roots();
    while let Some(n) = stack.pop() {
        let node = &file.nodes[n];
        if let Some(mesh) = node.mesh {
            for (k, p) in file.triangle_primitives(mesh) {
                add_primitive(&file, p, &world[n], &mut out)
                    .map_err(|e| format!("{}: mesh {mesh}, primitive {k}: {e}", path.display()))?;
            }
        }
        stack.extend(node.children.iter().copied());
    }
    Ok(out)
}

fn add_primitive(
    file: &GltfFile,
    p: &Value,
    m: &Matrix4<f64>,
    out: &mut Triangles,
) -> Result<(), String> {
    let accessor = |key: &Value| key.as_u64().map(|a| a as usize);
    let position = accessor(&p["attributes"]["POSITION"]).ok_or("no POSITION")?;
    let pos = file.read_accessor(position, 3).map_err(|e| e.to_string())?;
    let count = pos.len();
    let normals = match accessor(&p["attributes"]["NORMAL"]) {
        Some(n) => Some(file.read_accessor(n, 3).map_err(|e| e.to_string())?),
        None => None,
    };
    let indices: Vec<u32> = match accessor(&p["indices"]) {
        Some(i) => file
            .read_accessor(i, 1)
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|v| v[0] as u32)
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
                let v = &pos[i as usize];
                m.transform_point(&nalgebra::Point3::new(v[0], v[1], v[2]))
                    .coords
            })
            .collect();
        let flat = (corners[1] - corners[0])
            .cross(&(corners[2] - corners[0]))
            .try_normalize(1e-15)
            .unwrap_or_else(Vector3::y);
        for (k, &i) in tri.iter().enumerate() {
            let n = normals.as_ref().map_or(flat, |ns| {
                let v = &ns[i as usize];
                (normal_matrix * Vector3::new(v[0], v[1], v[2]))
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
