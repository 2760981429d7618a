//! Humanoid bones found by the joints' names: each name split into its side and its stem (the
//! prefixes and separators of Mixamo, Rigify, VRoid, 3ds Max Biped and Unreal removed), the stem
//! looked up in one table of every convention's words for each bone, and Rigify's numbered
//! spine (`spine`, `spine.001`, …) read by its order.

use std::collections::HashMap;

use marionette_skeleton::sides::split_name;

use super::bones::HumanBone;
use crate::character::rig::Rig;
use marionette_skeleton::sides::Side;

/// What a joint's name says it is: (side, bone kind).
fn kind_of(name: &str) -> Option<(Option<Side>, &'static str)> {
    let (side, base) = split_name(name);
    let kind = match base.as_str() {
        "hips" | "pelvis" => "hips",
        "hip" if side.is_none() => "hips",
        "head" => "head",
        "neck" | "neck01" | "neck1" => "neck",
        "shoulder" | "clavicle" | "collar" | "collarbone" => "shoulder",
        "upperarm" | "arm" | "uparm" => "upperarm",
        "lowerarm" | "forearm" | "elbow" => "lowerarm",
        "hand" | "wrist" => "hand",
        "upperleg" | "upleg" | "thigh" | "hip" => "upperleg",
        "lowerleg" | "leg" | "shin" | "calf" | "knee" => "lowerleg",
        "foot" | "ankle" => "foot",
        "toes" | "toebase" | "toe" | "ball" => "toes",
        _ => return None,
    };
    Some((side, kind))
}

/// Rigify's metarig numbers its spine: `spine` is the hips, `spine.004` the neck, `spine.006`
/// the head (Blender's Rigify add-on, human metarig).
fn rigify_spine(rig: &Rig) -> Vec<(HumanBone, usize)> {
    let base = |name: &str| {
        let name = name.trim();
        name.strip_prefix("DEF-")
            .or_else(|| name.strip_prefix("ORG-"))
            .unwrap_or(name)
            .to_ascii_lowercase()
    };
    let find = |wanted: &str| rig.joints.iter().position(|j| base(&j.name) == wanted);
    if find("spine.006").is_none() {
        return Vec::new();
    }
    [
        (HumanBone::Hips, "spine"),
        (HumanBone::Neck, "spine.004"),
        (HumanBone::Head, "spine.006"),
    ]
    .into_iter()
    .filter_map(|(b, n)| Some((b, find(n)?)))
    .collect()
}

/// The bones the names give (a bone named twice counts for neither).
pub(super) fn by_names(rig: &Rig) -> Vec<(HumanBone, usize)> {
    use HumanBone::*;
    let mut found: HashMap<HumanBone, Vec<usize>> = HashMap::new();
    for (b, j) in rigify_spine(rig) {
        found.entry(b).or_default().push(j);
    }
    let kinds: Vec<Option<(Option<Side>, &str)>> =
        rig.joints.iter().map(|j| kind_of(&j.name)).collect();
    // Marionette's own humanoid calls the upper arm "shoulder" and has a "clavicle", as
    // Biovision's BVH convention has "Collar", "Shoulder", "Elbow", "Wrist": where a side has a
    // clavicle or a collar, its shoulder is the upper arm.
    let has_clavicle = |side: Option<Side>| {
        rig.joints.iter().any(|j| {
            let (s, base) = split_name(&j.name);
            s == side && matches!(base.as_str(), "clavicle" | "collar" | "collarbone")
        })
    };
    for (j, kind) in kinds.iter().enumerate() {
        let Some((side, kind)) = *kind else {
            continue;
        };
        let (side_name, base) = split_name(&rig.joints[j].name);
        let kind = if kind == "shoulder" && base == "shoulder" && has_clavicle(side_name) {
            "upperarm"
        } else {
            kind
        };
        let bone = match (kind, side) {
            ("hips", None) => Hips,
            ("head", None) => Head,
            ("neck", None) => Neck,
            ("shoulder", Some(Side::Left)) => LeftShoulder,
            ("shoulder", Some(Side::Right)) => RightShoulder,
            ("upperarm", Some(Side::Left)) => LeftUpperArm,
            ("upperarm", Some(Side::Right)) => RightUpperArm,
            ("lowerarm", Some(Side::Left)) => LeftLowerArm,
            ("lowerarm", Some(Side::Right)) => RightLowerArm,
            ("hand", Some(Side::Left)) => LeftHand,
            ("hand", Some(Side::Right)) => RightHand,
            ("upperleg", Some(Side::Left)) => LeftUpperLeg,
            ("upperleg", Some(Side::Right)) => RightUpperLeg,
            ("lowerleg", Some(Side::Left)) => LeftLowerLeg,
            ("lowerleg", Some(Side::Right)) => RightLowerLeg,
            ("foot", Some(Side::Left)) => LeftFoot,
            ("foot", Some(Side::Right)) => RightFoot,
            ("toes", Some(Side::Left)) => LeftToes,
            ("toes", Some(Side::Right)) => RightToes,
            _ => continue,
        };
        found.entry(bone).or_default().push(j);
    }
    // The first neck of a chain of necks (CMU's Neck, Neck1) is the neck.
    if let Some(necks) = found.get_mut(&Neck) {
        necks.sort_unstable();
        necks.truncate(1);
    }
    let mut bones: Vec<(HumanBone, usize)> = found
        .into_iter()
        .filter_map(|(b, js)| (js.len() == 1).then(|| (b, js[0])))
        .collect();
    bones.sort();
    bones
}
