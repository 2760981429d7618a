//! Which joints of a rig are a humanoid's bones, named as VRM 1.0 names them (the set Unity and
//! Godot use too; VRM consortium, "VRMC_vrm-1.0 humanoid", 2022). Found, in this order of trust:
//! the file's own VRM humanoid map (VRM 1.0 or 0.x); the joints' names in the conventions of
//! VRM/Unity/Godot, Mixamo (any prefix), Rigify, CMU, Unreal, VRoid, 3ds Max Biped and Marionette;
//! and, for what names do not settle, the shape of the tree: a hips joint with two leg chains
//! going down and a spine going up to a chest that branches into two arms and a neck with the
//! head. Names decide the sides; without them the glTF convention does (the figure faces +Z,
//! its left is +X). A humanoid needs at least VRM's required bones: hips, spine, head, and each
//! upper arm, lower arm, hand, upper leg, lower leg and foot.

use std::collections::HashMap;

use nalgebra::Vector3;

use super::rig::Rig;
use crate::gltf_file::GltfFile;

/// A humanoid bone (VRM 1.0's names, without the fingers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[expect(missing_docs, reason = "the bones are named as VRM names them")]
pub enum HumanBone {
    Hips,
    Spine,
    Chest,
    UpperChest,
    Neck,
    Head,
    LeftShoulder,
    LeftUpperArm,
    LeftLowerArm,
    LeftHand,
    RightShoulder,
    RightUpperArm,
    RightLowerArm,
    RightHand,
    LeftUpperLeg,
    LeftLowerLeg,
    LeftFoot,
    LeftToes,
    RightUpperLeg,
    RightLowerLeg,
    RightFoot,
    RightToes,
}

/// Which side a bone is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The figure's left.
    Left,
    /// The figure's right.
    Right,
}

/// A limb's bones, shoulder (or none) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limb {
    /// An arm.
    Arm(Side),
    /// A leg.
    Leg(Side),
}

impl HumanBone {
    /// Every bone.
    pub const ALL: [HumanBone; 22] = [
        HumanBone::Hips,
        HumanBone::Spine,
        HumanBone::Chest,
        HumanBone::UpperChest,
        HumanBone::Neck,
        HumanBone::Head,
        HumanBone::LeftShoulder,
        HumanBone::LeftUpperArm,
        HumanBone::LeftLowerArm,
        HumanBone::LeftHand,
        HumanBone::RightShoulder,
        HumanBone::RightUpperArm,
        HumanBone::RightLowerArm,
        HumanBone::RightHand,
        HumanBone::LeftUpperLeg,
        HumanBone::LeftLowerLeg,
        HumanBone::LeftFoot,
        HumanBone::LeftToes,
        HumanBone::RightUpperLeg,
        HumanBone::RightLowerLeg,
        HumanBone::RightFoot,
        HumanBone::RightToes,
    ];

    /// The bones a humanoid must have (VRM's required set).
    pub const REQUIRED: [HumanBone; 15] = [
        HumanBone::Hips,
        HumanBone::Spine,
        HumanBone::Head,
        HumanBone::LeftUpperArm,
        HumanBone::LeftLowerArm,
        HumanBone::LeftHand,
        HumanBone::RightUpperArm,
        HumanBone::RightLowerArm,
        HumanBone::RightHand,
        HumanBone::LeftUpperLeg,
        HumanBone::LeftLowerLeg,
        HumanBone::LeftFoot,
        HumanBone::RightUpperLeg,
        HumanBone::RightLowerLeg,
        HumanBone::RightFoot,
    ];

