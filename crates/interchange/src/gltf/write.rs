//! glTF 2.0 binary (`.glb`) export: one node per skeleton joint, named as the joint, with its
//! local translation and rotation (the fixed orientation times the hinges, so any layout comes
//! out exactly); a skinned mesh made from the bodies (capsules, boxes and spheres as triangle
//! meshes, and glTF mesh bodies with their own triangles read from the assets folder; each
//! vertex bound to its joint alone), with the inverse bind matrices of the rest pose; and one animation with a key
//! per frame: rotations as unit quaternions with consecutive keys in the same hemisphere, and
//! translations for the joints whose translation changes (the root, slides).
//!
//! glTF is +Y up and right-handed like our skeletons, in metres, so nothing is converted.

use marionette_document::PropShape;
use marionette_skeleton::rotation::quaternion_of;
use marionette_skeleton::{Fk, Pose, Shape, Skeleton};
use nalgebra::{Matrix3, Matrix4, UnitQuaternion, Vector3};
use serde_json::{Value, json};

use crate::bvh::write::local_transform;
use crate::gltf::glb::frame;

/// A mesh being built: positions, normals and the joint of each vertex, triangles.
#[derive(Default)]
struct MeshData {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    joints: Vec<u16>,
    indices: Vec<u32>,
}

impl MeshData {
    /// Adds a vertex given in joint `joint`'s frame, placed by the bind pose `(r, p)`.
    fn vertex(
        &mut self,
        joint: u16,
        (r, p): &(Matrix3<f64>, Vector3<f64>),
        v: Vector3<f64>,
        n: Vector3<f64>,
    ) {
        let w = r * v + p;
        let n = (r * n).normalize();
        self.positions.push([w.x as f32, w.y as f32, w.z as f32]);
        self.normals.push([n.x as f32, n.y as f32, n.z as f32]);
        self.joints.push(joint);
    }

    /// A UV sphere (or a capsule when `half` > 0: the two hemispheres `half` apart along `axis`).
    fn capsule(
        &mut self,
        joint: u16,
        bind: &(Matrix3<f64>, Vector3<f64>),
        center: Vector3<f64>,
        axis: Vector3<f64>,
        half: f64,
        radius: f64,
    ) {
        const SEGMENTS: usize = 12;
        const RINGS: usize = 8; // from pole to pole, even so the equator is a ring
        let axis = axis.try_normalize(1e-12).unwrap_or_else(Vector3::y);
        let side = axis
            .cross(&if axis.x.abs() < 0.9 {
                Vector3::x()
            } else {
                Vector3::y()
            })
            .normalize();
        let other = axis.cross(&side);
        let start = self.positions.len() as u32;
        // Two equator rings for a capsule (the cylinder between them), one for a sphere.
        let mut rings = Vec::new();
        for i in 0..=RINGS {
            let phi = std::f64::consts::PI * i as f64 / RINGS as f64; // 0 at +axis pole
            let shift = if i <= RINGS / 2 { half } else { -half };
            rings.push((phi, shift));
            if i == RINGS / 2 && half > 0.0 {
                rings.push((phi, -half));
            }
        }
        for &(phi, shift) in &rings {
            for k in 0..=SEGMENTS {
                let theta = std::f64::consts::TAU * k as f64 / SEGMENTS as f64;
                let n = axis * phi.cos() + (side * theta.cos() + other * theta.sin()) * phi.sin();
                self.vertex(joint, bind, center + axis * shift + n * radius, n);
            }
        }
        let row = (SEGMENTS + 1) as u32;
        for r in 0..(rings.len() as u32 - 1) {
            for k in 0..SEGMENTS as u32 {
                let a = start + r * row + k;
                let b = a + row;
                self.indices
                    .extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
            }
        }
    }

