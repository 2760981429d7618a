//! Opening and saving the [`Document`] as a Document file (docs/file-formats.md: version 1 for
//! one figure, version 2 for a stage, whose first figure is edited when it opens), and its
//! recovery file: autosaved beside the document (or in the user's data folder for a document
//! never saved) while there are unsaved edits, offered on the next start when it is newer than
//! the document. A failed open leaves the open document as it was (the caller keeps it); saves are
//! atomic.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use marionette_document::{DocumentFile, Stage, StageError, StageFigure, StageFile};
use marionette_skeleton::{FileError, Pose, Skeleton};

use super::Document;
use super::history::History;
use super::{FigureSlot, StageParts};

/// Why a document could not be opened or saved.
pub type DocumentError = StageError;

/// What a save writes: the document file, the skeletons written beside it (where, and which),
/// and the skeleton file each figure names.
type SavePlan<'a> = (StageFile, Vec<(PathBuf, &'a Skeleton)>, Vec<PathBuf>);

/// The recovery file of an unsaved document, in the user's data folder.
const UNTITLED_RECOVERY: &str = "untitled.recovery.ron";

/// The user's data folder for Marionette: `$XDG_DATA_HOME/marionette`, else
/// `~/.local/share/marionette`, else the system's temporary folder.
pub fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("marionette");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".local/share/marionette");
    }
    std::env::temp_dir().join("marionette")
}

/// Where the recovery file of the document at `file` goes (`.NAME.recovery.ron` beside it), or
/// of a document never saved (`untitled.recovery.ron` in the folder `untitled`, normally
/// [`data_dir`]).
pub fn recovery_path(file: Option<&Path>, untitled: &Path) -> PathBuf {
    match file {
        Some(f) => {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "document".into());
            let stem = name.strip_suffix(".ron").unwrap_or(&name);
            f.with_file_name(format!(".{stem}.recovery.ron"))
        }
        None => untitled.join(UNTITLED_RECOVERY),
    }
}

