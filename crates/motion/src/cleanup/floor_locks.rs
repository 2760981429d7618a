//! A foot that rolls stays above the floor: where, after the contacts are locked, a point of a
//! foot (a heel, a toe tip, the ankle, the ball of the foot) goes below its floor while no lock
//! holds it (the heel planted and the foot pitching its toes into the floor to keep it there;
//! heel and toe tip planted and the toes bent so that the ball goes through; a foot in the air
//! dipping where the hips came down for the other leg's reach), it is held on the level plane of
//! its floor over those frames, free to move across it, by its leg: heel strike, flat and toe
//! off become a sequence of supports, each planted while it is down. Such locks are named
//! `<point> floor <first>–<last>` and ease in and out as contacts do.

use marionette_document::{Lock, LockError};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Vector3;

use super::baking::{Baking, CleanupError, Planted, paths};
use super::floor::FloorPoints;
use super::point::HELD_WITHIN;

/// How many times floor locks are added and the sequence baked again.
const ROUNDS: usize = 3;

/// The floor locks (each with the index of its floor point) that keep the feet of `planted`
/// above the floor over the bake of `baking` with the floor locks `start` (`frames`, updated to
/// the bake with them): made again in rounds while points still sink, then those of a leg
/// around a contact they made slide weighing less, and if it still slides, dropped (a contact
/// held before them wins: the foot then sinks there, and the cleanup says how far).
pub(super) fn keep_above_floor(
    baking: &Baking<'_>,
    planted: &Planted<'_>,
    frames: &mut [Vec<f64>],
    (blend, first): (i64, i64),
    start: Vec<OnPoint<Lock>>,
) -> Result<Vec<OnPoint<Lock>>, CleanupError> {
    let skeleton = baking.skeleton;
    let floor = planted.floor;
    let mut holding: Vec<OnPoint<&Lock>> = Vec::new();
    for (&(i, _), lock) in planted.found.iter().zip(planted.locks) {
        let k = floor
            .points()
            .iter()
            .position(|q| q.is_at(&planted.points[i]));
        if let (Some(k), Some(lock)) = (k, lock) {
            holding.push((k, lock));
        }
    }
    let slides = |frames: &[Vec<f64>]| -> Vec<f64> {
        let after = paths(skeleton, frames, planted.points);
        planted
            .found
            .iter()
            .map(|&(i, c)| {
                (c.first..=c.last)
                    .map(|f| (after[i][f] - c.planted).norm())
                    .fold(0.0, f64::max)
            })
            .collect()
    };
    let held_before = slides(frames);
    let mut added = start;
    for _ in 0..ROUNDS {
        // Each round makes the whole set again, over the frames that sink now and those the
        // last set held: a lock that ends too early grows rather than gains a neighbour.
        let depths = floor.depths(skeleton, frames);
        let next = floor_locks(
            skeleton,
            floor,
            frames,
            &depths,
            (&holding, &added),
            blend,
            first,
        )?;
        // By name (the point and the frames): the plane's point across the floor is only where
        // the editor draws it.
        let is_in = |l: &Lock, set: &[OnPoint<Lock>]| set.iter().any(|(_, m)| m.name == l.name);
        let changed: Vec<Lock> = next
            .iter()
            .filter(|(_, l)| !is_in(l, &added))
            .chain(added.iter().filter(|(_, l)| !is_in(l, &next)))
            .map(|(_, l)| l.clone())
            .collect();
        if changed.is_empty() {
            break;
        }
        added = next;
        baking.refresh(
            &locks_of(&added),
            &changed.iter().collect::<Vec<_>>(),
            frames,
        );
    }
    // A contact held before and not now: the floor locks of its leg around it give way, first
    // weighing less, then gone.
    for softer in [Some(SOFTER_WEIGHT), None] {
        let now = slides(frames);
        let spoiled: Vec<&Lock> = (0..planted.found.len())
            .filter(|&m| held_before[m] <= HELD_WITHIN && now[m] > HELD_WITHIN)
            .filter_map(|m| planted.locks[m])
            .collect();
        let spoils = |floor_lock: &Lock| {
            spoiled
                .iter()
                .any(|contact| shares_a_joint(floor_lock, contact) && overlap(floor_lock, contact))
        };
        let changed: Vec<Lock> = match softer {
            Some(weight) => {
                let mut changed = Vec::new();
                for (_, lock) in added.iter_mut() {
                    if spoils(lock) && lock.goal().weight > weight {
                        lock.set_weight(weight)?;
                        changed.push(lock.clone());
                    }
                }
                changed
            }
            None => {
                let (gone, kept): (Vec<_>, Vec<_>) =
                    added.into_iter().partition(|(_, l)| spoils(l));
                added = kept;
                locks_of(&gone)
            }
        };
        if !changed.is_empty() {
            baking.refresh(
                &locks_of(&added),
                &changed.iter().collect::<Vec<_>>(),
                frames,
            );
        }
    }
    Ok(added)
}

