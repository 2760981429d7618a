//! The physical ghost's momentum part ([`hold_momentum`]): in flight nothing but gravity acts
//! on a figure, so its angular momentum about its centre of mass stays what it was at take-off
//! while its limbs move. Over a flight the root's orientation is found so that the momentum
//! [`physics check`](crate::check) measures (central differences, [`momentum_about`]) is the
//! same on every frame, the limbs moving as the take moves them, the take-off and landing
//! frames as they are.
//!
//! The unknowns are a rotation vector δₖ per frame of the flight, turning the take's root
//! (Rₖ = exp(δₖ)·Rₖ_take), and the momentum L; Gauss–Newton least squares over
//! - the momentum on each frame less L (weighted so heavily that it is met to a few parts in
//!   a million);
//! - the second differences of δ (the correction as smooth as the landing allows: a central
//!   difference ties every other frame only, and this keeps odd and even frames together);
//! - δ at up to four frames the animator marks (their keyed orientations, met as nearly as a
//!   constant momentum allows; how nearly is reported).
//!
//! After the root turns, it moves so that the centre of mass stays where the take had it.
//! Baraff & Witkin's and Liu & Popović's keyframe-physics papers constrain the same momentum
//! over flight; Cascadeur shows it as an arrow of constant length.

use marionette_skeleton::joint_rotation::JointRotations;
use marionette_skeleton::{Fk, JointId, Skeleton};
use nalgebra::{DMatrix, DVector, Matrix3, Rotation3, UnitQuaternion, Vector3};

use crate::masses::MassModel;
use crate::track::{SegmentFrame, momentum_about};

/// Momentum rows: one unit per this many m²/s per kg of the figure.
const MOMENTUM_UNIT: f64 = 1e-6;
/// Smoothness rows: one unit per this many radians of second difference.
const SMOOTH_UNIT: f64 = 1.0;
/// Mark rows: one unit per this many radians off the keyed orientation.
const MARK_UNIT: f64 = 0.01;
/// Step for the finite-difference Jacobian (radians).
const STEP: f64 = 1e-7;

/// The flight with its momentum held.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldMomentum {
    /// The poses of the flight's frames between take-off and landing, in order.
    pub poses: Vec<Vec<f64>>,
    /// The angular momentum held (kg·m²/s, world).
    pub momentum: Vector3<f64>,
    /// Per marked frame (an index into the flight, take-off 0), how far the ghost's root turns
    /// from the take's there (degrees).
    pub marks: Vec<(usize, f64)>,
}

/// The frames' segments in their root's frame, which turning the root does not change.
struct Local {
    /// Per frame, per segment: its centre less the centre of mass, in the root's frame.
    offsets: Vec<Vec<Vector3<f64>>>,
    /// Per frame, per segment: its orientation in the root's frame.
    rotations: Vec<Vec<Matrix3<f64>>>,
    /// Per frame, the take's root orientation (world).
    roots: Vec<Matrix3<f64>>,
}

impl Local {
    fn of(skeleton: &Skeleton, model: &MassModel, flight: &[Vec<f64>]) -> Local {
        let mut fk = Fk::new(skeleton);
        let root = skeleton.root();
        let mut local = Local {
            offsets: Vec::with_capacity(flight.len()),
            rotations: Vec::with_capacity(flight.len()),
            roots: Vec::with_capacity(flight.len()),
        };
        for q in flight {
            fk.update_transforms(skeleton, q);
            let turn = *fk.joint_rotation(root);
            let com = model.center_of_mass(&fk);
            let back = turn.transpose();
            local.offsets.push(
                (model.segments.iter())
                    .map(|s| back * (fk.point(s.joint, &s.center) - com))
                    .collect(),
            );
            local.rotations.push(
                (model.segments.iter())
                    .map(|s| back * fk.joint_rotation(s.joint))
                    .collect(),
            );
            local.roots.push(turn);
        }
        local
    }
}

/// A frame's segments in the world for root orientation `root`, the centre of mass at the
/// origin.
struct World {
    centers: Vec<Vector3<f64>>,
    rotations: Vec<Matrix3<f64>>,
}

