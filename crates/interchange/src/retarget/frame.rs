//! One frame of a retarget ([`Poser::pose`]): each mapped joint of the target turned as the
//! capture's bone turned from its rest, then placed as the target's hinges and limits allow,
//! pointing its bone (and the single hinge after it) as near the capture's as they can.

use marionette_skeleton::joint_rotation::{HingeLayout, JointRotations};
use marionette_skeleton::rotation::{nearest_rotation, quaternion_of};
use marionette_skeleton::{Fk, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Matrix3, Rotation3, Vector3};

use super::alignment::{Alignment, finite};
use super::parts::{MappedBone, RetargetError, angle, keeps_its_pitch, twist_onto};
use crate::character::humanoid::HumanBone;

/// Poses the target frame by frame.
pub(super) struct Poser<'a> {
    target: &'a Skeleton,
    map: &'a [MappedBone],
    aligned: &'a Alignment,
    rotations: JointRotations,
    /// Per target joint, its mapped bone (an index into the map).
    bone_of_joint: Vec<Option<usize>>,
}

impl<'a> Poser<'a> {
    /// A poser of `target` by the bones of `map`, aligned as `aligned` says.
    pub(super) fn new(target: &'a Skeleton, map: &'a [MappedBone], aligned: &'a Alignment) -> Self {
        let mut bone_of_joint = vec![None; target.joints().len()];
        for (k, m) in map.iter().enumerate() {
            bone_of_joint[m.target.index()] = Some(k);
        }
        Poser {
            target,
            map,
            aligned,
            rotations: JointRotations::new(target),
            bone_of_joint,
        }
    }

    /// Joint `j`'s world rotation under `parent` with its hinges at `q`.
    fn world_of(&self, j: JointId, parent: &Matrix3<f64>, q: &[f64]) -> Matrix3<f64> {
        parent
            * self.target.joint(j).orientation
            * self
                .rotations
                .rotation(self.target, j, q)
                .to_rotation_matrix()
                .into_inner()
    }

    /// Reads `j`'s hinges back into `q` from the world rotation `wanted`; returns the one
    /// reached.
    fn place(
        &self,
        j: JointId,
        wanted: &Matrix3<f64>,
        parent: &Matrix3<f64>,
        q: &mut [f64],
    ) -> Matrix3<f64> {
        let hinges = self.target.joint(j).orientation.transpose() * parent.transpose() * wanted;
        self.rotations.read_back(
            self.target,
            j,
            &quaternion_of(&nearest_rotation(&hinges)),
            q,
        );
        self.world_of(j, parent, q)
    }

    /// The world rotation the capture (`fc`, at the frame) asks of bone `k`.
    fn wanted_of(&self, fc: &Fk, k: usize) -> Matrix3<f64> {
        let a = self.aligned;
        let change = fc.joint_rotation(self.map[k].capture) * a.reference[k].transpose();
        change * a.rotation[k] * a.target_rest_world[k]
    }

    /// Where the capture points bone `k` (for a foot, the direction it was aligned to, turned
    /// as the capture's foot turned from its rest).
    fn capture_direction(&self, fc: &Fk, k: usize) -> Option<Vector3<f64>> {
        let (a, map) = (self.aligned, self.map);
        let n = a.next[k]?;
        Some(if keeps_its_pitch(map[k].bone) {
            fc.joint_rotation(map[k].capture)
                * a.reference[k].transpose()
                * a.aligned_to[k].unwrap_or_default()
        } else {
            fc.joint_position(map[n].capture) - fc.joint_position(map[k].capture)
        })
    }

    /// Where the reached world rotation of bone `k` points it.
    fn pointing(&self, k: usize, reached: &Matrix3<f64>) -> Vector3<f64> {
        let a = self.aligned;
        reached * a.target_rest_world[k].transpose() * a.rest_direction[k]
    }

