//! What the cleanup's steps share: a sequence baked with its locks ([`Baking`], [`bake`]), the
//! contacts found and the locks holding them ([`Planted`]), the paths of points over frames,
//! and why a cleanup could not be made ([`CleanupError`]).

use marionette_document::{Lock, LockError, Sequence};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Vector3;

use super::floor::FloorPoints;
use super::point::ContactPoint;
use crate::bake::{BakeSettings, Baker, bake_with_threads};
use crate::contacts::Contact;

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

/// The paths of `points` over `frames`.
pub(super) fn paths(
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
pub(super) struct Baking<'a> {
    pub(super) skeleton: &'a Skeleton,
    pub(super) sequence: &'a Sequence,
    pub(super) locks: &'a [Lock],
    pub(super) settings: BakeSettings,
}

impl Baking<'_> {
    /// The frames of `frames` (every frame of the sequence) that `changed` locks reach (their
    /// ranges and blends) baked again with the locks and `more`: a frame's bake depends only on
    /// the locks holding or easing on it.
    pub(super) fn refresh(&self, more: &[Lock], changed: &[&Lock], frames: &mut [Vec<f64>]) {
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
pub(super) struct Planted<'a> {
    pub(super) floor: &'a FloorPoints,
    pub(super) points: &'a [ContactPoint],
    /// (point index, contact).
    pub(super) found: &'a [(usize, Contact)],
    /// Per contact, its lock when it is locked.
    pub(super) locks: &'a [Option<&'a Lock>],
}

/// Every frame of `sequence` baked against `locks`.
pub(super) fn bake(
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
