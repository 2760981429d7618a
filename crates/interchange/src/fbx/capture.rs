//! An FBX animation (a take: an animation stack, as Mixamo's "without skin" downloads, Maya and
//! MotionBuilder write them) read as a BVH capture, so that every front end takes it where it
//! takes a BVH file ([`crate::capture`]): the skeleton is the file's bones (nodes with a bone
//! attribute, `LimbNode`s, joined into one tree by their common ancestor when they hang from
//! several places), each sampled at the file's frame rate over the take's time span with ufbx's
//! evaluation of the whole scene (units and axes converted as for a character: metres, Y up).
//!
//! BVH's joints are lined up with the world at rest: a joint's OFFSET is where it stands from
//! its parent in the file's rest pose, in world axes, and its channels carry how it has turned
//! since that rest pose, relative to its parent's turn, so the file's rest pose (all channels
//! zero) and every frame's joint positions are the file's own.

use nalgebra::{Matrix3, Matrix4, Vector3};

use super::nodes::{joining_nodes, matrix_of};
use super::{FbxError, load};
use crate::bvh::Bvh;
use crate::bvh::write::{TrackedJoint, bvh_of_tracks};

/// The most frames a take is sampled at: 55 minutes at 30 fps, 14 at 120. A take's length is
/// one number in the file, not bounded by its size as a BVH file's frames are.
pub const MAX_FRAMES: usize = 100_000;

/// An FBX file's takes and the one read.
#[derive(Debug, Clone)]
pub struct FbxCapture {
    /// The take's motion, as BVH.
    pub bvh: Bvh,
    /// Every take's name, in the file's order.
    pub takes: Vec<String>,
    /// The take read.
    pub take: String,
}

/// The take named `take` (the first when `None`) of the FBX file in `bytes` (named `file` in
/// messages) as a BVH capture.
pub fn fbx_capture(bytes: &[u8], file: &str, take: Option<&str>) -> Result<FbxCapture, FbxError> {
    let scene = load(bytes).map_err(|why| FbxError {
        file: file.to_owned(),
        why,
    })?;
    capture_of_scene(&scene, file, take)
}

/// [`fbx_capture`] of a scene already loaded.
pub(crate) fn capture_of_scene(
    scene: &ufbx::Scene,
    file: &str,
    take: Option<&str>,
) -> Result<FbxCapture, FbxError> {
    let fail = |why: String| FbxError {
        file: file.to_owned(),
        why,
    };
    let takes: Vec<String> = scene
        .anim_stacks
        .iter()
        .map(|s| s.element.name.to_string())
        .collect();
    let stack = match take {
        Some(name) => scene
            .anim_stacks
            .iter()
            .find(|s| &*s.element.name == name)
            .ok_or_else(|| {
                fail(format!(
                    "no take named \"{name}\" (its takes: {})",
                    quoted(&takes)
                ))
            })?,
        None => scene
            .anim_stacks
            .first()
            .ok_or_else(|| fail("it holds no animation (no take)".into()))?,
    };
    let bones = skeleton_nodes(scene).map_err(fail)?;
    let fps =
        if scene.settings.frames_per_second.is_finite() && scene.settings.frames_per_second > 0.0 {
            scene.settings.frames_per_second
        } else {
            30.0
        };
    let span = stack.time_end - stack.time_begin;
    if !(span.is_finite() && span >= 0.0) {
        return Err(fail(format!(
            "take \"{}\": its time span is not a length of time",
            &*stack.element.name
        )));
    }
    let frame_count = (span * fps).round() + 1.0;
    if frame_count > MAX_FRAMES as f64 {
        return Err(fail(format!(
            "take \"{}\": {frame_count} frames (at most {MAX_FRAMES} are read)",
            &*stack.element.name
        )));
    }
    let frame_count = frame_count as usize;
    // Rest: the scene as loaded.
    let rest: Vec<Matrix4<f64>> = bones.iter().map(|b| matrix_of(&b.node_to_world)).collect();
    let parent = parents_of(&bones);
    if parent.iter().filter(|p| p.is_none()).count() != 1 {
        return Err(fail("its bones are not one tree".into()));
    }
    let rest_turn: Vec<Matrix3<f64>> = rest.iter().map(rotation).collect();
    let ids: Vec<u32> = bones.iter().map(|b| b.element.typed_id).collect();
    let mut locals: Vec<Vec<(Matrix3<f64>, Vector3<f64>)>> =
        vec![Vec::with_capacity(frame_count); bones.len()];
    for f in 0..frame_count {
        let time = stack.time_begin + f as f64 / fps;
        let state = ufbx::evaluate_scene(scene, &stack.anim, time, ufbx::EvaluateOpts::default())
            .map_err(|e| fail(format!("frame {f}: {}", &*e.description)))?;
        // An evaluated scene keeps the nodes where the file's are: a node's `typed_id` is its
        // index among the scene's nodes.
        let worlds: Vec<Matrix4<f64>> = ids
            .iter()
            .map(|&id| {
                state
                    .nodes
                    .get(id as usize)
                    .map(|n| matrix_of(&n.node_to_world))
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                fail(format!(
                    "frame {f}: a bone is missing from the evaluated scene"
                ))
            })?;
        // How far each bone has turned since rest, in the world.
        let turned: Vec<Matrix3<f64>> = worlds
            .iter()
            .zip(&rest_turn)
            .map(|(w, r)| rotation(w) * r.transpose())
            .collect();
        for (k, track) in locals.iter_mut().enumerate() {
            let local = match parent[k] {
                Some(p) => turned[p].transpose() * turned[k],
                None => turned[k],
            };
            let translation = position(&worlds[k]);
            if !(local.iter().all(|v| v.is_finite()) && translation.iter().all(|v| v.is_finite())) {
                return Err(fail(format!(
                    "frame {f}: bone \"{}\" moves to a place that is not finite",
                    &*bones[k].element.name
                )));
            }
            track.push((local, translation));
        }
    }
    let joints = tracked_joints(&bones, &parent, &rest);
    Ok(FbxCapture {
        bvh: bvh_of_tracks(joints, &locals, frame_count, fps),
        take: stack.element.name.to_string(),
        takes,
    })
}

