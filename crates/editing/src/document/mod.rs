//! The document the editor edits, without Bevy: a skeleton, its pose, per-joint stiffness, the
//! locks and sequences, the drag in progress and the undo history. Every edit goes through here,
//! so each is checked (bad values are errors that change nothing), clamped to the limits, and
//! undoable as one step (a whole drag included: the pose changes live while dragging and one step
//! is recorded when it ends, as Fyrox's editor does). The editor sends every edit as one
//! [`crate::Edit`] to [`Document::apply`] ([`crate::edit`]); the edits themselves are in
//! `figure_edits.rs` (the pose, stiffness, undo), [`crate::drag`], [`crate::lock_edits`],
//! [`crate::timeline`] and the others; opening and saving Document files in [`io`].
//!
//! This folder holds the Document and what it holds, and nothing it holds depends on an edit:
//! the undo history ([`history`]), the stage's other figures, props, links and cues
//! ([`StageParts`], here because each figure is a Document of its own) and the layout undo
//! restores ([`stage_layout`]), the drag in progress ([`drag_state`]), and the smaller things in
//! [`held`].
//!
//! Every solve goes through one goal set ([`Document::goal_set`]): the locks the edit can disturb
//! and the edit's own goal, each goal served by its own chain. A drag, the swivel, the ghosts and
//! "solve until satisfied" all ask for the same thing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_document::{Lock, Sequence};
use marionette_ik::Goal;
use marionette_interchange::character::Character;
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};

pub mod drag_state;
pub mod edited;
mod figure_edits;
pub mod held;
pub mod history;
pub mod io;
pub mod stage_layout;

use marionette_document::{Cue, Link, Placement, Prop};

use stage_layout::{LaidOut, StageLayout};

use drag_state::Drag;
use history::History;

/// The next document's identity ([`Document::id`]).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A lock further than this from holding is re-solved by any edit, whatever the edit moves
/// (metres or radians; far below the solvers' 0.1 mm tolerance).
const DISTURBED: f64 = 1e-7;

/// The document: what is open and everything the user changed.
#[derive(Debug)]
pub struct Document {
    pub(crate) skeleton: Skeleton,
    pub(crate) source: Option<PathBuf>,
    /// The Document file it was opened from or last saved to.
    pub(crate) file: Option<PathBuf>,
    pub(crate) pose: Vec<f64>,
    pub(crate) stiffness: Vec<f64>,
    pub(crate) locks: Vec<Lock>,
    pub(crate) sequences: Vec<Sequence>,
    /// The pose library (kept in the document).
    pub(crate) library: Vec<marionette_document::LibraryPose>,
    /// The figure's body as the physics assistant weighs it (none: 75 kg, male).
    pub(crate) body: Option<marionette_document::Body>,
    /// What the rotate handles are sized by ([`crate::rotate_handles::figure_size`]), made once:
    /// the skeleton does not change.
    pub(crate) handle_size: f64,
    /// The sequence the timeline shows, if any ([`crate::timeline`]).
    pub(crate) sequence: Option<usize>,
    /// The timeline's current frame.
    pub(crate) frame: i64,
    pub(crate) history: History,
    /// The history's revision when last saved (or opened).
    pub(crate) saved_revision: u64,
    /// The drag in progress ([`crate::drag`]).
    pub(crate) drag: Option<Drag>,
    /// The edit's goal and chain of the last drag step.
    pub(crate) last_edit: Option<(Goal, Chain)>,
    /// The figures the drag in progress moves with the edited one (links holding now).
    pub(crate) linked: Option<Box<held::LinkedGroup>>,
    pub(crate) fk: Fk,
    /// The character the skeleton's skin names, read once when the document was made.
    pub(crate) character: SkinCharacter,
    /// The other figures, props, links and cues ([`crate::stage`]).
    pub(crate) stage: StageParts,
    /// How the last Find foot contacts moved the hips ([`crate::foot_contacts`]).
    pub(crate) hips_moved: Option<held::HipsMoved>,
    /// Whether the drag in progress is a trail drag, which keys what it moved when it ends.
    pub(crate) key_after_drag: bool,
    id: u64,
}

/// The character a document's skeleton names as its skin, read once (the scene draws it, picking
/// finds its surface, the export writes it back).
#[derive(Debug, Clone, Default)]
pub enum SkinCharacter {
    /// The skeleton names no skin.
    #[default]
    None,
    /// The character, read.
    Read(Arc<Character>),
    /// The skin could not be read: why (the figure is drawn with its bodies).
    Unreadable(String),
}

