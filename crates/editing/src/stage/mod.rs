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

use std::sync::Arc;

use marionette_document::{Cue, DocumentFile, Link, Placement, Prop};
use nalgebra::Isometry3;

use crate::Document;

mod apply;
mod edits;
mod holds;
mod linked;
mod prop_keys;
mod prop_links;

pub use apply::StageEdit;
pub(crate) use linked::{GroupSolve, LinkedGroup};
pub use prop_links::PropHold;

/// A stage edit refused: why.
fn refused(why: impl Into<String>) -> crate::EditError {
    crate::EditError::Stage(why.into())
}

/// The next figure's identity ([`FigureSlot::id`]).
static NEXT_FIGURE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A new figure identity.
pub(crate) fn new_figure_id() -> u64 {
    NEXT_FIGURE.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// One figure on the stage.
#[derive(Debug)]
pub struct FigureSlot {
    /// Unique among figures and props.
    pub name: String,
    /// Where it stands.
    pub placement: Placement,
    /// Its identity (kept across renames and undo).
    pub(crate) id: u64,
    /// Its document, except for the figure being edited (which is the [`Document`] itself).
    pub(crate) document: Option<Box<Document>>,
    /// Whether a change of a figure linked to it (a drag, an undo of one) set its pose since
    /// the timeline last showed a frame: it is then drawn at that pose, not at the stage's
    /// bake of the frame.
    pub(crate) linked_pose: bool,
}

impl FigureSlot {
    /// A figure's slot.
    pub(crate) fn new(name: String, placement: Placement, document: Option<Document>) -> Self {
        FigureSlot {
            name,
            placement,
            id: new_figure_id(),
            document: document.map(Box::new),
            linked_pose: false,
        }
    }

    /// Its document, when it is not the one being edited.
    pub fn document(&self) -> Option<&Document> {
        self.document.as_deref()
    }

    /// The pose a change of a figure linked to it left it in, while the timeline shows the
    /// frame it was made on (drawn instead of the stage's bake of the frame); `None` otherwise.
    pub fn linked_pose(&self) -> Option<&[f64]> {
        self.document
            .as_deref()
            .filter(|_| self.linked_pose)
            .map(|d| d.pose())
    }
}

/// Everything on the stage besides the figure being edited.
#[derive(Debug, Default)]
pub struct StageParts {
    /// The stage's identity: kept while another figure is selected, new when another document
    /// is opened ([`Document::stage_id`]).
    pub(crate) id: u64,
    /// Every figure in stage order; the edited one's slot has no document.
    pub(crate) figures: Vec<FigureSlot>,
    /// The edited figure's index in `figures`.
    pub(crate) active: usize,
    /// The props.
    pub(crate) props: Vec<Prop>,
    /// The links.
    pub(crate) links: Vec<Link>,
    /// The cues.
    pub(crate) cues: Vec<Cue>,
    /// Counts the changes of other figures' poses by linked changes (what draws them follows).
    pub(crate) linked_poses: u64,
}

impl StageParts {
    /// The cue of `sequence`, made (empty) when there is none.
    pub(crate) fn cue_mut(&mut self, sequence: String) -> &mut Cue {
        let k = match self.cues.iter().position(|c| c.sequence == sequence) {
            Some(k) => k,
            None => {
                self.cues.push(Cue {
                    sequence,
                    tracks: Vec::new(),
                    holds: Vec::new(),
                });
                self.cues.len() - 1
            }
        };
        &mut self.cues[k]
    }

    /// A name no link has: `base`, else `base (2)`, `base (3)`, …
    pub(crate) fn free_link_name(&self, base: String) -> String {
        let taken = |name: &str| self.links.iter().any(|l| l.name == name);
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|n| format!("{base} ({n})"))
            .find(|name| !taken(name))
            .unwrap_or(base)
    }
    /// A stage of one figure, named `name`, at the origin.
    pub(crate) fn one(name: &str) -> StageParts {
        StageParts {
            id: new_figure_id(),
            figures: vec![FigureSlot::new(name.to_owned(), Placement::default(), None)],
            ..StageParts::default()
        }
    }

    /// What of it undo restores.
    pub(crate) fn layout(&self) -> StageLayout {
        StageLayout {
            figures: self
                .figures
                .iter()
                .map(|f| LaidOut {
                    id: f.id,
                    name: f.name.clone(),
                    placement: f.placement,
                    file: None,
                })
                .collect(),
            props: self.props.clone(),
            links: self.links.clone(),
            cues: self.cues.clone(),
        }
    }

    /// The timeline shows a frame: every figure is drawn at the stage's bake of it again.
    pub(crate) fn forget_linked_poses(&mut self) {
        if self.figures.iter().any(|f| f.linked_pose) {
            for f in &mut self.figures {
                f.linked_pose = false;
            }
            self.linked_poses += 1;
        }
    }

    /// Puts figures' poses back by identity: the edited figure's into `pose`, another's into
    /// its document (drawn so until the timeline shows another frame).
    pub(crate) fn put_poses(&mut self, pose: &mut Vec<f64>, poses: &[(u64, Vec<f64>)]) {
        for (id, q) in poses {
            let Some(k) = self.figures.iter().position(|f| f.id == *id) else {
                continue;
            };
            if k == self.active {
                if q.len() == pose.len() {
                    pose.clone_from(q);
                }
            } else if let Some(doc) = self.figures[k].document.as_deref_mut() {
                doc.set_pose_quietly(q);
                self.figures[k].linked_pose = true;
            }
        }
        self.linked_poses += 1;
    }

    /// Puts `layout` back: figures present in both keep their documents; a figure only in
    /// `layout` is made from the file it carries; a figure not in it is dropped.
    pub(crate) fn restore(&mut self, layout: &StageLayout) {
        let active_id = self.figures.get(self.active).map(|f| f.id);
        let mut old: Vec<FigureSlot> = std::mem::take(&mut self.figures);
        for laid in &layout.figures {
            let (document, linked_pose) = match old.iter().position(|f| f.id == laid.id) {
                Some(k) => {
                    let slot = old.swap_remove(k);
                    (slot.document, slot.linked_pose)
                }
                None => (
                    laid.file
                        .as_ref()
                        .map(|file| Box::new(Document::from_file((**file).clone()))),
                    false,
                ),
            };
            self.figures.push(FigureSlot {
                name: laid.name.clone(),
                placement: laid.placement,
                id: laid.id,
                document,
                linked_pose,
            });
        }
        self.active = self
            .figures
            .iter()
            .position(|f| Some(f.id) == active_id)
            .unwrap_or(0);
        self.props.clone_from(&layout.props);
        self.links.clone_from(&layout.links);
        self.cues.clone_from(&layout.cues);
    }
}

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
    pub fn select_figure(&mut self, name: &str) -> Result<(), crate::EditError> {
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
