//! Baking: every frame of a sequence from its first key to its last, each interpolated
//! ([`Interpolator`]) and, when the sequence holds its locks, re-solved against the locks enabled
//! on that frame, moving only their limbs ([`GoalSet::with_locks`]).
//!
//! Each frame is solved from its own interpolated pose with a solver made for it, so a frame's
//! result depends on nothing but the sequence, the locks and its number: frames are baked in
//! parallel (rayon) and the result is bit-identical with one thread or many.

use marionette_document::{GoalSet, Lock, Sequence};
use marionette_ik::{Settings, SolverKind, solve};
use marionette_skeleton::{Fk, Skeleton};
use rayon::prelude::*;

use crate::interpolate::Interpolator;

/// How each frame's locks are solved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BakeSettings {
    /// The method.
    pub solver: SolverKind,
    /// Each lock's error the solve stops at (metres or radians), well below the usual 0.1 mm
    /// tolerance a bake is judged by.
    pub tolerance: f64,
    /// Updates per frame at most.
    pub max_iterations: usize,
}

impl Default for BakeSettings {
    fn default() -> Self {
        BakeSettings {
            solver: SolverKind::DampedLeastSquares,
            tolerance: 1e-7,
            max_iterations: 100,
        }
    }
}

/// One baked frame.
#[derive(Debug, Clone, PartialEq)]
pub struct BakedFrame {
    /// The frame number.
    pub frame: i64,
    /// The state vector (root translation, then every DOF in program units).
    pub q: Vec<f64>,
    /// (document index of the lock, its goal error) for every lock active on the frame, in
    /// document order.
    pub lock_errors: Vec<(usize, f64)>,
}

/// A sequence made ready to bake: its interpolator, the locks, the skeleton's stiffness.
#[derive(Debug, Clone)]
pub struct Baker<'a> {
    skeleton: &'a Skeleton,
    locks: &'a [Lock],
    interpolator: Interpolator,
    hold_locks: bool,
    stiffness: Vec<f64>,
    settings: BakeSettings,
    /// The edge frames easing locks are measured on, made once and shared by every frame
    /// (and thread) that needs them: (frame, locks left out, depth) → pose.
    edges: std::sync::Arc<std::sync::Mutex<EdgeCache>>,
}

/// Poses of edge frames by (frame, locks left out, depth).
type EdgeCache = std::collections::HashMap<(i64, Vec<usize>, usize), Vec<f64>>;