/// A lock and the floor point (an index into the floor's points) it holds.
pub(super) type OnPoint<L> = (usize, L);

/// The locks of (point, lock) pairs.
pub(super) fn locks_of(pairs: &[OnPoint<Lock>]) -> Vec<Lock> {
    pairs.iter().map(|(_, l)| l.clone()).collect()
}

/// The weight of a floor lock (a contact's is 1): weighted solvers give way to the contacts.
pub const FLOOR_WEIGHT: f64 = 0.3;

/// The weight of a floor lock that made a contact of its leg slide at [`FLOOR_WEIGHT`].
pub const SOFTER_WEIGHT: f64 = 0.1;

/// Whether two locks move a joint in common.
fn shares_a_joint(a: &Lock, b: &Lock) -> bool {
    a.limb().columns().iter().any(|&c| b.limb().contains(c))
}

/// Whether two locks hold (or ease) on a frame in common.
fn overlap(a: &Lock, b: &Lock) -> bool {
    let span = |l: &Lock| l.reach().unwrap_or((i64::MIN, i64::MAX));
    let ((a0, a1), (b0, b1)) = (span(a), span(b));
    a0 <= b1 && b0 <= a1
}

/// A point sinking less than this below its floor is on it (metres): no lock for a dip no one
/// sees.
pub const ON_THE_FLOOR: f64 = 0.002;

/// The locks that keep `floor`'s points above the floor (each with its floor point), over the
/// runs of frames where `depths` (per frame, per floor point) says they go below, or a lock of
/// `before` (the last set) held them, and no lock of `holding` (a lock and the floor point it
/// holds) holds the point itself fully. `frames` are the states baked; `blend` the frames locks
/// ease over; frame `f` is sequence frame `first + f`.
fn floor_locks(
    skeleton: &Skeleton,
    floor: &FloorPoints,
    frames: &[Vec<f64>],
    depths: &[Vec<f64>],
    (holding, before): (&[OnPoint<&Lock>], &[OnPoint<Lock>]),
    blend: i64,
    first: i64,
) -> Result<Vec<OnPoint<Lock>>, LockError> {
    let mut out = Vec::new();
    let mut fk = Fk::new(skeleton);
    for (k, point) in floor.points().iter().enumerate() {
        let at = |f: usize| Some(first + f as i64);
        let held = |f: usize| {
            holding
                .iter()
                .any(|(j, l)| *j == k && l.hold_at(at(f)) >= 1.0)
        };
        let was_held = |f: usize| {
            before
                .iter()
                .any(|(j, l)| *j == k && l.hold_at(at(f)) >= 1.0)
        };
        let sinks = |f: usize| (depths[f][k] > ON_THE_FLOOR || was_held(f)) && !held(f);
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for f in (0..depths.len()).filter(|&f| sinks(f)) {
            match runs.last_mut() {
                // Runs closer than a lock's easing out and in, with nothing holding the point
                // between them, are one.
                Some((_, last))
                    if f - *last <= 2 * blend.max(0) as usize + 1 && !(*last..f).any(held) =>
                {
                    *last = f;
                }
                _ => runs.push((f, f)),
            }
        }
        // A point dipping on the take's first or last frame alone is left (a capture's
        // calibration pose, CMU's T-pose on frame 0): a lock there would turn the leg on that
        // frame only, away from the motion on the next.
        let end = depths.len().saturating_sub(1);
        for (a, b) in runs
            .into_iter()
            .filter(|&(a, b)| !(a == b && (a == 0 || a == end)))
        {
            // The plane's point is where the point is on average (where the editor draws it).
            let mut mean = Vector3::zeros();
            for q in &frames[a..=b] {
                fk.update(skeleton, q);
                mean += fk.point(point.joint, &point.offset);
            }
            mean /= (b + 1 - a) as f64;
            let on_floor = Vector3::new(mean.x, floor.floors()[k], mean.z);
            let (fa, fb) = (first + a as i64, first + b as i64);
            let name = format!("{}{fa}–{fb}", point.floor_prefix());
            let mut lock = point.floor_lock(skeleton, name, on_floor)?;
            lock.set_frames(Some((fa, fb)))?;
            lock.set_blend(blend)?;
            // Below the contacts: where both cannot be met, the planted feet win.
            lock.set_priority(1);
            lock.set_weight(FLOOR_WEIGHT)?;
            out.push((k, lock));
        }
    }
    Ok(out)
}
