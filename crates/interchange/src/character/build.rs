//! The skeleton of a character: one joint per rig joint, keeping its node's name and its rest
//! transform (offset and fixed orientation from the file, so the rest pose of the skeleton is the
//! file's), with three hinges about perpendicular axes whose rest values are 0, far from the
//! ±90° where three hinges lock. A recognised humanoid's hinges are anatomical: about the body's
//! side-to-side axis (flexion, forward positive), the axis across it, and the bone itself
//! (twist), with humanoid limits; its elbows and knees are single hinges about the rest pose's
//! bend (else the body's side axis), so every arm and leg is a shoulder–elbow–wrist limb of
//! three, one and three hinges that the analytic limb solver serves (Tolani, Goswami & Badler
//! 2000). Everything else (tails, props, fingers, a quadruped) gets three unlimited hinges.
//! Each joint gets a capsule along its bone for picking and outlines; sites mark the hands, feet
//! and head of a humanoid and every other leaf's end.

use nalgebra::{Matrix4, Vector3};

use marionette_skeleton::format::{
    AxisDef, BodyDef, DofDef, JointDef, Node, SiteDef, SkeletonFile, SkinDef,
};
use marionette_skeleton::ordered_map::OrderedMap;

use super::humanoid::{HumanBone, Humanoid};
use super::rig::Rig;

/// Per joint: the direction of its bone (world) and its length.
struct Bones {
    direction: Vec<Vector3<f64>>,
    length: Vec<f64>,
    /// Where a leaf's body ends: the skin's vertex reaching farthest along its bone (`None` for a
    /// joint with a next joint, or a leaf with no skin, whose body runs along its bone).
    tip: Vec<Option<Vector3<f64>>>,
}

/// The skeleton file of `rig` (`humanoid` when one was recognised), whose leaf ends come from
/// `vertices` (the rest pose's skinned vertices with the joint weighing most on each), naming
/// `skin_file` as its skin.
pub fn skeleton_file(
    name: &str,
    rig: &Rig,
    humanoid: Option<&Humanoid>,
    vertices: &[(usize, Vector3<f64>)],
    skin_file: &str,
) -> SkeletonFile {
    let bones = bones(rig, humanoid, vertices);
    let height = rig.height();
    let mut joints = Vec::with_capacity(rig.joints.len());
    for (j, joint) in rig.joints.iter().enumerate() {
        let (offset, orientation) = match joint.parent {
            Some(p) => {
                let parent = &rig.joints[p];
                (
                    parent.rotation.transpose() * (joint.position - parent.position),
                    parent.rotation.transpose() * joint.rotation,
                )
            }
            None => (joint.position, joint.rotation),
        };
        let (dofs, preferred) = dofs(rig, humanoid, &bones, j);
        // A leaf's body reaches its skin's farthest vertex and no farther, so it ends where the
        // mesh does (along its bone it would pass the sole of a foot whose toe joint sits low).
        let tip = bones.tip[j].and_then(|tip| {
            let d = tip - joint.position;
            Some((d.try_normalize(1e-9)?, d.norm()))
        });
        let (direction, reach) = tip.unwrap_or((bones.direction[j], bones.length[j]));
        let radius = (0.12 * reach.max(0.01 * height)).clamp(0.005 * height, 0.05 * height);
        let length = if tip.is_some() { reach - radius } else { reach }.max(0.01 * height);
        let axis = joint.rotation.transpose() * direction;
        joints.push((
            joint.name.clone(),
            JointDef {
                offset: offset.into(),
                orientation: marionette_skeleton::degrees_from_orientation(&orientation),
                dofs,
                object: Some(BodyDef::Capsule {
                    radius,
                    length,
                    at: [0.0; 3],
                    axis: Some(axis.into()),
                }),
                mass: 1000.0 * std::f64::consts::PI * radius * radius * length,
                mass_center: None,
                stiffness: 1.0,
                rest: Vec::new(),
                preferred,
                mirror: None,
            },
        ));
    }
    SkeletonFile {
        version: 1,
        name: name.to_owned(),
        hierarchy: hierarchy(rig, humanoid, 0),
        joints: OrderedMap(joints),
        sites: OrderedMap(sites(rig, humanoid, &bones, vertices)),
        skin: Some(SkinDef {
            file: skin_file.to_owned(),
            nodes: OrderedMap(
                rig.joints
                    .iter()
                    .map(|j| (j.name.clone(), j.node as u32))
                    .collect(),
            ),
        }),
    }
}