/// Per bone, the bone it hangs from (the nearest of its ancestors that is a bone).
fn parents_of(bones: &[&ufbx::Node]) -> Vec<Option<usize>> {
    bones
        .iter()
        .map(|b| {
            let mut at = b.parent.as_deref();
            while let Some(n) = at.filter(|n| !n.is_root) {
                if let Some(k) = bones
                    .iter()
                    .position(|o| o.element.typed_id == n.element.typed_id)
                {
                    return Some(k);
                }
                at = n.parent.as_deref();
            }
            None
        })
        .collect()
}

/// The translation of an affine matrix.
fn position(m: &Matrix4<f64>) -> Vector3<f64> {
    Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)])
}

/// The rotation of an affine matrix, without its scale: its columns made unit length.
fn rotation(m: &Matrix4<f64>) -> Matrix3<f64> {
    let linear = m.fixed_view::<3, 3>(0, 0).into_owned();
    Matrix3::from_columns(&[
        linear.column(0).normalize(),
        linear.column(1).normalize(),
        linear.column(2).normalize(),
    ])
}

/// The capture's joints: each bone's name, parent and offset from its parent at `rest` (the
/// root's from the origin, and the root's position tracked); a leaf ends in a 5 cm site along
/// its bone.
fn tracked_joints(
    bones: &[&ufbx::Node],
    parent: &[Option<usize>],
    rest: &[Matrix4<f64>],
) -> Vec<TrackedJoint> {
    bones
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let offset = match parent[k] {
                Some(p) => position(&rest[k]) - position(&rest[p]),
                None => position(&rest[k]),
            };
            let leaf = !parent.contains(&Some(k));
            TrackedJoint {
                name: crate::bvh::bvh_name(&b.element.name),
                parent: parent[k],
                offset,
                position: parent[k].is_none(),
                end_site: leaf.then(|| {
                    offset
                        .try_normalize(1e-9)
                        .map_or(Vector3::new(0.0, 0.05, 0.0), |d| d * 0.05)
                }),
            }
        })
        .collect()
}

/// The bones (nodes with a bone attribute) and the nodes joining them into one tree, in the
/// order a BVH file lists them: each joint, then its children's subtrees, depth first.
fn skeleton_nodes(scene: &ufbx::Scene) -> Result<Vec<&ufbx::Node>, String> {
    let mut bones: Vec<&ufbx::Node> = scene
        .nodes
        .iter()
        .map(|n| &**n)
        .filter(|n| !n.is_root && n.bone.is_some())
        .collect();
    if bones.is_empty() {
        return Err("it has no skeleton (no bones)".into());
    }
    let joining = joining_nodes(&bones);
    bones.extend(joining);
    let kept: std::collections::HashSet<u32> = bones.iter().map(|b| b.element.typed_id).collect();
    let is_kept = |n: &ufbx::Node| kept.contains(&n.element.typed_id);
    // The nodes whose nearest kept ancestor is `node`: its kept descendants with no kept node
    // between.
    fn below<'a>(
        node: &'a ufbx::Node,
        is_kept: &dyn Fn(&ufbx::Node) -> bool,
        out: &mut Vec<&'a ufbx::Node>,
    ) {
        for child in node.children.iter() {
            if is_kept(child) {
                out.push(child);
            } else {
                below(child, is_kept, out);
            }
        }
    }
    let mut roots = Vec::new();
    below(&scene.root_node, &is_kept, &mut roots);
    let mut ordered = Vec::with_capacity(bones.len());
    let mut stack: Vec<&ufbx::Node> = roots.into_iter().rev().collect();
    while let Some(node) = stack.pop() {
        ordered.push(node);
        let mut children = Vec::new();
        below(node, &is_kept, &mut children);
        stack.extend(children.into_iter().rev());
    }
    Ok(ordered)
}

/// Names quoted and joined with commas (a file's takes, for messages).
pub fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
