//! Writing a skeleton's frames as BVH. Every joint appears under its own name (whitespace runs
//! replaced by `_`) with its OFFSET in metres and three rotation channels carrying its whole
//! local rotation, the fixed `orientation` times every hinge, so any hinge layout, axis or fixed
//! orientation comes out exactly. The root, and any joint with a slide, also has three position
//! channels giving its whole translation from its parent (OFFSET and slides included). A leaf
//! joint's first site becomes its End Site.
//!
//! Euler angles have a singularity where the middle rotation is ±90°: each joint gets the
//! channel order (of the six) whose middle angle stays furthest from it over all the frames, and
//! its angles are kept continuous from frame to frame (the family and the whole turns nearest
//! the previous frame's), so no channel jumps by 360° or flips branch between frames.

use std::fmt::Write as _;

use marionette_skeleton::euler::AxisTriple;
use marionette_skeleton::{DofKind, JointId, Skeleton};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

use super::{Bvh, BvhJoint, Channel, bvh_name};

/// The six orders of three different axes, as (first, middle, last).
const ORDERS: [[usize; 3]; 6] = [
    [2, 0, 1],
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 1, 0],
];

/// A joint's local rotation and translation (from its parent) in the state `q`.
pub fn local_transform(
    skeleton: &Skeleton,
    joint: JointId,
    q: &[f64],
) -> (Matrix3<f64>, Vector3<f64>) {
    let j = skeleton.joint(joint);
    let mut r = j.orientation;
    let mut t = j.offset;
    if j.parent.is_none() {
        t += Vector3::new(q[0], q[1], q[2]);
    }
    for d in skeleton.joint_dofs(joint) {
        let dof = skeleton.dof(d);
        let v = q[d.state_index()];
        match dof.kind {
            DofKind::Hinge => {
                r *= Rotation3::from_axis_angle(&Unit::new_unchecked(dof.axis), v).into_inner();
            }
            DofKind::Slide => t += r * dof.axis * v,
        }
    }
    (r, t)
}

/// Per joint, per frame: the joint's local rotation and translation.
pub fn local_tracks(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
) -> Vec<Vec<(Matrix3<f64>, Vector3<f64>)>> {
    skeleton
        .joint_ids()
        .map(|j| {
            frames
                .iter()
                .map(|q| local_transform(skeleton, j, q))
                .collect()
        })
        .collect()
}

/// Whether a joint needs position channels: the root, and joints with a slide.
fn has_position(skeleton: &Skeleton, joint: JointId) -> bool {
    skeleton.joint(joint).parent.is_none()
        || skeleton
            .joint_dofs(joint)
            .any(|d| skeleton.dof(d).kind == DofKind::Slide)
}

/// The BVH of `frames` (state vectors of `skeleton`) at `fps` frames per second.
pub fn to_bvh(skeleton: &Skeleton, frames: &[Vec<f64>], fps: f64) -> Bvh {
    to_bvh_placed(skeleton, frames, fps, &nalgebra::Isometry3::identity())
}

/// [`to_bvh`] of a figure standing at `placement` on a stage: the root's channels carry it.
pub fn to_bvh_placed(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    fps: f64,
    placement: &nalgebra::Isometry3<f64>,
) -> Bvh {
    let n = skeleton.joints().len();
    let mut locals = local_tracks(skeleton, frames);
    let turn = *placement.rotation.to_rotation_matrix().matrix();
    for (r, t) in &mut locals[skeleton.root().index()] {
        *r = turn * *r;
        *t = turn * *t + placement.translation.vector;
    }
    let joints: Vec<TrackedJoint> = skeleton
        .joint_ids()
        .map(|j| {
            let joint = skeleton.joint(j);
            TrackedJoint {
                name: bvh_name(&joint.name),
                parent: joint.parent.map(JointId::index),
                offset: joint.offset,
                position: has_position(skeleton, j),
                end_site: joint.children.is_empty().then(|| {
                    skeleton
                        .sites()
                        .iter()
                        .find(|s| s.joint == j)
                        .map_or_else(|| leaf_end(skeleton, j), |s| s.offset)
                }),
            }
        })
        .collect();
    debug_assert_eq!(joints.len(), n);
    bvh_of_tracks(joints, &locals, frames.len(), fps)
}

/// A joint of a BVH made from tracks ([`bvh_of_tracks`]).
#[derive(Debug, Clone)]
pub(crate) struct TrackedJoint {
    /// Its name as BVH writes it.
    pub(crate) name: String,
    /// Its parent (an index into the joints, parents first).
    pub(crate) parent: Option<usize>,
    /// Its OFFSET from the parent.
    pub(crate) offset: Vector3<f64>,
    /// Whether it has position channels (its whole translation from its parent).
    pub(crate) position: bool,
    /// Its End Site, for a leaf.
    pub(crate) end_site: Option<Vector3<f64>>,
}

