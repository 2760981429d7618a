//! Foot-skate cleanup: a sequence baked, the contacts of its foot points found ([`contacts`]),
//! each contact held by a position lock over its frames that eases in and out, and the sequence
//! baked again with the locks, so planted feet stay where they stand (Kovar, Schreiner &
//! Gleicher 2002: plants as constraints, one limb solved per frame, the change blended into the
//! neighbouring frames). The report says, per contact, how far the point slid before and after,
//! and the largest step a point takes between two frames where a lock takes or lets it go.
//!
//! The locks are named `<point> contact <first>–<last>`; a cleanup first drops the locks of
//! that form its points already have, so running it again replaces them.
//!
//! [`contacts`]: crate::contacts

use marionette_document::{Lock, LockError, Sequence};
use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_skeleton::{Fk, JointId, Pose, SiteId, Skeleton};
use nalgebra::Vector3;

use crate::bake::{BakeSettings, Baker, bake_with_threads};

pub mod floor;
mod floor_locks;
mod let_go;
mod pelvis;
mod plants;
mod report;

use crate::contacts::{Contact, ContactThresholds, find_contacts};
pub use floor::FloorPoints;
use floor::root_raised;
pub use let_go::{LET_GO_BELOW, LetGo};
pub use pelvis::{Leg, REACH, SMOOTHING_SECONDS, smooth_at_least};
use plants::{conflicts, plant_feet_whole};
pub use report::{Cleaned, ContactReport, EdgeSteps};
use report::{at_limits, beyond_reach, edge_steps};

/// A contact that slides more than this while planted after the cleanup (metres) is reported as
/// not held.
pub const HELD_WITHIN: f64 = 0.002;

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
    fn lock(
        &self,
        skeleton: &Skeleton,
        name: String,
        target: Vector3<f64>,
    ) -> Result<Lock, LockError> {
        self.kept(skeleton, name, self.goal(target))
    }

    /// The lock holding this point on the level plane through `on_floor` (free across it),
    /// kept as its contacts are.
    fn floor_lock(
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

    /// A lock holding `goal`, kept by this point's leg from the hip down when its leg is known,
    /// else by its limb.
    fn kept(&self, skeleton: &Skeleton, name: String, goal: Goal) -> Result<Lock, LockError> {
        Lock::new(skeleton, name, goal, self.leg.map(|l| l.upper))
    }

    /// The goal holding this point at `target`.
    fn goal(&self, target: Vector3<f64>) -> Goal {
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
    fn lock_prefix(&self) -> String {
        format!("{} contact ", self.name)
    }

    /// The prefix of the names of this point's floor locks ([`floor_locks`]).
    fn floor_prefix(&self) -> String {
        format!("{} floor ", self.name)
    }
}

/// Why a cleanup could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CleanupError {
    /// The sequence does not re-solve its locks when baked.
    #[error(
        "sequence \"{0}\" does not hold its locks (hold_locks: false): locks could not keep its feet"
    )]
    LocksNotHeld(String),
    /// No point to look at.
    #[error("no foot points to find contacts of")]
    NoPoints,
    /// A lock could not be made (its name says which).
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The thread pool could not be built.
    #[error("could not start the bake's threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// The figure's height standing at rest: the vertical extent of its joints and sites (metres).
pub fn figure_height(skeleton: &Skeleton) -> f64 {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &Pose::rest(skeleton).q);
    let ys = skeleton
        .joint_ids()
        .map(|j| fk.joint_position(j).y)
        .chain(skeleton.site_ids().map(|s| fk.site_position(s).y));
    let (low, high) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| {
        (l.min(y), h.max(y))
    });
    if high > low { high - low } else { 1.0 }
}

/// The paths of `points` over `frames`.
fn paths(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    points: &[ContactPoint],
) -> Vec<Vec<Vector3<f64>>> {
    let mut fk = Fk::new(skeleton);
    let mut out = vec![Vec::with_capacity(frames.len()); points.len()];
    for q in frames {
        fk.update(skeleton, q);
        for (path, p) in out.iter_mut().zip(points) {
            path.push(fk.point(p.joint, &p.offset));
        }
    }
    out
}

/// A sequence and the locks it is baked with.
struct Baking<'a> {
    skeleton: &'a Skeleton,
    sequence: &'a Sequence,
    locks: &'a [Lock],
    settings: BakeSettings,
}