impl World {
    fn of(local: &Local, k: usize, root: &Matrix3<f64>) -> World {
        World {
            centers: local.offsets[k].iter().map(|c| root * c).collect(),
            rotations: local.rotations[k].iter().map(|r| root * r).collect(),
        }
    }

    fn frame(&self) -> SegmentFrame<'_> {
        SegmentFrame {
            centers: &self.centers,
            rotations: &self.rotations,
            com: Vector3::zeros(),
        }
    }
}

/// The problem: the flight's frames (take-off 0, landing `last`), the unknowns δ₁..δ_{last−1}
/// then L.
struct Problem<'a> {
    model: &'a MassModel,
    local: Local,
    dt: f64,
    last: usize,
    marks: Vec<usize>,
}

impl Problem<'_> {
    fn unknowns(&self) -> usize {
        3 * (self.last - 1) + 3
    }

    /// Frame `k`'s root orientation under `x`.
    fn root(&self, x: &DVector<f64>, k: usize) -> Matrix3<f64> {
        let take = self.local.roots[k];
        if k == 0 || k == self.last {
            return take;
        }
        Rotation3::new(self.delta(x, k)).into_inner() * take
    }

    fn delta(&self, x: &DVector<f64>, k: usize) -> Vector3<f64> {
        if k == 0 || k == self.last {
            Vector3::zeros()
        } else {
            x.fixed_rows::<3>(3 * (k - 1)).into_owned()
        }
    }

    fn held(&self, x: &DVector<f64>) -> Vector3<f64> {
        x.fixed_rows::<3>(3 * (self.last - 1)).into_owned()
    }

    /// Every frame's segments in the world under `x`.
    fn worlds(&self, x: &DVector<f64>) -> Vec<World> {
        (0..=self.last)
            .map(|k| World::of(&self.local, k, &self.root(x, k)))
            .collect()
    }

    /// The momentum at frame `f` (0 < f < last) of `worlds`, frame `k`'s replaced by `moved`
    /// when given.
    fn momentum(&self, worlds: &[World], f: usize, moved: Option<(usize, &World)>) -> Vector3<f64> {
        let at = |k: usize| match moved {
            Some((m, world)) if m == k => world.frame(),
            _ => worlds[k].frame(),
        };
        momentum_about(self.model, [at(f - 1), at(f), at(f + 1)], 2.0 * self.dt)
    }

    /// One Gauss–Newton step's normal equations (JᵀJ, −Jᵀr) at `x`, built row block by row
    /// block (a frame's momentum depends on its neighbours' turns only).
    fn normal_equations(&self, x: &DVector<f64>) -> (DMatrix<f64>, DVector<f64>) {
        let u = self.unknowns();
        let (mut h, mut g) = (DMatrix::zeros(u, u), DVector::zeros(u));
        let per_kg = 1.0 / (self.model.total * MOMENTUM_UNIT);
        let n = self.last - 1;
        let held = self.held(x);
        let worlds = self.worlds(x);
        let momenta: Vec<Vector3<f64>> = (0..=self.last)
            .map(|f| {
                if f == 0 || f == self.last {
                    Vector3::zeros()
                } else {
                    self.momentum(&worlds, f, None)
                }
            })
            .collect();
        // d(momentum at f)/d(turn of k), for k = f − 1, f, f + 1.
        let mut blocks = vec![[Matrix3::<f64>::zeros(); 3]; self.last + 1];
        for k in 1..self.last {
            let d = self.delta(x, k);
            for axis in 0..3 {
                let mut step = d;
                step[axis] += STEP;
                let turned = Rotation3::new(step).into_inner() * self.local.roots[k];
                let world = World::of(&self.local, k, &turned);
                for f in (k - 1).max(1)..=(k + 1).min(n) {
                    let change = (self.momentum(&worlds, f, Some((k, &world))) - momenta[f]) / STEP;
                    blocks[f][k + 1 - f].set_column(axis, &(change * per_kg));
                }
            }
        }
        let mut add = |cols: &[(usize, Matrix3<f64>)], r: Vector3<f64>| {
            for &(ci, ji) in cols {
                let gi = ji.transpose() * r;
                for a in 0..3 {
                    g[ci + a] -= gi[a];
                }
                for &(cj, jj) in cols {
                    let block = ji.transpose() * jj;
                    for a in 0..3 {
                        for b in 0..3 {
                            h[(ci + a, cj + b)] += block[(a, b)];
                        }
                    }
                }
            }
        };
        let column = |k: usize| 3 * (k - 1);
        let identity = Matrix3::identity();
        for f in 1..self.last {
            let mut cols: Vec<(usize, Matrix3<f64>)> = (f - 1..=f + 1)
                .filter(|&k| 0 < k && k < self.last)
                .map(|k| (column(k), blocks[f][k + 1 - f]))
                .collect();
            cols.push((3 * n, -identity * per_kg));
            add(&cols, (momenta[f] - held) * per_kg);
            let smooth: Vec<(usize, Matrix3<f64>)> = [(f - 1, 1.0), (f, -2.0), (f + 1, 1.0)]
                .into_iter()
                .filter(|&(k, _)| 0 < k && k < self.last)
                .map(|(k, w)| (column(k), identity * (w / SMOOTH_UNIT)))
                .collect();
            let bend = self.delta(x, f - 1) - 2.0 * self.delta(x, f) + self.delta(x, f + 1);
            add(&smooth, bend / SMOOTH_UNIT);
        }
        for &k in &self.marks {
            add(
                &[(column(k), identity / MARK_UNIT)],
                self.delta(x, k) / MARK_UNIT,
            );
        }
        (h, g)
    }
}

