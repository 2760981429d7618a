//! The physics assistant's ghost (Sequence ▸ Physics ghost, `marionette physics fix`): a copy
//! of frames of the shown sequence made physical, for the animator to compare with the take
//! and accept ([`crate::Edit::AcceptGhost`], [`crate::ghost_accept`]) or drop: a flight
//! ([`marionette_physics::fix::fix`]: the centre of mass on the parabola under g, the angular
//! momentum held) or standing frames balanced ([`crate::ghost_standing`]).
//!
//! Accepted, the flight's frames are written as keys on each of them, and the frames from the
//! whole-pose keys before take-off and after landing to the flight as keys holding the poses
//! the sequence had there, so the frames outside the span do not change (with linear and slerp
//! interpolation exactly; a spline's tangents at those keys see their new neighbours); when the flight's length changes (an apex), later keys and the frames of later
//! locks move with it. One undo step.

use marionette_document::Sequence;
/// De Leva's settings a ghost weighs its figure by (re-exported for the editor).
pub use marionette_physics::MassSettings;
use marionette_physics::fix::{FixError, FixOptions, fix};
use marionette_physics::{MassError, MassModel, MassSource};
use marionette_skeleton::Fk;

use crate::Document;
use crate::ghost_standing::balanced;
use crate::physics_carried::carried_props;
use crate::physics_view::{PhysicsView, Take};
use marionette_physics::track::Carried;

/// What the ghost is asked to fix, over which frames of the shown sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct GhostRequest {
    /// The first frame (as the sequence numbers it): of a flight, its first with no support.
    pub from: i64,
    /// The last.
    pub to: i64,
    /// What to fix there.
    pub fix: GhostFix,
    /// The figure's body.
    pub body: MassSettings,
}

/// What a ghost fixes.
#[derive(Debug, Clone, PartialEq)]
pub enum GhostFix {
    /// A flight (frames with no support).
    Flight {
        /// Make the centre of mass fly the parabola under g.
        ballistic: bool,
        /// Hold the angular momentum about the centre of mass.
        momentum: bool,
        /// The flight rises this high above the take-off's centre of mass (m) and lasts the
        /// time that needs (implies ballistic).
        apex: Option<f64>,
        /// Up to four frames of the span whose keyed root orientation the momentum is fitted
        /// to.
        marks: Vec<i64>,
    },
    /// Frames the animator marks as standing: the centre of mass held over the support
    /// polygon, [`crate::physics_view::COMFORTABLY_INSIDE`] inside it, where it is not ([`crate::ghost_standing`]).
    Standing,
}

/// Why a ghost cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GhostError {
    /// Nothing asked.
    #[error("say what to fix: ballistic, momentum or an apex")]
    NothingAsked,
    /// A standing frame with nothing under it.
    #[error("frame {0} is marked standing but nothing supports it (no foot on the floor, no lock)")]
    NotStanding(i64),
    /// No sequence is shown.
    #[error("show a sequence first (the timeline's sequence list)")]
    NoSequence,
    /// The figure cannot be weighed.
    #[error(transparent)]
    Mass(#[from] MassError),
    /// The figure has no humanoid roles.
    #[error("a physical ghost needs the figure's humanoid roles to weigh it; it has none ({0})")]
    NoRoles(String),
    /// The span is not inside the sequence (a flight: with a frame either side).
    #[error(
        "frames {from}..{to} are not a span inside \"{sequence}\"{either_side} (its frames are \
         {first}..{last})"
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
        /// For a flight: " with a frame before and after it".
        either_side: &'static str,
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
    /// The stage (whose props the figure carries) could not be baked.
    #[error("the props the figure carries could not be placed: {0}")]
    Stage(String),
}

/// A flight made physical, not yet in the sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Ghost {
    /// What was asked.
    pub request: GhostRequest,
    /// The sequence's index, and the sequence as it was when the ghost was made.
    pub sequence: (usize, Sequence),
    /// The ghost's poses of the frames it changes, from `request.from` on (a flight's as many
    /// as its new length).
    pub poses: Vec<Vec<f64>>,
    /// The angular momentum held (kg·m²/s), with the momentum fix.
    pub momentum: Option<[f64; 3]>,
    /// Per marked frame, how far the ghost's root turns from the take's there (degrees).
    pub marks: Vec<(i64, f64)>,
    /// Standing frames the balance fix could not bring over their support, with the centre
    /// of mass's margin to it after the fix (m, negative outside).
    pub unbalanced: Vec<(i64, f64)>,
    /// How many standing frames the balance fix moved.
    pub balanced: usize,
    /// The ghost's centre of mass on each of its frames (m), by the figure's de Leva masses.
    pub com: Vec<[f64; 3]>,
    /// The document's identity and motion revision when the ghost was made.
    pub made_in: (u64, u64),
}

