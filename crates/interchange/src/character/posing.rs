//! A character posed by Marionette's forward kinematics, as the editor shows it every frame and
//! the export writes it: which glTF node each skeleton joint drives, and every node's local
//! transform for a pose (the driven nodes placed where the joints are, the others carried along).

use nalgebra::Matrix4;

use marionette_skeleton::{Fk, JointId, Skeleton};

use super::rig::Rig;
use crate::gltf::read::GltfFile;

/// The node each skeleton joint drives: the skin's map, else the rig joint of the same name.
pub fn joint_nodes(skeleton: &Skeleton, rig: &Rig) -> Vec<Option<usize>> {
    skeleton
        .joint_ids()
        .map(|j| {
            let mapped = skeleton
                .skin()
                .and_then(|s| s.nodes.iter().find(|(id, _)| *id == j))
                .map(|&(_, node)| node as usize);
            mapped.or_else(|| {
                let name = &skeleton.joint(j).name;
                rig.joints.iter().find(|r| &r.name == name).map(|r| r.node)
            })
        })
        .collect()
}

/// The file's nodes, parents before children.
fn parents_first(file: &GltfFile) -> Vec<usize> {
    let mut order: Vec<usize> = (0..file.nodes.len())
        .filter(|&n| file.nodes[n].parent.is_none())
        .collect();
    let mut k = 0;
    while k < order.len() {
        order.extend(file.nodes[order[k]].children.iter().copied());
        k += 1;
    }
    order
}

/// Each node's local transform for every frame (`frames`: the skeleton's state vectors): the
/// nodes the joints drive placed by forward kinematics, the others as the file has them (so
/// a node between two joints moves with the one above it).
pub fn posed_locals(
    file: &GltfFile,
    rig: &Rig,
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
) -> Vec<Vec<Matrix4<f64>>> {
    let nodes = joint_nodes(skeleton, rig);
    let mut driver: Vec<Option<JointId>> = vec![None; file.nodes.len()];
    for (j, node) in skeleton.joint_ids().zip(&nodes) {
        if let Some(n) = node.filter(|&n| n < driver.len()) {
            driver[n] = Some(j);
        }
    }
    let order = parents_first(file);
    let mut fk = Fk::new(skeleton);
    frames
        .iter()
        .map(|q| {
            fk.update(skeleton, q);
            let mut world = vec![Matrix4::identity(); file.nodes.len()];
            let mut local = vec![Matrix4::identity(); file.nodes.len()];
            for &n in &order {
                let above = file.nodes[n].parent.map(|p| world[p]);
                match driver[n] {
                    Some(j) => {
                        let scale = rig.joint_of_node(n).map_or(1.0, |r| rig.joints[r].scale);
                        world[n] = joint_world(&fk, j, scale);
                        local[n] = above
                            .and_then(|a| a.try_inverse())
                            .map_or(world[n], |inv| inv * world[n]);
                    }
                    None => {
                        local[n] = file.nodes[n].local;
                        world[n] = above.map_or(local[n], |a| a * local[n]);
                    }
                }
            }
            local
        })
        .collect()
}

/// Joint `j`'s world transform in `fk`, scaled by `scale` (a rig joint's world scale).
pub fn joint_world(fk: &Fk, j: JointId, scale: f64) -> Matrix4<f64> {
    let mut m = Matrix4::identity();
    m.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(fk.joint_rotation(j) * scale));
    m.fixed_view_mut::<3, 1>(0, 3)
        .copy_from(&fk.joint_position(j));
    m
}