impl Document {
    /// A document on `skeleton` at its rest pose; `source` is the file it came from (`None`
    /// for a built-in figure). A skeleton with a skin has its character read here.
    pub fn new(skeleton: Skeleton, source: Option<PathBuf>) -> Document {
        Document::with_character(skeleton, source, None)
    }

    /// As [`Document::new`], with the skin's character already read (`None`: read it here if
    /// the skeleton has a skin).
    pub fn with_character(
        skeleton: Skeleton,
        source: Option<PathBuf>,
        character: Option<Arc<Character>>,
    ) -> Document {
        let character = match (character, skeleton.skin_path(source.as_deref())) {
            (Some(c), _) => SkinCharacter::Read(c),
            (None, None) => SkinCharacter::None,
            (None, Some(path)) => match Character::open(&path) {
                Ok(c) => SkinCharacter::Read(Arc::new(c)),
                Err(e) => SkinCharacter::Unreadable(e.to_string()),
            },
        };
        let pose = Pose::rest(&skeleton).q;
        let stiffness = skeleton.joints().iter().map(|j| j.stiffness).collect();
        let mut fk = Fk::new(&skeleton);
        fk.update(&skeleton, &pose);
        let handle_size = held::figure_size(&skeleton);
        let skeleton_name = skeleton.name().to_owned();
        Document {
            skeleton,
            source,
            file: None,
            pose,
            stiffness,
            locks: Vec::new(),
            sequences: Vec::new(),
            library: Vec::new(),
            body: None,
            handle_size,
            sequence: None,
            frame: 0,
            history: History::default(),
            saved_revision: 0,
            drag: None,
            last_edit: None,
            linked: None,
            fk,
            character,
            stage: StageParts::one(skeleton_name.as_str()),
            hips_moved: None,
            key_after_drag: false,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The document starting from the built-in standing pose (`builtin::standing`: elbows and
    /// knees slightly bent, so no limb starts straight, a singular start for the numeric
    /// solvers) instead of the rest pose. Not an undoable edit: it is where editing starts.
    pub fn standing(mut self) -> Document {
        self.pose = marionette_skeleton::builtin::standing(&self.skeleton).q;
        self.fk.update(&self.skeleton, &self.pose);
        self
    }

    /// This document's identity, unique in the process: a view that depends on the skeleton
    /// (the scene's bodies, the outliner) is rebuilt when it changes, that is when another
    /// document is opened.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The file the skeleton came from.
    pub fn source(&self) -> Option<&Path> {
        self.source.as_deref()
    }

    /// The character the skeleton's skin names, if it was read.
    pub fn character(&self) -> Option<&Arc<Character>> {
        match &self.character {
            SkinCharacter::Read(c) => Some(c),
            _ => None,
        }
    }

    /// The skin's character as the document read it (or why it could not).
    pub fn skin_character(&self) -> &SkinCharacter {
        &self.character
    }

    /// The current state vector.
    pub fn pose(&self) -> &[f64] {
        &self.pose
    }

    /// Forward kinematics of the current pose.
    pub fn fk(&self) -> &Fk {
        &self.fk
    }

    /// Each joint's stiffness, by joint index.
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// The undo history (for the Edit menu's labels).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The drag in progress.
    pub fn drag(&self) -> Option<&Drag> {
        self.drag.as_ref()
    }

    /// The edit's goal and chain of the last drag frame (kept after the drag ends, for "solve
    /// until satisfied", the ghosts and the drag line).
    pub fn last_edit(&self) -> Option<&(Goal, Chain)> {
        self.last_edit.as_ref()
    }

    /// The locks, in document order.
    pub fn locks(&self) -> &[Lock] {
        &self.locks
    }

    /// The sequences, in document order.
    pub fn sequences(&self) -> &[Sequence] {
        &self.sequences
    }

    /// The Document file it was opened from or last saved to.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Whether there are edits since it was opened or last saved.
    pub fn is_modified(&self) -> bool {
        self.history.revision() != self.saved_revision
            || self
                .stage
                .figures
                .iter()
                .filter_map(|f| f.document.as_deref())
                .any(Document::is_modified)
    }
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

impl history::StageUndo for StageParts {
    fn put_poses(&mut self, pose: &mut Vec<f64>, poses: &[(u64, Vec<f64>)]) {
        StageParts::put_poses(self, pose, poses);
    }

    fn restore(&mut self, layout: &StageLayout) {
        StageParts::restore(self, layout);
    }
}
