//! What a panel asks for ([`PanelOutput`], sent after the egui pass), and how a slider's change
//! joins the undo history ([`undo_step`]).

use marionette_editing::Edit;

use crate::input::Command;
use crate::messages::{FileRequest, QuitRequest, TimelineRequest};

/// What the panels ask for, sent after the pass.
#[derive(Debug, Default)]
pub struct PanelOutput {
    /// Edits.
    pub edits: Vec<Edit>,
    /// Commands of the key table (menus run the same commands as the keys).
    pub commands: Vec<Command>,
    /// File actions.
    pub files: Vec<FileRequest>,
    /// The timeline's transport and clipboard.
    pub timeline: Vec<TimelineRequest>,
    /// Quit (asking first if the document is unsaved), or quit discarding it.
    pub quit: Option<QuitRequest>,
    /// The answer to the recovery offer.
    pub recovery: Option<bool>,
    /// Changes of what is kept beside the document (View ▸ Physics).
    pub beside: Vec<marionette_editing::beside::BesideChange>,
}

impl PanelOutput {
    pub(super) fn is_empty(&self) -> bool {
        self.edits.is_empty()
            && self.commands.is_empty()
            && self.files.is_empty()
            && self.timeline.is_empty()
            && self.quit.is_none()
            && self.recovery.is_none()
            && self.beside.is_empty()
    }
}

/// Whether a change of a slider or drag value starts a new undo step or extends the drag's.
pub fn undo_step(response: &bevy_egui::egui::Response) -> marionette_editing::UndoStep {
    if response.dragged() && !response.drag_started() {
        marionette_editing::UndoStep::Extend
    } else {
        marionette_editing::UndoStep::New
    }
}
