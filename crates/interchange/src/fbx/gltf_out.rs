//! A ufbx scene written as a glTF binary: one glTF node per FBX node (ufbx's own root left out),
//! each skinned mesh as a mesh with one primitive per material and a skin, and each material's
//! base colour with its texture where the file embeds one or names a PNG or JPEG beside it.

use std::collections::HashMap;
use std::path::Path;

use nalgebra::{Matrix3, Matrix4, UnitQuaternion};
use serde_json::{Value, json};

use super::corners::corner_of;
use super::materials::material_of;
use super::nodes::{joining_nodes, matrix_of};
use crate::gltf::assemble::Assembly;
use crate::gltf::read::MAX_NODES;

/// The glTF binary of `scene`, read from a file in `folder` (where textures it names are
/// looked for).
pub(super) fn glb_of(scene: &ufbx::Scene, folder: &Path) -> Result<Vec<u8>, String> {
    let nodes: Vec<&ufbx::Node> = scene.nodes.iter().map(|n| &**n).collect();
    if nodes.len() > MAX_NODES {
        return Err(format!(
            "{} nodes (at most {MAX_NODES} are read)",
            nodes.len()
        ));
    }
    // The glTF index of each FBX node (by its index among the scene's nodes), ufbx's root
    // excepted.
    let mut index: HashMap<u32, usize> = HashMap::new();
    for node in nodes.iter().filter(|n| !n.is_root) {
        let next = index.len();
        index.insert(node.element.typed_id, next);
    }
    let world = bind_worlds(&nodes)?;
    let mut whole = Assembly::default();
    let mut gltf_nodes: Vec<Value> = Vec::with_capacity(index.len());
    for node in nodes.iter().filter(|n| !n.is_root) {
        let id = node.element.typed_id;
        let parent_world = node
            .parent
            .as_ref()
            .map_or_else(Matrix4::identity, |p| world[&p.element.typed_id]);
        let inverse = parent_world.try_inverse().ok_or_else(|| {
            format!(
                "node \"{}\": its parent's transform cannot be inverted",
                &*node.element.name
            )
        })?;
        let local = inverse * world[&id];
        let mut out = json!({"name": &*node.element.name});
        match trs(&local) {
            Some((translation, rotation, scale)) => {
                out["translation"] = json!(translation);
                out["rotation"] = json!(rotation);
                out["scale"] = json!(scale);
            }
            // A shear glTF's TRS cannot hold: the matrix (column by column).
            None => out["matrix"] = json!(local.iter().copied().collect::<Vec<f64>>()),
        }
        let children: Vec<usize> = node
            .children
            .iter()
            .filter_map(|c| index.get(&c.element.typed_id).copied())
            .collect();
        if !children.is_empty() {
            out["children"] = json!(children);
        }
        gltf_nodes.push(out);
    }
    let mut materials: HashMap<u32, usize> = HashMap::new();
    for node in nodes.iter().filter(|n| !n.is_root) {
        let Some(mesh) = node.mesh.as_ref() else {
            continue;
        };
        let me = index[&node.element.typed_id];
        let skin = match mesh.skin_deformers.first() {
            Some(deformer) => Some(skin_of(&mut whole, deformer, (&index, &world), node)?),
            None => None,
        };
        let primitives = primitives_of(&mut whole, mesh, (&mut materials, folder), skin.is_some())
            .map_err(|why| format!("mesh \"{}\": {why}", &*node.element.name))?;
        if primitives.is_empty() {
            continue;
        }
        let mesh_index = whole.push(
            "meshes",
            json!({"name": &*mesh.element.name, "primitives": primitives}),
        );
        gltf_nodes[me]["mesh"] = json!(mesh_index);
        if let Some(skin) = skin {
            gltf_nodes[me]["skin"] = json!(skin);
        }
    }
    for node in gltf_nodes {
        whole.push("nodes", node);
    }
    let roots: Vec<usize> = scene
        .root_node
        .children
        .iter()
        .filter_map(|c| index.get(&c.element.typed_id).copied())
        .collect();
    Ok(whole.finish("FBX", &roots, ""))
}

