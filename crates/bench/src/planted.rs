//! An independent measure of planted feet (issue 48), written apart from the cleanup's own
//! contact detector (`marionette_motion::contacts`) so that it can disagree with it.
//!
//! The rule: a foot joint (the ankle, or the toes joint) that stays within [`LOW`] of its own
//! lowest height over the take and moves slower than [`SLOW`] across the ground for at least
//! [`SHORTEST`] frames is *planted* in the take. Its *slide* over a run is the largest distance
//! across the ground from its mean position over the run less [`TRIM`] frames at each end.
//! A cleanup is judged by the slide of every run planted in the take before it, measured
//! again after it: held when at most [`HELD`], worse when it grows by more than [`WORSE`].
//!
//! The foot joints come from the humanoid map (the foot and toes bones); a leg with no foot
//! joint (a stick figure's two-segment leg) is measured at the end of its shin, its lowest site.

use marionette_document::{Lock, Sequence};
use marionette_interchange::character::humanoid::HumanBone;
use marionette_interchange::retarget::humanoid_of;
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::{Fk, JointId, Pose, Skeleton};
use nalgebra::Vector3;

/// A point is low while within this height of its lowest (metres).
pub const LOW: f64 = 0.03;
/// … and slow while it moves slower than this across the ground (metres per second).
pub const SLOW: f64 = 0.25;
/// A run of fewer frames is not a plant.
pub const SHORTEST: usize = 6;
/// Frames left out of the slide at each end of a run.
pub const TRIM: usize = 2;
/// A run is held when it slides at most this after the cleanup (metres).
pub const HELD: f64 = 0.005;
/// A run is made worse when it slides more than this beyond its slide before (metres).
pub const WORSE: f64 = 0.002;

/// A foot point the rule measures: a joint's origin, or a point on a joint.
#[derive(Debug, Clone, PartialEq)]
pub struct FootPoint {
    /// What it is called in reports ("left ankle", "left toes").
    pub name: String,
    /// The joint carrying it.
    pub joint: JointId,
    /// Where on the joint (its frame).
    pub offset: Vector3<f64>,
}

/// Each leg's ankle and toes joint (where it has one), left leg first, from the humanoid map.
pub fn foot_points(skeleton: &Skeleton) -> Result<Vec<FootPoint>, String> {
    let humanoid = humanoid_of(skeleton, &Pose::rest(skeleton).q)?;
    let ids: Vec<JointId> = skeleton.joint_ids().collect();
    let id = |bone: HumanBone| humanoid.joint(bone).and_then(|j| ids.get(j)).copied();
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &Pose::rest(skeleton).q);
    let mut out = Vec::new();
    for (side, shin, foot, toes) in [
        (
            "left",
            HumanBone::LeftLowerLeg,
            HumanBone::LeftFoot,
            HumanBone::LeftToes,
        ),
        (
            "right",
            HumanBone::RightLowerLeg,
            HumanBone::RightFoot,
            HumanBone::RightToes,
        ),
    ] {
        let Some(shin) = id(shin) else {
            return Err(format!(
                "skeleton \"{}\" has no {side} shin",
                skeleton.name()
            ));
        };
        match id(foot).filter(|&f| f != shin) {
            Some(ankle) => out.push(FootPoint {
                name: format!("{side} ankle"),
                joint: ankle,
                offset: Vector3::zeros(),
            }),
            None => {
                // The shin's end: its lowest site at rest.
                let end = skeleton
                    .site_ids()
                    .filter(|&s| skeleton.site(s).joint == shin)
                    .min_by(|&a, &b| fk.site_position(a).y.total_cmp(&fk.site_position(b).y));
                let Some(end) = end else {
                    return Err(format!(
                        "skeleton \"{}\": the {side} leg has no foot joint and no site at its end",
                        skeleton.name()
                    ));
                };
                out.push(FootPoint {
                    name: format!("{side} ankle"),
                    joint: shin,
                    offset: skeleton.site(end).offset,
                });
            }
        }
        if let Some(toes) = id(toes).filter(|&t| Some(t) != id(foot) && t != shin) {
            out.push(FootPoint {
                name: format!("{side} toes"),
                joint: toes,
                offset: Vector3::zeros(),
            });
        }
    }
    Ok(out)
}

