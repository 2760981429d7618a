//! A foot that rolls stays above the floor: where, after the contacts are locked, a point of a
//! foot (a heel, a toe tip, the ankle, the ball of the foot) goes below its floor while no lock
//! holds it (the heel planted and the foot pitching its toes into the floor to keep it there;
//! heel and toe tip planted and the toes bent so that the ball goes through), it is held where
//! it is over those frames, lifted by how far it sinks at the deepest: heel strike, flat and toe
//! off become a sequence of supports, each planted while it is down. Such locks are named
//! `<point> floor <first>–<last>` and ease in and out as contacts do.

use marionette_document::{Lock, LockError};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Vector3;

use super::{Baking, CleanupError, FloorPoints, HELD_WITHIN, Planted, paths};

/// How many times floor locks are added and the sequence baked again.
const ROUNDS: usize = 3;

/// The floor locks that keep the feet of `planted` above the floor over the bake of `baking`
/// (`frames`, updated to the bake with them): added in rounds where points still sink, then
/// those of a leg dropped around a contact they made slide (a contact held before them wins:
/// the foot then sinks there, and the cleanup says how far).
pub(super) fn keep_above_floor(
    baking: &Baking<'_>,
    planted: &Planted<'_>,
    frames: &mut [Vec<f64>],
    blend: i64,
    first: i64,
) -> Result<Vec<Lock>, CleanupError> {
    let skeleton = baking.skeleton;
    let floor = planted.floor;
    let mut holding: Vec<(usize, &Lock)> = Vec::new();
    for (&(i, _), lock) in planted.found.iter().zip(planted.locks) {
        let k = floor
            .points()
            .iter()
            .position(|q| q.is_at(&planted.points[i]));
        if let (Some(k), Some(lock)) = (k, lock) {
            holding.push((k, lock));
        }
    }
    // Per floor point, the contact locks of its foot: it is kept above the floor only while
    // its foot stands (a foot in the air that dips is the hips' to lift).
    let standing: Vec<Vec<&Lock>> = (0..floor.points().len())
        .map(|k| {
            let i = floor.found_from(k);
            let leg = planted.points[i].leg;
            planted
                .found
                .iter()
                .zip(planted.locks)
                .filter(|((j, _), _)| *j == i || (leg.is_some() && planted.points[*j].leg == leg))
                .filter_map(|(_, l)| *l)
                .collect()
        })
        .collect();
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
    let mut added: Vec<(usize, Lock)> = Vec::new();
    for _ in 0..ROUNDS {
        let depths = floor.depths(skeleton, frames);
        let mut all_holding = holding.clone();
        all_holding.extend(added.iter().map(|(k, l)| (*k, l)));
        let more = floor_locks(
            skeleton,
            floor,
            frames,
            &depths,
            (&all_holding, &standing),
            blend,
            first,
        )?;
        if more.is_empty() {
            break;
        }
        let new = more.len();
        for lock in more {
            let k = floor
                .points()
                .iter()
                .position(|p| lock.name.starts_with(&p.floor_prefix()))
                .unwrap_or(0);
            added.push((k, lock));
        }
        let changed: Vec<&Lock> = added[added.len() - new..].iter().map(|(_, l)| l).collect();
        baking.refresh(&locks_of(&added), &changed, frames);
    }
    // A contact held before and not now: the floor locks of its leg around it go.
    let now = slides(frames);
    let spoiled: Vec<usize> = (0..planted.found.len())
        .filter(|&m| {
            planted.locks[m].is_some() && held_before[m] <= HELD_WITHIN && now[m] > HELD_WITHIN
        })
        .collect();
    if !spoiled.is_empty() {
        let before = added.clone();
        added.retain(|(_, floor_lock)| {
            !spoiled.iter().any(|&m| {
                let contact = planted.locks[m].expect("locked");
                let shares = floor_lock
                    .limb()
                    .columns()
                    .iter()
                    .any(|&c| contact.limb().contains(c));
                let span = |l: &Lock| {
                    l.frames()
                        .map(|(a, b)| (a - l.blend(), b + l.blend()))
                        .unwrap_or((i64::MIN, i64::MAX))
                };
                let ((a, b), (c, d)) = (span(floor_lock), span(contact));
                shares && a <= d && c <= b
            })
        });
        let dropped: Vec<&Lock> = before
            .iter()
            .map(|(_, l)| l)
            .filter(|l| !added.iter().any(|(_, kept)| kept.name == l.name))
            .collect();
        if !dropped.is_empty() {
            baking.refresh(&locks_of(&added), &dropped, frames);
        }
    }
    Ok(locks_of(&added))
}

/// The locks of (point, lock) pairs.
fn locks_of(pairs: &[(usize, Lock)]) -> Vec<Lock> {
    pairs.iter().map(|(_, l)| l.clone()).collect()
}

/// The weight of a floor lock (a contact's is 1): weighted solvers give way to the contacts.
pub const FLOOR_WEIGHT: f64 = 0.3;

/// A point sinking less than this below its floor is on it (metres).
pub const ON_THE_FLOOR: f64 = 0.0005;

/// The locks that keep `floor`'s points above the floor, over the runs of frames where
/// `depths` (per frame, per floor point) says they go below, a lock of `standing` (per floor
/// point, its foot's contact locks) holds its foot fully and no lock of `holding` (a lock and the
/// floor point it holds) holds the point itself fully. `frames` are the states baked; `blend`
/// the frames locks ease over; frame `f` is sequence frame `first + f`.
fn floor_locks(
    skeleton: &Skeleton,
    floor: &FloorPoints,
    frames: &[Vec<f64>],
    depths: &[Vec<f64>],
    (holding, standing): (&[(usize, &Lock)], &[Vec<&Lock>]),
    blend: i64,
    first: i64,
) -> Result<Vec<Lock>, LockError> {
    let mut out = Vec::new();
    let mut fk = Fk::new(skeleton);
    for (k, point) in floor.points().iter().enumerate() {
        let held = |f: usize| {
            holding
                .iter()
                .any(|(j, l)| *j == k && l.hold_at(Some(first + f as i64)) >= 1.0)
        };
        let stands = |f: usize| {
            standing[k]
                .iter()
                .any(|l| l.hold_at(Some(first + f as i64)) >= 1.0)
        };
        let sinks = |f: usize| depths[f][k] > ON_THE_FLOOR && !held(f) && stands(f);
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
        for (a, b) in runs {
            let deepest = (a..=b)
                .max_by(|&x, &y| depths[x][k].total_cmp(&depths[y][k]))
                .unwrap_or(a);
            let mut mean = Vector3::zeros();
            for q in &frames[a..=b] {
                fk.update(skeleton, q);
                mean += fk.point(point.joint, &point.offset);
            }
            mean /= (b + 1 - a) as f64;
            fk.update(skeleton, &frames[deepest]);
            let lifted = fk.point(point.joint, &point.offset).y + depths[deepest][k];
            let target = Vector3::new(mean.x, lifted, mean.z);
            let (fa, fb) = (first + a as i64, first + b as i64);
            let name = format!("{}{fa}–{fb}", point.floor_prefix());
            let mut lock = point.lock(skeleton, name, target)?;
            lock.set_frames(Some((fa, fb)))?;
            lock.set_blend(blend)?;
            // Below the contacts: where both cannot be met, the planted feet win.
            lock.set_priority(1);
            lock.set_weight(FLOOR_WEIGHT)?;
            out.push(lock);
        }
    }
    Ok(out)
}