/// Every node's world transform at bind time: a joint's is the one its skin was bound at (its
/// first cluster's), any other node's its parent's times its own transform.
fn bind_worlds(nodes: &[&ufbx::Node]) -> Result<HashMap<u32, Matrix4<f64>>, String> {
    let mut bound: HashMap<u32, Matrix4<f64>> = HashMap::new();
    for node in nodes {
        let Some(mesh) = node.mesh.as_ref() else {
            continue;
        };
        for deformer in mesh.skin_deformers.iter() {
            for cluster in deformer.clusters.iter() {
                if let Some(bone) = cluster.bone_node.as_ref() {
                    bound
                        .entry(bone.element.typed_id)
                        .or_insert_with(|| matrix_of(&cluster.bind_to_world));
                }
            }
        }
    }
    // Parents come before their children in ufbx's node list (sorted by depth).
    let mut sorted: Vec<&&ufbx::Node> = nodes.iter().collect();
    sorted.sort_by_key(|n| n.node_depth);
    let mut world: HashMap<u32, Matrix4<f64>> = HashMap::new();
    for node in sorted {
        let id = node.element.typed_id;
        let here = match (bound.get(&id), node.parent.as_ref()) {
            (Some(m), _) => *m,
            (None, Some(p)) => {
                let parent = world.get(&p.element.typed_id).ok_or_else(|| {
                    format!("node \"{}\" comes before its parent", &*node.element.name)
                })?;
                parent * matrix_of(&node.node_to_parent)
            }
            (None, None) => matrix_of(&node.node_to_world),
        };
        if here.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "node \"{}\": its transform is not finite",
                &*node.element.name
            ));
        }
        world.insert(id, here);
    }
    Ok(world)
}

/// The skin of `deformer` on the mesh of `mesh_node` (its clusters' bones with their inverse
/// bind matrices, and the nodes joining them into one tree: a skin whose bones hang from two
/// places under an armature node gets that node, and the nodes between, as joints no vertex
/// follows); its index.
fn skin_of(
    whole: &mut Assembly,
    deformer: &ufbx::SkinDeformer,
    (index, world): (&HashMap<u32, usize>, &HashMap<u32, Matrix4<f64>>),
    mesh_node: &ufbx::Node,
) -> Result<usize, String> {
    let mesh_name = &*mesh_node.element.name;
    if deformer.clusters.is_empty() {
        return Err(format!("mesh \"{mesh_name}\": its skin has no joints"));
    }
    let mut bones: Vec<&ufbx::Node> = Vec::with_capacity(deformer.clusters.len());
    let mut inverse_bind: Vec<f32> = Vec::with_capacity(16 * deformer.clusters.len());
    for (k, cluster) in deformer.clusters.iter().enumerate() {
        let bone = cluster
            .bone_node
            .as_ref()
            .filter(|b| index.contains_key(&b.element.typed_id))
            .ok_or_else(|| {
                format!("mesh \"{mesh_name}\": its skin's joint {k} is bound to no node")
            })?;
        bones.push(bone);
        inverse_bind.extend(
            matrix_of(&cluster.geometry_to_bone)
                .iter()
                .map(|v| *v as f32),
        );
    }
    // The mesh's geometry in the world at bind time: the first cluster's bind matrix times its
    // geometry-to-bone matrix.
    let geometry_to_world =
        world[&bones[0].element.typed_id] * matrix_of(&deformer.clusters[0].geometry_to_bone);
    for node in joining_nodes(&bones) {
        let bind = world[&node.element.typed_id];
        let inverse = bind.try_inverse().ok_or_else(|| {
            format!(
                "node \"{}\": its transform cannot be inverted",
                &*node.element.name
            )
        })?;
        inverse_bind.extend((inverse * geometry_to_world).iter().map(|v| *v as f32));
        bones.push(node);
    }
    let joints: Vec<usize> = bones.iter().map(|b| index[&b.element.typed_id]).collect();
    let matrices = whole.floats(&inverse_bind, "MAT4", false);
    Ok(whole.push(
        "skins",
        json!({"joints": joints, "inverseBindMatrices": matrices}),
    ))
}

