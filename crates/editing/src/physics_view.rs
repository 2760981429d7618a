//! The physics assistant's measures of the edited figure, for the editor's overlays (View ▸
//! Physics) and the commands: the centre of mass, the supports (the figure's own body points by
//! [`SupportRule`], and the points its locks hold in the world) and the angular momentum on every
//! frame of a take, its flights fitted, and the balance of each frame (the centre of mass's
//! margin to the support polygon).

use marionette_document::{Body, BodySex, Lock};
use marionette_ik::GoalKind;
use marionette_physics::balance::{POINT_RADIUS, margin};
use marionette_physics::check::check;
use marionette_physics::flight::{G, Span};
use marionette_physics::supports::SupportRule;
use marionette_physics::track::Track;
use marionette_physics::{MassError, MassModel, MassSettings, MassSource, Sex};

use crate::document::history::Change;
use crate::edit_error::EditError;
use crate::physics_carried::CarriedProp;
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Vector2, Vector3};

/// A margin to the support polygon above this is comfortably inside (green); between 0 and it,
/// at the edge (amber); below 0, outside (red).
pub const COMFORTABLY_INSIDE: f64 = 0.02;

/// The physics of a take (or of one pose).
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicsView {
    /// The first frame's number.
    pub first_frame: i64,
    /// Frames per second.
    pub fps: f64,
    /// The figure's mass (kg), without what it carries.
    pub mass: f64,
    /// The props it carries on some frames (counted in the centre of mass while held).
    pub carried: Vec<CarriedProp>,
    /// Why the figure has no humanoid roles (its numbers are the skeleton's own masses).
    pub no_roles: Option<String>,
    /// The centre of mass per frame.
    pub com: Vec<Vector3<f64>>,
    /// The supporting points per frame.
    pub supports: Vec<Vec<Vector3<f64>>>,
    /// The angular momentum about the centre of mass per frame (kg·m²/s).
    pub momentum: Vec<Vector3<f64>>,
    /// The spans with no support, fitted.
    pub spans: Vec<Span>,
}

/// How the centre of mass stands over its support on a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Footing {
    /// Inside by more than [`COMFORTABLY_INSIDE`].
    Inside,
    /// Inside, within [`COMFORTABLY_INSIDE`] of the edge.
    Edge,
    /// Outside.
    Outside,
    /// No support (in flight).
    Airborne,
}

impl PhysicsView {
    /// The physics of `poses` (a bake of a sequence at `fps`, its first frame numbered
    /// `first_frame`) of `skeleton` with `locks`, weighed as `body` says.
    pub fn of_take(
        skeleton: &Skeleton,
        locks: &[Lock],
        first_frame: i64,
        poses: &[Vec<f64>],
        (fps, body): (f64, MassSettings),
    ) -> Result<PhysicsView, MassError> {
        PhysicsView::of_take_carrying(skeleton, locks, first_frame, poses, (fps, body), Vec::new())
    }

    /// [`PhysicsView::of_take`] of a figure carrying `carried` (the props it grips, their
    /// places given on every frame of `poses`).
    pub fn of_take_carrying(
        skeleton: &Skeleton,
        locks: &[Lock],
        first_frame: i64,
        poses: &[Vec<f64>],
        (fps, body): (f64, MassSettings),
        carried: Vec<CarriedProp>,
    ) -> Result<PhysicsView, MassError> {
        let model = MassModel::of(skeleton, body)?;
        let loads: Vec<_> = carried.iter().map(|c| c.carried.clone()).collect();
        let track = Track::of(skeleton, &model, poses.iter().map(Vec::as_slice), fps)
            .carrying(model.total, &loads);
        let held = held_points(skeleton, locks, first_frame, poses);
        let report = check(&track, &document_rule(), &held);
        Ok(PhysicsView {
            first_frame,
            fps,
            mass: model.total,
            carried,
            no_roles: match model.source {
                MassSource::Skeleton(why) => Some(why),
                MassSource::DeLeva(_) => None,
            },
            com: track.com,
            supports: report.supports,
            momentum: track.momentum,
            spans: report.spans,
        })
    }

    /// The index of `frame` (`None` when the take does not have it).
    pub fn index(&self, frame: i64) -> Option<usize> {
        let i = usize::try_from(frame - self.first_frame).ok()?;
        (i < self.com.len()).then_some(i)
    }