/// The next joint along `j`'s bone: the humanoid chain's next bone, else the child with the
/// largest subtree.
fn next_joint(rig: &Rig, humanoid: Option<&Humanoid>, j: usize) -> Option<usize> {
    use HumanBone::*;
    if let Some(h) = humanoid
        && let Some(bone) = h.bone_of(j)
    {
        let next = match bone {
            Hips => h.joint(Spine),
            Spine => h
                .joint(Chest)
                .or(h.joint(UpperChest))
                .or(h.joint(Neck))
                .or(h.joint(Head)),
            Chest => h.joint(UpperChest).or(h.joint(Neck)).or(h.joint(Head)),
            UpperChest => h.joint(Neck).or(h.joint(Head)),
            Neck => h.joint(Head),
            LeftShoulder => h.joint(LeftUpperArm),
            LeftUpperArm => h.joint(LeftLowerArm),
            LeftLowerArm => h.joint(LeftHand),
            RightShoulder => h.joint(RightUpperArm),
            RightUpperArm => h.joint(RightLowerArm),
            RightLowerArm => h.joint(RightHand),
            LeftUpperLeg => h.joint(LeftLowerLeg),
            LeftLowerLeg => h.joint(LeftFoot),
            LeftFoot => h.joint(LeftToes),
            RightUpperLeg => h.joint(RightLowerLeg),
            RightLowerLeg => h.joint(RightFoot),
            RightFoot => h.joint(RightToes),
            Head | LeftHand | RightHand | LeftToes | RightToes => None,
        };
        // Only a joint below it counts (a named bone elsewhere in the tree does not).
        if let Some(n) = next.filter(|&n| is_below(rig, j, n)) {
            return Some(n);
        }
    }
    let mut sizes = vec![1usize; rig.joints.len()];
    for k in (0..rig.joints.len()).rev() {
        if let Some(p) = rig.joints[k].parent {
            sizes[p] += sizes[k];
        }
    }
    rig.joints[j]
        .children
        .iter()
        .copied()
        .max_by_key(|&c| sizes[c])
}

fn is_below(rig: &Rig, top: usize, j: usize) -> bool {
    let mut at = rig.joints[j].parent;
    while let Some(p) = at {
        if p == top {
            return true;
        }
        at = rig.joints[p].parent;
    }
    false
}

/// Vertices reaching within this of the farthest count as reaching as far (a cylinder's flat
/// end): their middle is taken, so that mirrored skins give mirrored points.
const SAME_REACH: f64 = 1e-4;

/// Where the skinned vertices of `joints` reach farthest from `from` along `direction`: the
/// middle of the vertices that reach farthest (within [`SAME_REACH`]), with how far they reach
/// (`None` when none reaches past `from`).
fn reach(
    vertices: &[(usize, Vector3<f64>)],
    joints: &[usize],
    from: &Vector3<f64>,
    direction: &Vector3<f64>,
) -> Option<(f64, Vector3<f64>)> {
    let of_joints = || vertices.iter().filter(|(j, _)| joints.contains(j));
    let farthest = of_joints()
        .map(|(_, v)| (v - from).dot(direction))
        .fold(f64::NEG_INFINITY, f64::max);
    if farthest <= 0.0 {
        return None;
    }
    let (sum, count) = of_joints()
        .filter(|(_, v)| (v - from).dot(direction) >= farthest - SAME_REACH)
        .fold((Vector3::zeros(), 0.0), |(sum, n), (_, v)| {
            (sum + v, n + 1.0)
        });
    Some((farthest, sum / count))
}

fn subtree(rig: &Rig, j: usize) -> Vec<usize> {
    let mut out = vec![j];
    let mut k = 0;
    while k < out.len() {
        out.extend(rig.joints[out[k]].children.iter().copied());
        k += 1;
    }
    out
}

/// Every joint's bone: towards the next joint, or, at a leaf, on along its parent's bone as far
/// as its skin reaches (half its parent's bone where it has none).
fn bones(rig: &Rig, humanoid: Option<&Humanoid>, vertices: &[(usize, Vector3<f64>)]) -> Bones {
    let n = rig.joints.len();
    let mut direction = vec![Vector3::y(); n];
    let mut length = vec![0.0; n];
    let mut tip = vec![None; n];
    for j in 0..n {
        let here = rig.joints[j].position;
        if let Some(next) = next_joint(rig, humanoid, j) {
            let d = rig.joints[next].position - here;
            if let Some(unit) = d.try_normalize(1e-9) {
                direction[j] = unit;
                length[j] = d.norm();
                continue;
            }
        }
        let along = rig.joints[j]
            .parent
            .and_then(|p| (here - rig.joints[p].position).try_normalize(1e-9))
            .unwrap_or_else(|| rig.joints[j].rotation * Vector3::y());
        direction[j] = along;
        let parent_length = rig.joints[j].parent.map_or(0.1 * rig.height(), |p| {
            (here - rig.joints[p].position).norm()
        });
        let reached = reach(vertices, &[j], &here, &along);
        length[j] = reached.map_or(0.5 * parent_length, |(d, _)| d);
        tip[j] = reached.map(|(_, v)| v);
    }
    Bones {
        direction,
        length,
        tip,
    }
}

