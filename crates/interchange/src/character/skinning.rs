//! A character's skinned meshes on the CPU: each primitive's bind-pose positions, its four
//! influences per vertex (joint and weight) and the inverse bind matrices of its skin, so that
//! the mesh can be placed as it is drawn for any pose (linear blend skinning, as the glTF
//! specification defines it: v' = Σ wᵢ · Gᵢ · IBMᵢ · v, with Gᵢ the joint's world transform), and
//! a ray can find the surface under the cursor and the joint that owns it. (Bevy 0.19's mesh
//! picking intersects the bind pose only.)

use nalgebra::{Matrix4, Point3, Vector3};

use super::error::CharacterError;
use super::rig::Rig;
use crate::gltf::read::GltfFile;

/// One triangle primitive of a skinned mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinnedPrimitive {
    /// Bind-pose positions.
    pub positions: Vec<Vector3<f64>>,
    /// Per vertex, four (skin joint, weight) influences.
    pub influences: Vec<[(u16, f32); 4]>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
    /// The rig joint of each of its skin's joints.
    pub joints: Vec<usize>,
    /// Each skin joint's inverse bind matrix.
    pub inverse_bind: Vec<Matrix4<f64>>,
}

/// Where a ray meets the skinned surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceHit {
    /// The rig joint that owns the triangle hit (the largest blended weight at the hit).
    pub joint: usize,
    /// Distance along the ray (in units of its direction's length).
    pub distance: f64,
    /// The point hit (world).
    pub point: Vector3<f64>,
}

/// Every skinned triangle primitive of a character.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CharacterMesh {
    /// The primitives.
    pub primitives: Vec<SkinnedPrimitive>,
}

impl CharacterMesh {
    /// The skinned primitives of `file` (meshes of nodes that use one of the rig's skins).
    pub fn read(file: &GltfFile, rig: &Rig) -> Result<CharacterMesh, CharacterError> {
        let mut primitives = Vec::new();
        for (n, node) in file.nodes.iter().enumerate() {
            let (Some(mesh), Some(skin)) = (node.mesh, node.skin) else {
                continue;
            };
            let refuse = |why: String| CharacterError::Rig {
                file: file.file(),
                node: Some(file.node_label(n)),
                why,
            };
            let skin_json = &file.json["skins"][skin];
            let joints: Vec<usize> = skin_json["joints"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|j| {
                    j.as_u64()
                        .and_then(|j| rig.joint_of_node(j as usize))
                        .ok_or_else(|| refuse(format!("skin {skin} names a joint outside the rig")))
                })
                .collect::<Result<_, _>>()?;
            let inverse_bind = match skin_json["inverseBindMatrices"].as_u64() {
                Some(a) => file
                    .read_accessor(a as usize, 16)
                    .map_err(CharacterError::Gltf)?
                    .into_iter()
                    .map(|m| Matrix4::from_column_slice(&m))
                    .collect(),
                None => vec![Matrix4::identity(); joints.len()],
            };
            if inverse_bind.len() < joints.len() {
                return Err(refuse(format!(
                    "skin {skin} has {} inverse bind matrices for {} joints",
                    inverse_bind.len(),
                    joints.len()
                )));
            }
            for (k, p) in file.triangle_primitives(mesh) {
                let primitive = read_primitive(file, p, &joints, &inverse_bind)
                    .map_err(|why| refuse(format!("mesh {mesh}, primitive {k}: {why}")))?;
                primitives.extend(primitive);
            }
        }
        Ok(CharacterMesh { primitives })
    }

    /// Each primitive's positions skinned by the joints' world transforms `world` (one per rig
    /// joint, with scale).
    pub fn skinned(&self, world: &[Matrix4<f64>]) -> Vec<Vec<Vector3<f64>>> {
        self.primitives
            .iter()
            .map(|p| {
                let matrices: Vec<Matrix4<f64>> = p
                    .joints
                    .iter()
                    .zip(&p.inverse_bind)
                    .map(|(&j, ibm)| world.get(j).map_or(*ibm, |g| g * ibm))
                    .collect();
                p.positions
                    .iter()
                    .zip(&p.influences)
                    .map(|(v, influence)| {
                        let point = Point3::from(*v);
                        let mut out = Vector3::zeros();
                        let mut total = 0.0;
                        for &(k, w) in influence {
                            if w > 0.0
                                && let Some(m) = matrices.get(k as usize)
                            {
                                out += m.transform_point(&point).coords * f64::from(w);
                                total += f64::from(w);
                            }
                        }
                        if total > 0.0 { out / total } else { *v }
                    })
                    .collect()
            })
            .collect()
    }