    /// The support polygon of frame index `i`, seen from above (x, z), and the centre of mass's
    /// margin to it (each supporting point a disc of [`POINT_RADIUS`]); `None` in flight.
    pub fn footing_at(&self, i: usize) -> Option<(Vec<Vector2<f64>>, f64)> {
        let points: Vec<Vector2<f64>> = self.supports[i]
            .iter()
            .map(|p| Vector2::new(p.x, p.z))
            .collect();
        if points.is_empty() {
            return None;
        }
        let c = Vector2::new(self.com[i].x, self.com[i].z);
        let hull = marionette_physics::balance::convex_hull(&points);
        Some((hull, margin(&c, &points) + POINT_RADIUS))
    }

    /// How the centre of mass stands over its support on frame index `i`.
    pub fn footing(&self, i: usize) -> Footing {
        match self.footing_at(i) {
            None => Footing::Airborne,
            Some((_, m)) if m > COMFORTABLY_INSIDE => Footing::Inside,
            Some((_, m)) if m >= 0.0 => Footing::Edge,
            Some(_) => Footing::Outside,
        }
    }

    /// How many frames a flight as high as `span`'s takes under g: its rise above the take-off
    /// and its fall to the landing, √(2h_up/g) + √(2h_down/g), in frames.
    pub fn frames_for_height(&self, span: &Span) -> f64 {
        let before = span.from.saturating_sub(1);
        let after = (span.to + 1).min(self.com.len() - 1);
        let top = self.com[span.from..=span.to]
            .iter()
            .map(|c| c.y)
            .fold(f64::NEG_INFINITY, f64::max);
        let up = (top - self.com[before].y).max(0.0);
        let down = (top - self.com[after].y).max(0.0);
        ((2.0 * up / G).sqrt() + (2.0 * down / G).sqrt()) * self.fps
    }
}

/// Per frame of `poses` (the first numbered `first_frame`), the points the locks active on it
/// hold in the world: a position, plane or line lock's point, a pose lock's site (a foot planted
/// on the floor, a hand on a prop).
pub fn held_points(
    skeleton: &Skeleton,
    locks: &[Lock],
    first_frame: i64,
    poses: &[Vec<f64>],
) -> Vec<Vec<Vector3<f64>>> {
    let mut fk = Fk::new(skeleton);
    (first_frame..)
        .zip(poses)
        .map(|(frame, q)| {
            fk.update(skeleton, q);
            locks
                .iter()
                .filter(|l| l.enabled && l.active_at(Some(frame)))
                .filter_map(|l| match &l.goal().kind {
                    GoalKind::Point { joint, offset, .. } => Some(fk.point(*joint, offset)),
                    GoalKind::Position { site, .. }
                    | GoalKind::Plane { site, .. }
                    | GoalKind::Line { site, .. }
                    | GoalKind::Pose { site, .. } => Some(fk.site_position(*site)),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// The support rule for a document's figure: its floor is at height 0.
pub fn document_rule() -> SupportRule {
    SupportRule {
        floor: Some(0.0),
        ..SupportRule::default()
    }
}

/// A take as the physics ghost reads it: baked poses, the first numbered `first`, at `fps`, weighed
/// by `model`.
pub struct Take<'a> {
    /// The figure's masses.
    pub model: &'a MassModel,
    /// What they were made from.
    pub model_settings: MassSettings,
    /// The first pose's frame number.
    pub first: i64,
    /// The poses.
    pub poses: &'a [Vec<f64>],
    /// Frames per second.
    pub fps: f64,
}

/// De Leva's settings for `body` (none: 75 kg, male).
pub fn mass_settings(body: Option<Body>) -> MassSettings {
    let body = body.unwrap_or_default();
    MassSettings {
        total_kg: body.mass,
        sex: match body.sex {
            BodySex::Male => Sex::Male,
            BodySex::Female => Sex::Female,
        },
    }
}

impl crate::Document {
    /// The figure's body as the document gives it (none: 75 kg, male).
    pub fn body(&self) -> Option<Body> {
        self.body
    }

    /// The figure's body as de Leva's settings: what the overlays and the ghost weigh it by.
    pub fn mass_settings(&self) -> MassSettings {
        mass_settings(self.body)
    }

    /// Sets the figure's body (none: the default), as one undo step; a mass that is not one
    /// is refused.
    pub(crate) fn set_body(&mut self, body: Option<Body>) -> Result<String, EditError> {
        if let Some(what) = body.and_then(|b| b.defect()) {
            return Err(EditError::Body(what));
        }
        let said = match body {
            Some(b) => format!("The figure weighs {} kg ({:?})", b.mass, b.sex),
            None => "The figure weighs 75 kg (Male), the default".to_owned(),
        };
        let before = std::mem::replace(&mut self.body, body);
        self.history.record(Change::Body {
            label: "Figure's body".into(),
            before,
            after: body,
        });
        Ok(said)
    }
}