/// `v` with its component along `axis` removed, normalised (`None` when nothing is left).
fn across(v: &Vector3<f64>, axis: &Vector3<f64>) -> Option<Vector3<f64>> {
    (v - axis * axis.dot(v)).try_normalize(0.3)
}

/// Anatomical hinge axes (world) for a bone pointing along `d`: flexion about the body's side
/// axis (or its up axis, for a bone along the side axis), turned so that a positive angle moves
/// the bone forward (or down, for a bone pointing forward); the axis across; the twist.
fn anatomical_axes(d: &Vector3<f64>, h: &Humanoid) -> [Vector3<f64>; 3] {
    let mut a1 = across(&h.left, d)
        .or_else(|| across(&h.up, d))
        .unwrap_or_else(|| across(&h.forward, d).unwrap_or_else(Vector3::x));
    let moves = a1.cross(d);
    let towards = if moves.dot(&h.forward).abs() > 0.3 {
        h.forward
    } else {
        -h.up
    };
    if moves.dot(&towards) < 0.0 {
        a1 = -a1;
    }
    let a3 = *d;
    let a2 = a3.cross(&a1).normalize();
    [a1, a2, a3]
}

/// A humanoid bone's limits (degrees): flexion (min, max), then ± across and ± twist.
fn limits(bone: HumanBone) -> ((f64, f64), f64, f64) {
    use HumanBone::*;
    match bone {
        Hips => ((-180.0, 180.0), 180.0, 180.0),
        Spine | Chest | UpperChest => ((-25.0, 40.0), 20.0, 25.0),
        Neck => ((-40.0, 50.0), 35.0, 50.0),
        Head => ((-30.0, 40.0), 30.0, 40.0),
        LeftShoulder | RightShoulder => ((-20.0, 20.0), 25.0, 10.0),
        LeftUpperArm | RightUpperArm => ((-60.0, 170.0), 170.0, 90.0),
        LeftHand | RightHand => ((-80.0, 80.0), 40.0, 90.0),
        LeftUpperLeg | RightUpperLeg => ((-30.0, 120.0), 50.0, 45.0),
        LeftFoot | RightFoot => ((-50.0, 50.0), 30.0, 30.0),
        LeftToes | RightToes => ((-60.0, 60.0), 10.0, 10.0),
        // Elbows and knees are single hinges (`hinge_limb_joint`).
        LeftLowerArm | RightLowerArm | LeftLowerLeg | RightLowerLeg => ((0.0, 150.0), 0.0, 0.0),
    }
}

/// A joint's DOFs and bend hints.
fn dofs(
    rig: &Rig,
    humanoid: Option<&Humanoid>,
    bones: &Bones,
    j: usize,
) -> (Vec<DofDef>, Vec<f64>) {
    let local = |w: Vector3<f64>| {
        let v = rig.joints[j].rotation.transpose() * w;
        AxisDef::Axis(v.x, v.y, v.z)
    };
    let unlimited = || {
        (
            [AxisDef::X, AxisDef::Y, AxisDef::Z]
                .into_iter()
                .map(|a| DofDef::Hinge(a, -180.0, 180.0))
                .collect(),
            Vec::new(),
        )
    };
    let Some(h) = humanoid else {
        return unlimited();
    };
    let Some(bone) = h.bone_of(j) else {
        return unlimited();
    };
    use HumanBone::*;
    match bone {
        LeftLowerArm | RightLowerArm | LeftLowerLeg | RightLowerLeg => {
            let knee = matches!(bone, LeftLowerLeg | RightLowerLeg);
            let (axis, straight) = hinge_limb_joint(rig, h, bones, j, knee);
            let (lo, hi) = (straight.min(0.0), (straight + 150.0).max(0.0));
            (vec![DofDef::Hinge(local(axis), lo, hi)], Vec::new())
        }
        Hips => unlimited(),
        _ => {
            let axes = anatomical_axes(&bones.direction[j], h);
            let ((f0, f1), a, t) = limits(bone);
            (
                vec![
                    DofDef::Hinge(local(axes[0]), f0, f1),
                    DofDef::Hinge(local(axes[1]), -a, a),
                    DofDef::Hinge(local(axes[2]), -t, t),
                ],
                Vec::new(),
            )
        }
    }
}

