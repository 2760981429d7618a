//! The physics assistant's ghost (Sequence ▸ Physics ghost, `marionette physics fix`): a copy
//! of a flight of the shown sequence made physical ([`marionette_physics::fix::fix`]: the
//! centre of mass on the parabola under g, the angular momentum held), for the animator to
//! compare with the take and accept ([`crate::Edit::AcceptGhost`]) or drop.
//!
//! Accepted, the flight's frames are written as keys on each of them, and the frames from the
//! whole-pose keys before take-off and after landing to the flight as keys holding the poses
//! the sequence had there, so the frames outside the span do not change (with linear and slerp
//! interpolation exactly; a spline's tangents at those keys see their new neighbours); when the flight's length changes (an apex), later keys and the frames of later
//! locks move with it. One undo step.

use marionette_document::{Clip, Key, Lock, Sequence};
use marionette_motion::interpolate::Interpolator;
use marionette_physics::fix::{FixError, FixOptions, fix};
use marionette_physics::{MassError, MassModel, MassSettings, MassSource};
use marionette_skeleton::Pose;

use crate::Document;
use crate::document::history::Change;
use crate::edit_error::EditError;
use crate::physics_view::PhysicsView;

/// What the ghost is asked to fix, over which frames of the shown sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct GhostRequest {
    /// The flight's first frame with no support (as the sequence numbers it).
    pub from: i64,
    /// Its last.
    pub to: i64,
    /// Make the centre of mass fly the parabola under g.
    pub ballistic: bool,
    /// Hold the angular momentum about the centre of mass.
    pub momentum: bool,
    /// The flight rises this high above the take-off's centre of mass (m) and lasts the time
    /// that needs (implies ballistic).
    pub apex: Option<f64>,
    /// Up to four frames of the span whose keyed root orientation the momentum is fitted to.
    pub marks: Vec<i64>,
    /// The figure's body.
    pub body: MassSettings,
}

/// Why a ghost cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GhostError {
    /// Nothing asked.
    #[error("say what to fix: ballistic, momentum or an apex")]
    NothingAsked,
    /// No sequence is shown.
    #[error("show a sequence first (the timeline's sequence list)")]
    NoSequence,
    /// The figure cannot be weighed.
    #[error(transparent)]
    Mass(#[from] MassError),
    /// The figure has no humanoid roles.
    #[error("a physical ghost needs the figure's humanoid roles to weigh it; it has none ({0})")]
    NoRoles(String),
    /// The span is not inside the sequence with a frame either side.
    #[error(
        "frames {from}..{to} are not a span inside \"{sequence}\" with a frame before and after \
         it (its frames are {first}..{last})"
    )]
    Outside {
        /// The sequence.
        sequence: String,
        /// The span asked.
        from: i64,
        /// Its end.
        to: i64,
        /// The sequence's first frame.
        first: i64,
        /// Its last.
        last: i64,
    },
    /// A frame of the span is supported.
    #[error("frames {from}..{to} are not a flight: frame {frame} is supported ({points} points)")]
    NotAFlight {
        /// The span asked.
        from: i64,
        /// Its end.
        to: i64,
        /// The supported frame.
        frame: i64,
        /// How many points hold it.
        points: usize,
    },
    /// A mark outside the span.
    #[error("frame {mark} is marked but is not inside the span {from}..{to}")]
    Mark {
        /// The mark.
        mark: i64,
        /// The span asked.
        from: i64,
        /// Its end.
        to: i64,
    },
    /// More than four marks.
    #[error("at most four frames can be marked; {0} were")]
    TooManyMarks(usize),
    /// The fix itself refused (an apex too low, a mark outside the span).
    #[error(transparent)]
    Fix(#[from] FixError),
}

