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
}

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
    /// holds them, with every active lock's error. A lock easing in or out (within its blend of
    /// its range) is solved too, and its limb then moved only that part of the way from `q`
    /// (the DOFs no active lock keeps).
    pub fn solve_locks(&self, frame: i64, mut q: Vec<f64>, fk: &mut Fk) -> BakedFrame {
        let holding = GoalSet::with_locks_holding(self.locks, Some(frame));
        if self.hold_locks && holding.has_locks() {
            let free = q.clone();
            let mut system = holding.system(self.skeleton, &self.stiffness);
            let mut solver = self.settings.solver.build();
            solve(
                solver.as_mut(),
                &mut system,
                &mut q,
                Settings {
                    tolerance: self.settings.tolerance,
                    max_iterations: self.settings.max_iterations,
                },
            );
            self.ease(frame, &holding, &free, &mut q);
        }
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

    /// Moves the limbs of the locks easing in or out on `frame` (those of `holding` that are
    /// not active) back towards `free`, the pose before the solve, keeping the part of the way
    /// their hold says.
    fn ease(&self, frame: i64, holding: &GoalSet, free: &[f64], q: &mut [f64]) {
        for owner in holding.owners() {
            let marionette_document::Owner::Lock(i) = owner else {
                continue;
            };
            let lock = &self.locks[*i];
            let hold = lock.hold_at(Some(frame));
            if hold >= 1.0 {
                continue;
            }
            for &c in lock.limb().columns() {
                let unlimited = self
                    .skeleton
                    .dof_at_state(c)
                    .is_some_and(|d| self.skeleton.dof(d).unlimited);
                q[c] = if unlimited {
                    let delta = marionette_skeleton::angles::wrap_angle(q[c] - free[c]);
                    marionette_skeleton::angles::wrap_angle(free[c] + hold * delta)
                } else {
                    free[c] + hold * (q[c] - free[c])
                };
            }
        }
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