    /// VRM 1.0's name of the bone (`leftUpperArm`).
    pub fn vrm_name(self) -> &'static str {
        match self {
            HumanBone::Hips => "hips",
            HumanBone::Spine => "spine",
            HumanBone::Chest => "chest",
            HumanBone::UpperChest => "upperChest",
            HumanBone::Neck => "neck",
            HumanBone::Head => "head",
            HumanBone::LeftShoulder => "leftShoulder",
            HumanBone::LeftUpperArm => "leftUpperArm",
            HumanBone::LeftLowerArm => "leftLowerArm",
            HumanBone::LeftHand => "leftHand",
            HumanBone::RightShoulder => "rightShoulder",
            HumanBone::RightUpperArm => "rightUpperArm",
            HumanBone::RightLowerArm => "rightLowerArm",
            HumanBone::RightHand => "rightHand",
            HumanBone::LeftUpperLeg => "leftUpperLeg",
            HumanBone::LeftLowerLeg => "leftLowerLeg",
            HumanBone::LeftFoot => "leftFoot",
            HumanBone::LeftToes => "leftToes",
            HumanBone::RightUpperLeg => "rightUpperLeg",
            HumanBone::RightLowerLeg => "rightLowerLeg",
            HumanBone::RightFoot => "rightFoot",
            HumanBone::RightToes => "rightToes",
        }
    }

    /// The bone VRM 1.0 calls `name`.
    pub fn from_vrm_name(name: &str) -> Option<HumanBone> {
        HumanBone::ALL.into_iter().find(|b| b.vrm_name() == name)
    }

    /// A limb's bones: shoulder, upper, lower, hand (arm); upper, lower, foot, toes (leg).
    pub fn limb(limb: Limb) -> [HumanBone; 4] {
        use HumanBone::*;
        match limb {
            Limb::Arm(Side::Left) => [LeftShoulder, LeftUpperArm, LeftLowerArm, LeftHand],
            Limb::Arm(Side::Right) => [RightShoulder, RightUpperArm, RightLowerArm, RightHand],
            Limb::Leg(Side::Left) => [LeftUpperLeg, LeftLowerLeg, LeftFoot, LeftToes],
            Limb::Leg(Side::Right) => [RightUpperLeg, RightLowerLeg, RightFoot, RightToes],
        }
    }
}

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
        return finish(rig, bones, Method::Vrm, true);
    }
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
    finish(rig, bones, method, sides_named)
}

