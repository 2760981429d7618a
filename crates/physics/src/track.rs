//! A figure's motion read frame by frame as physics needs it ([`Track`]): the centre of mass,
//! the points that can support it, and the angular momentum about the centre of mass, from the
//! segments' masses, centres and inertias ([`MassModel`]). Velocities are central differences
//! (one-sided at the ends); a segment's angular velocity is the rotation between its
//! neighbouring frames' orientations over their time apart.

use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Matrix3, Rotation3, Vector3};

use crate::masses::MassModel;

/// A figure's motion, frame by frame (world, metres, +Y up).
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    /// Frames per second.
    pub fps: f64,
    /// The centre of mass per frame.
    pub com: Vec<Vector3<f64>>,
    /// Per frame, each of the model's body points ([`MassModel::points`]).
    pub points: Vec<Vec<Vector3<f64>>>,
    /// The angular momentum about the centre of mass per frame (kg·m²/s).
    pub momentum: Vec<Vector3<f64>>,
    /// The figure's size: from its lowest to its highest joint or site on the first frame (m).
    pub size: f64,
}

impl Track {
    /// The track of `skeleton` through `poses` (one state per frame) at `fps`, weighed by `model`.
    pub fn of<'a>(
        skeleton: &Skeleton,
        model: &MassModel,
        poses: impl ExactSizeIterator<Item = &'a [f64]>,
        fps: f64,
    ) -> Track {
        let frames = poses.len();
        let segments = model.segments.len();
        let mut fk = Fk::new(skeleton);
        let mut com = Vec::with_capacity(frames);
        let mut points = Vec::with_capacity(frames);
        let mut centers = Vec::with_capacity(frames * segments);
        let mut rotations = Vec::with_capacity(frames * segments);
        let mut size = 0.0;
        for (f, q) in poses.enumerate() {
            if f == 0 {
                fk.update(skeleton, q);
                size = extent(skeleton, &fk);
            } else {
                fk.update_transforms(skeleton, q);
            }
            com.push(model.center_of_mass(&fk));
            points.push(
                model
                    .points
                    .iter()
                    .map(|p| fk.point(p.joint, &p.local))
                    .collect(),
            );
            for s in &model.segments {
                centers.push(fk.point(s.joint, &s.center));
                rotations.push(*fk.joint_rotation(s.joint));
            }
        }
        let mut track = Track {
            fps,
            com,
            points,
            momentum: Vec::new(),
            size,
        };
        track.momentum = (0..frames)
            .map(|f| track.momentum_at(model, f, &centers, &rotations))
            .collect();
        track
    }

    /// Frames in the track.
    pub fn len(&self) -> usize {
        self.com.len()
    }

    /// Whether it has no frame.
    pub fn is_empty(&self) -> bool {
        self.com.is_empty()
    }

    /// The frames either side of `f` a central difference spans, and the time between them.
    pub fn neighbours(&self, f: usize) -> (usize, usize, f64) {
        let last = self.len().saturating_sub(1);
        let (a, b) = (f.saturating_sub(1), (f + 1).min(last));
        (a, b, (b - a).max(1) as f64 / self.fps)
    }

    /// The centre of mass's velocity at frame `f`.
    pub fn com_velocity(&self, f: usize) -> Vector3<f64> {
        let (a, b, dt) = self.neighbours(f);
        (self.com[b] - self.com[a]) / dt
    }

    /// The speed of body point `point` at frame `f`.
    pub fn point_speed(&self, f: usize, point: usize) -> f64 {
        let (a, b, dt) = self.neighbours(f);
        (self.points[b][point] - self.points[a][point]).norm() / dt
    }

    /// The angular momentum about the centre of mass at frame `f` ([`momentum_about`] over
    /// its neighbours).
    fn momentum_at(
        &self,
        model: &MassModel,
        f: usize,
        centers: &[Vector3<f64>],
        rotations: &[Matrix3<f64>],
    ) -> Vector3<f64> {
        let n = model.segments.len();
        let (a, b, dt) = self.neighbours(f);
        let frame = |k: usize| SegmentFrame {
            centers: &centers[k * n..(k + 1) * n],
            rotations: &rotations[k * n..(k + 1) * n],
            com: self.com[k],
        };
        momentum_about(model, [frame(a), frame(f), frame(b)], dt)
    }
}