impl Ghost {
    /// The ghost's pose at `frame`, on the frames it changes.
    pub fn pose_at(&self, frame: i64) -> Option<&[f64]> {
        let i = usize::try_from(frame - self.request.from).ok()?;
        self.poses.get(i).map(Vec::as_slice)
    }

    /// Whether `document` still shows the sequence the ghost was made from, unchanged: a
    /// check cheap enough for every drawn frame (the same document, no edit of its motion
    /// since, the same sequence shown). Accepting compares the sequence itself.
    pub fn is_current(&self, document: &Document) -> bool {
        let (index, made_from) = &self.sequence;
        self.made_in == (document.id(), document.history().motion_revision())
            && document.current_sequence() == Some(*index)
            && document
                .sequences()
                .get(*index)
                .is_some_and(|s| s.name == made_from.name && s.keys.len() == made_from.keys.len())
    }

    /// What the ghost did, in a sentence.
    pub fn said(&self) -> String {
        let (a, b) = (self.request.from, self.request.to);
        let mut said = format!("Physics ghost of frames {a}–{b}: ");
        match &self.request.fix {
            GhostFix::Standing => {
                said += &format!(
                    "{} standing frames brought over their support",
                    self.balanced
                );
                for (frame, m) in &self.unbalanced {
                    said += &format!("; frame {frame} still outside it by {:.1} cm", -m * 100.0);
                }
            }
            GhostFix::Flight {
                ballistic, apex, ..
            } => {
                let mut parts = Vec::new();
                if *ballistic || apex.is_some() {
                    let was = if apex.is_some() {
                        format!(", was {}", b - a + 1)
                    } else {
                        String::new()
                    };
                    parts.push(format!(
                        "ballistic ({} frames in the air{was})",
                        self.poses.len()
                    ));
                }
                if let Some(m) = self.momentum {
                    let length = (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).sqrt();
                    let mut held = format!("angular momentum held at {length:.4} kg·m²/s");
                    for (frame, degrees) in &self.marks {
                        held += &format!(" (frame {frame}: {degrees:.2}° from its key)");
                    }
                    parts.push(held);
                }
                said += &parts.join(", ");
            }
        }
        said
    }

    /// How many frames the ghost gains (a flight with an apex; negative: loses).
    pub fn shift(&self) -> i64 {
        self.poses.len() as i64 - (self.request.to - self.request.from + 1)
    }
}

