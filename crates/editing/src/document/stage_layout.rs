//! The stage as undo restores it ([`StageLayout`]): plain data, the figures' names and places
//! (and the documents of those an edit added or removed), props, links and cues.

use std::sync::Arc;

use marionette_document::{Cue, DocumentFile, Link, Placement, Prop};

/// One figure as undo restores it.
#[derive(Debug, Clone)]
pub struct LaidOut {
    /// Its identity.
    pub id: u64,
    /// Its name.
    pub name: String,
    /// Where it stands.
    pub placement: Placement,
    /// Its whole document, for a figure the edit added or removed.
    pub file: Option<Arc<DocumentFile>>,
}

/// The stage as undo restores it: figures' names and places (and the documents of those the
/// edit added or removed), props, links and cues.
#[derive(Debug, Clone)]
pub struct StageLayout {
    /// The figures, in stage order.
    pub figures: Vec<LaidOut>,
    /// The props.
    pub props: Vec<Prop>,
    /// The links.
    pub links: Vec<Link>,
    /// The cues.
    pub cues: Vec<Cue>,
}

impl PartialEq for LaidOut {
    /// The same figure, name and place (the document carried is not compared: it is the same
    /// figure's).
    fn eq(&self, other: &LaidOut) -> bool {
        self.id == other.id && self.name == other.name && self.placement == other.placement
    }
}

impl PartialEq for StageLayout {
    fn eq(&self, other: &StageLayout) -> bool {
        self.figures == other.figures
            && self.props == other.props
            && self.links == other.links
            && self.cues == other.cues
    }
}