    /// A closed cylinder of `radius` along the frame's y axis, `length` long, centred on the
    /// origin (a prop's shape).
    fn cylinder(&mut self, bind: &(Matrix3<f64>, Vector3<f64>), radius: f64, length: f64) {
        const SEGMENTS: usize = 24;
        let half = length / 2.0;
        let ring = |k: usize| {
            let theta = std::f64::consts::TAU * k as f64 / SEGMENTS as f64;
            (theta.cos(), theta.sin())
        };
        // The side: two rings with outward normals.
        let start = self.positions.len() as u32;
        for k in 0..=SEGMENTS {
            let (c, s) = ring(k);
            let n = Vector3::new(c, 0.0, s);
            self.vertex(0, bind, Vector3::new(radius * c, half, radius * s), n);
            self.vertex(0, bind, Vector3::new(radius * c, -half, radius * s), n);
        }
        for k in 0..SEGMENTS as u32 {
            let (top, bottom) = (start + 2 * k, start + 2 * k + 1);
            let (next_top, next_bottom) = (top + 2, bottom + 2);
            self.indices
                .extend_from_slice(&[top, next_top, bottom, bottom, next_top, next_bottom]);
        }
        // The caps: a fan each, facing out.
        for sign in [1.0, -1.0] {
            let n = Vector3::new(0.0, sign, 0.0);
            let centre = self.positions.len() as u32;
            self.vertex(0, bind, Vector3::new(0.0, sign * half, 0.0), n);
            for k in 0..=SEGMENTS {
                let (c, s) = ring(k);
                self.vertex(
                    0,
                    bind,
                    Vector3::new(radius * c, sign * half, radius * s),
                    n,
                );
            }
            for k in 0..SEGMENTS as u32 {
                let (a, b) = (centre + 1 + k, centre + 2 + k);
                if sign > 0.0 {
                    self.indices.extend_from_slice(&[centre, b, a]);
                } else {
                    self.indices.extend_from_slice(&[centre, a, b]);
                }
            }
        }
    }

    /// The triangles of a mesh body, its origin at `origin` in the joint's frame.
    fn triangles(
        &mut self,
        joint: u16,
        bind: &(Matrix3<f64>, Vector3<f64>),
        origin: Vector3<f64>,
        t: &crate::gltf::mesh::Triangles,
    ) {
        let start = self.positions.len() as u32;
        for (p, n) in t.positions.iter().zip(&t.normals) {
            self.vertex(joint, bind, origin + p, *n);
        }
        self.indices.extend(t.indices.iter().map(|i| start + i));
    }

    /// An axis-aligned box in the joint's frame.
    fn cuboid(
        &mut self,
        joint: u16,
        bind: &(Matrix3<f64>, Vector3<f64>),
        center: Vector3<f64>,
        half: Vector3<f64>,
    ) {
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                let mut n = Vector3::zeros();
                n[axis] = sign;
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let start = self.positions.len() as u32;
                for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    let mut p = n.component_mul(&half);
                    p[u] = a * half[u];
                    p[v] = b * half[v];
                    self.vertex(joint, bind, center + p, n);
                }
                let quad = if sign > 0.0 {
                    [0, 1, 2, 0, 2, 3]
                } else {
                    [0, 2, 1, 0, 3, 2]
                };
                self.indices.extend(quad.iter().map(|i| start + i));
            }
        }
    }
}

/// A GLB's BIN chunk being filled, with the buffer views that point into it (this writer's and
/// the character export's).
#[derive(Debug, Default)]
pub(crate) struct BinChunk {
    /// The chunk's bytes so far.
    pub(crate) bytes: Vec<u8>,
    /// Its buffer views so far.
    pub(crate) views: Vec<Value>,
}

impl BinChunk {
    /// Pads the bytes with zeros to a multiple of `align`.
    pub(crate) fn pad(&mut self, align: usize) {
        while !self.bytes.len().is_multiple_of(align) {
            self.bytes.push(0);
        }
    }

    /// Appends `data` (4-byte aligned) as a new buffer view; its index.
    pub(crate) fn view(&mut self, data: &[u8], target: Option<u32>) -> usize {
        self.pad(4);
        let mut view =
            json!({"buffer": 0, "byteOffset": self.bytes.len(), "byteLength": data.len()});
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        self.bytes.extend_from_slice(data);
        self.views.push(view);
        self.views.len() - 1
    }
}

/// The binary buffer being filled, with its buffer views and accessors.
#[derive(Default)]
struct Buffer {
    chunk: BinChunk,
    accessors: Vec<Value>,
}

