//! The physics assistant's steps (`ShowPhysics`, `ShowStagePhysics`, `PhysicsGhost`, `MarkStanding`,
//! `AcceptGhost`, `DiscardGhost`): checked before a document is open ([`Step::check`]) and
//! resolved as changes of what is kept beside the document, the ghost weighed by the figure's
//! own body.

use super::action::Action;
use super::step::Step;
use crate::beside::BesideChange;
use crate::document::Document;
use crate::physics_ghost::{GhostFix, GhostRequest};

impl Step {
    /// [`Step::resolve`] of a physics step.
    pub(super) fn resolve_physics(&self, document: &Document) -> Action {
        let ghost = |from: i64, to: i64, fix: GhostFix| {
            BesideChange::PhysicsGhost(GhostRequest {
                from,
                to,
                fix,
                body: document.mass_settings(),
            })
        };
        let change = match self {
            Step::ShowPhysics(shown) => BesideChange::ShowPhysics(*shown),
            Step::ShowStagePhysics(every) => BesideChange::ShowStagePhysics(*every),
            Step::PhysicsGhost {
                from,
                to,
                ballistic,
                momentum,
                apex,
                marks,
            } => ghost(
                *from,
                *to,
                GhostFix::Flight {
                    ballistic: *ballistic,
                    momentum: *momentum,
                    apex: *apex,
                    marks: marks.clone(),
                },
            ),
            Step::MarkStanding { from, to } => ghost(*from, *to, GhostFix::Standing),
            Step::AcceptGhost => BesideChange::AcceptGhost,
            Step::DiscardGhost => BesideChange::DiscardGhost,
            _ => return Action::Nothing,
        };
        Action::Beside(change)
    }

    /// [`Step::check`] of `PhysicsGhost` and `MarkStanding`: frames in order, something to fix,
    /// an apex that is a height, at most four marks.
    pub(super) fn check_physics(&self) -> Result<(), String> {
        let (name, from, to) = match self {
            Step::PhysicsGhost { from, to, .. } => ("PhysicsGhost", from, to),
            Step::MarkStanding { from, to } => ("MarkStanding", from, to),
            _ => return Ok(()),
        };
        if from > to {
            return Err(format!("{name}: from {from} is after to {to}"));
        }
        let Step::PhysicsGhost {
            ballistic,
            momentum,
            apex,
            marks,
            ..
        } = self
        else {
            return Ok(());
        };
        if !(*ballistic || *momentum || apex.is_some()) {
            return Err("PhysicsGhost: say what to fix: ballistic, momentum or apex".into());
        }
        if let Some(h) = apex.filter(|h| !(h.is_finite() && *h > 0.0)) {
            return Err(format!("PhysicsGhost: an apex of {h} m is not a height"));
        }
        if marks.len() > 4 {
            return Err(format!(
                "PhysicsGhost: at most four marks, not {}",
                marks.len()
            ));
        }
        Ok(())
    }
}
