//! The stage around the figure being edited (issue 32): the document's other figures, each a
//! whole [`Document`] of its own (skeleton, pose, locks, keys, undo history), its props, the
//! links between things and the props' cues. The figure being edited is the [`Document`]
//! itself; selecting another ([`Document::select_figure`]) swaps it in, so every edit, drag,
//! panel and replay step that works on one figure works on the selected one unchanged.
//!
//! The editor draws the stage in the selected figure's frame (the figure's joints are in it);
//! [`Document::stage_to_figure`] and its inverse convert. Undo is the selected figure's: a stage
//! edit (a figure added, removed, renamed or moved; a prop; a link; a grip) is recorded in the
//! history of the figure selected when it was made ([`crate::history::Change::Stage`]). The
//! edits are methods of [`Document`] (in `stage/edits.rs`), their one value [`StageEdit`].

use marionette_document::{Cue, Link, Placement, Prop};
use nalgebra::Isometry3;

use crate::Document;

mod apply;
mod edits;
mod holds;
mod linked;
mod prop_keys;
mod prop_links;

pub use crate::document::stage_layout::{LaidOut, StageLayout};
pub use crate::document::{FigureSlot, StageParts};
pub use apply::StageEdit;
pub(crate) use linked::GroupSolve;
pub use prop_links::PropHold;

/// A stage edit refused: why.
fn refused(why: impl Into<String>) -> crate::EditError {
    crate::EditError::Stage(why.into())
}

impl Document {
    /// The shown sequence's name.
    pub(crate) fn shown_name(&self) -> Option<&str> {
        Some(self.sequences.get(self.sequence?)?.name.as_str())
    }

    /// The shown sequence's name, or why an edit timed in it (`what`, a grip or a key) is
    /// refused: `label` names the edit.
    pub(crate) fn timed_in_shown(
        &self,
        label: &str,
        what: &str,
    ) -> Result<String, crate::EditError> {
        self.shown_name().map(str::to_owned).ok_or_else(|| {
            refused(format!(
                "{label}: show a sequence first (a {what} is timed)"
            ))
        })
    }

    /// The stage's identity, unique in the process: the same while other figures of it are
    /// selected, another when another document is opened (a view that frames the work, not
    /// the figure, follows this rather than [`Document::id`]).
    pub fn stage_id(&self) -> u64 {
        self.stage.id
    }

    /// Every figure's name, in stage order.
    pub fn figure_names(&self) -> Vec<&str> {
        self.stage.figures.iter().map(|f| f.name.as_str()).collect()
    }

    /// The index of the figure being edited.
    pub fn active_figure(&self) -> usize {
        self.stage.active
    }

    /// The name of the figure being edited.
    pub fn figure_name(&self) -> &str {
        self.stage
            .figures
            .get(self.stage.active)
            .map_or("", |f| f.name.as_str())
    }

    /// Every figure's slot (the edited one's has no document of its own: it is `self`).
    pub fn figures(&self) -> &[FigureSlot] {
        &self.stage.figures
    }

    /// The props.
    pub fn props(&self) -> &[Prop] {
        &self.stage.props
    }

    /// The links.
    pub fn links(&self) -> &[Link] {
        &self.stage.links
    }

    /// The cues.
    pub fn cues(&self) -> &[Cue] {
        &self.stage.cues
    }

    /// Changes whenever a linked change (a drag of a linked figure, its undo) sets other
    /// figures' poses, or the timeline stops showing them so: what draws the other figures
    /// follows it.
    pub fn linked_poses_revision(&self) -> u64 {
        self.stage.linked_poses
    }

    /// Whether the document holds more than one figure, or anything a version-1 document
    /// cannot (props, links, cues, a figure moved or renamed).
    pub fn is_stage(&self) -> bool {
        let s = &self.stage;
        s.figures.len() > 1
            || !s.props.is_empty()
            || !s.links.is_empty()
            || !s.cues.is_empty()
            || s.figures
                .first()
                .is_some_and(|f| !f.placement.is_identity() || f.name != self.skeleton.name())
    }

    /// The whole stage as a file holds it (every figure's snapshot, built-in figures naming no
    /// skeleton file), for a bake of the stage.
    pub fn to_stage(&self) -> marionette_document::Stage {
        marionette_document::Stage {
            figures: self
                .stage
                .figures
                .iter()
                .map(|f| marionette_document::StageFigure {
                    name: f.name.clone(),
                    placement: f.placement,
                    document: f.document.as_deref().unwrap_or(self).snapshot(),
                })
                .collect(),
            props: self.stage.props.clone(),
            links: self.stage.links.clone(),
            cues: self.stage.cues.clone(),
        }
    }

    /// Where a prop's mesh file is (relative to the document's folder, else the working
    /// directory), made absolute.
    pub fn prop_mesh_path(&self, file: &str) -> std::path::PathBuf {
        let path = self.folder().join(file);
        std::path::absolute(&path).unwrap_or(path)
    }

    /// The first of `stem`, `stem 2`, `stem 3`, … that no figure or prop is named.
    pub fn free_name(&self, stem: &str) -> String {
        let taken = |name: &str| {
            self.stage.figures.iter().any(|f| f.name == name)
                || self.stage.props.iter().any(|p| p.name == name)
        };
        let stem = stem.trim();
        let stem = if stem.is_empty() { "Figure" } else { stem };
        std::iter::once(stem.replace('/', "-"))
            .chain((2..).map(|n| format!("{} {n}", stem.replace('/', "-"))))
            .find(|name| !taken(name))
            .unwrap_or_else(|| stem.to_owned())
    }

    /// Where a new figure stands: 1 m to the side (+x) of the right-most figure, facing as the
    /// stage.
    pub fn beside_the_others(&self) -> Placement {
        let right = self
            .stage
            .figures
            .iter()
            .map(|f| f.placement.at[0])
            .fold(f64::NEG_INFINITY, f64::max);
        Placement {
            at: [if right.is_finite() { right + 1.0 } else { 0.0 }, 0.0],
            facing: 0.0,
        }
    }

    /// The rigid motion from the edited figure's frame to the stage's.
    pub fn figure_to_stage(&self) -> Isometry3<f64> {
        self.stage
            .figures
            .get(self.stage.active)
            .map_or_else(Isometry3::identity, |f| f.placement.isometry())
    }

    /// The rigid motion from the stage's frame to the edited figure's (where the editor draws).
    pub fn stage_to_figure(&self) -> Isometry3<f64> {
        self.figure_to_stage().inverse()
    }

    /// Makes the figure named `name` the one edited (not an edit of the work: nothing is
    /// recorded). A drag in progress ends first.
    pub(crate) fn select_figure(&mut self, name: &str) -> Result<(), crate::EditError> {
        let k = self.figure_named(name)?;
        if k == self.stage.active {
            return Ok(());
        }
        self.end_drag();
        let mut stage = std::mem::take(&mut self.stage);
        let Some(incoming) = stage.figures[k].document.take() else {
            self.stage = stage;
            return Err(refused(format!("figure \"{name}\" has no document")));
        };
        let file = self.file.take();
        // What the user looks at stays: the frame and the shown sequence (the incoming figure's
        // of the same name; a stage's figures share their sequences by name).
        let (frame, shown) = (self.frame, self.shown_name().map(str::to_owned));
        let outgoing = std::mem::replace(self, *incoming);
        stage.figures[stage.active].document = Some(Box::new(outgoing));
        stage.active = k;
        self.stage = stage;
        self.file = file;
        self.frame = frame;
        self.sequence = shown.and_then(|name| self.sequences.iter().position(|s| s.name == name));
        self.show_frame();
        Ok(())
    }
}