/// Holds the angular momentum of `flight` (its frames from take-off to landing, `fps` apart)
/// constant by turning the root of every frame between them, fitted to the take's
/// orientations at `marks` (indices into `flight`, between its ends; up to four). The centre
/// of mass stays where the take had it.
pub fn hold_momentum(
    skeleton: &Skeleton,
    model: &MassModel,
    flight: &[Vec<f64>],
    fps: f64,
    marks: &[usize],
) -> HeldMomentum {
    let last = flight.len() - 1;
    let mut problem = Problem {
        model,
        local: Local::of(skeleton, model, flight),
        dt: 1.0 / fps,
        last,
        marks: marks
            .iter()
            .copied()
            .filter(|&k| 0 < k && k < last)
            .collect(),
    };
    problem.marks.dedup();
    if last < 2 {
        return HeldMomentum {
            poses: flight[1..last].to_vec(),
            momentum: Vector3::zeros(),
            marks: Vec::new(),
        };
    }
    let mut x = DVector::zeros(problem.unknowns());
    let worlds = problem.worlds(&x);
    let start: Vector3<f64> = (1..last)
        .map(|f| problem.momentum(&worlds, f, None))
        .sum::<Vector3<f64>>()
        / (last - 1) as f64;
    x.fixed_rows_mut::<3>(3 * (last - 1)).copy_from(&start);
    for _ in 0..12 {
        let (h, g) = problem.normal_equations(&x);
        let Some(chol) = h.cholesky() else {
            break;
        };
        let step = chol.solve(&g);
        x += &step;
        let turned = step.rows(0, 3 * (last - 1)).amax();
        if turned < 1e-9 {
            break;
        }
    }
    let poses = (1..last)
        .map(|k| turned_pose(skeleton, model, &flight[k], &problem.root(&x, k)))
        .collect();
    let marks = (problem.marks.iter())
        .map(|&k| (k, problem.delta(&x, k).norm().to_degrees()))
        .collect();
    HeldMomentum {
        poses,
        momentum: problem.held(&x),
        marks,
    }
}

/// `q` with its root turned to `root` (world) and moved so its centre of mass stays.
fn turned_pose(skeleton: &Skeleton, model: &MassModel, q: &[f64], root: &Matrix3<f64>) -> Vec<f64> {
    let mut fk = Fk::new(skeleton);
    fk.update_transforms(skeleton, q);
    let com = model.center_of_mass(&fk);
    let id: JointId = skeleton.root();
    let hinges = skeleton.joint(id).orientation.transpose() * root;
    let target = UnitQuaternion::from_matrix(&hinges);
    let mut turned = q.to_vec();
    JointRotations::new(skeleton).read_back(skeleton, id, &target, &mut turned);
    fk.update_transforms(skeleton, &turned);
    let moved = com - model.center_of_mass(&fk);
    for (axis, v) in moved.iter().enumerate() {
        turned[axis] += v;
    }
    turned
}
