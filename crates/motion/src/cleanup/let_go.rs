//! A heel that lifts so the foot stays above the floor: where a point of a foot still goes below
//! the floor after the floor locks ([`super::floor_locks`]) while two contacts of that foot are
//! both held (the heel and the toe tip planted in a crouch deeper than the ankle can fold: the
//! foot cannot lie flat under the shin, so holding both bends the toes back and pushes the ball
//! of the foot through the floor), the contact that ends first lets go before the point sinks:
//! the foot rolls onto the other one, as a person lifts the heel in a deep squat (of the
//! supports heel strike, flat and toe off, the toe off begun earlier).
//! The floor locks are then made again with that contact's lock ending earlier, and the
//! cleanup reports the contact as let go, with the frame and the point it let go for.

use marionette_document::{Lock, LockError};
use marionette_skeleton::Skeleton;

use super::baking::{Baking, CleanupError, Planted};
use super::floor::FloorPoints;
use super::floor_locks::{self, OnPoint};
use super::point::ContactPoint;
use crate::contacts::Contact;

/// A point of a foot going deeper than this below its floor while two contacts of its foot are
/// held makes the one that ends first let go (metres). Shallower dips are left to the floor
/// locks, which the contacts outweigh.
pub const LET_GO_BELOW: f64 = 0.005;

/// A contact whose lock ends before the contact does, so that its foot stays above the floor.
#[derive(Debug, Clone, PartialEq)]
pub struct LetGo {
    /// The first frame (sequence frame number) on which the point went below the floor with the
    /// contact held: the lock lets go fully before it.
    pub from: i64,
    /// The foot point that went below the floor.
    pub point: String,
    /// How far below its floor it went there (metres).
    pub depth: f64,
}

/// Floor locks, each with the index of the floor point it holds.
type FloorLocks = Vec<OnPoint<Lock>>;

/// Why a contact lets go, and the frames its lock still holds (`None`: none).
type Letting = (LetGo, Option<(i64, i64)>);

/// The floor locks (with their floor points) that keep the feet of `found` (point index into
/// `points`, contact) above `floor` over the bake of `baking` (whose locks are those besides
/// the contacts') with the contacts' locks (`contact_locks`, `None` where not locked), and per
/// contact whether it let go: where a point still sinks with two contacts of its foot held, the
/// one ending first has its lock end before (renamed for its new frames, in `names` too) or
/// dropped, the frames it reached are baked again and the floor locks made again from there.
/// `frames` (every frame, frame `f` being sequence frame `first + f`) are updated to the bake
/// with them all; `blend` is the frames locks ease over.
pub(super) fn keep_feet_above_floor(
    baking: &Baking<'_>,
    (floor, points, found): (&FloorPoints, &[ContactPoint], &[(usize, Contact)]),
    (contact_locks, names): (&mut [Option<Lock>], &mut [String]),
    frames: &mut [Vec<f64>],
    (blend, first): (i64, i64),
) -> Result<(FloorLocks, Vec<Option<LetGo>>), CleanupError> {
    let with_contacts = |contact_locks: &[Option<Lock>]| {
        let mut all = baking.locks.to_vec();
        all.extend(contact_locks.iter().flatten().cloned());
        all
    };
    let floor_kept =
        |contact_locks: &[Option<Lock>], frames: &mut [Vec<f64>], start: Vec<OnPoint<Lock>>| {
            floor_locks::keep_above_floor(
                &Baking {
                    locks: &with_contacts(contact_locks),
                    ..*baking
                },
                &Planted {
                    floor,
                    points,
                    found,
                    locks: &contact_locks.iter().map(Option::as_ref).collect::<Vec<_>>(),
                },
                frames,
                (blend, first),
                start,
            )
        };
    let mut on_the_floor = floor_kept(contact_locks, frames, Vec::new())?;
    let lets = letting_go(
        baking.skeleton,
        floor,
        found,
        contact_locks,
        frames,
        (blend, first),
    )?;
    let mut let_go: Vec<Option<LetGo>> = vec![None; found.len()];
    let mut reached: Vec<Lock> = Vec::new();
    for (m, why) in lets.into_iter().enumerate() {
        let Some((why, held)) = why else { continue };
        reached.extend(contact_locks[m].clone());
        match (held, contact_locks[m].as_mut()) {
            (Some((a, b)), Some(lock)) => {
                lock.set_frames(Some((a, b)))?;
                lock.name = format!("{}{a}–{b}", points[found[m].0].lock_prefix());
                names[m].clone_from(&lock.name);
            }
            _ => contact_locks[m] = None,
        }
        let_go[m] = Some(why);
    }
    if !reached.is_empty() {
        Baking {
            locks: &with_contacts(contact_locks),
            ..*baking
        }
        .refresh(
            &floor_locks::locks_of(&on_the_floor),
            &reached.iter().collect::<Vec<_>>(),
            frames,
        );
        on_the_floor = floor_kept(contact_locks, frames, on_the_floor)?;
    }
    Ok((on_the_floor, let_go))
}

/// Per contact of `found` (point index, contact), its lock (`locks`, `None` when not locked)
/// and where it must let go, with the lock's new frames (`None`: it cannot hold any frame
/// before the point sinks, and is dropped). `frames` are the states baked with every lock
/// (floor locks included), frame `f` being sequence frame `first + f`; `blend` the frames a
/// lock eases out over.
fn letting_go(
    skeleton: &Skeleton,
    floor: &FloorPoints,
    found: &[(usize, Contact)],
    locks: &[Option<Lock>],
    frames: &[Vec<f64>],
    (blend, first): (i64, i64),
) -> Result<Vec<Option<Letting>>, LockError> {
    let depths = floor.depths(skeleton, frames);
    // The limb of each floor point's lock and of each contact's: points whose limbs share a
    // DOF are on one foot.
    let floor_limbs = floor
        .points()
        .iter()
        .map(|p| p.limb(skeleton))
        .collect::<Result<Vec<_>, LockError>>()?;
    let mut out: Vec<Option<Letting>> = vec![None; found.len()];
    for (f, depth) in depths.iter().enumerate() {
        let frame = first + f as i64;
        for (k, &d) in depth.iter().enumerate() {
            if d <= LET_GO_BELOW {
                continue;
            }
            let holding: Vec<usize> = (0..found.len())
                .filter(|&m| {
                    locks[m].as_ref().is_some_and(|l| {
                        l.hold_at(Some(frame)) >= 1.0
                            && l.limb()
                                .columns()
                                .iter()
                                .any(|&c| floor_limbs[k].contains(c))
                    })
                })
                .collect();
            if holding.len() < 2 {
                continue;
            }
            let Some(&m) = holding.iter().min_by_key(|&&m| found[m].1.last) else {
                continue;
            };
            if out[m].is_some() {
                continue;
            }
            let (a, _) = locks[m]
                .as_ref()
                .and_then(Lock::frames)
                .unwrap_or((first + found[m].1.first as i64, frame));
            let last = frame - 1 - blend.max(0);
            out[m] = Some((
                LetGo {
                    from: frame,
                    point: floor.points()[k].name.clone(),
                    depth: d,
                },
                (last >= a).then_some((a, last)),
            ));
        }
    }
    Ok(out)
}
