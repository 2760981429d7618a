//! The physical ghost ([`fix`]): its momentum part ([`hold_momentum`]) and its ballistic
//! part: over a span with no support, the root is
//! moved so that the centre of mass flies the parabola under g from where it was at take-off
//! (the frame before the span) to where it is at landing (the frame after). The root's
//! translation moves the centre of mass one for one, so the parabola is met exactly. With an
//! apex, the flight first lasts the time that height needs, √(2h_up/g) + √(2h_down/g) (whole
//! frames), the take's poses spread over it. A prop the figure carries through the flight
//! (a gripped mass, [`Carried`]) flies with it: the parabola is the centre of mass of the
//! figure and what it holds, which the root's translation moves one for one as well, the
//! prop riding on the hand.

use marionette_skeleton::angles::wrap_angle;
use marionette_skeleton::{Fk, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Matrix3, Vector3};

use crate::flight::G;
use crate::masses::MassModel;
use crate::momentum::{HeldMomentum, hold_momentum};
use crate::track::Carried;

/// Why a span cannot be fixed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FixError {
    /// The span does not lie inside the take with a frame before and after it.
    #[error(
        "frames {from}..{to} are not a span inside the take with a frame before and after it \
         (its frames are {first}..{last})"
    )]
    Outside {
        /// The span's first frame.
        from: i64,
        /// Its last.
        to: i64,
        /// The take's first frame.
        first: i64,
        /// Its last.
        last: i64,
    },
    /// A mark is not inside the span.
    #[error("frame {mark} is marked but is not inside the span")]
    Mark {
        /// The mark.
        mark: i64,
    },
    /// The apex is lower than the take-off or the landing.
    #[error(
        "an apex of {apex} m is not above both the take-off and the landing (the centre of mass \
         lands {drop:.3} m lower than it takes off)"
    )]
    Apex {
        /// The apex asked for (metres above the take-off).
        apex: f64,
        /// How much lower the landing is.
        drop: f64,
    },
}

/// What to fix over a flight.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FixOptions {
    /// Make the centre of mass fly the parabola under g.
    pub ballistic: bool,
    /// Hold the angular momentum about the centre of mass ([`hold_momentum`]).
    pub momentum: bool,
    /// The flight rises this high above the take-off's centre of mass (m), and lasts the time
    /// that needs (implies ballistic).
    pub apex: Option<f64>,
    /// Frames (indices into the take, inside the span) whose keyed root orientation the
    /// momentum fix is fitted to.
    pub marks: Vec<usize>,
}

/// The span's new poses: one per frame of the flight (between take-off and landing).
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    /// The poses, in order; as many as the flight's frames (the span's own count without an
    /// apex).
    pub poses: Vec<Vec<f64>>,
    /// With the momentum fix: the momentum held, and how far each mark is from its keyed
    /// orientation (marks as indices into the take).
    pub momentum: Option<HeldMomentum>,
}