/// The paths of `points` over `frames` (one pose a frame), by forward kinematics.
pub fn paths(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    points: &[FootPoint],
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

/// The distance across the ground between `a` and `b` (y is up).
fn across(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    ((a.x - b.x).powi(2) + (a.z - b.z).powi(2)).sqrt()
}

/// The runs of frames (first, last; inclusive) where a point moving along `path` at `fps` is
/// planted by the rule.
pub fn planted_runs(path: &[Vector3<f64>], fps: f64) -> Vec<(usize, usize)> {
    let lowest = path.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let n = path.len();
    let planted = |f: usize| {
        let (a, b) = (f.saturating_sub(1), (f + 1).min(n - 1));
        let speed = across(&path[b], &path[a]) * fps / (b - a).max(1) as f64;
        path[f].y <= lowest + LOW && speed < SLOW
    };
    let mut runs = Vec::new();
    let mut start = None;
    for f in 0..=n {
        match (start, f < n && planted(f)) {
            (None, true) => start = Some(f),
            (Some(a), false) => {
                if f - a >= SHORTEST {
                    runs.push((a, f - 1));
                }
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// The slide of `path` over the run `first..=last`: the largest distance across the ground
/// from its mean position over the run less [`TRIM`] frames at each end.
pub fn slide(path: &[Vector3<f64>], (first, last): (usize, usize)) -> f64 {
    let (a, b) = (first + TRIM, last.saturating_sub(TRIM));
    if a > b {
        return 0.0;
    }
    let part = &path[a..=b];
    let mean = part.iter().sum::<Vector3<f64>>() / part.len() as f64;
    part.iter().map(|p| across(p, &mean)).fold(0.0, f64::max)
}

/// One planted run, measured before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The foot point's name.
    pub point: String,
    /// Its frames (indices into the take, inclusive).
    pub frames: (usize, usize),
    /// Its slide in the take (metres).
    pub before: f64,
    /// Its slide after the cleanup (metres).
    pub after: f64,
}

impl Run {
    /// Whether it slides at most [`HELD`] after.
    pub fn held(&self) -> bool {
        self.after <= HELD
    }

    /// Whether it slides more than [`WORSE`] beyond what it slid before.
    pub fn worse(&self) -> bool {
        self.after > self.before + WORSE
    }
}

/// Every run planted in `before` (the take's frames) with its slide there and in `after` (the
/// cleaned take's frames, as many).
pub fn measure(
    skeleton: &Skeleton,
    fps: f64,
    before: &[Vec<f64>],
    after: &[Vec<f64>],
) -> Result<Vec<Run>, String> {
    if before.len() != after.len() {
        return Err(format!(
            "{} frames before the cleanup, {} after",
            before.len(),
            after.len()
        ));
    }
    let points = foot_points(skeleton)?;
    let (was, is) = (
        paths(skeleton, before, &points),
        paths(skeleton, after, &points),
    );
    let mut out = Vec::new();
    for ((p, was), is) in points.iter().zip(&was).zip(&is) {
        for run in planted_runs(was, fps) {
            out.push(Run {
                point: p.name.clone(),
                frames: run,
                before: slide(was, run),
                after: slide(is, run),
            });
        }
    }
    Ok(out)
}

/// Every frame of `sequence` baked with `locks` (the rule's own bake: what the document shows).
pub fn baked(
    skeleton: &Skeleton,
    sequence: &Sequence,
    locks: &[Lock],
) -> Result<Vec<Vec<f64>>, String> {
    let baker = Baker::new(skeleton, sequence, locks, BakeSettings::default());
    Ok(bake_with_threads(&baker, 0, &|| {})
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|f| f.q)
        .collect())
}

/// The rule's runs over a take (`take`, with no locks: a retarget's sequence) and the same take
/// cleaned (its sequence and locks).
pub fn measure_cleanup(
    skeleton: &Skeleton,
    take: &Sequence,
    cleaned: (&Sequence, &[Lock]),
) -> Result<Vec<Run>, String> {
    let before = baked(skeleton, take, &[])?;
    let after = baked(skeleton, cleaned.0, cleaned.1)?;
    measure(skeleton, take.fps, &before, &after)
}

/// What [`measure`] found, in sum.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    /// Planted runs.
    pub runs: usize,
    /// Of them, held within [`HELD`] after.
    pub held: usize,
    /// Of them, sliding more than [`WORSE`] beyond what they slid before.
    pub worse: usize,
    /// The largest growth of a slide (metres; negative when every run slides less).
    pub most_worse: f64,
}

impl Summary {
    /// The sum of `runs` (`most_worse` 0 with none).
    pub fn of(runs: &[Run]) -> Summary {
        Summary {
            runs: runs.len(),
            held: runs.iter().filter(|r| r.held()).count(),
            worse: runs.iter().filter(|r| r.worse()).count(),
            most_worse: runs
                .iter()
                .map(|r| r.after - r.before)
                .reduce(f64::max)
                .unwrap_or(0.0),
        }
    }

    /// Adds `other`'s runs to these.
    pub fn add(&mut self, other: &Summary) {
        let most_worse = if self.runs == 0 {
            other.most_worse
        } else if other.runs == 0 {
            self.most_worse
        } else {
            self.most_worse.max(other.most_worse)
        };
        *self = Summary {
            runs: self.runs + other.runs,
            held: self.held + other.held,
            worse: self.worse + other.worse,
            most_worse,
        };
    }

    /// The share held, in percent (100 with no run).
    pub fn held_percent(&self) -> f64 {
        if self.runs == 0 {
            100.0
        } else {
            100.0 * self.held as f64 / self.runs as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, y: f64) -> Vector3<f64> {
        Vector3::new(x, y, 0.0)
    }

    #[test]
    fn a_run_is_low_slow_and_long_enough() {
        // 10 frames still on the ground, 10 frames rising, 5 still on the ground (too short),
        // at 100 fps.
        let mut path: Vec<_> = (0..10).map(|_| at(0.0, 0.0)).collect();
        path.extend((1..=10).map(|i| at(0.0, 0.01 * i as f64)));
        path.extend((0..5).map(|_| at(1.0, 0.0)));
        // Frames 0-9 low and still; 10-12 are under 3 cm too (0.01-0.03 m) and still.
        assert_eq!(planted_runs(&path, 100.0), vec![(0, 12)]);
        // Moving at 0.3 m/s: never planted.
        let fast: Vec<_> = (0..20).map(|f| at(0.003 * f as f64, 0.0)).collect();
        assert!(planted_runs(&fast, 100.0).is_empty());
        // At 0.2 m/s: planted throughout.
        let slow: Vec<_> = (0..20).map(|f| at(0.002 * f as f64, 0.0)).collect();
        assert_eq!(planted_runs(&slow, 100.0), vec![(0, 19)]);
    }

    #[test]
    fn the_slide_leaves_out_two_frames_at_each_end() {
        let mut path: Vec<_> = (0..10).map(|_| at(0.0, 0.0)).collect();
        path[0] = at(1.0, 0.0);
        path[9] = at(-1.0, 0.0);
        assert_eq!(slide(&path, (0, 9)), 0.0);
        path[5] = at(0.012, 0.5);
        // Mean of frames 2..=7: 0.002 across; frame 5 is 0.010 from it (height not counted).
        assert!((slide(&path, (0, 9)) - 0.010).abs() < 1e-12);
    }
}
