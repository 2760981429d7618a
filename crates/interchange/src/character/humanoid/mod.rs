//! Which joints of a rig are a humanoid's bones, named as VRM 1.0 names them (the set Unity and
//! Godot use too; VRM consortium, "VRMC_vrm-1.0 humanoid", 2022). Found, in this order of trust:
//! the file's own VRM humanoid map (VRM 1.0 or 0.x); the joints' names in the conventions of
//! VRM/Unity/Godot, Mixamo (any prefix), Rigify, CMU, Unreal, VRoid, 3ds Max Biped and Marionette;
//! and, for what names do not settle, the shape of the tree: a hips joint with two leg chains
//! going down and a spine going up to a chest that branches into two arms and a neck with the
//! head. Names decide the sides; without them the glTF convention does (the figure faces +Z,
//! its left is +X). A humanoid needs at least VRM's required bones: hips, spine, head, and each
//! upper arm, lower arm, hand, upper leg, lower leg and foot. The names are read in `names`, the
//! shape in `shape`.

use nalgebra::Vector3;

mod bones;
mod names;
mod shape;

pub use bones::{HumanBone, Limb};
pub use marionette_skeleton::sides::Side;
pub use marionette_skeleton::sides::split_name;
use names::by_names;
use shape::by_shape;

use super::rig::Rig;
use crate::gltf::read::GltfFile;

/// How the bones were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The file's VRM humanoid map.
    Vrm,
    /// The joints' names.
    Names,
    /// Names for some bones, the tree's shape for the rest.
    NamesAndShape,
    /// The tree's shape and the joints' places alone.
    Shape,
}

/// A humanoid found in a rig.
#[derive(Debug, Clone, PartialEq)]
pub struct Humanoid {
    /// Each bone found, with its joint (an index into the rig's joints).
    pub bones: Vec<(HumanBone, usize)>,
    /// Per bone (in the order of `bones`), why that joint: "the file's VRM map", "its name",
    /// "the tree's shape", or for toes no name names, "the foot's child reaching farthest ahead".
    pub why: Vec<&'static str>,
    /// How they were found.
    pub method: Method,
    /// Whether the sides came from names (else from the glTF convention: left is +X).
    pub sides_named: bool,
    /// The figure's up, forward and left directions (world).
    pub up: Vector3<f64>,
    /// Forward.
    pub forward: Vector3<f64>,
    /// Left.
    pub left: Vector3<f64>,
}

impl Humanoid {
    /// The joint of `bone`.
    pub fn joint(&self, bone: HumanBone) -> Option<usize> {
        self.bones.iter().find(|(b, _)| *b == bone).map(|&(_, j)| j)
    }

    /// The bone of `joint`.
    pub fn bone_of(&self, joint: usize) -> Option<HumanBone> {
        self.bones
            .iter()
            .find(|(_, j)| *j == joint)
            .map(|&(b, _)| b)
    }

    /// The required bones that are missing.
    pub fn missing(&self) -> Vec<HumanBone> {
        HumanBone::REQUIRED
            .into_iter()
            .filter(|b| self.joint(*b).is_none())
            .collect()
    }
}

/// The humanoid in `rig`, or why it is not one (the bones that could not be found).
pub fn recognise(file: &GltfFile, rig: &Rig) -> Result<Humanoid, String> {
    if let Some(bones) = vrm_map(file, rig) {
        let why = vec!["the file's VRM map"; bones.len()];
        return finish(rig, (bones, why), Method::Vrm, true);
    }
    recognise_rig(rig)
}

/// The humanoid in `rig` by its joints' names and its shape (no file to hold a VRM map).
pub fn recognise_rig(rig: &Rig) -> Result<Humanoid, String> {
    let named = by_names(rig);
    let sides_named = rig.joints.iter().any(|j| split_name(&j.name).0.is_some());
    let mut bones = by_shape(rig, &named, sides_named)?;
    let method = if named.is_empty() {
        Method::Shape
    } else if bones.iter().all(|b| named.contains(b)) {
        Method::Names
    } else {
        Method::NamesAndShape
    };
    bones.sort();
    let why = bones
        .iter()
        .map(|found| match found.0 {
            _ if named.contains(found) => "its name",
            HumanBone::LeftToes | HumanBone::RightToes => shape::TOES_BY,
            _ => "the tree's shape",
        })
        .collect();
    finish(rig, (bones, why), method, sides_named)
}

