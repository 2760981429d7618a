//! A figure's left–right symmetry: which joint and site is whose mirror image, the plane between
//! them, and a pose mirrored across it.
//!
//! - Pairs: a joint made by another's `mirror` entry (docs/skeleton-format.md) is that joint's
//!   partner; the others pair by name ([`other_side_names`]: left/right, L/R, `.L`/`.R`,
//!   `_l`/`_r`, `Left…`/`Right…`), where exactly one joint has the other side's name. Sites
//!   pair by name. A part without a partner is its own (the spine, the head).
//! - The plane: through the middles of the pairs at rest, across the mean of their left-to-right
//!   directions (the x = 0 plane of a file written with `mirror`); the figure's x = 0 plane
//!   through its root where nothing pairs.
//! - A mirrored pose: each joint takes its partner's change in the world from rest, reflected
//!   (M·ΔW·M, M the reflection), on its own rest; the root's position is reflected. Each joint's
//!   hinges are read back from the local rotation that leaves, parents first, within their
//!   limits ([`JointRotations::read_back`]), so sides whose hinge axes are not mirror images of
//!   each other get the nearest rotation they can make, and how far that is is reported. Where the
//!   axes are mirror images (every `mirror` entry) the mirror is exact, and mirroring twice gives
//!   the pose back.

use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

use crate::fk::Fk;
use crate::joint_rotation::JointRotations;
use crate::model::{DofKind, JointId, ROOT_STATE_LEN, SiteId, Skeleton};
use crate::pose::Pose;
use crate::sides::{Side, other_side_names, split_name};

/// A skeleton's pairs of mirror-image joints and sites and its plane of symmetry.
#[derive(Debug, Clone)]
pub struct Symmetry {
    joint_partner: Vec<JointId>,
    site_partner: Vec<SiteId>,
    /// The plane's unit normal (world, at rest).
    normal: Vector3<f64>,
    /// A point of the plane.
    origin: Vector3<f64>,
    rotations: JointRotations,
    /// Every joint's world rotation at rest.
    rest_world: Vec<Matrix3<f64>>,
}

/// A mirrored pose, and the joints whose hinges could not make their partner's mirror image.
#[derive(Debug, Clone, PartialEq)]
pub struct Mirrored {
    /// The state.
    pub q: Vec<f64>,
    /// Joints more than 0.01° from the mirror image (their hinge axes are not mirror images,
    /// or a limit held them), with how far (degrees).
    pub off: Vec<(JointId, f64)>,
}

/// Pairs parts by name: each unpaired part with the one unpaired part named as it would be on
/// the other side ([`other_side_names`]), where exactly one is; then by stem.
fn pair_by_name(names: &[&str], partner: &mut [usize]) {
    let index: std::collections::HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    for i in 0..names.len() {
        if partner[i] != i {
            continue;
        }
        let found: Vec<usize> = other_side_names(names[i])
            .iter()
            .filter_map(|n| index.get(n.as_str()).copied())
            .filter(|&k| k != i && partner[k] == k)
            .collect();
        if let [k] = found.as_slice() {
            partner[i] = *k;
            partner[*k] = i;
        }
    }
    // Then by stem ([`split_name`]: side words, separators, numbers and tools' prefixes left
    // out, so `b_LeftLeg01_015` meets `b_RightLeg01_019`), where each side has the stem once.
    let split: Vec<(Option<Side>, String)> = names.iter().map(|n| split_name(n)).collect();
    for i in 0..names.len() {
        let (Some(side), stem) = &split[i] else {
            continue;
        };
        if partner[i] != i || stem.is_empty() {
            continue;
        }
        let with = |s: Side| {
            (0..names.len())
                .filter(|&k| split[k].0 == Some(s) && split[k].1 == *stem)
                .collect::<Vec<_>>()
        };
        if let ([_], [k]) = (with(*side).as_slice(), with(side.other()).as_slice())
            && partner[*k] == *k
        {
            partner[i] = *k;
            partner[*k] = i;
        }
    }
}

