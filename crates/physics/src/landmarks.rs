//! Where de Leva's segment endpoints are on a figure at rest, found by its humanoid roles
//! ([`marionette_interchange::retarget::humanoid_of`], the map retargeting uses): joint origins,
//! and for the ends the skeleton has no joint for (the top of the head, the third knuckle, the
//! heel, the toe tip) its sites and bodies: the farthest point of a bone's subtree in a
//! direction. An end that cannot be found is estimated from de Leva's own proportions, and the
//! model says so.

use marionette_interchange::character::humanoid::{HumanBone, Humanoid};
use marionette_skeleton::{Fk, JointId, Shape, Skeleton};
use nalgebra::Vector3;

/// de Leva's mean segment lengths (male, mm), Table 4: head 242.9 (vertex → cervicale), trunk
/// 603.3, forearm 268.9, hand 86.2, shank 434.0, foot 258.1; used only to estimate an end the
/// figure does not show, as a ratio of a neighbour's length.
const HEAD_PER_TRUNK: f64 = 242.9 / 603.3;
/// Hand length per forearm length.
const HAND_PER_FOREARM: f64 = 86.2 / 268.9;
/// Foot length per shank length.
const FOOT_PER_SHANK: f64 = 258.1 / 434.0;

/// A figure at rest with its roles: where its points are.
pub(crate) struct Figure<'a> {
    pub skeleton: &'a Skeleton,
    pub fk: &'a Fk,
    pub humanoid: &'a Humanoid,
    /// Estimates made, in words.
    pub notes: Vec<String>,
    /// The points found that can support the figure: name, the joint it rides on, where
    /// (world, at rest).
    pub points: Vec<(String, JointId, Vector3<f64>)>,
}

impl Figure<'_> {
    /// The joint playing `bone`.
    pub fn joint(&self, bone: HumanBone) -> Option<JointId> {
        self.skeleton.joint_ids().nth(self.humanoid.joint(bone)?)
    }

    /// The world position of `bone`'s joint.
    pub fn at(&self, bone: HumanBone) -> Option<Vector3<f64>> {
        Some(self.fk.joint_position(self.joint(bone)?))
    }

    /// The point of `joint`'s subtree (its own body included, its own origin not) reaching
    /// farthest along `direction` ([`farthest`]).
    pub fn farthest(&self, joint: JointId, direction: &Vector3<f64>) -> Option<Vector3<f64>> {
        farthest(self.skeleton, self.fk, joint, direction)
    }

    /// A named point (a site, or a joint) of `joint`'s subtree whose name contains `word`.
    pub fn named_point(&self, joint: JointId, word: &str) -> Option<Vector3<f64>> {
        let s = self.skeleton;
        let has = |name: &str| name.to_ascii_lowercase().contains(word);
        let site = s.site_ids().find(|&site| {
            let carrier = s.site(site).joint;
            has(&s.site(site).name) && s.subtree(joint).any(|j| j == carrier)
        });
        if let Some(site) = site {
            return Some(self.fk.site_position(site));
        }
        s.subtree(joint)
            .find(|&j| j != joint && has(&s.joint(j).name))
            .map(|j| self.fk.joint_position(j))
    }

    /// The top of the head (vertex): the head's highest point, or when the figure shows none
    /// above the cervicale, one head length (de Leva's, per trunk length) above it.
    pub fn vertex(&mut self, cervicale: &Vector3<f64>, trunk_length: f64) -> Option<Vector3<f64>> {
        let up = self.humanoid.up;
        let head = self.joint(HumanBone::Head)?;
        let top = self
            .farthest(head, &up)
            .unwrap_or(self.fk.joint_position(head));
        if (top - cervicale).dot(&up) > 0.5 * HEAD_PER_TRUNK * trunk_length {
            return Some(top);
        }
        self.notes.push(
            "the top of the head estimated from the trunk's length (no head end or body)".into(),
        );
        Some(cervicale + up * HEAD_PER_TRUNK * trunk_length)
    }

    /// The third knuckle of `hand` (the base of its middle finger), else the hand's end along
    /// the forearm, else a hand length (de Leva's, per forearm length) past the wrist.
    pub fn knuckle(&mut self, hand: HumanBone, elbow: &Vector3<f64>) -> Option<Vector3<f64>> {
        let joint = self.joint(hand)?;
        let wrist = self.fk.joint_position(joint);
        if let Some(p) = self.named_point(joint, "middle") {
            return Some(p);
        }
        let along = (wrist - elbow).normalize();
        let forearm = (wrist - elbow).norm();
        if let Some(end) = self.farthest(joint, &along)
            && (end - wrist).dot(&along) > 0.25 * HAND_PER_FOREARM * forearm
        {
            return Some(end);
        }
        self.notes.push(format!(
            "the {} estimated from the forearm's length (no finger, hand end or body)",
            bone_words(hand)
        ));
        Some(wrist + along * HAND_PER_FOREARM * forearm)
    }

    /// The heel (a site or joint named so under the foot, else the ankle) and the toe tip (the
    /// foot's farthest point ahead, else a foot length ahead of the heel).
    pub fn heel_and_toe(
        &mut self,
        foot: HumanBone,
        knee: &Vector3<f64>,
    ) -> Option<(Vector3<f64>, Vector3<f64>)> {
        let joint = self.joint(foot)?;
        let ankle = self.fk.joint_position(joint);
        let heel = self.named_point(joint, "heel").unwrap_or(ankle);
        let forward = self.humanoid.forward;
        let shank = (ankle - knee).norm();
        if let Some(toe) = self.farthest(joint, &forward)
            && (toe - heel).dot(&forward) > 0.25 * FOOT_PER_SHANK * shank
        {
            return Some((heel, toe));
        }
        self.notes.push(format!(
            "the {} toe tip estimated from the shank's length (no toe joint, end or body)",
            bone_words(foot)
        ));
        Some((heel, heel + forward * FOOT_PER_SHANK * shank))
    }
}