fn finish(
    rig: &Rig,
    (bones, why): (Vec<(HumanBone, usize)>, Vec<&'static str>),
    method: Method,
    sides_named: bool,
) -> Result<Humanoid, String> {
    let at = |b: HumanBone| {
        bones
            .iter()
            .find(|(x, _)| *x == b)
            .map(|&(_, j)| rig.joints[j].position)
    };
    // A hand or a foot may be missing where its limb ends at the forearm or the shin (a leaf
    // joint: a stick figure's two-segment limbs).
    let ends_limb = |b: HumanBone| {
        let before = match b {
            HumanBone::LeftHand => HumanBone::LeftLowerArm,
            HumanBone::RightHand => HumanBone::RightLowerArm,
            HumanBone::LeftFoot => HumanBone::LeftLowerLeg,
            HumanBone::RightFoot => HumanBone::RightLowerLeg,
            _ => return false,
        };
        bones
            .iter()
            .find(|(x, _)| *x == before)
            .is_some_and(|&(_, j)| rig.joints[j].children.is_empty())
    };
    let missing: Vec<&str> = HumanBone::REQUIRED
        .iter()
        .filter(|b| at(**b).is_none() && !ends_limb(**b))
        .map(|b| b.vrm_name())
        .collect();
    if !missing.is_empty() {
        return Err(format!("no {}", missing.join(", ")));
    }
    let (Some(hips), Some(head)) = (at(HumanBone::Hips), at(HumanBone::Head)) else {
        return Err("no hips or head".into());
    };
    let up = (head - hips)
        .try_normalize(1e-9)
        .ok_or("the head is where the hips are")?;
    // Upright, two-legged: the head above the hips, each hand above each knee (a quadruped's
    // front paws stand on the ground).
    if up.y < 0.5 {
        return Err("the head is not above the hips: not standing upright".into());
    }
    let knees = [HumanBone::LeftLowerLeg, HumanBone::RightLowerLeg].map(at);
    let hands = [HumanBone::LeftHand, HumanBone::RightHand].map(at);
    for hand in hands.iter().flatten() {
        if knees.iter().flatten().any(|knee| hand.y <= knee.y) {
            return Err("a hand is below a knee: it stands on four legs".into());
        }
    }
    let across = match (at(HumanBone::LeftUpperLeg), at(HumanBone::RightUpperLeg)) {
        (Some(l), Some(r)) => l - r,
        _ => Vector3::x(),
    };
    let left = (across - up * up.dot(&across))
        .try_normalize(1e-9)
        .ok_or("the legs are not side by side")?;
    let forward = left.cross(&up);
    Ok(Humanoid {
        bones,
        why,
        method,
        sides_named,
        up,
        forward,
        left,
    })
}

/// The file's own VRM humanoid map (VRM 1.0's `VRMC_vrm`, or VRM 0.x's `VRM`), if it has one.
fn vrm_map(file: &GltfFile, rig: &Rig) -> Option<Vec<(HumanBone, usize)>> {
    let extensions = &file.json["extensions"];
    let mut bones = Vec::new();
    if let Some(map) = extensions["VRMC_vrm"]["humanoid"]["humanBones"].as_object() {
        for (name, bone) in map {
            let (Some(b), Some(node)) = (HumanBone::from_vrm_name(name), bone["node"].as_u64())
            else {
                continue;
            };
            bones.push((b, rig.joint_of_node(node as usize)?));
        }
    } else if let Some(list) = extensions["VRM"]["humanoid"]["humanBones"].as_array() {
        for bone in list {
            let (Some(b), Some(node)) = (
                bone["bone"].as_str().and_then(HumanBone::from_vrm_name),
                bone["node"].as_u64(),
            ) else {
                continue;
            };
            bones.push((b, rig.joint_of_node(node as usize)?));
        }
    }
    (!bones.is_empty()).then_some(bones)
}

/// The side a bone is on.
pub fn side_of(bone: HumanBone) -> Option<Side> {
    let name = bone.vrm_name();
    if name.starts_with("left") {
        Some(Side::Left)
    } else if name.starts_with("right") {
        Some(Side::Right)
    } else {
        None
    }
}
