//! The points of a figure whose contacts a cleanup finds and holds ([`ContactPoint`]), the
//! legs that carry them ([`Leg`]), and how still a held point must stay ([`HELD_WITHIN`]).

use marionette_document::{Lock, LockError};
use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_skeleton::{Chain, JointId, SiteId, Skeleton};
use nalgebra::Vector3;

/// A contact that slides more than this while planted after the cleanup (metres) is reported as
/// not held.
pub const HELD_WITHIN: f64 = 0.002;

/// A leg: the joints whose origins are the hip, the knee and, where the leg has a foot, the
/// ankle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    /// The upper leg (its origin is the hip).
    pub upper: JointId,
    /// The lower leg (its origin is the knee).
    pub lower: JointId,
    /// The foot (its origin is the ankle); `None` for a leg of two segments whose points are on
    /// its lower leg (a stick figure's).
    pub foot: Option<JointId>,
}

/// A point of the figure whose contacts are found: a site, or a joint's origin.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactPoint {
    /// The site's or the joint's name.
    pub name: String,
    /// The joint carrying it.
    pub joint: JointId,
    /// Where on the joint (its frame; zero for the joint's origin).
    pub offset: Vector3<f64>,
    /// The site, when it is one (the lock is then a `Position` goal on it, else a `Point`).
    pub site: Option<SiteId>,
    /// The leg carrying it, when known: its lock is then kept by the leg from the hip down
    /// (whatever other children the leg's joints have), and the hips come down where the leg
    /// cannot reach where it is planted.
    pub leg: Option<Leg>,
}

impl ContactPoint {
    /// The site `site` of `skeleton`.
    pub fn site(skeleton: &Skeleton, site: SiteId) -> ContactPoint {
        let s = skeleton.site(site);
        ContactPoint {
            name: s.name.clone(),
            joint: s.joint,
            offset: s.offset,
            site: Some(site),
            leg: None,
        }
    }

    /// The origin of joint `joint` of `skeleton`.
    pub fn joint(skeleton: &Skeleton, joint: JointId) -> ContactPoint {
        ContactPoint {
            name: skeleton.joint(joint).name.clone(),
            joint,
            offset: Vector3::zeros(),
            site: None,
            leg: None,
        }
    }

    /// The same point on `leg`.
    pub fn on_leg(self, leg: Leg) -> ContactPoint {
        ContactPoint {
            leg: Some(leg),
            ..self
        }
    }

    /// The lock holding this point at `target` ([`ContactPoint::kept`]).
    pub(super) fn lock(
        &self,
        skeleton: &Skeleton,
        name: String,
        target: Vector3<f64>,
    ) -> Result<Lock, LockError> {
        self.kept(skeleton, name, self.goal(target))
    }

    /// The lock holding this point on the level plane through `on_floor` (free across it),
    /// kept as its contacts are.
    pub(super) fn floor_lock(
        &self,
        skeleton: &Skeleton,
        name: String,
        on_floor: Vector3<f64>,
    ) -> Result<Lock, LockError> {
        let goal = Goal::new(GoalKind::Point {
            joint: self.joint,
            offset: self.offset,
            target: on_floor,
            shape: TargetShape::Plane(Vector3::y()),
        });
        self.kept(skeleton, name, goal)
    }

    /// The limb this point's locks are kept by ([`ContactPoint::kept`]).
    pub(super) fn limb(&self, skeleton: &Skeleton) -> Result<Chain, LockError> {
        Ok(self
            .lock(skeleton, self.name.clone(), Vector3::zeros())?
            .limb()
            .clone())
    }

    /// A lock holding `goal`, kept by this point's leg from the hip down when its leg is known,
    /// else by its limb.
    pub(super) fn kept(
        &self,
        skeleton: &Skeleton,
        name: String,
        goal: Goal,
    ) -> Result<Lock, LockError> {
        Lock::new(skeleton, name, goal, self.leg.map(|l| l.upper))
    }

    /// The goal holding this point at `target`.
    pub(super) fn goal(&self, target: Vector3<f64>) -> Goal {
        Goal::new(match self.site {
            Some(site) => GoalKind::Position { site, target },
            None => GoalKind::Point {
                joint: self.joint,
                offset: self.offset,
                target,
                shape: TargetShape::Point,
            },
        })
    }

    /// Whether `other` is the same point (on the same joint, at the same offset).
    pub fn is_at(&self, other: &ContactPoint) -> bool {
        self.joint == other.joint && (self.offset - other.offset).norm() < 1e-12
    }

    /// The prefix of the names of this point's contact locks.
    pub(super) fn lock_prefix(&self) -> String {
        format!("{} contact ", self.name)
    }

    /// The prefix of the names of this point's floor locks ([`floor_locks`]).
    pub(super) fn floor_prefix(&self) -> String {
        format!("{} floor ", self.name)
    }
}