impl Document {
    /// The ghost of the shown sequence's frames `request.from ..= request.to`: a flight (the
    /// frames with no support, as `physics check` and the overlays find them) made physical,
    /// or standing frames balanced.
    pub fn physics_ghost(&self, request: GhostRequest) -> Result<Ghost, GhostError> {
        let (a, b) = (request.from, request.to);
        let flight = matches!(request.fix, GhostFix::Flight { .. });
        if let GhostFix::Flight {
            ballistic,
            momentum,
            apex,
            marks,
        } = &request.fix
        {
            if !(*ballistic || *momentum || apex.is_some()) {
                return Err(GhostError::NothingAsked);
            }
            if marks.len() > 4 {
                return Err(GhostError::TooManyMarks(marks.len()));
            }
            if let Some(&mark) = marks.iter().find(|&&m| m < a || m > b) {
                return Err(GhostError::Mark {
                    mark,
                    from: a,
                    to: b,
                });
            }
        }
        let index = self.shown().map_err(|_| GhostError::NoSequence)?;
        let sequence = &self.sequences()[index];
        let model = MassModel::of(&self.skeleton, request.body)?;
        if let MassSource::Skeleton(why) = &model.source {
            return Err(GhostError::NoRoles(why.clone()));
        }
        let frames = self.bake_sequence(index);
        let first = frames.first().map_or(0, |f| f.frame);
        let margin = i64::from(flight);
        if a - first < margin || b < a || b - first + margin >= frames.len() as i64 {
            return Err(GhostError::Outside {
                sequence: sequence.name.clone(),
                from: a,
                to: b,
                first,
                last: first + frames.len() as i64 - 1,
                either_side: if flight {
                    " with a frame before and after it"
                } else {
                    ""
                },
            });
        }
        let span = ((a - first) as usize, (b - first) as usize);
        let poses: Vec<Vec<f64>> = frames.into_iter().map(|f| f.q).collect();
        let take = Take {
            model: &model,
            model_settings: request.body,
            first,
            poses: &poses,
            fps: sequence.fps,
        };
        let made = match &request.fix {
            GhostFix::Flight { .. } => self.flight_ghost(&take, span, &request.fix)?,
            GhostFix::Standing => {
                let standing = balanced(&self.skeleton, &self.locks, &take, span)
                    .map_err(|f| GhostError::NotStanding(f as i64 + first))?;
                Made {
                    balanced: standing.moved,
                    poses: standing.poses,
                    unbalanced: (standing.unbalanced.into_iter())
                        .map(|(f, m)| (f as i64 + first, m))
                        .collect(),
                    ..Made::default()
                }
            }
        };
        let mut fk = Fk::new(&self.skeleton);
        let com = (made.poses.iter())
            .map(|q| {
                fk.update_transforms(&self.skeleton, q);
                model.center_of_mass(&fk).into()
            })
            .collect();
        Ok(Ghost {
            request,
            sequence: (index, sequence.clone()),
            poses: made.poses,
            momentum: made.momentum,
            marks: made.marks,
            unbalanced: made.unbalanced,
            balanced: made.balanced,
            com,
            made_in: (self.id(), self.history().motion_revision()),
        })
    }

    /// The flight `from..=to` (indices into the take) made physical.
    fn flight_ghost(
        &self,
        take: &Take,
        (from, to): (usize, usize),
        fix_asked: &GhostFix,
    ) -> Result<Made, GhostError> {
        let GhostFix::Flight {
            ballistic,
            momentum,
            apex,
            marks,
        } = fix_asked
        else {
            unreachable!("a flight's fix");
        };
        let first = take.first;
        let body = take.model_settings;
        let view = PhysicsView::of_take(
            &self.skeleton,
            &self.locks,
            first,
            take.poses,
            (take.fps, body),
        )?;
        if let Some(f) = (from..=to).find(|&f| !view.supports[f].is_empty()) {
            return Err(GhostError::NotAFlight {
                from: from as i64 + first,
                to: to as i64 + first,
                frame: f as i64 + first,
                points: view.supports[f].len(),
            });
        }
        let options = FixOptions {
            ballistic: *ballistic,
            momentum: *momentum,
            apex: *apex,
            marks: (marks.iter())
                .map(|&m| usize::try_from(m - first).unwrap_or(usize::MAX))
                .collect(),
        };
        let carried = self.carried_in_take(take)?;
        let fixed = fix(
            &self.skeleton,
            take.model,
            take.poses,
            take.fps,
            (from, to),
            &options,
            &carried,
        )?;
        let held = fixed.momentum.as_ref();
        Ok(Made {
            momentum: held.map(|m| m.momentum.into()),
            marks: held.map_or(Vec::new(), |m| {
                (m.marks.iter())
                    .map(|&(k, d)| (k as i64 + first, d))
                    .collect()
            }),
            poses: fixed.poses,
            ..Made::default()
        })
    }
}

impl Document {
    /// The props the edited figure carries in the shown sequence (a stage's cue gripping them),
    /// where the stage's bake puts them on each frame of `take`; none off a stage.
    fn carried_in_take(&self, take: &Take) -> Result<Vec<Carried>, GhostError> {
        let Some(shown) = self.shown_name().filter(|_| !self.cues().is_empty()) else {
            return Ok(Vec::new());
        };
        let stage = self.to_stage();
        let frames = (take.first, take.poses.len());
        Ok(carried_props(&stage, self.active_figure(), shown, frames)
            .map_err(GhostError::Stage)?
            .into_iter()
            .map(|p| p.carried)
            .collect())
    }
}

/// What a fix made: the ghost's contents but its request and sequence.
#[derive(Default)]
struct Made {
    poses: Vec<Vec<f64>>,
    momentum: Option<[f64; 3]>,
    marks: Vec<(i64, f64)>,
    unbalanced: Vec<(i64, f64)>,
    balanced: usize,
}