    /// Poses every joint of the target on frame `f`, whose capture `fc` holds: its hinges into
    /// `q`, its world rotations into `world`, and per mapped bone the frames and the most the
    /// limits kept it more than 1° from the capture's into `limited`.
    pub(super) fn pose(
        &self,
        fc: &Fk,
        f: usize,
        q: &mut [f64],
        world: &mut [Matrix3<f64>],
        limited: &mut [(HumanBone, usize, f64)],
    ) -> Result<(), RetargetError> {
        for j in self.target.joint_ids() {
            let parent = self
                .target
                .joint(j)
                .parent
                .map_or_else(Matrix3::identity, |p| world[p.index()]);
            let Some(k) = self.bone_of_joint[j.index()] else {
                world[j.index()] = self.world_of(j, &parent, q);
                continue;
            };
            let mut wanted = self.wanted_of(fc, k);
            if !finite(&wanted) {
                return Err(RetargetError::Degenerate {
                    bone: self.map[k].bone.vrm_name(),
                    frame: Some(f),
                });
            }
            if let Some(d1) = self.capture_direction(fc, k)
                && let Some(along) = d1.try_normalize(1e-12)
            {
                wanted = self.best_rotation(fc, (j, k), &parent, q, wanted, (&d1, &along));
            }
            let reached = self.place(j, &wanted, &parent, q);
            // How far the limits kept the bone: its direction where it points at a next bone
            // (a hinge cannot twist, and need not), else its whole rotation.
            let off = match self.capture_direction(fc, k) {
                Some(d) => angle(&self.pointing(k, &reached), &d),
                None => Rotation3::from_matrix_unchecked(reached.transpose() * wanted).angle(),
            }
            .to_degrees();
            if off > 1.0 {
                limited[k].1 += 1;
                limited[k].2 = f64::max(limited[k].2, off);
            }
            world[j.index()] = reached;
        }
        Ok(())
    }

    /// Of `wanted` and its turns about the capture's direction `d1` (unit: `along`), the world
    /// rotation of joint `j` (bone `k`) that, placed as the limits allow, points its bone (and,
    /// when its next joint is a single hinge it carries, that bone too) nearest the capture's.
    fn best_rotation(
        &self,
        fc: &Fk,
        (j, k): (JointId, usize),
        parent: &Matrix3<f64>,
        q: &[f64],
        wanted: Matrix3<f64>,
        (d1, along): (&Vector3<f64>, &Vector3<f64>),
    ) -> Matrix3<f64> {
        let map = self.map;
        let single_next = self.aligned.next[k].filter(|&n| {
            matches!(self.rotations.layout(map[n].target), HingeLayout::Single(_))
                && self.target.joint(map[n].target).parent == Some(j)
        });
        let error = |w: &Matrix3<f64>| {
            let mut trial = q.to_vec();
            let reached = self.place(j, w, parent, &mut trial);
            let then = single_next
                .zip(self.capture_direction(fc, single_next.unwrap_or(k)))
                .map(|(n, d2)| {
                    let wanted_n = self.wanted_of(fc, n);
                    let reached_n = self.place(map[n].target, &wanted_n, &reached, &mut trial);
                    angle(&self.pointing(n, &reached_n), &d2)
                });
            angle(&self.pointing(k, &reached), d1) + then.unwrap_or(0.0)
        };
        let mut best = (error(&wanted), wanted);
        // A bone whose next joint is a single hinge (an upper arm before its elbow, a thigh
        // before its knee) is turned about itself so the hinge bends the limb the way the
        // capture's bends: of no twist and the two that line the hinge up with the bend, the
        // one that points both bones nearest the capture's.
        if let (Some(n), Some(d2)) = (
            single_next,
            single_next.and_then(|n| self.capture_direction(fc, n)),
        ) {
            let axis_index = self.rotations.hinges(map[n].target)[0];
            let local_axis = self.target.dofs()[axis_index - ROOT_STATE_LEN].axis;
            let hinge_axis = wanted * self.target.joint(map[n].target).orientation * local_axis;
            let bend = d1.cross(&d2);
            for sign in [1.0, -1.0] {
                let candidate = twist_onto(along, &hinge_axis, &(bend * sign)) * wanted;
                let e = error(&candidate);
                if e < best.0 {
                    best = (e, candidate);
                }
            }
        }
        // A joint of fewer than three hinges cannot take every rotation: of the twists of the
        // wanted rotation about the capture's direction, the one whose nearest reachable
        // rotation points nearest (10° apart, then refined to 0.01°).
        if self.rotations.hinges(j).len() < 3 && best.0 > 1e-3 {
            let twist = |phi: f64| {
                Rotation3::from_axis_angle(&nalgebra::Unit::new_unchecked(*along), phi).into_inner()
                    * best.1
            };
            let start = best.1;
            let mut around = (0.0, best.0);
            for step in 1..36 {
                let phi = f64::from(step) * 10f64.to_radians();
                let e = error(&twist(phi));
                if e < around.1 {
                    around = (phi, e);
                }
            }
            let mut width = 5f64.to_radians();
            while width > 1e-4 {
                for phi in [around.0 - width, around.0 + width] {
                    let e = error(&twist(phi));
                    if e < around.1 {
                        around = (phi, e);
                    }
                }
                width *= 0.5;
            }
            if around.1 < best.0 {
                best = (around.1, twist(around.0));
            } else {
                best.1 = start;
            }
        }
        best.1
    }
}