impl Baking<'_> {
    /// The frames of `frames` (every frame of the sequence) that `changed` locks reach (their
    /// ranges and blends) baked again with the locks and `more`: a frame's bake depends only on
    /// the locks holding or easing on it.
    fn refresh(&self, more: &[Lock], changed: &[&Lock], frames: &mut [Vec<f64>]) {
        use rayon::prelude::*;
        let mut all = self.locks.to_vec();
        all.extend(more.iter().cloned());
        let baker = Baker::new(self.skeleton, self.sequence, &all, self.settings);
        let (first, last) = baker.range();
        let mut wanted: Vec<i64> = changed
            .iter()
            .filter_map(|l| l.reach())
            .flat_map(|(a, b)| a.max(first)..=b.min(last))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let made: Vec<(i64, Vec<f64>)> = wanted
            .into_par_iter()
            .map_init(|| Fk::new(self.skeleton), |fk, f| (f, baker.frame(f, fk).q))
            .collect();
        for (f, q) in made {
            if let Some(slot) = frames.get_mut((f - first) as usize) {
                *slot = q;
            }
        }
    }
}

/// The contacts found and the locks that hold them.
struct Planted<'a> {
    floor: &'a FloorPoints,
    points: &'a [ContactPoint],
    /// (point index, contact).
    found: &'a [(usize, Contact)],
    /// Per contact, its lock when it is locked.
    locks: &'a [Option<&'a Lock>],
}

/// Every frame of `sequence` baked against `locks`.
fn bake(
    skeleton: &Skeleton,
    sequence: &Sequence,
    locks: &[Lock],
    settings: BakeSettings,
) -> Result<Vec<Vec<f64>>, CleanupError> {
    let baker = Baker::new(skeleton, sequence, locks, settings);
    Ok(bake_with_threads(&baker, 0, &|| {})?
        .into_iter()
        .map(|f| f.q)
        .collect())
}

