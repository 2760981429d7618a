//! The corners of an FBX mesh's triangles as glTF vertices: each corner's position, normal,
//! texture coordinates and strongest joint weights.

/// The joints a vertex keeps (glTF's `JOINTS_0`/`WEIGHTS_0`): its strongest four.
pub(super) const WEIGHTS_PER_VERTEX: usize = 4;

/// One corner of a triangle: its position, normal and texture coordinates where the mesh has
/// them, and its joints and weights where it is skinned.
pub(super) struct Corner {
    pub(super) position: [f32; 3],
    pub(super) normal: Option<[f32; 3]>,
    pub(super) uv: Option<[f32; 2]>,
    pub(super) skin: Option<([u16; WEIGHTS_PER_VERTEX], [f32; WEIGHTS_PER_VERTEX])>,
}

impl Corner {
    /// Every number it holds (joint indices as numbers too), to tell alike corners.
    pub(super) fn numbers(&self) -> impl Iterator<Item = f32> + '_ {
        let skin = self.skin.iter().flat_map(|(j, w)| {
            j.iter()
                .map(|&j| f32::from(j))
                .chain(w.iter().copied())
                .collect::<Vec<f32>>()
        });
        self.position
            .into_iter()
            .chain(self.normal.into_iter().flatten())
            .chain(self.uv.into_iter().flatten())
            .chain(skin)
    }
}

/// Corner `ix` of `mesh`, with the weights of `deformer` when it is skinned.
pub(super) fn corner_of(
    mesh: &ufbx::Mesh,
    ix: usize,
    deformer: Option<&ufbx::SkinDeformer>,
) -> Result<Corner, String> {
    let p = attribute(&mesh.vertex_position, ix).ok_or("a position out of range")?;
    let normal = if mesh.vertex_normal.exists {
        let n = attribute(&mesh.vertex_normal, ix).ok_or("a normal out of range")?;
        let length = (n.x * n.x + n.y * n.y + n.z * n.z).sqrt();
        let n = if length > 1e-12 {
            [n.x / length, n.y / length, n.z / length]
        } else {
            [0.0, 1.0, 0.0]
        };
        Some(n.map(|v| v as f32))
    } else {
        None
    };
    let uv = if mesh.vertex_uv.exists {
        let uv = uv_at(&mesh.vertex_uv, ix).ok_or("a texture coordinate out of range")?;
        // FBX's v runs up the image, glTF's down.
        Some([uv.x as f32, 1.0 - uv.y as f32])
    } else {
        None
    };
    let skin = match deformer {
        Some(deformer) => {
            let vertex = *mesh
                .vertex_indices
                .get(ix)
                .ok_or("a corner with no vertex")? as usize;
            Some(strongest(deformer, vertex)?)
        }
        None => None,
    };
    Ok(Corner {
        position: [p.x as f32, p.y as f32, p.z as f32],
        normal,
        uv,
        skin,
    })
}

/// The value of a per-corner attribute at corner `ix`.
fn attribute(attribute: &ufbx::VertexVec3, ix: usize) -> Option<ufbx::Vec3> {
    let at = *attribute.indices.get(ix)? as usize;
    attribute.values.get(at).copied()
}

/// The texture coordinate at corner `ix`.
fn uv_at(attribute: &ufbx::VertexVec2, ix: usize) -> Option<ufbx::Vec2> {
    let at = *attribute.indices.get(ix)? as usize;
    attribute.values.get(at).copied()
}

/// Vertex `vertex`'s strongest joints (indices into the skin's joints) and their weights,
/// summing to 1 (a vertex no joint moves is given to the skin's first joint).
fn strongest(
    deformer: &ufbx::SkinDeformer,
    vertex: usize,
) -> Result<([u16; WEIGHTS_PER_VERTEX], [f32; WEIGHTS_PER_VERTEX]), String> {
    let mut joints = [0u16; WEIGHTS_PER_VERTEX];
    let mut weights = [0f32; WEIGHTS_PER_VERTEX];
    let Some(v) = deformer.vertices.get(vertex) else {
        weights[0] = 1.0;
        return Ok((joints, weights));
    };
    let begin = v.weight_begin as usize;
    let all = deformer
        .weights
        .get(begin..begin + v.num_weights as usize)
        .ok_or("a vertex's skin weights run past the skin's")?;
    let mut all: Vec<&ufbx::SkinWeight> = all.iter().filter(|w| w.weight > 0.0).collect();
    all.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    let kept = &all[..all.len().min(WEIGHTS_PER_VERTEX)];
    let total: f64 = kept.iter().map(|w| w.weight).sum();
    if kept.is_empty() || !(total.is_finite() && total > 0.0) {
        weights[0] = 1.0;
        return Ok((joints, weights));
    }
    for (k, w) in kept.iter().enumerate() {
        joints[k] = u16::try_from(w.cluster_index)
            .ok()
            .filter(|&c| (c as usize) < deformer.clusters.len())
            .ok_or("a skin weight names a joint that is not there")?;
        weights[k] = (w.weight / total) as f32;
    }
    Ok((joints, weights))
}
