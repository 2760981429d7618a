//! What the edits that tell the user something say ([`Applied::Said`]): a solve's outcome, a
//! lock made, an undo or redo, a drag cancelled.

use super::Applied;
use crate::Document;
use crate::solve::IkRunner;

impl Document {
    /// "Solve until satisfied" run with `runner` for at most `budget` iterations, and what it
    /// met.
    pub(super) fn solved(&mut self, runner: &mut IkRunner, budget: usize) -> Applied {
        let Some(outcome) = self.solve_until_satisfied(runner, budget) else {
            return Applied::Said(
                "Nothing to solve yet: drag a body or a handle, or lock a part, first".into(),
            );
        };
        let report = &outcome.report;
        let said = format!(
            "{}: {} after {} iterations, residual {:.4} mm",
            outcome.ran,
            if report.converged { "met" } else { "not met" },
            report.iterations,
            report.residual * 1000.0
        );
        Applied::Solved(Box::new(outcome), said)
    }

    /// That lock `index` was made.
    pub(super) fn locked(&self, index: usize) -> Applied {
        Applied::Said(format!("Locked {}", self.locks()[index].name))
    }

    /// The last edit undone, and which.
    pub(super) fn undone(&mut self) -> Applied {
        Applied::Said(match self.undo() {
            Some(label) => format!("Undid: {label}"),
            None => "Nothing to undo".into(),
        })
    }

    /// The last undone edit redone, and which.
    pub(super) fn redone(&mut self) -> Applied {
        Applied::Said(match self.redo() {
            Some(label) => format!("Redid: {label}"),
            None => "Nothing to redo".into(),
        })
    }

    /// The drag in progress cancelled (nothing said when there was none).
    pub(super) fn drag_cancelled(&mut self) -> Applied {
        if self.drag().is_none() {
            return Applied::Quietly;
        }
        self.cancel_drag();
        Applied::Said("Drag cancelled".into())
    }
}