impl<'a> Baker<'a> {
    /// A baker of `sequence` (valid: at least one key, poses of `skeleton`) against `locks`.
    pub fn new(
        skeleton: &'a Skeleton,
        sequence: &Sequence,
        locks: &'a [Lock],
        settings: BakeSettings,
    ) -> Baker<'a> {
        Baker {
            skeleton,
            locks,
            interpolator: Interpolator::new(skeleton, sequence),
            hold_locks: sequence.hold_locks,
            stiffness: skeleton.joints().iter().map(|j| j.stiffness).collect(),
            settings,
            edges: Default::default(),
        }
    }

    /// The frames a bake covers: first key to last, inclusive.
    pub fn range(&self) -> (i64, i64) {
        self.interpolator.range()
    }

    /// The interpolated pose at `frame`, before the locks are solved.
    pub fn interpolated(&self, frame: i64) -> Vec<f64> {
        let mut q = Vec::new();
        self.interpolator.pose_at(self.skeleton, frame, &mut q);
        q
    }

    /// One frame: interpolated, its locks solved when the sequence holds them, their errors.
    pub fn frame(&self, frame: i64, fk: &mut Fk) -> BakedFrame {
        let q = self.interpolated(frame);
        self.solve_locks(frame, q, fk)
    }

    /// `q` (a pose at `frame`) re-solved against the locks active on `frame` when the sequence
    /// holds them, with every active lock's error.
    ///
    /// A lock easing in or out (within its blend of its range) adds the change it makes on the
    /// edge of its range, in joint values, scaled by its hold: the frame is made as it would be
    /// without that lock, and the difference between the edge frame made with it and without it
    /// is added (Kovar, Schreiner & Gleicher 2002 blend a constraint's adjustment into the
    /// neighbouring frames the same way). No solve towards a point the leg may not reach, and
    /// as the hold reaches 1 the frame reaches the edge frame exactly, so nothing jumps: the
    /// point follows the motion with the correction fading in or out. Several locks easing at
    /// once are taken one at a time, each against the frame made without it; the active locks
    /// are then solved once more from the result.
    pub fn solve_locks(&self, frame: i64, q: Vec<f64>, fk: &mut Fk) -> BakedFrame {
        let q = if self.hold_locks {
            self.pose(frame, q, &[], 0)
        } else {
            q
        };
        fk.update(self.skeleton, &q);
        let lock_errors = self
            .locks
            .iter()
            .enumerate()
            .filter(|(_, lock)| lock.active_at(Some(frame)))
            .map(|(i, lock)| (i, lock.goal().kind.error(self.skeleton, fk)))
            .collect();
        BakedFrame {
            frame,
            q,
            lock_errors,
        }
    }

    /// Edge frames looked at inside edge frames at most (beyond, easing locks are left out).
    const EASING_DEPTH: usize = 3;

    /// The frame `frame` made from `q` (its interpolated pose) with every lock but those of
    /// `without` (document indices): the active locks solved, each easing lock's change on its
    /// edge added scaled by its hold.
    fn pose(&self, frame: i64, mut q: Vec<f64>, without: &[usize], depth: usize) -> Vec<f64> {
        let kept = |i: &usize| !without.contains(i);
        let active = GoalSet::with_locks_except(self.locks, Some(frame), without);
        // The first easing lock (document order); the others are taken inside.
        let easing = (0..self.locks.len()).filter(kept).find_map(|i| {
            let lock = &self.locks[i];
            let hold = if lock.enabled {
                lock.hold_at(Some(frame))
            } else {
                0.0
            };
            let (first, last) = lock.frames()?;
            (hold > 0.0 && hold < 1.0).then_some((
                i,
                hold,
                if frame < first { first } else { last },
            ))
        });
        let Some((i, hold, edge)) = easing.filter(|_| depth < Self::EASING_DEPTH) else {
            if active.has_locks() {
                self.solve(&active, &mut q);
            }
            return q;
        };
        let mut less = without.to_vec();
        less.push(i);
        let mut out = self.pose(frame, q, &less, depth);
        let with = self.edge_pose(edge, without, depth + 1);
        let base = self.edge_pose(edge, &less, depth + 1);
        for (c, value) in out.iter_mut().enumerate() {
            let change = with[c] - base[c];
            *value = match self.skeleton.dof_at_state(c).map(|d| self.skeleton.dof(d)) {
                Some(d) if d.unlimited => marionette_skeleton::angles::wrap_angle(
                    *value + hold * marionette_skeleton::angles::wrap_angle(change),
                ),
                Some(d) => (*value + hold * change).clamp(d.min, d.max),
                None => *value + hold * change,
            };
        }
        if active.has_locks() {
            self.solve(&active, &mut out);
        }
        out
    }

    /// [`Baker::pose`] of an edge frame, from the cache when it was made before (a pure
    /// function of its arguments, so the bake stays the same whatever the threads).
    fn edge_pose(&self, frame: i64, without: &[usize], depth: usize) -> Vec<f64> {
        let mut key_without = without.to_vec();
        key_without.sort_unstable();
        let key = (frame, key_without, depth);
        if let Some(q) = self.edges.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return q;
        }
        let q = self.pose(frame, self.interpolated(frame), without, depth);
        if let Ok(mut cache) = self.edges.lock() {
            cache.insert(key, q.clone());
        }
        q
    }

    /// Solves `set` from `q`.
    fn solve(&self, set: &GoalSet, q: &mut [f64]) {
        solve_frame(self.skeleton, &self.stiffness, set, q, self.settings);
    }

    /// Every frame, on the current rayon pool, calling `progress` after each.
    pub fn bake(&self, progress: &(dyn Fn() + Sync)) -> Vec<BakedFrame> {
        let (first, last) = self.range();
        (first..=last)
            .into_par_iter()
            .map_init(
                || Fk::new(self.skeleton),
                |fk, f| {
                    let frame = self.frame(f, fk);
                    progress();
                    frame
                },
            )
            .collect()
    }
}

/// Bakes on a pool of `threads` threads (0: one per core).
pub fn bake_with_threads(
    baker: &Baker<'_>,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<BakedFrame>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| baker.bake(progress)))
}

/// Per lock (document index), the number of frames it was active on and its largest error.
pub fn lock_summary(frames: &[BakedFrame], lock_count: usize) -> Vec<(usize, usize, f64)> {
    let mut out: Vec<(usize, usize, f64)> = (0..lock_count).map(|i| (i, 0, 0.0)).collect();
    for frame in frames {
        for &(i, error) in &frame.lock_errors {
            out[i].1 += 1;
            if error.is_nan() || error > out[i].2 {
                out[i].2 = error;
            }
        }
    }
    out.retain(|(_, frames, _)| *frames > 0);
    out
}

/// Solves `set` from `q` on `skeleton` (its joints' `stiffness`) as a bake solves a frame's
/// locks with `settings`.
pub fn solve_frame(
    skeleton: &Skeleton,
    stiffness: &[f64],
    set: &GoalSet,
    q: &mut [f64],
    settings: BakeSettings,
) {
    let mut system = set.system(skeleton, stiffness);
    let mut solver = settings.solver.build();
    solve(
        solver.as_mut(),
        &mut system,
        q,
        Settings {
            tolerance: settings.tolerance,
            max_iterations: settings.max_iterations,
        },
    );
}
