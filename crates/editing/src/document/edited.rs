//! What an undo or a redo changes: the parts of a document edits change, borrowed
//! ([`Edited`]), and the stage's ([`StageUndo`]).

use marionette_document::{Body, LibraryPose, Lock, Sequence};

use super::stage_layout::StageLayout;

/// What undo and redo change on the stage: the other figures' poses a linked edit set, and
/// the stage's layout. The document's stage parts implement it.
pub trait StageUndo: std::fmt::Debug {
    /// Puts `poses` (figure identity, state) on the figures they name; the edited figure's
    /// into `pose`.
    fn put_poses(&mut self, pose: &mut Vec<f64>, poses: &[(u64, Vec<f64>)]);
    /// Lays the stage out as `layout` says.
    fn restore(&mut self, layout: &StageLayout);
}

/// The parts of a document that edits change, borrowed for an undo or a redo.
#[derive(Debug)]
pub struct Edited<'a> {
    /// The state vector.
    pub pose: &'a mut Vec<f64>,
    /// Each joint's stiffness (Welman's w), by joint index.
    pub stiffness: &'a mut [f64],
    /// The locks.
    pub locks: &'a mut Vec<Lock>,
    /// The sequences.
    pub sequences: &'a mut Vec<Sequence>,
    /// The pose library.
    pub library: &'a mut Vec<LibraryPose>,
    /// The figure's body.
    pub body: &'a mut Option<Body>,
    /// The rest of the stage.
    pub stage: &'a mut dyn StageUndo,
}