impl Buffer {
    /// Appends `data` as a buffer view (aligned to 4 bytes) and an accessor over it; returns the
    /// accessor's index.
    fn add(&mut self, data: &[u8], target: Option<u32>, accessor: Value) -> usize {
        let view = self.chunk.view(data, target);
        let mut accessor = accessor;
        accessor["bufferView"] = json!(view);
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    fn floats(
        &mut self,
        values: &[f32],
        kind: &str,
        count: usize,
        target: Option<u32>,
        bounds: bool,
    ) -> usize {
        let width = values.len() / count.max(1);
        let (bytes, accessor) = float_accessor(values, width, kind, bounds);
        self.add(&bytes, target, accessor)
    }
}

/// 32-bit floats as a buffer view's bytes and their accessor (`width` numbers an element, of
/// glTF type `kind`), with each component's min and max when `bounds`; the accessor's buffer view
/// is the caller's to set.
pub(crate) fn float_accessor(
    values: &[f32],
    width: usize,
    kind: &str,
    bounds: bool,
) -> (Vec<u8>, Value) {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let width = width.max(1);
    let mut accessor = json!({"componentType": 5126, "count": values.len() / width, "type": kind});
    if bounds {
        let (mut lo, mut hi) = (vec![f32::INFINITY; width], vec![f32::NEG_INFINITY; width]);
        for chunk in values.chunks(width) {
            for (k, v) in chunk.iter().enumerate() {
                lo[k] = lo[k].min(*v);
                hi[k] = hi[k].max(*v);
            }
        }
        accessor["min"] = json!(lo);
        accessor["max"] = json!(hi);
    }
    (bytes, accessor)
}

fn column_major(m: &Matrix4<f64>) -> impl Iterator<Item = f32> + '_ {
    m.iter().map(|v| *v as f32)
}