/// A flight made physical, not yet in the sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Ghost {
    /// What was asked.
    pub request: GhostRequest,
    /// The sequence's index, and the sequence as it was when the ghost was made.
    pub sequence: (usize, Sequence),
    /// The ghost's poses from take-off (frame `request.from − 1`) to landing, both included.
    pub poses: Vec<Vec<f64>>,
    /// The angular momentum held (kg·m²/s), with the momentum fix.
    pub momentum: Option<[f64; 3]>,
    /// Per marked frame, how far the ghost's root turns from the take's there (degrees).
    pub marks: Vec<(i64, f64)>,
}

impl Ghost {
    /// The ghost's pose at `frame`, while the ghost's flight (take-off to landing) lasts.
    pub fn pose_at(&self, frame: i64) -> Option<&[f64]> {
        let i = usize::try_from(frame - (self.request.from - 1)).ok()?;
        self.poses.get(i).map(Vec::as_slice)
    }

    /// How many frames the flight gains (an apex; negative: loses).
    pub fn shift(&self) -> i64 {
        self.poses.len() as i64 - (self.request.to - self.request.from + 3)
    }
}

impl Document {
    /// The ghost of the shown sequence's flight `request.from ..= request.to` (the frames with
    /// no support, as `physics check` and the overlays find them).
    pub fn physics_ghost(&self, request: GhostRequest) -> Result<Ghost, GhostError> {
        if !(request.ballistic || request.momentum || request.apex.is_some()) {
            return Err(GhostError::NothingAsked);
        }
        if request.marks.len() > 4 {
            return Err(GhostError::TooManyMarks(request.marks.len()));
        }
        let (a, b) = (request.from, request.to);
        if let Some(&mark) = request.marks.iter().find(|&&m| m < a || m > b) {
            return Err(GhostError::Mark {
                mark,
                from: a,
                to: b,
            });
        }
        let index = self.shown().map_err(|_| GhostError::NoSequence)?;
        let sequence = &self.sequences()[index];
        let model = MassModel::of(&self.skeleton, request.body)?;
        if let MassSource::Skeleton(why) = &model.source {
            return Err(GhostError::NoRoles(why.clone()));
        }
        let frames = self.bake_sequence(index);
        let first = frames.first().map_or(0, |f| f.frame);
        if a - first < 1 || b < a || b - first + 1 >= frames.len() as i64 {
            return Err(GhostError::Outside {
                sequence: sequence.name.clone(),
                from: a,
                to: b,
                first,
                last: first + frames.len() as i64 - 1,
            });
        }
        let (from, to) = ((a - first) as usize, (b - first) as usize);
        let poses: Vec<Vec<f64>> = frames.into_iter().map(|f| f.q).collect();
        let view = PhysicsView::of_take(&self.skeleton, &self.locks, first, &poses, sequence.fps)?;
        if let Some(f) = (from..=to).find(|&f| !view.supports[f].is_empty()) {
            return Err(GhostError::NotAFlight {
                from: a,
                to: b,
                frame: f as i64 + first,
                points: view.supports[f].len(),
            });
        }
        let marks = (request.marks.iter())
            .map(|&m| usize::try_from(m - first).unwrap_or(usize::MAX))
            .collect();
        let options = FixOptions {
            ballistic: request.ballistic,
            momentum: request.momentum,
            apex: request.apex,
            marks,
        };
        let fixed = fix(
            &self.skeleton,
            &model,
            &poses,
            sequence.fps,
            (from, to),
            &options,
        )?;
        let mut flight = Vec::with_capacity(fixed.poses.len() + 2);
        flight.push(poses[from - 1].clone());
        flight.extend(fixed.poses);
        flight.push(poses[to + 1].clone());
        let held = fixed.momentum.as_ref();
        Ok(Ghost {
            sequence: (index, sequence.clone()),
            poses: flight,
            momentum: held.map(|m| m.momentum.into()),
            marks: held.map_or(Vec::new(), |m| {
                m.marks
                    .iter()
                    .map(|&(k, d)| (k as i64 + first, d))
                    .collect()
            }),
            request,
        })
    }

