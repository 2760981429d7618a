//! The rig of a character file: the skin's joints as a tree, each with its node, a unique name,
//! and its rest transform in the world (the file's node transforms, multiplied out). Refused:
//! a file with no skin, skins that do not share their joints (two characters), joints that are
//! not one tree, more than [`MAX_JOINTS`] joints, a joint (or a node above one) whose scale is
//! not uniform.

use nalgebra::{Matrix3, Matrix4, Vector3};

use super::error::CharacterError;
use crate::gltf::read::{GltfFile, decompose};

/// The most joints a character may have (what Bevy skins on the GPU).
pub const MAX_JOINTS: usize = 256;

/// One joint of the rig.
#[derive(Debug, Clone, PartialEq)]
pub struct RigJoint {
    /// Its node in the file.
    pub node: usize,
    /// Its name: the node's, made unique (`node 7` for a node without one).
    pub name: String,
    /// Its parent joint (an index into [`Rig::joints`]).
    pub parent: Option<usize>,
    /// Its child joints.
    pub children: Vec<usize>,
    /// Its rest rotation in the world.
    pub rotation: Matrix3<f64>,
    /// Its rest position in the world.
    pub position: Vector3<f64>,
    /// Its world scale (uniform).
    pub scale: f64,
}

/// The skin's joints, parents before children.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    /// The joints, depth first from the root.
    pub joints: Vec<RigJoint>,
    /// The skins (one, or several that share their joints).
    pub skins: Vec<usize>,
}

impl Rig {
    /// The rig of `file`.
    pub fn of(file: &GltfFile) -> Result<Rig, CharacterError> {
        let refuse = |node: Option<usize>, why: String| CharacterError::Rig {
            file: file.file(),
            node: node.map(|n| file.node_label(n)),
            why,
        };
        let skins = file.json["skins"].as_array().map_or(&[][..], Vec::as_slice);
        if skins.is_empty() {
            return Err(refuse(
                None,
                "it has no skin: a character needs a rigged mesh (a skin with its joints)".into(),
            ));
        }
        let joint_lists: Vec<Vec<usize>> = skins
            .iter()
            .enumerate()
            .map(|(s, skin)| {
                skin["joints"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|j| {
                        j.as_u64()
                            .map(|j| j as usize)
                            .filter(|&j| j < file.nodes.len())
                            .ok_or_else(|| {
                                refuse(
                                    None,
                                    format!("skin {s} names joint {j}, which is not a node"),
                                )
                            })
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        let mut nodes: Vec<usize> = Vec::new();
        for (s, list) in joint_lists.iter().enumerate() {
            if list.is_empty() {
                return Err(refuse(None, format!("skin {s} has no joints")));
            }
            if s > 0 && !list.iter().any(|j| nodes.contains(j)) {
                return Err(refuse(
                    Some(list[0]),
                    format!(
                        "the file has two skins with no joint in common (skin 0 starts at node {}, \
                         skin {s} at this one): one character per file",
                        file.node_label(joint_lists[0][0])
                    ),
                ));
            }
            for &j in list {
                if !nodes.contains(&j) {
                    nodes.push(j);
                }
            }
        }
        if nodes.len() > MAX_JOINTS {
            return Err(refuse(
                None,
                format!(
                    "its skin has {} joints; at most {MAX_JOINTS} can be posed",
                    nodes.len()
                ),
            ));
        }
        let is_joint = |n: usize| nodes.contains(&n);
        // Each joint's parent: its nearest ancestor that is a joint.
        let joint_parent = |n: usize| {
            let mut p = file.nodes[n].parent;
            while let Some(a) = p {
                if is_joint(a) {
                    return Some(a);
                }
                p = file.nodes[a].parent;
            }
            None
        };
        let roots: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|&n| joint_parent(n).is_none())
            .collect();
        if roots.len() > 1 {
            return Err(refuse(
                Some(roots[1]),
                format!(
                    "the joints are not one tree: this joint and {} have no joint above them in \
                     common",
                    file.node_label(roots[0])
                ),
            ));
        }
        let world = file.world_matrices();
        // Every node above a joint counts: its scale is in the joints' world transforms.
        // Checked from the top down, so the node that brings a bad scale in is the one named.
        for &n in &nodes {
            let mut chain = vec![n];
            while let Some(p) = file.nodes[*chain.last().unwrap_or(&n)].parent {
                chain.push(p);
            }
            for &a in chain.iter().rev() {
                decompose(&world[a]).map_err(|why| refuse(Some(a), why))?;
            }
        }
        let mut rig = Rig {
            joints: Vec::with_capacity(nodes.len()),
            skins: (0..skins.len()).collect(),
        };
        let mut names: Vec<String> = Vec::new();
        let mut stack = vec![(roots[0], None)];
        while let Some((n, parent)) = stack.pop() {
            let (rotation, position, scale) =
                decompose(&world[n]).map_err(|why| refuse(Some(n), why))?;
            let base = file.nodes[n]
                .name
                .clone()
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| format!("node {n}"));
            let mut name = base.clone();
            let mut k = 2;
            while names.contains(&name) {
                name = format!("{base} {k}");
                k += 1;
            }
            names.push(name.clone());
            let index = rig.joints.len();
            if let Some(p) = parent {
                let parent: &mut RigJoint = &mut rig.joints[p];
                parent.children.push(index);
            }
            rig.joints.push(RigJoint {
                node: n,
                name,
                parent,
                children: Vec::new(),
                rotation,
                position,
                scale,
            });
            // Children in file order, depth first: pushed reversed.
            let below = joint_children(file, n, &is_joint);
            for &c in below.iter().rev() {
                stack.push((c, Some(index)));
            }
        }
        Ok(rig)
    }

    /// The joint driving `node`, if any.
    pub fn joint_of_node(&self, node: usize) -> Option<usize> {
        self.joints.iter().position(|j| j.node == node)
    }

    /// The figure's height: the vertical extent of its joints (at least 1 cm).
    pub fn height(&self) -> f64 {
        let ys = self.joints.iter().map(|j| j.position.y);
        let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
            (lo.min(y), hi.max(y))
        });
        (hi - lo).max(0.01)
    }

    /// Joint `j`'s rest transform in the world, with its scale.
    pub fn world(&self, j: usize) -> Matrix4<f64> {
        let joint = &self.joints[j];
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0)
            .copy_from(&(joint.rotation * joint.scale));
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&joint.position);
        m
    }
}

/// The joints whose nearest joint ancestor is `n`, in file order (through nodes that are not
/// joints).
fn joint_children(file: &GltfFile, n: usize, is_joint: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = file.nodes[n].children.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        if is_joint(c) {
            out.push(c);
        } else {
            stack.extend(file.nodes[c].children.iter().rev().copied());
        }
    }
    out
}
