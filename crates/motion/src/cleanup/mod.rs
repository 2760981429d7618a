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

use marionette_document::{Lock, Sequence};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};
use nalgebra::Vector3;

use crate::bake::BakeSettings;

mod baking;
pub mod floor;
mod floor_locks;
mod let_go;
mod pelvis;
mod plants;
mod point;
mod report;
mod report_json;

use crate::contacts::{Contact, ContactThresholds, find_contacts};
pub use baking::CleanupError;
use baking::{Baking, bake, paths};
pub use floor::FloorPoints;
use floor::root_raised;
pub use let_go::{LET_GO_BELOW, LetGo};
pub use pelvis::{REACH, SMOOTHING_SECONDS, smooth_at_least};
use plants::{conflicts, plant_feet_whole};
pub use point::{ContactPoint, HELD_WITHIN, Leg};
pub use report::{Cleaned, ContactReport, EdgeSteps};
use report::{at_limits, beyond_reach, edge_steps};

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
    let mut kept = without_earlier_cleanups(locks, points, &floor);
    let replaced = locks.len() - kept.len();
    let first_frame = sequence.keys.first().map_or(0, |k| k.frame);
    let fps = sequence.fps;
    // The feet first put back on the floor where the legs could not fold as the performer's.
    let half_width = ((SMOOTHING_SECONDS * fps).round() as usize).max(1);
    let baking = Baking {
        skeleton,
        sequence,
        locks: &kept,
        settings,
    };
    let r = raised_onto_floor(&baking, &floor, half_width)?;
    let (mut sequence, raised, mut frames) = (r.sequence, r.raised, r.frames);
    let before = paths(skeleton, &frames, points);
    let c = planted_contacts(skeleton, points, &before, fps, &floor)?;
    let (thresholds, found, limbs) = (c.thresholds, c.found, c.limbs);
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
        let lock = contact_lock(
            skeleton,
            &points[i],
            c,
            &before[i],
            (&thresholds, fps),
            first_frame,
        )?;
        names.push(lock.name.clone());
        kept.push(lock);
    }
    frames = bake(skeleton, &sequence, &kept, settings)?;
    let mut after = paths(skeleton, &frames, points);
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
    // The frames the locks given way reached, baked again without them.
    let dropped: Vec<&Lock> = added
        .iter()
        .zip(&gave_way)
        .filter_map(|(l, g)| g.map(|_| l))
        .collect();
    if !dropped.is_empty() {
        let mut all = kept.clone();
        all.extend(contact_locks.iter().flatten().cloned());
        Baking {
            skeleton,
            sequence: &sequence,
            locks: &all,
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
    let reporting = Reporting {
        skeleton,
        points,
        paths: [&before, &after],
        frames: &frames,
        lowered: &lowered,
        first_frame,
    };
    let contacts: Vec<ContactReport> = found
        .iter()
        .zip(&names)
        .zip(&contact_locks)
        .zip(&gave_way)
        .zip(let_go)
        .map(|((((&found, lock), held_by), gave_way), let_go)| {
            let gave_way_to = gave_way.map(|m| names[m].clone());
            reporting.report(found, lock, held_by.as_ref(), gave_way_to, let_go)
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
    kept.extend(floor_locks::locks_of(&on_the_floor));
    Ok(Cleaned {
        locks: kept,
        replaced,
        contacts,
        steps,
        thresholds,
        frames: frames.len(),
        sequence,
        pelvis,
        below_floor: floor
            .below(skeleton, &frames)
            .into_iter()
            .fold(0.0, f64::max),
        floor_locks: on_the_floor.len(),
    })
}

/// `locks` without those an earlier cleanup of `points` made (contact and floor locks, by
/// their names), so a cleanup run again replaces them.
fn without_earlier_cleanups(
    locks: &[Lock],
    points: &[ContactPoint],
    floor: &FloorPoints,
) -> Vec<Lock> {
    let prefixes: Vec<String> = points
        .iter()
        .map(ContactPoint::lock_prefix)
        .chain(floor.points().iter().map(ContactPoint::floor_prefix))
        .collect();
    locks
        .iter()
        .filter(|l| !prefixes.iter().any(|p| l.name.starts_with(p.as_str())))
        .cloned()
        .collect()
}

/// The sequence of `baking` with its root raised where a foot goes below the floor (smoothly,
/// over `half_width` frames each side), how far on each frame, and its frames baked so.
fn raised_onto_floor(
    baking: &Baking,
    floor: &FloorPoints,
    half_width: usize,
) -> Result<Raised, CleanupError> {
    let Baking {
        skeleton,
        sequence,
        locks,
        settings,
    } = *baking;
    let first_frame = sequence.keys.first().map_or(0, |k| k.frame);
    let mut frames = bake(skeleton, sequence, locks, settings)?;
    let raised = pelvis::smooth_at_least(&floor.below(skeleton, &frames), half_width);
    let sequence = root_raised(sequence, first_frame, &raised);
    let every_frame_keyed = sequence
        .keys
        .iter()
        .enumerate()
        .all(|(i, k)| k.frame == first_frame + i as i64);
    if locks.is_empty() && every_frame_keyed {
        // Nothing to solve: each frame is its key, raised.
        for (q, r) in frames.iter_mut().zip(&raised) {
            q[1] += r;
        }
    } else if raised.iter().any(|&r| r > 0.0) {
        frames = bake(skeleton, &sequence, locks, settings)?;
    }
    Ok(Raised {
        sequence,
        raised,
        frames,
    })
}

/// A sequence raised onto the floor.
struct Raised {
    /// The sequence, its root raised.
    sequence: Sequence,
    /// Per frame, how far it was raised.
    raised: Vec<f64>,
    /// Its frames, baked.
    frames: Vec<Vec<f64>>,
}

/// The contacts of `points` on their paths `before` (a take at `fps`), found by the thresholds
/// for the figure's height, each point's plants made whole across the foot ([`plants`]) and
/// none below the floor; with the thresholds and each point's limb.
fn planted_contacts(
    skeleton: &Skeleton,
    points: &[ContactPoint],
    before: &[Vec<Vector3<f64>>],
    fps: f64,
    floor: &FloorPoints,
) -> Result<Contacts, CleanupError> {
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
        .map(|p| p.limb(skeleton))
        .collect::<Result<Vec<_>, _>>()?;
    plant_feet_whole(&limbs, before, thresholds.blend.max(0) as usize, &mut found);
    // No plant below the floor.
    for (i, c) in &mut found {
        if let Some(lowest) = floor.floor_of(&points[*i]) {
            c.planted.y = c.planted.y.max(lowest);
        }
    }
    Ok(Contacts {
        thresholds,
        found,
        limbs,
    })
}

/// The contacts a take plants, and what they were found by.
struct Contacts {
    /// The thresholds they were found by.
    thresholds: ContactThresholds,
    /// (point index, contact), by first frame.
    found: Vec<(usize, Contact)>,
    /// Per point, the limb its lock is kept by.
    limbs: Vec<Chain>,
}

/// The lock holding contact `c` of `point` (whose path was `path`) where it is planted, over
/// its frames, easing in and out over a blend as long as the thresholds ask for the distance
/// it pulls the point.
fn contact_lock(
    skeleton: &Skeleton,
    point: &ContactPoint,
    c: Contact,
    path: &[Vector3<f64>],
    (thresholds, fps): (&ContactThresholds, f64),
    first_frame: i64,
) -> Result<Lock, CleanupError> {
    let (a, b) = (first_frame + c.first as i64, first_frame + c.last as i64);
    let name = format!("{}{a}–{b}", point.lock_prefix());
    let mut lock = point.lock(skeleton, name, c.planted)?;
    lock.set_frames(Some((a, b)))?;
    let offset = (c.planted - path[c.first])
        .norm()
        .max((c.planted - path[c.last]).norm());
    lock.set_blend(thresholds.blend_for(offset, fps))?;
    Ok(lock)
}

/// The frame of frames `a..=b` of `path` farthest from `planted`, and how far.
fn farthest(path: &[Vector3<f64>], a: usize, b: usize, planted: &Vector3<f64>) -> (usize, f64) {
    (a..=b)
        .map(|f| (f, (path[f] - planted).norm()))
        .fold(
            (a, 0.0),
            |worst, now| if now.1 > worst.1 { now } else { worst },
        )
}

/// What the report of each contact is made from.
struct Reporting<'a> {
    skeleton: &'a Skeleton,
    points: &'a [ContactPoint],
    /// The points' paths before and after the cleanup.
    paths: [&'a [Vec<Vector3<f64>>]; 2],
    /// The frames after the cleanup.
    frames: &'a [Vec<f64>],
    /// Per frame, how far the hips came down.
    lowered: &'a [f64],
    first_frame: i64,
}

impl Reporting<'_> {
    /// The report of contact `c` of point `i`, locked by the lock named `lock` (held by
    /// `held_by` unless it gave way, to the lock named `gave_way_to`), let go as `let_go` says.
    fn report(
        &self,
        (i, c): (usize, Contact),
        lock: &str,
        held_by: Option<&Lock>,
        gave_way_to: Option<String>,
        let_go: Option<LetGo>,
    ) -> ContactReport {
        let [before, after] = self.paths;
        let (worst, slide_after) = farthest(&after[i], c.first, c.last, &c.planted);
        let slid = held_by.filter(|_| slide_after > HELD_WITHIN);
        ContactReport {
            point: self.points[i].name.clone(),
            lock: lock.to_owned(),
            gave_way_to,
            frames: (
                self.first_frame + c.first as i64,
                self.first_frame + c.last as i64,
            ),
            slide_before: farthest(&before[i], c.first, c.last, &c.planted).1,
            slide_after,
            at_limits: slid.map_or_else(Vec::new, |held_by| {
                at_limits(self.skeleton, held_by, &self.frames[worst])
            }),
            beyond_reach: slid.map(|held_by| {
                beyond_reach(
                    self.skeleton,
                    &self.points[i],
                    held_by,
                    &self.frames[worst],
                    &c.planted,
                )
            }),
            lowered: self.lowered[c.first..=c.last]
                .iter()
                .copied()
                .fold(0.0, f64::max),
            let_go,
        }
    }
}