/// An elbow's or knee's hinge axis (world) and the angle (degrees) that straightens the limb:
/// the rest pose's bend when it bends the right way (an elbow forward, a knee back), else the
/// axis that would; positive angles bend further.
fn hinge_limb_joint(
    rig: &Rig,
    h: &Humanoid,
    bones: &Bones,
    j: usize,
    knee: bool,
) -> (Vector3<f64>, f64) {
    let parent = rig.joints[j].parent.unwrap_or(j);
    let upper = (rig.joints[j].position - rig.joints[parent].position)
        .try_normalize(1e-9)
        .unwrap_or(bones.direction[parent]);
    let lower = bones.direction[j];
    let bend_towards = if knee { -h.forward } else { h.forward };
    let by_rule = upper
        .cross(&bend_towards)
        .try_normalize(0.2)
        .or_else(|| upper.cross(&h.up).try_normalize(0.2))
        .unwrap_or(h.left);
    let bent = upper.cross(&lower);
    let axis = match bent.try_normalize(0.05) {
        // Bent at rest (by 3° or more), and the right way: the bend's own axis.
        Some(n) if n.dot(&by_rule) > 0.0 => n,
        _ => by_rule,
    };
    // The rest bend about that axis (positive: bent).
    let bend = upper.cross(&lower).dot(&axis).atan2(upper.dot(&lower));
    (axis, -bend.to_degrees())
}

/// The hierarchy, with a humanoid's groups (torso, head, each arm and leg) around the subtrees.
fn hierarchy(rig: &Rig, humanoid: Option<&Humanoid>, j: usize) -> Node {
    let children = rig.joints[j]
        .children
        .iter()
        .map(|&c| {
            let node = hierarchy(rig, humanoid, c);
            match humanoid.and_then(|h| group_of(h, c)) {
                Some(group) => Node::Group(group.to_owned(), vec![node]),
                None => node,
            }
        })
        .collect();
    Node::Joint(rig.joints[j].name.clone(), children)
}

/// The group a humanoid's chain starting at joint `j` forms.
fn group_of(h: &Humanoid, j: usize) -> Option<&'static str> {
    use HumanBone::*;
    let first = |bones: &[HumanBone]| bones.iter().find_map(|&b| h.joint(b));
    [
        ("Torso", first(&[Spine])),
        ("Head", first(&[Neck, Head])),
        ("Left arm", first(&[LeftShoulder, LeftUpperArm])),
        ("Right arm", first(&[RightShoulder, RightUpperArm])),
        ("Left leg", first(&[LeftUpperLeg])),
        ("Right leg", first(&[RightUpperLeg])),
    ]
    .into_iter()
    .find(|(_, top)| *top == Some(j))
    .map(|(name, _)| name)
}

/// The sites: a humanoid's hands, feet and head at the ends of those bones (as far as their
/// skin reaches), and every other leaf's end (`<joint> end`).
fn sites(
    rig: &Rig,
    humanoid: Option<&Humanoid>,
    bones: &Bones,
    vertices: &[(usize, Vector3<f64>)],
) -> Vec<(String, SiteDef)> {
    let mut out = Vec::new();
    let site = |j: usize, at: Vector3<f64>| SiteDef {
        joint: rig.joints[j].name.clone(),
        offset: (rig.joints[j].rotation.transpose() * (at - rig.joints[j].position)).into(),
    };
    let mut named = Vec::new();
    if let Some(h) = humanoid {
        use HumanBone::*;
        for (name, bone, towards) in [
            ("left hand", LeftHand, None),
            ("right hand", RightHand, None),
            ("left foot", LeftFoot, None),
            ("right foot", RightFoot, None),
            ("head", Head, Some(h.up)),
        ] {
            let Some(j) = h.joint(bone) else {
                continue;
            };
            let from = rig.joints[j].position;
            let d = towards.unwrap_or(bones.direction[j]);
            let span = subtree(rig, j);
            // The skin's own farthest point; with no skin there, the bone's own length (or its
            // parent's half) along it.
            let at = reach(vertices, &span, &from, &d)
                .map_or_else(|| from + d * bones.length[j], |(_, v)| v);
            out.push((name.to_owned(), site(j, at)));
            named.extend(span);
        }
    }
    for (j, joint) in rig.joints.iter().enumerate() {
        if !joint.children.is_empty() || named.contains(&j) {
            continue;
        }
        let at = bones.tip[j].unwrap_or(joint.position + bones.direction[j] * bones.length[j]);
        out.push((format!("{} end", joint.name), site(j, at)));
    }
    out
}

/// Joint `j`'s world transform at the rest pose, with its scale (for skinning).
pub fn rest_world(rig: &Rig) -> Vec<Matrix4<f64>> {
    (0..rig.joints.len()).map(|j| rig.world(j)).collect()
}