impl Symmetry {
    /// The symmetry of `skeleton`.
    pub fn new(skeleton: &Skeleton) -> Symmetry {
        let n = skeleton.joints().len();
        let mut joints: Vec<usize> = (0..n).collect();
        for j in skeleton.joint_ids() {
            if let Some(from) = skeleton.joint(j).mirrored_from {
                joints[j.index()] = from.index();
                joints[from.index()] = j.index();
            }
        }
        let joint_names: Vec<&str> = skeleton.joints().iter().map(|j| j.name.as_str()).collect();
        pair_by_name(&joint_names, &mut joints);
        let site_names: Vec<&str> = skeleton.sites().iter().map(|s| s.name.as_str()).collect();
        let mut sites: Vec<usize> = (0..site_names.len()).collect();
        pair_by_name(&site_names, &mut sites);
        let mut fk = Fk::new(skeleton);
        fk.update(skeleton, &Pose::rest(skeleton).q);
        // The plane: across the pairs' mean left-to-right direction, through their middles.
        let mut across = Vector3::zeros();
        let mut middle = Vector3::zeros();
        let mut count = 0.0;
        for (a, &b) in joints.iter().enumerate() {
            if b <= a {
                continue;
            }
            let (pa, pb) = (fk.joint_position(JointId(a)), fk.joint_position(JointId(b)));
            let d = pa - pb;
            across += if d.dot(&across) < 0.0 { -d } else { d };
            middle += (pa + pb) / 2.0;
            count += 1.0;
        }
        let (normal, origin) = match across.try_normalize(1e-12) {
            Some(normal) => (normal, middle / count),
            None => (
                fk.joint_rotation(skeleton.root()) * Vector3::x(),
                fk.joint_position(skeleton.root()),
            ),
        };
        Symmetry {
            joint_partner: joints.into_iter().map(JointId).collect(),
            site_partner: sites.into_iter().map(SiteId).collect(),
            normal,
            origin,
            rotations: JointRotations::new(skeleton),
            rest_world: skeleton
                .joint_ids()
                .map(|j| *fk.joint_rotation(j))
                .collect(),
        }
    }

    /// The joint that is `joint`'s mirror image (itself when it has none).
    pub fn joint_partner(&self, joint: JointId) -> JointId {
        self.joint_partner[joint.index()]
    }

    /// The site that is `site`'s mirror image (itself when it has none).
    pub fn site_partner(&self, site: SiteId) -> SiteId {
        self.site_partner[site.index()]
    }

    /// How many pairs of joints there are.
    pub fn joint_pairs(&self) -> usize {
        self.joint_partner
            .iter()
            .enumerate()
            .filter(|(a, b)| b.index() > *a)
            .count()
    }

    /// The plane's unit normal and a point of it (world, at rest).
    pub fn plane(&self) -> (Vector3<f64>, Vector3<f64>) {
        (self.normal, self.origin)
    }

    /// How far the figure's rest is from its own mirror image: the largest distance between a
    /// joint or site at rest and its partner's reflection (m). Where it is not 0, a mirrored
    /// pose mirrors each joint's change from rest, and the figure is not the pose's mirror image.
    pub fn rest_asymmetry(&self, skeleton: &Skeleton) -> f64 {
        let mut fk = Fk::new(skeleton);
        fk.update(skeleton, &Pose::rest(skeleton).q);
        let joints = skeleton.joint_ids().map(|j| {
            let p = fk.joint_position(self.joint_partner(j));
            (self.reflect_point(&p) - fk.joint_position(j)).norm()
        });
        let sites = skeleton.site_ids().map(|s| {
            let p = fk.site_position(self.site_partner(s));
            (self.reflect_point(&p) - fk.site_position(s)).norm()
        });
        joints.chain(sites).fold(0.0, f64::max)
    }