/// The `.glb` bytes of `frames` (state vectors of `skeleton`) at `fps` frames per second, mesh
/// bodies read from `assets` (the folder their paths are relative to). A mesh body that cannot
/// be read is drawn as a small sphere, and said so in the returned warnings.
pub fn to_glb(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    fps: f64,
    assets: Option<&std::path::Path>,
) -> (Vec<u8>, Vec<String>) {
    let mut warnings = Vec::new();
    let rest = Pose::rest(skeleton).q;
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &rest);
    let bind: Vec<(Matrix3<f64>, Vector3<f64>)> = skeleton
        .joint_ids()
        .map(|j| (*fk.joint_rotation(j), fk.joint_position(j)))
        .collect();
    let mesh = body_mesh(skeleton, &bind, assets, &mut warnings);
    let mut buffer = Buffer::default();
    let mut primitives = Vec::new();
    if !mesh.indices.is_empty() {
        let count = mesh.positions.len();
        let position = buffer.floats(&mesh.positions.concat(), "VEC3", count, Some(34962), true);
        let normal = buffer.floats(&mesh.normals.concat(), "VEC3", count, Some(34962), false);
        let joints: Vec<u8> = mesh
            .joints
            .iter()
            .flat_map(|&j| [j, 0, 0, 0])
            .flat_map(u16::to_le_bytes)
            .collect();
        let joints = buffer.add(
            &joints,
            Some(34962),
            json!({"componentType": 5123, "count": count, "type": "VEC4"}),
        );
        let weights: Vec<f32> = (0..count).flat_map(|_| [1.0, 0.0, 0.0, 0.0]).collect();
        let weights = buffer.floats(&weights, "VEC4", count, Some(34962), false);
        let indices: Vec<u8> = mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let indices = buffer.add(
            &indices,
            Some(34963),
            json!({"componentType": 5125, "count": mesh.indices.len(), "type": "SCALAR"}),
        );
        primitives.push(json!({
            "attributes": {"POSITION": position, "NORMAL": normal, "JOINTS_0": joints, "WEIGHTS_0": weights},
            "indices": indices,
            "material": 0,
        }));
    }
    let n = skeleton.joints().len();
    let ibm: Vec<f32> = bind
        .iter()
        .flat_map(|(r, p)| {
            let mut m = Matrix4::identity();
            m.fixed_view_mut::<3, 3>(0, 0).copy_from(r);
            m.fixed_view_mut::<3, 1>(0, 3).copy_from(p);
            let inv = m.try_inverse().unwrap_or_else(Matrix4::identity);
            column_major(&inv).collect::<Vec<_>>()
        })
        .collect();
    let ibm = buffer.floats(&ibm, "MAT4", n, None, false);
    // Nodes: the joints (their rest transforms), then the skinned mesh at the scene's root.
    let mut nodes: Vec<Value> = skeleton
        .joint_ids()
        .map(|j| {
            let (r, t) = local_transform(skeleton, j, &rest);
            let q = quaternion_of(&r);
            let mut node = json!({
                "name": skeleton.joint(j).name,
                "translation": [t.x, t.y, t.z],
                "rotation": [q.i, q.j, q.k, q.w],
            });
            let children: Vec<usize> = skeleton
                .joint(j)
                .children
                .iter()
                .map(|c| c.index())
                .collect();
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    let mut meshes = Vec::new();
    let mut scene_nodes = vec![skeleton.root().index()];
    if !primitives.is_empty() {
        meshes.push(json!({"name": skeleton.name(), "primitives": primitives}));
        nodes.push(json!({"name": format!("{} body", skeleton.name()), "mesh": 0, "skin": 0}));
        scene_nodes.push(nodes.len() - 1);
    }
    // The animation.
    let (channels, samplers) = animation(&mut buffer, skeleton, frames, fps);
    buffer.chunk.pad(4);
    let mut root = json!({
        "asset": {"version": "2.0", "generator": "Marionette"},
        "scene": 0,
        "scenes": [{"name": skeleton.name(), "nodes": scene_nodes}],
        "nodes": nodes,
        "skins": [{"name": skeleton.name(), "joints": (0..n).collect::<Vec<_>>(),
                   "inverseBindMatrices": ibm, "skeleton": skeleton.root().index()}],
        "materials": [{"name": "body", "pbrMetallicRoughness": {"baseColorFactor": [0.85, 0.82, 0.76, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.8}}],
        "buffers": [{"byteLength": buffer.chunk.bytes.len()}],
        "bufferViews": buffer.chunk.views,
        "accessors": buffer.accessors,
    });
    if !meshes.is_empty() {
        root["meshes"] = json!(meshes);
    }
    if !channels.is_empty() {
        root["animations"] = json!([{"name": "baked", "channels": channels, "samplers": samplers}]);
    }
    (frame(&root, &buffer.chunk.bytes), warnings)
}

/// The figure's bodies as one mesh skinned rigidly to their joints at `bind` (each joint's
/// rest rotation and position); a mesh body that cannot be read from `assets` is drawn as a
/// sphere, and `warnings` says why.
fn body_mesh(
    skeleton: &Skeleton,
    bind: &[(Matrix3<f64>, Vector3<f64>)],
    assets: Option<&std::path::Path>,
    warnings: &mut Vec<String>,
) -> MeshData {
    let mut mesh = MeshData::default();
    for j in skeleton.joint_ids() {
        let b = &bind[j.index()];
        let k = j.index() as u16;
        match &skeleton.joint(j).shape {
            Some(Shape::Capsule { radius, start, end }) => {
                let half = (end - start).norm() / 2.0;
                mesh.capsule(k, b, (start + end) / 2.0, end - start, half, *radius);
            }
            Some(Shape::Box {
                half_extents,
                center,
            }) => mesh.cuboid(k, b, *center, *half_extents),
            Some(Shape::Sphere { radius, center }) => {
                mesh.capsule(k, b, *center, Vector3::y(), 0.0, *radius);
            }
            Some(Shape::Mesh { origin, path }) => {
                let read = assets
                    .ok_or_else(|| "no assets folder was given".to_owned())
                    .and_then(|dir| crate::gltf::mesh::read_triangles(&dir.join(path)));
                match read {
                    Ok(t) if !t.indices.is_empty() => mesh.triangles(k, b, *origin, &t),
                    other => {
                        let why = other.err().unwrap_or_else(|| "it has no triangles".into());
                        warnings.push(format!(
                            "joint \"{}\": mesh {path} drawn as a sphere: {why}",
                            skeleton.joint(j).name
                        ));
                        mesh.capsule(k, b, *origin, Vector3::y(), 0.0, 0.03);
                    }
                }
            }
            None => {}
        }
    }
    mesh
}

/// The animation of `frames` at `fps`: per joint a rotation channel, and a translation channel
/// where the joint moves; its samplers' data written into `buffer`.
fn animation(
    buffer: &mut Buffer,
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    fps: f64,
) -> (Vec<Value>, Vec<Value>) {
    let locals = crate::bvh::write::local_tracks(skeleton, frames);
    let mut channels = Vec::new();
    let mut samplers = Vec::new();
    if !frames.is_empty() {
        let times: Vec<f32> = (0..frames.len()).map(|f| (f as f64 / fps) as f32).collect();
        let input = buffer.floats(&times, "SCALAR", frames.len(), None, true);
        for j in skeleton.joint_ids() {
            let track = &locals[j.index()];
            let mut previous: Option<UnitQuaternion<f64>> = None;
            let rotations: Vec<f32> = track
                .iter()
                .flat_map(|(r, _)| {
                    let mut q = quaternion_of(r);
                    if previous.is_some_and(|p| p.coords.dot(&q.coords) < 0.0) {
                        q = UnitQuaternion::new_unchecked(-q.into_inner());
                    }
                    previous = Some(q);
                    [q.i as f32, q.j as f32, q.k as f32, q.w as f32]
                })
                .collect();
            let output = buffer.floats(&rotations, "VEC4", frames.len(), None, false);
            samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
            channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": j.index(), "path": "rotation"}}));
            if track.iter().any(|(_, t)| (t - track[0].1).norm() > 0.0) {
                let translations: Vec<f32> = track
                    .iter()
                    .flat_map(|(_, t)| [t.x as f32, t.y as f32, t.z as f32])
                    .collect();
                let output = buffer.floats(&translations, "VEC3", frames.len(), None, false);
                samplers.push(json!({"input": input, "output": output, "interpolation": "LINEAR"}));
                channels.push(json!({"sampler": samplers.len() - 1, "target": {"node": j.index(), "path": "translation"}}));
            }
        }
    }
    (channels, samplers)
}

/// A prop's shape as a small glTF file of its own: one unskinned mesh on one node at the
/// origin, the shape centred on it (a box of full `size`, a cylinder along y, a sphere): its
/// JSON and its BIN chunk.
pub(crate) fn shape_part(shape: &PropShape, name: &str) -> (Value, Vec<u8>) {
    let bind = (Matrix3::identity(), Vector3::zeros());
    let mut mesh = MeshData::default();
    match shape {
        PropShape::Box { size } => {
            mesh.cuboid(0, &bind, Vector3::zeros(), Vector3::from(*size) / 2.0);
        }
        PropShape::Cylinder { radius, length } => mesh.cylinder(&bind, *radius, *length),
        PropShape::Sphere { radius } => {
            mesh.capsule(0, &bind, Vector3::zeros(), Vector3::y(), 0.0, *radius);
        }
        PropShape::Mesh(_) => {}
    }
    let mut buffer = Buffer::default();
    let count = mesh.positions.len();
    let mut node = json!({"name": name});
    let mut root = json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}]});
    if count > 0 {
        let position = buffer.floats(&mesh.positions.concat(), "VEC3", count, Some(34962), true);
        let normal = buffer.floats(&mesh.normals.concat(), "VEC3", count, Some(34962), false);
        let indices: Vec<u8> = mesh.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let indices = buffer.add(
            &indices,
            Some(34963),
            json!({"componentType": 5125, "count": mesh.indices.len(), "type": "SCALAR"}),
        );
        node["mesh"] = json!(0);
        root["meshes"] = json!([{"name": name, "primitives": [{
            "attributes": {"POSITION": position, "NORMAL": normal},
            "indices": indices, "material": 0}]}]);
        root["materials"] = json!([{"name": "prop", "pbrMetallicRoughness": {
            "baseColorFactor": [0.55, 0.42, 0.3, 1.0], "metallicFactor": 0.0, "roughnessFactor": 0.7}}]);
        root["accessors"] = json!(buffer.accessors);
        root["bufferViews"] = json!(buffer.chunk.views);
    }
    root["nodes"] = json!([node]);
    buffer.chunk.pad(4);
    (root, buffer.chunk.bytes)
}