/// The point of `joint`'s subtree (its own body included, its own origin not) reaching farthest
/// along `direction` (world): joint origins below it, its sites and every body.
pub(crate) fn farthest(
    skeleton: &Skeleton,
    fk: &Fk,
    joint: JointId,
    direction: &Vector3<f64>,
) -> Option<Vector3<f64>> {
    let mut best: Option<(f64, Vector3<f64>)> = None;
    let mut take = |p: Vector3<f64>| {
        let along = p.dot(direction);
        if best.is_none_or(|(b, _)| along > b) {
            best = Some((along, p));
        }
    };
    for j in skeleton.subtree(joint) {
        if j != joint {
            take(fk.joint_position(j));
        }
        if let Some(shape) = &skeleton.joint(j).shape {
            take(body_extreme(fk, j, shape, direction));
        }
    }
    for site in skeleton.site_ids() {
        let carrier = skeleton.site(site).joint;
        if skeleton.subtree(joint).any(|j| j == carrier) {
            take(fk.site_position(site));
        }
    }
    best.map(|(_, p)| p)
}

/// The point of `joint`'s body reaching farthest along `direction` (world).
fn body_extreme(fk: &Fk, joint: JointId, shape: &Shape, direction: &Vector3<f64>) -> Vector3<f64> {
    let local_direction = fk.joint_rotation(joint).transpose() * direction;
    let world = |local: &Vector3<f64>| fk.point(joint, local);
    match shape {
        Shape::Capsule { radius, start, end } => {
            let far = if start.dot(&local_direction) > end.dot(&local_direction) {
                start
            } else {
                end
            };
            world(far) + direction * *radius
        }
        Shape::Box {
            half_extents,
            center,
        } => {
            // A face's or an edge's middle when the direction is square to it (no corner is
            // preferred, so mirrored bodies give mirrored points).
            let corner = Vector3::from_fn(|i, _| {
                let d = local_direction[i];
                if d.abs() < 1e-9 {
                    0.0
                } else {
                    half_extents[i] * d.signum()
                }
            });
            world(&(center + corner))
        }
        Shape::Sphere { radius, center } => world(center) + direction * *radius,
        Shape::Mesh { origin, .. } => world(origin),
    }
}

/// "left hand", "right foot".
fn bone_words(bone: HumanBone) -> String {
    let name = bone.vrm_name();
    let (side, rest) = if let Some(rest) = name.strip_prefix("left") {
        ("left ", rest)
    } else if let Some(rest) = name.strip_prefix("right") {
        ("right ", rest)
    } else {
        ("", name)
    };
    format!("{side}{}", rest.to_ascii_lowercase())
}