/// Finds the contacts of `points` over `sequence` (a valid sequence of `skeleton`) baked with
/// the document's `locks`, adds a lock per contact, and bakes again to measure what they hold.
pub fn clean_feet(
    skeleton: &Skeleton,
    sequence: &Sequence,
    locks: &[Lock],
    points: &[ContactPoint],
    settings: BakeSettings,
) -> Result<Cleaned, CleanupError> {
    if !sequence.hold_locks {
        return Err(CleanupError::LocksNotHeld(sequence.name.clone()));
    }
    if points.is_empty() {
        return Err(CleanupError::NoPoints);
    }
    let rest = Pose::rest(skeleton).q;
    let floor = FloorPoints::new(skeleton, points, &rest);
    let prefixes: Vec<String> = points
        .iter()
        .map(ContactPoint::lock_prefix)
        .chain(floor.points().iter().map(ContactPoint::floor_prefix))
        .collect();
    let mut kept: Vec<Lock> = locks
        .iter()
        .filter(|l| !prefixes.iter().any(|p| l.name.starts_with(p.as_str())))
        .cloned()
        .collect();
    let replaced = locks.len() - kept.len();
    let first_frame = sequence.keys.first().map_or(0, |k| k.frame);
    let fps = sequence.fps;
    // The feet first put back on the floor where the legs could not fold as the performer's.
    let half_width = ((SMOOTHING_SECONDS * fps).round() as usize).max(1);
    let mut frames = bake(skeleton, sequence, &kept, settings)?;
    let raised = pelvis::smooth_at_least(&floor.below(skeleton, &frames), half_width);
    let mut sequence = root_raised(sequence, first_frame, &raised);
    let every_frame_keyed = sequence
        .keys
        .iter()
        .enumerate()
        .all(|(i, k)| k.frame == first_frame + i as i64);
    if kept.is_empty() && every_frame_keyed {
        // Nothing to solve: each frame is its key, raised.
        for (q, r) in frames.iter_mut().zip(&raised) {
            q[1] += r;
        }
    } else if raised.iter().any(|&r| r > 0.0) {
        frames = bake(skeleton, &sequence, &kept, settings)?;
    }
    let before = paths(skeleton, &frames, points);
    let thresholds = ContactThresholds::for_figure(figure_height(skeleton), fps);
    let mut found: Vec<(usize, Contact)> = before
        .iter()
        .enumerate()
        .flat_map(|(i, path)| {
            find_contacts(path, fps, &thresholds)
                .into_iter()
                .map(move |c| (i, c))
        })
        .collect();
    found.sort_by_key(|&(i, c)| (c.first, i));
    let limbs = points
        .iter()
        .map(|p| {
            Ok(p.lock(skeleton, p.name.clone(), Vector3::zeros())?
                .limb()
                .clone())
        })
        .collect::<Result<Vec<_>, CleanupError>>()?;
    plant_feet_whole(
        &limbs,
        &before,
        thresholds.blend.max(0) as usize,
        &mut found,
    );
    // No plant below the floor.
    for (i, c) in &mut found {
        if let Some(lowest) = floor.floor_of(&points[*i]) {
            c.planted.y = c.planted.y.max(lowest);
        }
    }
    // Then the hips come down where a leg cannot reach where its foot is planted.
    let needed = pelvis::lowering_needed(skeleton, &frames, points, &found, &rest);
    let lowered = pelvis::smooth_at_least(&needed, half_width);
    if lowered.iter().any(|&l| l > 0.0) {
        let down: Vec<f64> = lowered.iter().map(|l| -l).collect();
        sequence = root_raised(&sequence, first_frame, &down);
    }
    let pelvis: Vec<f64> = raised.iter().zip(&lowered).map(|(r, l)| r - l).collect();
    let mut names = Vec::new();
    for &(i, c) in &found {
        let p = &points[i];
        let (a, b) = (first_frame + c.first as i64, first_frame + c.last as i64);
        let name = format!("{}{a}–{b}", p.lock_prefix());
        let mut lock = p.lock(skeleton, name.clone(), c.planted)?;
        lock.set_frames(Some((a, b)))?;
        let offset = (c.planted - before[i][c.first])
            .norm()
            .max((c.planted - before[i][c.last]).norm());
        lock.set_blend(thresholds.blend_for(offset, fps))?;
        kept.push(lock);
        names.push(name);
    }
    frames = bake(skeleton, &sequence, &kept, settings)?;
    let mut after = paths(skeleton, &frames, points);
    let farthest = |path: &[Vector3<f64>], a: usize, b: usize, planted: &Vector3<f64>| {
        (a..=b)
            .map(|f| (f, (path[f] - planted).norm()))
            .fold(
                (a, 0.0),
                |worst, now| if now.1 > worst.1 { now } else { worst },
            )
    };
    let slid: Vec<bool> = found
        .iter()
        .map(|&(i, c)| farthest(&after[i], c.first, c.last, &c.planted).1 > HELD_WITHIN)
        .collect();
    let gave_way = conflicts(&limbs, &found, &slid);
    let added: Vec<Lock> = kept.split_off(kept.len() - found.len());
    // Per contact, its lock when it is locked.
    let mut contact_locks: Vec<Option<Lock>> = added
        .iter()
        .zip(&gave_way)
        .map(|(l, g)| g.is_none().then(|| l.clone()))
        .collect();
    let with_contacts = |contact_locks: &[Option<Lock>]| {
        let mut all = kept.clone();
        all.extend(contact_locks.iter().flatten().cloned());
        all
    };
    // The frames the locks given way reached, baked again without them.
    let dropped: Vec<&Lock> = added
        .iter()
        .zip(&gave_way)
        .filter_map(|(l, g)| g.map(|_| l))
        .collect();
    if !dropped.is_empty() {
        Baking {
            skeleton,
            sequence: &sequence,
            locks: &with_contacts(&contact_locks),
            settings,
        }
        .refresh(&[], &dropped, &mut frames);
    }
    // Then each foot kept above the floor where it rolls into it, a contact letting go early
    // where its foot cannot stay above it with two points planted.
    let (on_the_floor, let_go) = let_go::keep_feet_above_floor(
        &Baking {
            skeleton,
            sequence: &sequence,
            locks: &kept,
            settings,
        },
        (&floor, points, &found),
        (&mut contact_locks, &mut names),
        &mut frames,
        (thresholds.blend, first_frame),
    )?;
    after = paths(skeleton, &frames, points);
    let contacts: Vec<ContactReport> = found
        .iter()
        .zip(&names)
        .zip(&contact_locks)
        .zip(&gave_way)
        .zip(let_go)
        .map(|((((&(i, c), lock), held_by), gave_way), let_go)| {
            let (worst, slide_after) = farthest(&after[i], c.first, c.last, &c.planted);
            ContactReport {
                point: points[i].name.clone(),
                lock: lock.clone(),
                gave_way_to: gave_way.map(|m| names[m].clone()),
                frames: (first_frame + c.first as i64, first_frame + c.last as i64),
                slide_before: farthest(&before[i], c.first, c.last, &c.planted).1,
                slide_after,
                at_limits: match held_by {
                    Some(held_by) if slide_after > HELD_WITHIN => {
                        at_limits(skeleton, held_by, &frames[worst])
                    }
                    _ => Vec::new(),
                },
                beyond_reach: held_by.as_ref().filter(|_| slide_after > HELD_WITHIN).map(
                    |held_by| {
                        beyond_reach(skeleton, &points[i], held_by, &frames[worst], &c.planted)
                    },
                ),
                lowered: lowered[c.first..=c.last]
                    .iter()
                    .copied()
                    .fold(0.0, f64::max),
                let_go,
            }
        })
        .collect();
    let steps = edge_steps(
        points,
        [&before, &after],
        &found,
        &contact_locks,
        first_frame,
    );
    kept.extend(contact_locks.into_iter().flatten());
    let floor_held = on_the_floor.len();
    kept.extend(floor_locks::locks_of(&on_the_floor));
    let below_floor = floor
        .below(skeleton, &frames)
        .into_iter()
        .fold(0.0, f64::max);
    Ok(Cleaned {
        locks: kept,
        replaced,
        contacts,
        steps,
        thresholds,
        frames: frames.len(),
        sequence,
        pelvis,
        below_floor,
        floor_locks: floor_held,
    })
}
