//! Locks: goals that persist. A lock is any goal the IK core has (a site's position, a joint's
//! orientation or one of its axes, a site's pose, a plane, a line, two sites together, the centre
//! of mass over a point), with a name, an enabled flag, an optional frame range, and the joints
//! that may move to keep it: by default the lock's limb (docs/file-formats.md, Document), or up to a
//! chosen `base`. The root translation never moves to keep a lock.
//!
//! Welman (1993, ch. 5) calls these constraints, held while handles are dragged; unlike a
//! drag's goal they stay with the document, are saved, and are re-solved on every frame.

use std::fmt;

use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_skeleton::{Chain, Fk, JointId, SiteId, Skeleton};
use nalgebra::Vector3;
use thiserror::Error;

/// Why a lock could not be made or changed; nothing changed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum LockError {
    /// The base joint is not above the lock's joint.
    #[error("lock \"{lock}\": joint \"{joint}\" is not below base joint \"{base}\"")]
    NotBelowBase {
        /// The lock.
        lock: String,
        /// The lock's joint.
        joint: String,
        /// The base given.
        base: String,
    },
    /// No DOF can move to keep the lock.
    #[error("lock \"{lock}\": no joint can move to keep it (its limb has no degrees of freedom)")]
    NothingMoves {
        /// The lock.
        lock: String,
    },
    /// The kind needs a site and the joint has none.
    #[error("lock \"{lock}\": a {kind} lock needs a site and joint \"{joint}\" has none")]
    NeedsSite {
        /// The lock.
        lock: String,
        /// The kind asked for.
        kind: &'static str,
        /// The joint.
        joint: String,
    },
    /// A lock needs a name.
    #[error("a lock needs a name")]
    EmptyName,
    /// The goal is a drag's line goal, which no lock holds.
    #[error("lock \"{lock}\": a goal along a view ray cannot be a lock")]
    RayGoal {
        /// The lock.
        lock: String,
    },
    /// A weight that is not a positive number.
    #[error("lock \"{lock}\": weight {weight} is not a positive number")]
    Weight {
        /// The lock.
        lock: String,
        /// The value given.
        weight: f64,
    },
    /// A blend that is not a number of frames from 0 to [`crate::MAX_SPAN`].
    #[error(
        "lock \"{lock}\": blend {blend} is not a number of frames from 0 to {max}",
        max = crate::MAX_SPAN
    )]
    Blend {
        /// The lock.
        lock: String,
        /// The value given.
        blend: i64,
    },
    /// A frame range that ends before it starts, or passes ±[`crate::MAX_FRAME`].
    #[error(
        "lock \"{lock}\": frame range {first}..={last} ends before it starts or passes ±{max}",
        max = crate::MAX_FRAME
    )]
    Frames {
        /// The lock.
        lock: String,
        /// First frame.
        first: i64,
        /// Last frame.
        last: i64,
    },
}

/// What a new lock holds, made from where the part is now (the Locks panel's buttons).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LockKind {
    /// The point stays where it is.
    Position,
    /// The joint's frame keeps its orientation.
    Orientation,
    /// Position and orientation together (a planted foot).
    Pose,
    /// One axis of the joint frame (0 = x, 1 = y, 2 = z) keeps its direction.
    Axis(usize),
    /// The point stays on the horizontal plane through where it is (a floor).
    Plane,
    /// The point stays on the line through where it is along this world direction.
    Line(Vector3<f64>),
    /// The centre of mass stays over its current ground point (world X and Z).
    CenterOfMass,
}

impl LockKind {
    /// The kind's name in the panel and in names of new locks.
    pub fn label(&self) -> &'static str {
        match self {
            LockKind::Position => "position",
            LockKind::Orientation => "orientation",
            LockKind::Pose => "pose",
            LockKind::Axis(_) => "axis",
            LockKind::Plane => "plane",
            LockKind::Line(_) => "line",
            LockKind::CenterOfMass => "centre of mass",
        }
    }
}

/// Which part of the body a new lock holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LockPart {
    /// A site.
    Site(SiteId),
    /// A point fixed in a joint's frame (its origin for zero).
    Point(JointId, Vector3<f64>),
}

/// How far a lock is from holding: metres for its position part, radians for its orientation
/// part (a pose lock has both).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Violation {
    /// The position error, for position-like goals.
    pub metres: Option<f64>,
    /// The angle, for orientation-like goals.
    pub radians: Option<f64>,
}

