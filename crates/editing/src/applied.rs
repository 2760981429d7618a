//! What an applied edit reports back ([`Applied`]): nothing, a sentence, or a solve's or a drag step's outcome.

use crate::solve::SolveOutcome;

/// What an applied edit reports back.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// Done (or nothing to do), nothing to tell.
    Quietly,
    /// Done; this is worth telling the user ("Locked left heel", "Undid: Drag right wrist").
    Said(String),
    /// A solve ran ("solve until satisfied"): its outcome, for the status bar and the plot,
    /// and what to tell.
    Solved(Box<SolveOutcome>, String),
    /// A drag stepped ([`crate::Edit::DragTo`]): its solve's outcome, for the status bar and the
    /// plot.
    Stepped(Box<SolveOutcome>),
    /// Foot contacts found and locked ([`crate::Edit::FindFootContacts`]): the cleanup's report,
    /// and what to tell.
    Cleaned(Box<marionette_motion::cleanup::Cleaned>, String),
}