/// The triangles of `mesh`, one primitive per material used: positions, normals, texture
/// coordinates where the mesh has them and, when `skinned`, each vertex's joints and weights.
/// `materials` are the glTF materials made so far (by FBX material), textures looked for in
/// `folder`.
fn primitives_of(
    whole: &mut Assembly,
    mesh: &ufbx::Mesh,
    (materials, folder): (&mut HashMap<u32, usize>, &Path),
    skinned: bool,
) -> Result<Vec<Value>, String> {
    let deformer: Option<&ufbx::SkinDeformer> = if skinned {
        mesh.skin_deformers.first().map(|d| &**d)
    } else {
        None
    };
    let mut corners = vec![0u32; mesh.max_face_triangles * 3];
    let mut out = Vec::new();
    for part in mesh.material_parts.iter() {
        let (mut positions, mut normals, mut uvs) = (Vec::new(), Vec::new(), Vec::new());
        let (mut joints, mut weights): (Vec<u16>, Vec<f32>) = (Vec::new(), Vec::new());
        // Corners alike in every attribute are one vertex (FBX keeps attributes per corner).
        let mut seen: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut indices: Vec<u32> = Vec::new();
        for &face in part.face_indices.iter() {
            let face = *mesh
                .faces
                .get(face as usize)
                .ok_or("a material part names a face that is not there")?;
            let triangles = ufbx::triangulate_face(&mut corners, mesh, face) as usize;
            for &ix in &corners[..3 * triangles] {
                let corner = corner_of(mesh, ix as usize, deformer)?;
                let key: Vec<u32> = corner.numbers().map(f32::to_bits).collect();
                let next = seen.len() as u32;
                let index = *seen.entry(key).or_insert(next);
                indices.push(index);
                if index == next {
                    positions.extend(corner.position);
                    normals.extend(corner.normal.into_iter().flatten());
                    uvs.extend(corner.uv.into_iter().flatten());
                    if let Some((j, w)) = corner.skin {
                        joints.extend(j);
                        weights.extend(w);
                    }
                }
            }
        }
        if positions.is_empty() {
            continue;
        }
        let mut attributes = json!({"POSITION": whole.vertex_floats(&positions, "VEC3", true)});
        if !normals.is_empty() {
            attributes["NORMAL"] = json!(whole.vertex_floats(&normals, "VEC3", false));
        }
        if !uvs.is_empty() {
            attributes["TEXCOORD_0"] = json!(whole.vertex_floats(&uvs, "VEC2", false));
        }
        if !joints.is_empty() {
            attributes["JOINTS_0"] = json!(whole.u16s(&joints, "VEC4"));
            attributes["WEIGHTS_0"] = json!(whole.vertex_floats(&weights, "VEC4", false));
        }
        let indices = whole.indices(&indices);
        let mut primitive = json!({"attributes": attributes, "indices": indices});
        if let Some(material) = mesh.materials.get(part.index as usize) {
            let id = material.element.typed_id;
            let m = match materials.get(&id) {
                Some(&m) => m,
                None => {
                    let made = material_of(material, whole, folder);
                    let m = whole.push("materials", made);
                    materials.insert(id, m);
                    m
                }
            };
            primitive["material"] = json!(m);
        }
        out.push(primitive);
    }
    Ok(out)
}

/// `m`'s translation, rotation (x, y, z, w) and scale by axis, or `None` where it shears or
/// mirrors.
fn trs(m: &Matrix4<f64>) -> Option<([f64; 3], [f64; 4], [f64; 3])> {
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    let scale: Vec<f64> = (0..3).map(|k| linear.column(k).norm()).collect();
    if scale.iter().any(|s| !(s.is_finite() && *s > 1e-12)) || linear.determinant() <= 0.0 {
        return None;
    }
    let rotation = Matrix3::from_columns(&[
        linear.column(0) / scale[0],
        linear.column(1) / scale[1],
        linear.column(2) / scale[2],
    ]);
    if (rotation.transpose() * rotation - Matrix3::identity())
        .abs()
        .max()
        > 1e-5
    {
        return None;
    }
    let q = UnitQuaternion::from_matrix(&rotation);
    Some((
        [m[(0, 3)], m[(1, 3)], m[(2, 3)]],
        [q.i, q.j, q.k, q.w],
        [scale[0], scale[1], scale[2]],
    ))
}