/// The fix of the flight `from..=to` (indices into `poses`, each the state of a frame at
/// `fps`): the take's poses (spread over the new flight time when an apex is given, in metres
/// above the take-off's centre of mass), their roots turned to hold the angular momentum when
/// asked, then moved so that the centre of mass is on the parabola under [`G`] from take-off
/// (`from - 1`) to landing (`to + 1`), and straight across between them, when asked. The
/// centre of mass is the figure's with the masses of `carried` it holds (their places on the
/// take's frames, in the figure's frame): a prop moves with the root as the hand gripping it.
pub fn fix(
    skeleton: &Skeleton,
    model: &MassModel,
    poses: &[Vec<f64>],
    fps: f64,
    (from, to): (usize, usize),
    options: &FixOptions,
    carried: &[Carried],
) -> Result<Fixed, FixError> {
    let outside = || FixError::Outside {
        from: from as i64,
        to: to as i64,
        first: 0,
        last: poses.len() as i64 - 1,
    };
    if from == 0 || to < from || to + 1 >= poses.len() {
        return Err(outside());
    }
    if let Some(&mark) = options.marks.iter().find(|&&m| m < from || m > to) {
        return Err(FixError::Mark { mark: mark as i64 });
    }
    let mut fk = Fk::new(skeleton);
    let root = skeleton.root();
    // The figure's centre of mass in pose `q` and where its root is (position, rotation).
    let mut body_of = |q: &[f64]| {
        fk.update_transforms(skeleton, q);
        Body {
            com: model.center_of_mass(&fk),
            root: (fk.joint_position(root), *fk.joint_rotation(root)),
        }
    };
    let loads = Loads {
        mass: model.total,
        carried,
    };
    let start = loads.com(&body_of(&poses[from - 1]), &loads.at(from - 1, 0.0));
    let end = loads.com(&body_of(&poses[to + 1]), &loads.at(to + 1, 0.0));
    let old = to + 2 - from; // intervals from take-off to landing
    let intervals = match options.apex {
        None => old,
        Some(h) => {
            let drop = start.y - end.y;
            if !(h.is_finite() && h > 0.0 && h + drop >= 0.0) {
                return Err(FixError::Apex { apex: h, drop });
            }
            let time = (2.0 * h / G).sqrt() + (2.0 * (h + drop) / G).sqrt();
            ((time * fps).round() as usize).max(2)
        }
    };
    let scale = intervals as f64 / old as f64;
    let mut flight: Vec<Vec<f64>> = (0..=intervals)
        .map(|k| resampled(skeleton, poses, from - 1, k as f64 / scale))
        .collect();
    // What the figure holds on each frame of the flight, where the take has it.
    let mut held: Vec<Vec<(f64, Vector3<f64>)>> = (0..=intervals)
        .map(|k| {
            let at = k as f64 / scale;
            loads.at(from - 1 + at.floor() as usize, at.fract())
        })
        .collect();
    let mut momentum = None;
    if options.momentum {
        let marks: Vec<usize> = (options.marks.iter())
            .map(|&m| ((m + 1 - from) as f64 * scale).round() as usize)
            .collect();
        let mut kept = hold_momentum(skeleton, model, &flight, fps, &marks);
        // The props turn and move with the root, as the hand holding them does.
        for (k, q) in kept.poses.iter().enumerate() {
            if held[k + 1].is_empty() {
                continue;
            }
            let (was, is) = (body_of(&flight[k + 1]).root, body_of(q).root);
            for (_, p) in &mut held[k + 1] {
                *p = is.1 * was.1.transpose() * (*p - was.0) + is.0;
            }
        }
        flight.splice(1..intervals, kept.poses.drain(..));
        for (mark, of) in kept.marks.iter_mut().zip(&options.marks) {
            mark.0 = *of;
        }
        momentum = Some(kept);
    }
    let mut poses: Vec<Vec<f64>> = flight[1..intervals].to_vec();
    if options.ballistic || options.apex.is_some() {
        let duration = intervals as f64 / fps;
        // y(t) = y0 + v t − g t²/2 through the landing: v = (y1 − y0)/T + g T/2.
        let rise = (end.y - start.y) / duration + G * duration / 2.0;
        for (i, q) in poses.iter_mut().enumerate() {
            let k = i + 1;
            let t = k as f64 / fps;
            let u = k as f64 / intervals as f64;
            let wanted = Vector3::new(
                start.x + (end.x - start.x) * u,
                start.y + rise * t - G * t * t / 2.0,
                start.z + (end.z - start.z) * u,
            );
            let moved = wanted - loads.com(&body_of(q), &held[k]);
            for (axis, v) in moved.iter().enumerate() {
                q[axis] += v;
            }
        }
    }
    Ok(Fixed { poses, momentum })
}

/// Where a pose puts the figure: its centre of mass, and its root's position and rotation.
struct Body {
    com: Vector3<f64>,
    root: (Vector3<f64>, Matrix3<f64>),
}

/// The figure's mass and the masses it may carry.
struct Loads<'a> {
    mass: f64,
    carried: &'a [Carried],
}

impl Loads<'_> {
    /// The masses held on take frame `f` (and where), `u` of the way to frame `f + 1`.
    fn at(&self, f: usize, u: f64) -> Vec<(f64, Vector3<f64>)> {
        self.carried
            .iter()
            .filter(|c| c.held.get(f).copied().unwrap_or(false))
            .filter_map(|c| {
                let a = c.at.get(f)?;
                let b = c.at.get(f + 1).unwrap_or(a);
                Some((c.mass, a + (b - a) * u))
            })
            .collect()
    }

    /// The centre of mass of the figure at `body` and the masses `held`.
    fn com(&self, body: &Body, held: &[(f64, Vector3<f64>)]) -> Vector3<f64> {
        let (moment, mass) = held
            .iter()
            .fold((body.com * self.mass, self.mass), |(m, total), (kg, p)| {
                (m + p * *kg, total + kg)
            });
        moment / mass
    }
}

/// The pose `at` frames after `base`, blended linearly between its two nearest frames (an
/// unlimited hinge the shorter way round).
fn resampled(skeleton: &Skeleton, poses: &[Vec<f64>], base: usize, at: f64) -> Vec<f64> {
    let k = at.floor() as usize;
    let u = at - k as f64;
    let a = &poses[(base + k).min(poses.len() - 1)];
    let b = &poses[(base + k + 1).min(poses.len() - 1)];
    if u == 0.0 {
        return a.clone();
    }
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| {
            let unlimited = i >= ROOT_STATE_LEN && skeleton.dofs()[i - ROOT_STATE_LEN].unlimited;
            let delta = if unlimited { wrap_angle(y - x) } else { y - x };
            x + delta * u
        })
        .collect()
}