/// `file`'s text to be saved at `path`, or why it cannot be written (as a save says it).
fn text_of(file: &StageFile, path: &Path) -> Result<String, DocumentError> {
    file.to_ron_string(path).map_err(|e| {
        DocumentError::from(FileError::<marionette_document::StageDefect>::Io {
            file: marionette_skeleton::ron_io::display_path(path),
            source: std::io::Error::other(e.to_string()),
        })
    })
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The recovery file to offer for the document at `file` (or an unsaved one, its recovery in
/// `untitled`): present and newer than the document.
pub fn pending_recovery(file: Option<&Path>, untitled: &Path) -> Option<PathBuf> {
    let recovery = recovery_path(file, untitled);
    let saved = modified(&recovery)?;
    match file.and_then(modified) {
        Some(doc) if doc > saved => None,
        _ => Some(recovery),
    }
}

impl Document {
    /// Opens a Document file. On error nothing is opened (the caller's document stays).
    pub fn open_document(path: impl AsRef<Path>) -> Result<Document, DocumentError> {
        let path = path.as_ref();
        let stage = StageFile::load(path)?.stage;
        let mut doc = Document::from_stage(stage);
        doc.file = Some(path.to_path_buf());
        Ok(doc)
    }

    /// A document holding a whole stage, its first figure the one edited.
    pub fn from_stage(stage: Stage) -> Document {
        let Stage {
            figures,
            props,
            links,
            cues,
        } = stage;
        let mut slots = Vec::with_capacity(figures.len());
        let mut first = None;
        for StageFigure {
            name,
            placement,
            document,
        } in figures
        {
            let document = Document::from_file(document);
            if first.is_none() {
                first = Some(document);
                slots.push(FigureSlot::new(name, placement, None));
            } else {
                slots.push(FigureSlot::new(name, placement, Some(document)));
            }
        }
        let mut doc = first.unwrap_or_else(|| {
            Document::new(marionette_skeleton::builtin::humanoid(), None).standing()
        });
        if !slots.is_empty() {
            doc.stage = StageParts {
                id: super::new_figure_id(),
                figures: slots,
                active: 0,
                props,
                links,
                cues,
                linked_poses: 0,
            };
        }
        doc
    }

    /// A document holding what `file` holds (no Document file of its own yet).
    pub fn from_file(file: DocumentFile) -> Document {
        let DocumentFile {
            skeleton_path,
            skeleton,
            pose,
            locks,
            sequences,
            library,
            body,
        } = file;
        // A snapshot of a built-in figure names no skeleton file.
        let source = (!skeleton_path.as_os_str().is_empty()).then_some(skeleton_path);
        let mut doc = Document::new(skeleton, source);
        doc.pose = pose.q;
        doc.fk.update(&doc.skeleton, &doc.pose);
        doc.locks = locks;
        doc.sequences = sequences;
        doc.library = library;
        doc.body = body;
        doc
    }

    /// Takes the recovered work of `recovery` (a recovery file) as unsaved edits of the document
    /// at `file`: undo goes back to what `file` held, if it was open.
    pub fn recover(recovery: &Path, file: Option<&Path>) -> Result<Document, DocumentError> {
        let mut doc = Document::open_document(recovery)?;
        doc.file = file.map(Path::to_path_buf);
        doc.history = History::default();
        doc.saved_revision = u64::MAX; // unsaved until saved
        Ok(doc)
    }

    /// What a save to `path` writes, nothing written: the document file (version 1 for one
    /// figure at the origin named after its skeleton, else a stage) and the skeleton files it
    /// names that are to be written beside it (a built-in figure has none of its own), with the
    /// skeleton file each figure names, in stage order.
    fn plan_save(&self, path: &Path) -> SavePlan<'_> {
        let stem = path
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "figure".into());
        let stem = stem.strip_suffix(".marionette").unwrap_or(&stem).to_owned();
        let one = self.stage.figures.len() <= 1;
        let mut figures = Vec::with_capacity(self.stage.figures.len());
        let mut skeletons = Vec::with_capacity(self.stage.figures.len());
        let mut beside = Vec::new();
        for slot in &self.stage.figures {
            let doc = slot.document.as_deref().unwrap_or(self);
            let skeleton_path = match &doc.source {
                Some(source) => source.clone(),
                None => {
                    let name = if one {
                        format!("{stem}.skeleton.ron")
                    } else {
                        format!("{stem}.{}.skeleton.ron", slot.name)
                    };
                    let at = path.with_file_name(name);
                    beside.push((at.clone(), &doc.skeleton));
                    at
                }
            };
            let mut file = doc.snapshot();
            file.skeleton_path = skeleton_path.clone();
            skeletons.push(skeleton_path);
            figures.push(StageFigure {
                name: slot.name.clone(),
                placement: slot.placement,
                document: file,
            });
        }
        let stage = Stage {
            figures,
            props: self.stage.props.clone(),
            links: self.stage.links.clone(),
            cues: self.stage.cues.clone(),
        };
        (StageFile { stage }, beside, skeletons)
    }

    /// The document file's text a save to `path` would write, nothing written: for a caller
    /// that must know the document can be written before it writes files beside it (an
    /// import's skeleton).
    pub fn text_for(&self, path: &Path) -> Result<String, DocumentError> {
        text_of(&self.plan_save(path).0, path)
    }

    /// Writes the document to `path` without making it the document's file; returns the
    /// skeleton file each figure names, in stage order. The document's text is made first, so
    /// that a document that cannot be written writes nothing (not even a skeleton beside it).
    fn write_to(&self, path: &Path) -> Result<Vec<PathBuf>, DocumentError> {
        let (file, beside, skeletons) = self.plan_save(path);
        let text = text_of(&file, path)?;
        for (at, skeleton) in beside {
            skeleton
                .save(&at)
                .map_err(|source| marionette_document::DocumentError::Skeleton {
                    document: path.display().to_string(),
                    path: at.display().to_string(),
                    source,
                })?;
        }
        FileError::<marionette_document::StageDefect>::write_text(path, Ok(text))?;
        Ok(skeletons)
    }

    /// Saves to `path` atomically and makes it the document's file; the document is then
    /// unmodified and the recovery files of its old and new file are removed (an untitled
    /// document's is the caller's: [`Document::discard_recovery`]).
    pub(crate) fn save_document(&mut self, path: impl AsRef<Path>) -> Result<(), DocumentError> {
        let path = path.as_ref();
        let skeletons = self.write_to(path)?;
        let active = self.stage.active;
        for (k, skeleton_path) in skeletons.into_iter().enumerate() {
            match self.stage.figures[k].document.as_deref_mut() {
                Some(doc) => {
                    doc.source = Some(skeleton_path);
                    doc.saved_revision = doc.history.revision();
                }
                None if k == active => self.source = Some(skeleton_path),
                None => {}
            }
        }
        if let Some(old) = &self.file {
            let _ = std::fs::remove_file(recovery_path(Some(old), Path::new(".")));
        }
        self.file = Some(path.to_path_buf());
        self.saved_revision = self.history.revision();
        let _ = std::fs::remove_file(recovery_path(Some(path), Path::new(".")));
        Ok(())
    }

    /// Writes the recovery file when there are unsaved edits (for a document never saved, in
    /// the folder `untitled`); returns where, or `None` when there was nothing to save.
    /// (A built-in figure's skeleton is written beside the recovery file; it stays the
    /// recovery's: a later Save As writes its own.)
    pub fn autosave(&self, untitled: &Path) -> Result<Option<PathBuf>, DocumentError> {
        if !self.is_modified() {
            return Ok(None);
        }
        let recovery = recovery_path(self.file.as_deref(), untitled);
        if let Some(dir) = recovery.parent() {
            std::fs::create_dir_all(dir).map_err(|source| {
                marionette_document::DocumentError::File(FileError::Io {
                    file: dir.display().to_string(),
                    source,
                })
            })?;
        }
        self.write_to(&recovery)?;
        Ok(Some(recovery))
    }

    /// Removes the recovery file of the document at `file` (or of an untitled one, in
    /// `untitled`): the user discarded it, or the document was saved.
    pub fn discard_recovery(file: Option<&Path>, untitled: &Path) {
        let _ = std::fs::remove_file(recovery_path(file, untitled));
    }

    /// The figure as a file would hold it (its skeleton path, empty for a built-in figure).
    pub(crate) fn snapshot(&self) -> DocumentFile {
        DocumentFile {
            skeleton_path: self.source.clone().unwrap_or_default(),
            skeleton: self.skeleton.clone(),
            pose: Pose {
                q: self.pose.clone(),
            },
            locks: self.locks.clone(),
            sequences: self.sequences.clone(),
            library: self.library.clone(),
            body: self.body,
        }
    }

    /// The folder relative paths of the document are read from: its file's, else the working
    /// directory.
    pub(crate) fn folder(&self) -> std::path::PathBuf {
        self.file
            .as_deref()
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| std::path::PathBuf::from("."), Path::to_path_buf)
    }
}