impl Violation {
    /// Whether every part is within `tolerance` (metres and radians alike, as the solvers'
    /// tolerance is).
    pub fn within(&self, tolerance: f64) -> bool {
        self.largest() <= tolerance
    }

    /// The larger part, in the goal's own units (what the solvers compare to the tolerance).
    pub fn largest(&self) -> f64 {
        self.metres.unwrap_or(0.0).max(self.radians.unwrap_or(0.0))
    }
}

impl fmt::Display for Violation {
    /// "1.20 mm", "0.35°" or "1.20 mm, 0.35°".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.metres, self.radians) {
            (Some(m), Some(r)) => write!(f, "{:.2} mm, {:.2}°", m * 1e3, r.to_degrees()),
            (Some(m), None) => write!(f, "{:.2} mm", m * 1e3),
            (None, Some(r)) => write!(f, "{:.2}°", r.to_degrees()),
            (None, None) => write!(f, "0"),
        }
    }
}

/// A persistent goal with the joints that keep it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lock {
    /// Unique in the document.
    pub name: String,
    goal: Goal,
    /// Disabled locks are kept but not solved.
    pub enabled: bool,
    frames: Option<(i64, i64)>,
    blend: i64,
    base: Option<JointId>,
    limb: Chain,
}

/// The DOFs that keep `goal`: each of its joints' limb, or from the joint up to `base`.
fn limb_of(
    skeleton: &Skeleton,
    name: &str,
    goal: &Goal,
    base: Option<JointId>,
) -> Result<Chain, LockError> {
    let limb = match (goal.kind.joints(skeleton), base) {
        (None, None) => Chain::whole(skeleton, false),
        (None, Some(base)) => Chain::from_joints(skeleton, skeleton.subtree(base)),
        (Some(joints), None) => joints.iter().fold(Chain::default(), |acc, &j| {
            acc.union(&Chain::limb(skeleton, j))
        }),
        (Some(joints), Some(base)) => {
            let mut acc = Chain::default();
            for j in joints {
                let c = Chain::between(skeleton, base, j).map_err(|_| LockError::NotBelowBase {
                    lock: name.to_owned(),
                    joint: skeleton.joint(j).name.clone(),
                    base: skeleton.joint(base).name.clone(),
                })?;
                acc = acc.union(&c);
            }
            acc
        }
    };
    if limb.is_empty() {
        return Err(LockError::NothingMoves {
            lock: name.to_owned(),
        });
    }
    Ok(limb)
}

impl Lock {
    /// A lock holding `goal`, kept by its limb or up to `base`; enabled, on every frame.
    pub fn new(
        skeleton: &Skeleton,
        name: impl Into<String>,
        goal: Goal,
        base: Option<JointId>,
    ) -> Result<Lock, LockError> {
        let name = name.into();
        if name.trim().is_empty() {
            return Err(LockError::EmptyName);
        }
        if matches!(
            goal.kind,
            GoalKind::Point {
                shape: TargetShape::Line(_),
                ..
            }
        ) {
            return Err(LockError::RayGoal { lock: name });
        }
        if !(goal.weight.is_finite() && goal.weight > 0.0) {
            return Err(LockError::Weight {
                lock: name,
                weight: goal.weight,
            });
        }
        let limb = limb_of(skeleton, &name, &goal, base)?;
        Ok(Lock {
            name,
            goal,
            enabled: true,
            frames: None,
            blend: 0,
            base,
            limb,
        })
    }