    /// The reflection across the plane, as a matrix on directions.
    fn reflection(&self) -> Matrix3<f64> {
        Matrix3::identity() - 2.0 * self.normal * self.normal.transpose()
    }

    /// `p`'s mirror image across the plane.
    pub fn reflect_point(&self, p: &Vector3<f64>) -> Vector3<f64> {
        self.origin + self.reflection() * (p - self.origin)
    }

    /// The state `q` mirrored: every joint posed as its partner is, reflected; the root's
    /// position reflected.
    pub fn mirrored(&self, skeleton: &Skeleton, q: &[f64]) -> Mirrored {
        let m = self.reflection();
        let mut fk = Fk::new(skeleton);
        fk.update(skeleton, q);
        let mut out = q.to_vec();
        // Each joint's values start as its partner's, the reference its read-back stays near
        // (and what its slides keep).
        for j in skeleton.joint_ids() {
            let p = self.joint_partner(j);
            let (mine, theirs) = (&skeleton.joint(j).dofs, &skeleton.joint(p).dofs);
            if mine.len() == theirs.len() {
                for (a, b) in mine.clone().zip(theirs.clone()) {
                    out[ROOT_STATE_LEN + a] = q[ROOT_STATE_LEN + b];
                }
            }
        }
        let mut reached = vec![Matrix3::identity(); skeleton.joints().len()];
        let mut off = Vec::new();
        for j in skeleton.joint_ids() {
            let joint = skeleton.joint(j);
            let p = self.joint_partner(j);
            let change = fk.joint_rotation(p) * self.rest_world[p.index()].transpose();
            let wanted = m * change * m * self.rest_world[j.index()];
            let parent = joint
                .parent
                .map_or_else(Matrix3::identity, |parent| reached[parent.index()]);
            let local = joint.orientation.transpose() * parent.transpose() * wanted;
            // A product of rotations: a rotation up to rounding.
            let target =
                UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(local));
            self.rotations.read_back(skeleton, j, &target, &mut out);
            // Slides without a partner's of the same count keep their own values.
            if joint.dofs.len() != skeleton.joint(p).dofs.len() {
                for d in joint.dofs.clone() {
                    if skeleton.dofs()[d].kind == DofKind::Slide {
                        out[ROOT_STATE_LEN + d] = q[ROOT_STATE_LEN + d];
                    }
                }
            }
            let made = self.rotations.rotation(skeleton, j, &out);
            reached[j.index()] =
                parent * joint.orientation * made.to_rotation_matrix().into_inner();
            let error = Rotation3::from_matrix_unchecked(reached[j.index()].transpose() * wanted)
                .angle()
                .to_degrees();
            if error > 0.01 {
                off.push((j, error));
            }
        }
        // The root: its position reflected.
        let root = fk.joint_position(skeleton.root());
        let moved = self.reflect_point(&root) - root;
        for (i, v) in moved.iter().enumerate() {
            out[i] = q[i] + v;
        }
        Mirrored { q: out, off }
    }

    /// `q` with the values of `joints` taken from `from` (a state of the same skeleton); with
    /// `flipped`, each joint's values go to its partner from `from` mirrored instead (the
    /// root's translation too when the root is among them).
    pub fn paste(
        &self,
        skeleton: &Skeleton,
        q: &[f64],
        from: &[f64],
        joints: &[JointId],
        flipped: bool,
    ) -> Vec<f64> {
        let source = if flipped {
            self.mirrored(skeleton, from).q
        } else {
            from.to_vec()
        };
        let mut out = q.to_vec();
        for &j in joints {
            let to = if flipped { self.joint_partner(j) } else { j };
            for d in skeleton.joint(to).dofs.clone() {
                out[ROOT_STATE_LEN + d] = source[ROOT_STATE_LEN + d];
            }
            if to == skeleton.root() {
                out[..ROOT_STATE_LEN].copy_from_slice(&source[..ROOT_STATE_LEN]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    /// A pose within the limits, from a seed.
    pub(super) fn random_pose(s: &Skeleton, seed: u64) -> Vec<f64> {
        let mut rng = crate::testing::UnitRng::new(seed);
        let draws: Vec<f64> = (0..s.dofs().len()).map(|_| rng.next_unit()).collect();
        let root = [0.0; 3].map(|_: f64| rng.next_unit() - 0.5);
        crate::testing::pose_from_unit(s, &draws, root).q
    }

    #[test]
    fn the_humanoid_pairs_every_side_and_its_plane_is_x_0() {
        let s = builtin::humanoid();
        let sym = Symmetry::new(&s);
        let elbow = s.joint_by_name("left elbow").expect("joint");
        assert_eq!(
            s.joint(sym.joint_partner(elbow)).name,
            "right elbow",
            "by its mirror entry"
        );
        let heel = s.site_by_name("left heel").expect("site");
        assert_eq!(s.site(sym.site_partner(heel)).name, "right heel");
        let spine = s.joint_by_name("middle spine").expect("joint");
        assert_eq!(sym.joint_partner(spine), spine);
        let (normal, origin) = sym.plane();
        assert!((normal.x.abs() - 1.0).abs() < 1e-12, "{normal}");
        assert!(origin.x.abs() < 1e-12);
    }

    #[test]
    fn a_mirrored_pose_puts_every_site_at_its_partners_mirror_image_and_twice_gives_it_back() {
        let s = builtin::humanoid();
        let sym = Symmetry::new(&s);
        let (mut a, mut b) = (Fk::new(&s), Fk::new(&s));
        for seed in 1..20 {
            let q = random_pose(&s, seed * 7919);
            let mirrored = sym.mirrored(&s, &q);
            assert!(mirrored.off.is_empty(), "{:?}", mirrored.off);
            a.update(&s, &q);
            b.update(&s, &mirrored.q);
            for site in s.site_ids() {
                let want = sym.reflect_point(&a.site_position(sym.site_partner(site)));
                let got = b.site_position(site);
                assert!(
                    (want - got).norm() < 1e-9,
                    "{}: {}",
                    s.site(site).name,
                    (want - got).norm()
                );
            }
            for (k, dof) in s.dofs().iter().enumerate() {
                let v = mirrored.q[ROOT_STATE_LEN + k];
                assert!(dof.unlimited || dof.within_limits(v), "{k}: {v}");
            }
            let back = sym.mirrored(&s, &mirrored.q).q;
            for (x, y) in back.iter().zip(&q) {
                assert!((x - y).abs() < 1e-9, "{x} vs {y}");
            }
            // Pasted flipped twice (the whole figure): the pose again.
            let all: Vec<JointId> = s.joint_ids().collect();
            let once = sym.paste(&s, &q, &q, &all, true);
            let twice = sym.paste(&s, &once, &once, &all, true);
            for (x, y) in twice.iter().zip(&q) {
                assert!((x - y).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_left_arm_pasted_flipped_poses_the_right_arm_alone() {
        let s = builtin::humanoid();
        let sym = Symmetry::new(&s);
        let rest = Pose::rest(&s).q;
        let q = random_pose(&s, 42);
        let arm: Vec<JointId> = ["left shoulder", "left elbow", "left wrist"]
            .iter()
            .map(|n| s.joint_by_name(n).expect("joint"))
            .collect();
        let pasted = sym.paste(&s, &rest, &q, &arm, true);
        let mirrored = sym.mirrored(&s, &q).q;
        for j in s.joint_ids() {
            let right_arm = arm.iter().any(|&a| sym.joint_partner(a) == j);
            for d in s.joint(j).dofs.clone() {
                let i = ROOT_STATE_LEN + d;
                let want = if right_arm { mirrored[i] } else { rest[i] };
                assert_eq!(pasted[i], want, "{}", s.joint(j).name);
            }
        }
    }
}