    /// The nearest point where the ray from `origin` along `direction` meets the mesh skinned by
    /// `world`, with the joint that owns it.
    pub fn pick(
        &self,
        world: &[Matrix4<f64>],
        origin: &Vector3<f64>,
        direction: &Vector3<f64>,
    ) -> Option<SurfaceHit> {
        let skinned = self.skinned(world);
        let mut best: Option<(f64, usize, usize, [f64; 3])> = None;
        for (pi, (p, positions)) in self.primitives.iter().zip(&skinned).enumerate() {
            for (ti, tri) in p.indices.chunks_exact(3).enumerate() {
                let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| positions[i as usize]);
                if let Some((t, u, v)) = intersect(origin, direction, &a, &b, &c)
                    && best.is_none_or(|(d, ..)| t < d)
                {
                    best = Some((t, pi, ti, [1.0 - u - v, u, v]));
                }
            }
        }
        let (distance, pi, ti, bary) = best?;
        let p = &self.primitives[pi];
        let mut weights: Vec<(usize, f64)> = Vec::new();
        for (corner, &b) in bary.iter().enumerate() {
            let vertex = p.indices[ti * 3 + corner] as usize;
            for &(k, w) in &p.influences[vertex] {
                let Some(&joint) = p.joints.get(k as usize) else {
                    continue;
                };
                let w = f64::from(w) * b;
                match weights.iter_mut().find(|(j, _)| *j == joint) {
                    Some(entry) => entry.1 += w,
                    None => weights.push((joint, w)),
                }
            }
        }
        let (joint, _) = weights
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
        Some(SurfaceHit {
            joint,
            distance,
            point: origin + direction * distance,
        })
    }

    /// Every vertex skinned by `world`, with the joint that weighs most on it.
    pub fn vertices_by_joint(&self, world: &[Matrix4<f64>]) -> Vec<(usize, Vector3<f64>)> {
        let skinned = self.skinned(world);
        let mut out = Vec::new();
        for (p, positions) in self.primitives.iter().zip(skinned) {
            for (influence, position) in p.influences.iter().zip(positions) {
                let heaviest = influence
                    .iter()
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .and_then(|&(k, _)| p.joints.get(k as usize).copied());
                if let Some(joint) = heaviest {
                    out.push((joint, position));
                }
            }
        }
        out
    }
}

/// Möller and Trumbore's ray–triangle test ("Fast, minimum storage ray-triangle
/// intersection", 1997): (t, u, v) of the hit in front of the origin, both faces.
fn intersect(
    origin: &Vector3<f64>,
    direction: &Vector3<f64>,
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    c: &Vector3<f64>,
) -> Option<(f64, f64, f64)> {
    let (e1, e2) = (b - a, c - a);
    let p = direction.cross(&e2);
    let det = e1.dot(&p);
    if det.abs() < 1e-14 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - a;
    let u = s.dot(&p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(&e1);
    let v = direction.dot(&q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = e2.dot(&q) * inv;
    (t > 0.0).then_some((t, u, v))
}

fn read_primitive(
    file: &GltfFile,
    p: &serde_json::Value,
    joints: &[usize],
    inverse_bind: &[Matrix4<f64>],
) -> Result<Option<SkinnedPrimitive>, String> {
    let accessor = |key: &serde_json::Value| key.as_u64().map(|a| a as usize);
    let attributes = &p["attributes"];
    let (Some(position), Some(joint_ids), Some(weights)) = (
        accessor(&attributes["POSITION"]),
        accessor(&attributes["JOINTS_0"]),
        accessor(&attributes["WEIGHTS_0"]),
    ) else {
        // Not skinned: it does not move with the joints, and is not picked as a joint's.
        return Ok(None);
    };
    let read = |a: usize, width: usize| file.read_accessor(a, width).map_err(|e| e.to_string());
    let positions: Vec<Vector3<f64>> = read(position, 3)?
        .into_iter()
        .map(|v| Vector3::new(v[0], v[1], v[2]))
        .collect();
    let joint_ids = read(joint_ids, 4)?;
    let weights = read(weights, 4)?;
    if joint_ids.len() != positions.len() || weights.len() != positions.len() {
        return Err("JOINTS_0, WEIGHTS_0 and POSITION differ in length".into());
    }
    let mut influences = Vec::with_capacity(positions.len());
    for (ids, ws) in joint_ids.iter().zip(&weights) {
        let mut influence = [(0u16, 0f32); 4];
        for k in 0..4 {
            let id = ids[k];
            if ws[k] > 0.0 && (id < 0.0 || id as usize >= joints.len()) {
                return Err(format!(
                    "a vertex names skin joint {id}, the skin has {}",
                    joints.len()
                ));
            }
            influence[k] = (id as u16, ws[k] as f32);
        }
        influences.push(influence);
    }
    let count = positions.len();
    let indices: Vec<u32> = match accessor(&p["indices"]) {
        Some(i) => read(i, 1)?.into_iter().map(|v| v[0] as u32).collect(),
        None => (0..count as u32).collect(),
    };
    if indices.iter().any(|&i| i as usize >= count) {
        return Err("an index past the vertices".into());
    }
    Ok(Some(SkinnedPrimitive {
        positions,
        influences,
        indices,
        joints: joints.to_vec(),
        inverse_bind: inverse_bind[..joints.len()].to_vec(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ray_meets_a_triangle_where_it_should() {
        let (a, b, c) = (
            Vector3::new(0.0, 0.0, 0.0),
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 1.0, 0.0),
        );
        let origin = Vector3::new(0.25, 0.25, 2.0);
        let hit = intersect(&origin, &-Vector3::z(), &a, &b, &c).expect("hit");
        assert!((hit.0 - 2.0).abs() < 1e-12);
        assert!(
            intersect(&origin, &Vector3::z(), &a, &b, &c).is_none(),
            "behind"
        );
        let beside = Vector3::new(0.9, 0.9, 2.0);
        assert!(intersect(&beside, &-Vector3::z(), &a, &b, &c).is_none());
    }
}
