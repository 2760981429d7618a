//! Humanoid bones found by the joints' names: each name split into its side and its stem (the
//! prefixes and separators of Mixamo, Rigify, VRoid, 3ds Max Biped and Unreal removed), the stem
//! looked up in one table of every convention's words for each bone, and Rigify's numbered
//! spine (`spine`, `spine.001`, …) read by its order.

use std::collections::HashMap;

use super::{HumanBone, Side};
use crate::character::rig::Rig;

/// A joint name split into its side and the rest, lower case, without separators or the prefixes
/// tools add (`mixamorig:LeftUpLeg` → (left, "upleg"), `DEF-thigh.L` → (left, "thigh"),
/// `J_Bip_R_Hand` → (right, "hand"), `Bip001 L Thigh` → (left, "thigh")).
pub fn split_name(name: &str) -> (Option<Side>, String) {
    let mut s = name.trim().to_owned();
    if let Some((_, rest)) = s.rsplit_once(':') {
        s = rest.to_owned();
    }
    for prefix in [
        "mixamorig",
        "DEF-",
        "ORG-",
        "J_Bip_",
        "J_Adj_",
        "Bip001",
        "Bip01",
    ] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .to_owned();
        }
    }
    // Tokens at case changes and separators: "LeftUpLeg" → left, up, leg.
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let boundary = !c.is_alphanumeric()
            || (c.is_uppercase()
                && i > 0
                && (chars[i - 1].is_lowercase()
                    || chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                        && chars[i - 1].is_uppercase()));
        if boundary && !current.is_empty() {
            tokens.push(std::mem::take(&mut current));
        }
        if c.is_alphanumeric() {
            current.push(c.to_ascii_lowercase());
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    // Numbers ("_06", "01") and a one-letter tag in front ("b_Hip") say nothing of the bone.
    tokens.retain(|t| !t.chars().all(|c| c.is_ascii_digit()));
    if tokens.len() > 1 && tokens[0].len() == 1 && tokens[0] != "l" && tokens[0] != "r" {
        tokens.remove(0);
    }
    let mut side = None;
    let mut rest = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let found = match t.as_str() {
            "left" | "l" => Some(Side::Left),
            "right" | "r" => Some(Side::Right),
            // "lhipjoint", "rhipjoint" (CMU), "lthigh".
            _ if i == 0 && t.len() > 4 && (t.starts_with('l') || t.starts_with('r')) => {
                let body = &t[1..];
                [
                    "hipjoint", "thigh", "upleg", "uparm", "foot", "hand", "shoulder",
                ]
                .contains(&body)
                .then(|| {
                    if t.starts_with('l') {
                        Side::Left
                    } else {
                        Side::Right
                    }
                })
                .inspect(|_| rest.push(body.to_owned()))
            }
            _ => None,
        };
        match found {
            Some(s) if side.is_none() => side = Some(s),
            _ if found.is_none() => rest.push(t.clone()),
            _ => {}
        }
    }
    // Numbered copies ("spine.001", "neck_01") keep their number apart.
    (side, rest.join(""))
}

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