fn finish(
    rig: &Rig,
    bones: Vec<(HumanBone, usize)>,
    method: Method,
    sides_named: bool,
) -> Result<Humanoid, String> {
    let at = |b: HumanBone| {
        bones
            .iter()
            .find(|(x, _)| *x == b)
            .map(|&(_, j)| rig.joints[j].position)
    };
    let missing: Vec<&str> = HumanBone::REQUIRED
        .iter()
        .filter(|b| at(**b).is_none())
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
fn by_names(rig: &Rig) -> Vec<(HumanBone, usize)> {
    use HumanBone::*;
    let mut found: HashMap<HumanBone, Vec<usize>> = HashMap::new();
    for (b, j) in rigify_spine(rig) {
        found.entry(b).or_default().push(j);
    }
    let kinds: Vec<Option<(Option<Side>, &str)>> =
        rig.joints.iter().map(|j| kind_of(&j.name)).collect();
    // Marionette's own humanoid calls the upper arm "shoulder" and has a "clavicle": where a
    // side has both, the shoulder is the upper arm.
    let has_clavicle = |side: Option<Side>| {
        rig.joints.iter().any(|j| {
            let (s, base) = split_name(&j.name);
            s == side && base == "clavicle"
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

/// Whether `a` is `b` or above it.
fn above(rig: &Rig, a: usize, b: usize) -> bool {
    let mut at = Some(b);
    while let Some(j) = at {
        if j == a {
            return true;
        }
        at = rig.joints[j].parent;
    }
    false
}

/// The chain from `start` following, at each joint, the child whose subtree holds the most
/// joints, until a leaf.
fn main_chain(rig: &Rig, start: usize) -> Vec<usize> {
    let sizes = subtree_sizes(rig);
    let mut chain = vec![start];
    let mut at = start;
    while let Some(&next) = rig.joints[at].children.iter().max_by_key(|&&c| sizes[c]) {
        chain.push(next);
        at = next;
    }
    chain
}

fn subtree_sizes(rig: &Rig) -> Vec<usize> {
    let mut sizes = vec![1; rig.joints.len()];
    for j in (0..rig.joints.len()).rev() {
        if let Some(p) = rig.joints[j].parent {
            sizes[p] += sizes[j];
        }
    }
    sizes
}

/// The lowest and highest height in `j`'s subtree (world Y).
fn span(rig: &Rig, j: usize) -> (f64, f64) {
    let mut out = (rig.joints[j].position.y, rig.joints[j].position.y);
    let mut stack = vec![j];
    while let Some(k) = stack.pop() {
        out.0 = out.0.min(rig.joints[k].position.y);
        out.1 = out.1.max(rig.joints[k].position.y);
        stack.extend(rig.joints[k].children.iter().copied());
    }
    out
}

/// The bones of the tree's shape, keeping every bone the names gave that fits it.
fn by_shape(
    rig: &Rig,
    named: &[(HumanBone, usize)],
    sides_named: bool,
) -> Result<Vec<(HumanBone, usize)>, String> {
    use HumanBone::*;
    let height = rig.height();
    let name = |b: HumanBone| named.iter().find(|(x, _)| *x == b).map(|&(_, j)| j);
    // Hips: named, else the joint with two subtrees reaching well below it and one well above.
    let hips_by_shape = || {
        (0..rig.joints.len()).find(|&j| {
            let y = rig.joints[j].position.y;
            let kids = &rig.joints[j].children;
            let down = kids
                .iter()
                .filter(|&&c| span(rig, c).0 < y - 0.25 * height)
                .count();
            let up = kids
                .iter()
                .filter(|&&c| span(rig, c).1 > y + 0.2 * height)
                .count();
            down == 2 && up >= 1
        })
    };
    let hips = name(Hips)
        .or_else(hips_by_shape)
        .ok_or("no hips: no joint has two legs below it and a spine above")?;
    let hips_y = rig.joints[hips].position.y;
    let mut bones = vec![(Hips, hips)];
    // Legs: the two subtrees of the hips reaching lowest.
    let mut legs: Vec<usize> = rig.joints[hips]
        .children
        .iter()
        .copied()
        .filter(|&c| span(rig, c).0 < hips_y - 0.25 * height)
        .collect();
    legs.sort_by(|a, b| span(rig, *a).0.total_cmp(&span(rig, *b).0));
    legs.truncate(2);
    if legs.len() < 2 {
        return Err("no legs: the hips do not have two chains reaching down".into());
    }
    // The spine: the hips' subtree reaching highest.
    let spine_root = rig.joints[hips]
        .children
        .iter()
        .copied()
        .filter(|c| !legs.contains(c))
        .max_by(|a, b| span(rig, *a).1.total_cmp(&span(rig, *b).1))
        .ok_or("no spine above the hips")?;
    // The chest where the arms branch: named upper arms' common ancestor, else the first joint
    // up the spine with three or more branches.
    let mut spine = vec![spine_root];
    loop {
        let at = *spine.last().unwrap_or(&spine_root);
        let kids = &rig.joints[at].children;
        if kids.len() >= 3 || kids.is_empty() {
            break;
        }
        let next = *kids
            .iter()
            .max_by(|a, b| span(rig, **a).1.total_cmp(&span(rig, **b).1))
            .unwrap_or(&kids[0]);
        spine.push(next);
    }
    let branch = *spine.last().unwrap_or(&spine_root);
    if rig.joints[branch].children.len() < 3 {
        return Err("no chest: nothing up the spine branches into two arms and a neck".into());
    }
    let chest_kids = rig.joints[branch].children.clone();
    let neck_root = *chest_kids
        .iter()
        .max_by(|a, b| span(rig, **a).1.total_cmp(&span(rig, **b).1))
        .unwrap_or(&chest_kids[0]);
    let mut arms: Vec<usize> = chest_kids
        .iter()
        .copied()
        .filter(|&c| c != neck_root)
        .collect();
    // The two arms: the branches reaching furthest sideways.
    let reach = |c: usize| {
        let mut r: f64 = 0.0;
        let mut stack = vec![c];
        while let Some(k) = stack.pop() {
            r = r.max(
                (rig.joints[k].position - rig.joints[branch].position)
                    .xz()
                    .norm(),
            );
            stack.extend(rig.joints[k].children.iter().copied());
        }
        r
    };
    arms.sort_by(|a, b| reach(*b).total_cmp(&reach(*a)));
    arms.truncate(2);
    if arms.len() < 2 {
        return Err("no arms: the chest has fewer than two branches beside the neck".into());
    }
    // Spine, chest, upper chest along the spine.
    let n = spine.len();
    bones.push((Spine, spine[0]));
    if n >= 2 {
        bones.push((Chest, spine[1]));
    }
    if n >= 3 {
        bones.push((UpperChest, spine[n - 1]));
    }
    // Neck and head.
    let neck_chain = main_chain(rig, neck_root);
    let head = name(Head)
        .filter(|&h| neck_chain.contains(&h))
        .unwrap_or_else(|| *neck_chain.get(1).unwrap_or(&neck_chain[0]));
    if head != neck_root {
        bones.push((Neck, neck_root));
    }
    bones.push((Head, head));
    // Sides: by names where the chains hold named bones, else by the glTF convention (+X left).
    let side = |chain_root: usize, bones_of: [[HumanBone; 4]; 2]| -> Side {
        let chain_sides: Vec<Side> = main_chain(rig, chain_root)
            .iter()
            .filter_map(|&j| split_name(&rig.joints[j].name).0)
            .collect();
        if let Some(&first) = chain_sides.first()
            && chain_sides.iter().all(|&s| s == first)
        {
            return first;
        }
        if sides_named {
            for (k, side) in [(0, Side::Left), (1, Side::Right)] {
                if bones_of[k]
                    .iter()
                    .filter_map(|b| name(*b))
                    .any(|j| above(rig, chain_root, j))
                {
                    return side;
                }
            }
        }
        if rig.joints[chain_root].position.x > rig.joints[hips].position.x {
            Side::Left
        } else {
            Side::Right
        }
    };
    let arm_bones = [
        HumanBone::limb(Limb::Arm(Side::Left)),
        HumanBone::limb(Limb::Arm(Side::Right)),
    ];
    let leg_bones = [
        HumanBone::limb(Limb::Leg(Side::Left)),
        HumanBone::limb(Limb::Leg(Side::Right)),
    ];
    let mut limb_sides = Vec::new();
    for &a in &arms {
        limb_sides.push((Limb::Arm(side(a, arm_bones)), a));
    }
    for &l in &legs {
        limb_sides.push((Limb::Leg(side(l, leg_bones)), l));
    }
    for pair in [&limb_sides[..2], &limb_sides[2..]] {
        if pair[0].0 == pair[1].0 {
            return Err("both arms (or both legs) are on one side".into());
        }
    }
    for (limb, root) in limb_sides {
        bones.extend(limb_bones(rig, limb, root, &name, height)?);
    }
    Ok(bones)
}

/// The bones of one limb whose chain starts at `root`.
fn limb_bones(
    rig: &Rig,
    limb: Limb,
    root: usize,
    name: &dyn Fn(HumanBone) -> Option<usize>,
    height: f64,
) -> Result<Vec<(HumanBone, usize)>, String> {
    let [a, b, c, d] = HumanBone::limb(limb);
    // The three bones every limb has, and the one before (the shoulder) or after (the toes).
    let (before, [top, mid, tip], after) = match limb {
        Limb::Arm(_) => (Some(a), [b, c, d], None),
        Limb::Leg(_) => (None, [a, b, c], Some(d)),
    };
    let chain = main_chain(rig, root);
    let long = |k: usize| {
        chain.get(k + 1).is_some_and(|&n| {
            (rig.joints[n].position - rig.joints[chain[k]].position).norm() > 0.08 * height
        })
    };
    // Named bones that lie on this chain are taken; the rest follow the chain's long segments.
    let on_chain = |bone: HumanBone| name(bone).and_then(|j| chain.iter().position(|&x| x == j));
    let top_at = on_chain(top)
        .or_else(|| (0..chain.len()).find(|&k| long(k)))
        .ok_or_else(|| format!("no {}: the chain has no long segment", top.vrm_name()))?;
    let mid_at = on_chain(mid).filter(|&k| k > top_at).unwrap_or(top_at + 1);
    let tip_at = on_chain(tip).filter(|&k| k > mid_at).unwrap_or(mid_at + 1);
    let (Some(&t), Some(&m), Some(&e)) = (chain.get(top_at), chain.get(mid_at), chain.get(tip_at))
    else {
        return Err(format!(
            "the chain from {} is too short for {}, {} and {}",
            rig.joints[root].name,
            top.vrm_name(),
            mid.vrm_name(),
            tip.vrm_name()
        ));
    };
    let mut out = vec![(top, t), (mid, m), (tip, e)];
    if let Some(shoulder) = before.filter(|_| top_at > 0) {
        out.push((shoulder, chain[top_at - 1]));
    }
    if let Some((toes, &j)) = after.zip(chain.get(tip_at + 1)) {
        out.push((toes, j));
    }
    Ok(out)
}
