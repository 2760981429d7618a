//! Opening and saving the [`Document`] as a Document file (docs/file-formats.md, version 1), and its
//! recovery file: autosaved beside the document (or in the user's data folder for a document
//! never saved) while there are unsaved edits, offered on the next start when it is newer than
//! the document. A failed open leaves the open document as it was (the caller keeps it); saves are
//! atomic.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use marionette_document::{DocumentError, DocumentFile};
use marionette_skeleton::{FileError, Pose};

use crate::{Document, History};

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
        let file = DocumentFile::load(path)?;
        let mut doc = Document::from_file(file);
        doc.file = Some(path.to_path_buf());
        Ok(doc)
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
        } = file;
        let mut doc = Document::new(skeleton, Some(skeleton_path));
        doc.pose = pose.q;
        doc.fk.update(&doc.skeleton, &doc.pose);
        doc.locks = locks;
        doc.sequences = sequences;
        doc.library = library;
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

    /// What would be saved, naming `skeleton_path` as the skeleton's file.
    fn contents(&self, skeleton_path: PathBuf) -> DocumentFile {
        DocumentFile {
            skeleton_path,
            skeleton: self.skeleton.clone(),
            pose: Pose {
                q: self.pose.clone(),
            },
            locks: self.locks.clone(),
            sequences: self.sequences.clone(),
            library: self.library.clone(),
        }
    }

    /// Writes the document to `path` without making it the document's file; returns the
    /// skeleton file it names: the document's own, or (for a built-in figure, which has none)
    /// the skeleton written beside `path` first.
    fn write_to(&self, path: &Path) -> Result<PathBuf, DocumentError> {
        let skeleton_path = match &self.source {
            Some(source) => source.clone(),
            None => {
                let name = path
                    .file_stem()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "figure".into());
                let beside = path.with_file_name(format!("{name}.skeleton.ron"));
                self.skeleton
                    .save(&beside)
                    .map_err(|source| DocumentError::Skeleton {
                        document: path.display().to_string(),
                        path: beside.display().to_string(),
                        source,
                    })?;
                beside
            }
        };
        self.contents(skeleton_path.clone()).save(path)?;
        Ok(skeleton_path)
    }

    /// Saves to `path` atomically and makes it the document's file; the document is then
    /// unmodified and the recovery files of its old and new file are removed (an untitled
    /// document's is the caller's: [`Document::discard_recovery`]).
    pub fn save_document(&mut self, path: impl AsRef<Path>) -> Result<(), DocumentError> {
        let path = path.as_ref();
        let skeleton_path = self.write_to(path)?;
        self.source = Some(skeleton_path);
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
                DocumentError::File(FileError::Io {
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
}