/// The BVH of `joints` moving by `locals` (per joint, per frame: the local rotation and the
/// translation from the parent), `frame_count` frames at `fps`: per joint the channel order
/// whose middle angle stays furthest from ±90°, angles kept continuous.
pub(crate) fn bvh_of_tracks(
    joints: Vec<TrackedJoint>,
    locals: &[Vec<(Matrix3<f64>, Vector3<f64>)>],
    frame_count: usize,
    fps: f64,
) -> Bvh {
    let mut out = Vec::with_capacity(joints.len());
    let mut columns: Vec<Vec<Vec<f64>>> = Vec::with_capacity(joints.len()); // per joint, per frame
    for (joint, track) in joints.into_iter().zip(locals) {
        let order = best_order(track);
        let triple = AxisTriple::new(order.map(unit)).expect("coordinate axes are perpendicular");
        let mut values = Vec::with_capacity(frame_count);
        let mut previous: Option<[f64; 3]> = None;
        for (r, t) in track {
            let angles = continuous(&triple, r, previous);
            previous = Some(angles);
            let mut row = Vec::with_capacity(6);
            if joint.position {
                row.extend_from_slice(t.as_slice());
            }
            row.extend(angles.iter().map(|a| a.to_degrees()));
            values.push(row);
        }
        let mut channels = Vec::with_capacity(6);
        if joint.position {
            channels.extend((0..3).map(Channel::Position));
        }
        channels.extend(order.iter().map(|&a| Channel::Rotation(a)));
        out.push(BvhJoint {
            name: joint.name,
            parent: joint.parent,
            offset: joint.offset,
            channels,
            end_site: joint.end_site,
        });
        columns.push(values);
    }
    let frames = (0..frame_count)
        .map(|f| columns.iter().flat_map(|c| c[f].iter().copied()).collect())
        .collect();
    Bvh {
        joints: out,
        frame_time: 1.0 / fps,
        frames,
    }
}

/// A leaf joint without a site ends where its body ends: a capsule's far end, twice the way to
/// a box's or sphere's centre; without a body, 5 cm on along the way it hangs from its parent
/// (BVH readers make a bone from the joint to its End Site).
fn leaf_end(skeleton: &Skeleton, joint: JointId) -> Vector3<f64> {
    let j = skeleton.joint(joint);
    match &j.shape {
        Some(marionette_skeleton::Shape::Capsule { end, .. }) => *end,
        Some(shape) if shape.center().norm() > 1e-6 => shape.center() * 2.0,
        _ => j
            .offset
            .try_normalize(1e-9)
            .map_or(Vector3::new(0.0, -0.05, 0.0), |d| d * 0.05),
    }
}

fn unit(axis: usize) -> Vector3<f64> {
    let mut v = Vector3::zeros();
    v[axis] = 1.0;
    v
}

/// The order whose middle angle stays furthest from ±90° over the rotations (the first of
/// equals: Z X Y, the usual BVH order, when nothing comes near the singularity).
fn best_order(locals: &[(Matrix3<f64>, Vector3<f64>)]) -> [usize; 3] {
    let margin = |order: &[usize; 3]| {
        // The middle angle's cosine is the length of the projection of R a₃ on the plane ⊥ a₁.
        locals
            .iter()
            .map(|(r, _)| {
                let u = r * unit(order[2]);
                let along = u[order[0]];
                (1.0 - along * along).max(0.0).sqrt()
            })
            .fold(1.0f64, f64::min)
    };
    let first = margin(&ORDERS[0]);
    if first > 0.2 {
        return ORDERS[0];
    }
    *ORDERS
        .iter()
        .max_by(|a, b| margin(a).total_cmp(&margin(b)))
        .expect("six orders")
}

/// The angles of `r` about the triple's axes: of the two families and every whole turn, those
/// nearest `previous` (on the first frame, nearest zero: the identity is 0 0 0, not 180 180 180).
fn continuous(triple: &AxisTriple, r: &Matrix3<f64>, previous: Option<[f64; 3]>) -> [f64; 3] {
    let prev = previous.unwrap_or([0.0; 3]);
    (0..2)
        .map(|family| {
            let a = triple.decompose(r, family);
            let near: [f64; 3] = std::array::from_fn(|k| {
                prev[k] + marionette_skeleton::angles::wrap_angle(a[k] - prev[k])
            });
            let d: f64 = near.iter().zip(&prev).map(|(x, y)| (x - y).powi(2)).sum();
            (d, near)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .expect("two families")
        .1
}

impl Bvh {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = String::from("HIERARCHY\n");
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); self.joints.len()];
        for (i, j) in self.joints.iter().enumerate() {
            if let Some(p) = j.parent {
                children[p].push(i);
            }
        }
        for (i, j) in self.joints.iter().enumerate() {
            if j.parent.is_none() {
                self.write_joint(&mut out, &children, i, 0);
            }
        }
        let _ = writeln!(out, "MOTION\nFrames: {}", self.frames.len());
        let _ = writeln!(out, "Frame Time: {}", self.frame_time);
        for row in &self.frames {
            let line: Vec<String> = row.iter().map(|v| format!("{v}")).collect();
            out += &line.join(" ");
            out.push('\n');
        }
        out
    }

    fn write_joint(&self, out: &mut String, children: &[Vec<usize>], i: usize, depth: usize) {
        let j = &self.joints[i];
        let pad = "  ".repeat(depth);
        let kind = if j.parent.is_none() { "ROOT" } else { "JOINT" };
        let _ = writeln!(out, "{pad}{kind} {}\n{pad}{{", j.name);
        let _ = writeln!(
            out,
            "{pad}  OFFSET {} {} {}",
            j.offset.x, j.offset.y, j.offset.z
        );
        let names: Vec<&str> = j.channels.iter().map(|c| c.name()).collect();
        let _ = writeln!(out, "{pad}  CHANNELS {} {}", names.len(), names.join(" "));
        for &c in &children[i] {
            self.write_joint(out, children, c, depth + 1);
        }
        if let Some(e) = j.end_site {
            let _ = writeln!(
                out,
                "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}",
                e.x, e.y, e.z
            );
        }
        let _ = writeln!(out, "{pad}}}");
    }
}
