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
use marionette_skeleton::{Fk, Pose, Skeleton};
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