/// A mass the figure carries on some frames (a prop it grips), as a point at the prop's origin
/// (the middle of its shape).
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    /// Its mass (kg).
    pub mass: f64,
    /// Where it is on every frame of the track (world).
    pub at: Vec<Vector3<f64>>,
    /// Whether the figure holds it, per frame.
    pub held: Vec<bool>,
}

impl Track {
    /// The track of the figure (`body_mass` kg, this track) and what it carries, together: on
    /// each frame the centre of mass of the figure and the masses it holds then, and the angular
    /// momentum about it (the figure's own about its centre, moved to the common one, plus each
    /// held mass's moment of relative velocity; central differences as everywhere here).
    pub fn carrying(mut self, body_mass: f64, carried: &[Carried]) -> Track {
        let frames = self.len();
        let held = |c: &Carried, f: usize| c.held.get(f).copied().unwrap_or(false);
        let mass_at = |f: usize| {
            body_mass
                + carried
                    .iter()
                    .filter(|c| held(c, f))
                    .map(|c| c.mass)
                    .sum::<f64>()
        };
        if carried.iter().all(|c| (0..frames).all(|f| !held(c, f))) {
            return self;
        }
        let body_com = std::mem::take(&mut self.com);
        self.com = (0..frames)
            .map(|f| {
                let moment = carried
                    .iter()
                    .filter(|c| held(c, f))
                    .fold(body_com[f] * body_mass, |sum, c| sum + c.at[f] * c.mass);
                moment / mass_at(f)
            })
            .collect();
        for f in 0..frames {
            let (a, b, dt) = self.neighbours(f);
            let velocity = |path: &[Vector3<f64>]| (path[b] - path[a]) / dt;
            let common = velocity(&self.com);
            let mut extra =
                body_mass * (body_com[f] - self.com[f]).cross(&(velocity(&body_com) - common));
            for c in carried.iter().filter(|c| held(c, f)) {
                extra += c.mass * (c.at[f] - self.com[f]).cross(&(velocity(&c.at) - common));
            }
            self.momentum[f] += extra;
        }
        self
    }
}

/// Where a frame's segments are: their centres of mass and orientations (world, in the
/// model's segment order) and the figure's centre of mass.
#[derive(Debug, Clone, Copy)]
pub struct SegmentFrame<'a> {
    /// Each segment's centre of mass.
    pub centers: &'a [Vector3<f64>],
    /// Each segment's orientation.
    pub rotations: &'a [Matrix3<f64>],
    /// The figure's centre of mass.
    pub com: Vector3<f64>,
}

/// The angular momentum about the centre of mass at the middle of three frames `[before, at,
/// after]`, `dt` seconds from `before` to `after`: per segment, its mass's moment of relative
/// velocity (central differences of the centres relative to the centre of mass) plus its
/// inertia, turned into the world, times its angular velocity (the rotation from `before` to
/// `after` over `dt`). What `physics check` measures, and what the momentum fix holds.
pub fn momentum_about(model: &MassModel, [a, f, b]: [SegmentFrame; 3], dt: f64) -> Vector3<f64> {
    let mut total = Vector3::zeros();
    for (i, s) in model.segments.iter().enumerate() {
        let at = f.centers[i] - f.com;
        let velocity = ((b.centers[i] - b.com) - (a.centers[i] - a.com)) / dt;
        total += s.mass * at.cross(&velocity);
        let turn = b.rotations[i] * a.rotations[i].transpose();
        let omega = Rotation3::from_matrix_unchecked(turn).scaled_axis() / dt;
        let r = f.rotations[i];
        total += r * s.inertia * r.transpose() * omega;
    }
    total
}

/// From the lowest to the highest joint or site of `fk`'s pose (m).
fn extent(skeleton: &Skeleton, fk: &Fk) -> f64 {
    let heights = skeleton
        .joint_ids()
        .map(|j| fk.joint_position(j).y)
        .chain(skeleton.site_ids().map(|s| fk.site_position(s).y));
    let (low, high) = heights.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    if high > low { high - low } else { 0.0 }
}