    /// Writes `ghost` into its sequence, as one undo step (the sequence and, when the flight's
    /// length changed, the later locks).
    pub(crate) fn accept_ghost(&mut self, ghost: &Ghost) -> Result<String, EditError> {
        let (index, made_from) = &ghost.sequence;
        let stale = || {
            EditError::Ghost(
                "the sequence changed since the ghost was made; make the ghost again".into(),
            )
        };
        if self.sequences().get(*index) != Some(made_from) {
            return Err(stale());
        }
        let (a, b) = (ghost.request.from, ghost.request.to);
        let (lo, hi, clip) = self.ghost_clip(ghost, made_from);
        let mut sequence = made_from.clone();
        sequence.delete_range(lo, hi)?;
        sequence.paste(lo, &clip)?;
        let shift = ghost.shift();
        let locks = moved_locks(&self.locks, b, shift)?;
        self.end_drag();
        let label = format!(
            "Accept the physics ghost of frames {a}–{b} of {}",
            made_from.name
        );
        let sequences_before = self.sequences.clone();
        self.sequences[*index] = sequence;
        let mut steps = Vec::new();
        if locks != self.locks {
            let before = std::mem::replace(&mut self.locks, locks);
            steps.push(Change::Locks {
                label: label.clone(),
                before: (before, self.pose.clone()),
                after: (self.locks.clone(), self.pose.clone()),
            });
        }
        steps.push(Change::Sequences {
            label: label.clone(),
            before: sequences_before,
            after: self.sequences.clone(),
        });
        self.history.record(Change::Steps {
            label: label.clone(),
            steps,
        });
        self.show_frame();
        Ok(label)
    }

    /// The ghost's flight as a clip over the frames `lo ..= hi` (the whole-pose keys nearest
    /// the take-off before it and the landing after it, or the sequence's ends): a key on
    /// every frame, the flight's the ghost's, the others the sequence's own poses, so that
    /// the frames outside the span interpolate as before.
    fn ghost_clip(&self, ghost: &Ghost, sequence: &Sequence) -> (i64, i64, Clip) {
        let (a, b) = (ghost.request.from, ghost.request.to);
        let whole = || {
            sequence
                .keys
                .iter()
                .filter(|k| k.only.is_none())
                .map(|k| k.frame)
        };
        let first = sequence.keys.first().map_or(a - 1, |k| k.frame);
        let last = sequence.keys.last().map_or(b + 1, |k| k.frame);
        let lo = whole()
            .filter(|&f| f < a)
            .max()
            .unwrap_or(first)
            .min(a - 1);
        let hi = whole()
            .filter(|&f| f > b)
            .min()
            .unwrap_or(last)
            .max(b + 1);
        let interpolator = Interpolator::new(&self.skeleton, sequence);
        let own = |frame: i64| {
            let mut q = Vec::new();
            interpolator.pose_at(&self.skeleton, frame, &mut q);
            Pose { q }
        };
        let flight = &ghost.poses[1..ghost.poses.len() - 1];
        let shift = ghost.shift();
        let poses = (lo..a)
            .map(own)
            .chain(flight.iter().map(|q| Pose { q: q.clone() }))
            .chain((b + 1..=hi).map(own));
        let keys = (0..)
            .zip(poses)
            .map(|(k, pose)| Key::new(k, pose))
            .collect();
        let clip = Clip {
            length: hi - lo + 1 + shift,
            keys,
        };
        (lo, hi, clip)
    }
}

/// `locks` with the frames of those after frame `last` moved by `shift` (a lock reaching past
/// it from before keeps its start and moves its end).
fn moved_locks(locks: &[Lock], last: i64, shift: i64) -> Result<Vec<Lock>, EditError> {
    let mut moved = locks.to_vec();
    if shift == 0 {
        return Ok(moved);
    }
    for lock in &mut moved {
        let Some((start, end)) = lock.frames() else {
            continue;
        };
        let frames = if start > last {
            (start + shift, end + shift)
        } else if end > last {
            (start, end + shift)
        } else {
            continue;
        };
        lock.set_frames(Some(frames))?;
    }
    Ok(moved)
}