    /// A lock of `kind` on `part`, holding it where the pose `fk` holds it now.
    pub fn at_current(
        skeleton: &Skeleton,
        fk: &Fk,
        name: impl Into<String>,
        part: LockPart,
        kind: LockKind,
    ) -> Result<Lock, LockError> {
        let name = name.into();
        let (joint, offset, site) = match part {
            LockPart::Site(s) => (skeleton.site(s).joint, skeleton.site(s).offset, Some(s)),
            LockPart::Point(j, offset) => {
                // A joint's pose lock uses a site on it, as pose goals are on sites.
                let site = skeleton
                    .site_ids()
                    .find(|&s| skeleton.site(s).joint == j && skeleton.site(s).offset == offset);
                (j, offset, site)
            }
        };
        let point = fk.point(joint, &offset);
        let rotation = *fk.joint_rotation(joint);
        let needs_site = |kind: &'static str| LockError::NeedsSite {
            lock: name.clone(),
            kind,
            joint: skeleton.joint(joint).name.clone(),
        };
        let on_site =
            |site: Option<SiteId>, kind: &'static str| site.ok_or_else(|| needs_site(kind));
        let kind = match kind {
            LockKind::Position => match site {
                Some(site) => GoalKind::Position {
                    site,
                    target: point,
                },
                None => GoalKind::Point {
                    joint,
                    offset,
                    target: point,
                    shape: TargetShape::Point,
                },
            },
            LockKind::Orientation => GoalKind::Orientation {
                joint,
                target: rotation,
                axes: [true; 3],
            },
            LockKind::Axis(k) => {
                let mut axes = [false; 3];
                axes[k.min(2)] = true;
                GoalKind::Orientation {
                    joint,
                    target: rotation,
                    axes,
                }
            }
            LockKind::Pose => GoalKind::Pose {
                site: on_site(site, "pose")?,
                target: point,
                rotation,
            },
            // A point with no site on it is held on the plane all the same.
            LockKind::Plane => match site {
                Some(site) => GoalKind::Plane {
                    site,
                    point,
                    normal: Vector3::y(),
                },
                None => GoalKind::Point {
                    joint,
                    offset,
                    target: point,
                    shape: TargetShape::Plane(Vector3::y()),
                },
            },
            LockKind::Line(direction) => GoalKind::Line {
                site: on_site(site, "line")?,
                point,
                direction: direction.try_normalize(1e-12).unwrap_or_else(Vector3::x),
            },
            LockKind::CenterOfMass => {
                let com = fk.center_of_mass();
                GoalKind::CenterOfMass {
                    target: Vector3::new(com.x, 0.0, com.z),
                    axes: [true, false, true],
                }
            }
        };
        Lock::new(skeleton, name, Goal::new(kind), None)
    }

    /// Two sites held together (hands together), where they are now: a lock on their midpoint
    /// would fix them in space; this one only keeps them touching.
    pub fn together(
        skeleton: &Skeleton,
        name: impl Into<String>,
        a: SiteId,
        b: SiteId,
    ) -> Result<Lock, LockError> {
        Lock::new(skeleton, name, Goal::new(GoalKind::Coincide { a, b }), None)
    }

    /// The goal it holds.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// Sets the weight (weighted solvers); on error nothing changes.
    pub fn set_weight(&mut self, weight: f64) -> Result<(), LockError> {
        if !(weight.is_finite() && weight > 0.0) {
            return Err(LockError::Weight {
                lock: self.name.clone(),
                weight,
            });
        }
        self.goal.weight = weight;
        Ok(())
    }

    /// Sets the priority level (0 = highest; task priority and constraint maintenance).
    pub fn set_priority(&mut self, priority: u32) {
        self.goal.priority = priority;
    }

    /// Whether the lock holds something to a point that its marker can move (position, pose,
    /// point, plane, line, centre of mass); orientation, aim and two-site locks do not.
    pub fn has_target(&self) -> bool {
        !matches!(
            self.goal.kind,
            GoalKind::Orientation { .. }
                | GoalKind::Aim { .. }
                | GoalKind::Coincide { .. }
                | GoalKind::CoincidePose { .. }
        )
    }

    /// Moves what the lock holds to by `delta` (a marker dragged): the target of a position,
    /// pose, point or centre-of-mass lock, the plane's or line's point. Orientation, aim and
    /// two-site locks have no point to move; false for them.
    pub fn move_target(&mut self, delta: &Vector3<f64>) -> bool {
        if !delta.iter().all(|v| v.is_finite()) {
            return false;
        }
        match &mut self.goal.kind {
            GoalKind::Position { target, .. }
            | GoalKind::Point { target, .. }
            | GoalKind::Pose { target, .. } => *target += delta,
            GoalKind::Plane { point, .. } | GoalKind::Line { point, .. } => *point += delta,
            GoalKind::CenterOfMass { target, axes } => {
                for k in 0..3 {
                    if axes[k] {
                        target[k] += delta[k];
                    }
                }
            }
            GoalKind::Orientation { .. }
            | GoalKind::Aim { .. }
            | GoalKind::Coincide { .. }
            | GoalKind::CoincidePose { .. } => {
                return false;
            }
        }
        true
    }

    /// Where the lock holds, for its marker: the target point (the plane's or line's point, the
    /// centre of mass's support point, the first site of two held together at the pose `fk`
    /// holds; an orientation lock's joint origin).
    pub fn anchor(&self, fk: &Fk) -> Vector3<f64> {
        match &self.goal.kind {
            GoalKind::Position { target, .. }
            | GoalKind::Point { target, .. }
            | GoalKind::Pose { target, .. }
            | GoalKind::CenterOfMass { target, .. } => *target,
            GoalKind::Plane { point, .. } | GoalKind::Line { point, .. } => *point,
            GoalKind::Orientation { joint, .. } => fk.joint_position(*joint),
            GoalKind::Aim { at, .. } => *at,
            GoalKind::Coincide { a, .. } | GoalKind::CoincidePose { a, .. } => fk.site_position(*a),
        }
    }

    /// The frames it holds on (inclusive) when sequences play or bake; `None`: every frame.
    pub fn frames(&self) -> Option<(i64, i64)> {
        self.frames
    }

    /// Sets the frame range; on error nothing changes.
    pub fn set_frames(&mut self, frames: Option<(i64, i64)>) -> Result<(), LockError> {
        if let Some((first, last)) = frames
            && (last < first
                || !crate::sequence::frame_in_range(first)
                || !crate::sequence::frame_in_range(last))
        {
            return Err(LockError::Frames {
                lock: self.name.clone(),
                first,
                last,
            });
        }
        self.frames = frames;
        Ok(())
    }

    /// Frames over which the lock eases in before its range and out after it (0: it holds from
    /// its first frame to its last and lets go at once).
    pub fn blend(&self) -> i64 {
        self.blend
    }

    /// The frames it holds or eases on (inclusive): its range widened by its blend on each
    /// side; `None`: every frame.
    pub fn reach(&self) -> Option<(i64, i64)> {
        self.frames
            .map(|(first, last)| (first - self.blend, last + self.blend))
    }

    /// Sets the blend; on error nothing changes.
    pub fn set_blend(&mut self, blend: i64) -> Result<(), LockError> {
        if !(0..=crate::MAX_SPAN).contains(&blend) {
            return Err(LockError::Blend {
                lock: self.name.clone(),
                blend,
            });
        }
        self.blend = blend;
        Ok(())
    }

    /// How much the lock holds on `frame` (`None`: the pose being edited): 1 when it is active
    /// ([`Lock::active_at`]); within `blend` frames before or after its range, rising from 0 to 1
    /// along a smoothstep; else 0.
    pub fn hold_at(&self, frame: Option<i64>) -> f64 {
        if self.active_at(frame) {
            return 1.0;
        }
        let (Some((first, last)), Some(f), true) = (self.frames, frame, self.enabled) else {
            return 0.0;
        };
        let distance = if f < first { first - f } else { f - last };
        if distance > self.blend {
            return 0.0;
        }
        let t = 1.0 - distance as f64 / (self.blend + 1) as f64;
        t * t * (3.0 - 2.0 * t)
    }

    /// Whether the lock is solved on `frame` (`None`: the pose being edited, outside any
    /// sequence, where every enabled lock holds).
    pub fn active_at(&self, frame: Option<i64>) -> bool {
        self.enabled
            && match (self.frames, frame) {
                (Some((first, last)), Some(f)) => first <= f && f <= last,
                _ => true,
            }
    }

    /// The highest joint that moves to keep it; `None`: its limb.
    pub fn base(&self) -> Option<JointId> {
        self.base
    }

    /// Sets the base joint (`None`: the limb); on error nothing changes.
    pub fn set_base(
        &mut self,
        skeleton: &Skeleton,
        base: Option<JointId>,
    ) -> Result<(), LockError> {
        self.limb = limb_of(skeleton, &self.name, &self.goal, base)?;
        self.base = base;
        Ok(())
    }

    /// The DOFs that move to keep it (never the root translation).
    pub fn limb(&self) -> &Chain {
        &self.limb
    }

    /// How far it is from holding at the pose `fk` holds (its centre of mass must be current
    /// for a centre-of-mass lock).
    pub fn violation(&self, skeleton: &Skeleton, fk: &Fk) -> Violation {
        let kind = &self.goal.kind;
        if let Some((metres, radians)) = kind.pose_parts(skeleton, fk) {
            return Violation {
                metres: Some(metres),
                radians: Some(radians),
            };
        }
        let error = kind.error(skeleton, fk);
        if kind.is_angular() {
            Violation {
                metres: None,
                radians: Some(error),
            }
        } else {
            Violation {
                metres: Some(error),
                radians: None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Pose, builtin};

    fn names(s: &Skeleton, chain: &Chain) -> Vec<String> {
        chain
            .joints(s)
            .into_iter()
            .map(|j| s.joint(j).name.clone())
            .collect()
    }

    #[test]
    fn a_heel_lock_is_kept_by_its_leg_and_never_the_root() {
        let s = builtin::humanoid();
        let mut fk = Fk::new(&s);
        fk.update(&s, &Pose::rest(&s).q);
        let heel = s.site_by_name("left heel").expect("heel");
        let lock = Lock::at_current(&s, &fk, "left foot", LockPart::Site(heel), LockKind::Pose)
            .expect("lock");
        let joints = names(&s, lock.limb());
        assert_eq!(joints, ["left hip", "left knee", "left ankle"]);
        assert!(lock.limb().columns().iter().all(|&c| c >= 3), "no root");
        assert!(lock.violation(&s, &fk).within(1e-12));
        // Up to a chosen base: the pelvis moves too; a base off the path is refused.
        let mut up = lock.clone();
        let pelvis = s.joint_by_name("pelvis").expect("pelvis");
        up.set_base(&s, Some(pelvis)).expect("base");
        assert_eq!(names(&s, up.limb())[0], "pelvis");
        let arm = s.joint_by_name("right elbow").expect("elbow");
        assert!(matches!(
            up.set_base(&s, Some(arm)),
            Err(LockError::NotBelowBase { .. })
        ));
        assert_eq!(up.base(), Some(pelvis), "unchanged after the refusal");
    }

    #[test]
    fn frame_ranges_and_bad_values_are_checked() {
        let s = builtin::humanoid();
        let mut fk = Fk::new(&s);
        fk.update(&s, &Pose::rest(&s).q);
        let hand = s.site_by_name("right fingertips").expect("hand");
        let mut lock = Lock::at_current(&s, &fk, "hand", LockPart::Site(hand), LockKind::Position)
            .expect("lock");
        assert!(lock.active_at(Some(100)) && lock.active_at(None));
        lock.set_frames(Some((0, 24))).expect("range");
        // Easing in and out: a smoothstep over the blend's frames, nothing beyond.
        assert_eq!(lock.hold_at(Some(-1)), 0.0, "no blend: lets go at once");
        lock.set_blend(3).expect("blend");
        assert_eq!(lock.hold_at(Some(12)), 1.0);
        assert!((lock.hold_at(Some(25)) - 0.84375).abs() < 1e-12);
        assert!((lock.hold_at(Some(-1)) - 0.84375).abs() < 1e-12);
        assert!(lock.hold_at(Some(27)) > 0.0 && lock.hold_at(Some(27)) < lock.hold_at(Some(26)));
        assert_eq!(lock.hold_at(Some(28)), 0.0);
        assert_eq!(
            lock.hold_at(None),
            1.0,
            "editing outside sequences: every enabled lock"
        );
        assert!(lock.set_blend(-1).is_err());
        assert_eq!(lock.blend(), 3);
        lock.enabled = false;
        assert_eq!(lock.hold_at(Some(25)), 0.0);
        lock.enabled = true;
        assert!(lock.active_at(Some(24)) && !lock.active_at(Some(25)) && lock.active_at(None));
        assert!(lock.set_frames(Some((5, 4))).is_err());
        assert!(lock.set_weight(f64::NAN).is_err() && lock.set_weight(-1.0).is_err());
        assert_eq!(lock.goal().weight, 1.0);
        lock.enabled = false;
        assert!(!lock.active_at(None));
        assert!(lock.move_target(&Vector3::new(0.0, 0.1, 0.0)));
        assert!((lock.violation(&s, &fk).largest() - 0.1).abs() < 1e-12);
        assert_eq!(lock.violation(&s, &fk).to_string(), "100.00 mm");
        assert!(Lock::new(&s, " ", lock.goal().clone(), None).is_err());
        // An orientation lock has no point for its marker to move.
        let wrist = s.joint_by_name("right wrist").expect("wrist");
        let turned = Lock::at_current(
            &s,
            &fk,
            "wrist",
            LockPart::Point(wrist, Vector3::zeros()),
            LockKind::Orientation,
        )
        .expect("lock");
        assert!(lock.has_target() && !turned.has_target());
        let mut moved = turned.clone();
        assert!(!moved.move_target(&Vector3::x()));
        assert_eq!(moved, turned);
    }
}
