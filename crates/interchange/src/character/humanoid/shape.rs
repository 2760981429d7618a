//! Humanoid bones found by the tree's shape and the rest pose, for what names do not settle: the
//! hips with two leg chains going down, a spine going up to the joint where two arms and the
//! neck branch off, the head above it.

use super::bones::{HumanBone, Limb};
use crate::character::rig::Rig;
use marionette_skeleton::sides::Side;
use marionette_skeleton::sides::split_name;

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
pub(super) fn by_shape(
    rig: &Rig,
    named: &[(HumanBone, usize)],
    sides_named: bool,
) -> Result<Vec<(HumanBone, usize)>, String> {
    use HumanBone::*;
    let height = rig.height();
    let name = |b: HumanBone| named.iter().find(|(x, _)| *x == b).map(|&(_, j)| j);
    let hips = name(Hips)
        .or_else(|| hips_by_shape(rig, height))
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
    let reach = |c: usize| sideways_reach(rig, c, branch);
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
    let side = |chain_root: usize, bones_of: [[HumanBone; 4]; 2]| {
        side_of_chain(rig, (chain_root, hips), bones_of, named, sides_named)
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

/// The hips found by shape: the first joint with two subtrees reaching well below it (a
/// quarter of the figure's `height`) and one well above (a fifth).
fn hips_by_shape(rig: &Rig, height: f64) -> Option<usize> {
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
}

/// How far sideways (across the floor) the subtree from joint `c` reaches from `branch`.
fn sideways_reach(rig: &Rig, c: usize, branch: usize) -> f64 {
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
}

/// The side of the limb whose chain starts at `chain_root`: by the names along the chain when
/// they agree; else, when the names set the sides, by which side's bones (`bones_of`: left's,
/// right's) among `named` it holds; else by the glTF convention (+X of the hips is left).
fn side_of_chain(
    rig: &Rig,
    (chain_root, hips): (usize, usize),
    bones_of: [[HumanBone; 4]; 2],
    named: &[(HumanBone, usize)],
    sides_named: bool,
) -> Side {
    let name = |b: HumanBone| named.iter().find(|(x, _)| *x == b).map(|&(_, j)| j);
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
    let (Some(&t), Some(&m)) = (chain.get(top_at), chain.get(mid_at)) else {
        return Err(format!(
            "the chain from {} is too short for {}, {} and {}",
            rig.joints[root].name,
            top.vrm_name(),
            mid.vrm_name(),
            tip.vrm_name()
        ));
    };
    let mut out = vec![(top, t), (mid, m)];
    // A limb of two segments (a stick figure's: its forearm or shin ends the chain) has no
    // hand or foot joint; the one after the middle is the tip otherwise.
    if let Some(&e) = chain.get(tip_at) {
        out.push((tip, e));
    }
    if let Some(shoulder) = before.filter(|_| top_at > 0) {
        out.push((shoulder, chain[top_at - 1]));
    }
    if let (Some(toes), Some(&foot)) = (after, chain.get(tip_at)) {
        out.extend(toes_of(rig, foot, name(toes), height).map(|j| (toes, j)));
    }
    Ok(out)
}

/// The toes of the foot joint `foot`: the joint named for them when it is below the foot, else
/// of the foot's children not above the ankle (a heel bone, a prop socket, a twist joint may
/// hang off it too), the one reaching farthest ahead across the ground ([`TOES_BY`]).
fn toes_of(rig: &Rig, foot: usize, named: Option<usize>, height: f64) -> Option<usize> {
    let below_foot = |j: usize| {
        std::iter::successors(rig.joints[j].parent, |&p| rig.joints[p].parent).any(|p| p == foot)
    };
    if let Some(j) = named.filter(|&j| below_foot(j)) {
        return Some(j);
    }
    let ankle = rig.joints[foot].position;
    let across = |j: usize| {
        let d = rig.joints[j].position - ankle;
        (d.x * d.x + d.z * d.z).sqrt()
    };
    rig.joints[foot]
        .children
        .iter()
        .copied()
        .filter(|&c| rig.joints[c].position.y <= ankle.y + 0.02 * height)
        .filter(|&c| across(c) > 0.01 * height)
        .max_by(|&a, &b| across(a).total_cmp(&across(b)))
}

/// Why a foot's toes are the joint they are when no name says so.
pub const TOES_BY: &str = "the foot's child reaching farthest ahead";

#[cfg(test)]
mod tests {
    use marionette_skeleton::{Pose, builtin};

    use super::super::{HumanBone, recognise_rig};
    use crate::character::rig::RigJoint;
    use crate::retarget::rig_of;

    #[test]
    fn toes_are_the_foot_s_child_reaching_ahead_even_beside_a_longer_heel_bone() {
        let s = builtin::humanoid();
        let mut rig = rig_of(&s, &Pose::rest(&s).q);
        let index = |rig: &crate::character::rig::Rig, n: &str| {
            rig.joints.iter().position(|j| j.name == n).expect(n)
        };
        let (ankle, toes) = (index(&rig, "left ankle"), index(&rig, "left toes"));
        // The toes' name says nothing; a heel bone of two joints (a longer subtree than the
        // toes') hangs behind the ankle.
        rig.joints[toes].name = "L_digit".into();
        let at = rig.joints[ankle].position;
        for (k, (name, offset)) in [
            ("L_heelbone", (0.0, -0.05, -0.05)),
            ("L_heelend", (0.0, -0.06, -0.08)),
        ]
        .into_iter()
        .enumerate()
        {
            let parent = if k == 0 { ankle } else { rig.joints.len() - 1 };
            let me = rig.joints.len();
            rig.joints.push(RigJoint {
                name: name.into(),
                parent: Some(parent),
                children: Vec::new(),
                position: at + nalgebra::Vector3::new(offset.0, offset.1, offset.2),
                ..rig.joints[ankle].clone()
            });
            rig.joints[parent].children.push(me);
        }
        let humanoid = recognise_rig(&rig).expect("a humanoid");
        assert_eq!(humanoid.joint(HumanBone::LeftToes), Some(toes));
        assert_eq!(humanoid.joint(HumanBone::LeftFoot), Some(ankle));
    }
}
