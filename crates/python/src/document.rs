//! `marionette.Document`: a document of either version (one figure, or a stage of figures and
//! props), read, changed only through the edits the editor applies ([`Document::apply`], the
//! one write path: an edit that fails leaves the document as it was) and saved by the editor's
//! writer.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use marionette_document::{DocumentFile, LockKind, LockPart};
use marionette_editing::pose_tools::PoseClip;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Applied, Document, Edit, EditError, Solving};
use marionette_skeleton::Pose;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{error, file_error, limit_error};
use crate::pose::PyPose;
use crate::skeleton::PySkeleton;

/// A document: its figures (one edited at a time), their locks and sequences, and its props.
#[pyclass(name = "Document", module = "marionette", frozen)]
pub struct PyDocument {
    pub(crate) inner: Mutex<Document>,
}

/// The exception an edit's refusal raises.
pub fn edit_error(e: EditError) -> PyErr {
    match e {
        EditError::Save(why) => file_error(why),
        EditError::NotANumber { .. } | EditError::Stiffness { .. } | EditError::Body(_) => {
            limit_error(e.to_string())
        }
        other => error(other.to_string()),
    }
}

impl PyDocument {
    /// The document, locked for this call (a poisoned lock is taken as it is: every edit leaves
    /// the document whole).
    pub fn doc(&self) -> MutexGuard<'_, Document> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Applies one edit, as the editor does.
    pub fn apply(&self, edit: Edit) -> PyResult<Applied> {
        self.doc()
            .apply(edit, &mut Solving::default())
            .map_err(edit_error)
    }

    /// A document made by Rust code (a retarget's).
    pub fn wrap(doc: Document) -> PyDocument {
        PyDocument {
            inner: Mutex::new(doc),
        }
    }

    /// The index of the edited figure's sequence `name`, or an error naming those it has.
    pub fn sequence_index_of(&self, name: &str) -> PyResult<usize> {
        let doc = self.doc();
        let sequences = doc.sequences();
        sequences
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| {
                error(format!(
                    "{}: {}",
                    shown_file(&doc),
                    marionette_interchange::stage::document_export::no_sequence(sequences, name)
                ))
            })
    }

    fn lock_index(&self, name: &str) -> PyResult<usize> {
        let doc = self.doc();
        doc.locks()
            .iter()
            .position(|l| l.name == name)
            .ok_or_else(|| {
                let names: Vec<String> = doc
                    .locks()
                    .iter()
                    .map(|l| format!("\"{}\"", l.name))
                    .collect();
                error(format!(
                    "{}: no lock named \"{name}\" on figure \"{}\" (its locks: {})",
                    shown_file(&doc),
                    doc.figure_name(),
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ))
            })
    }
}

/// How messages name the document: its file, or "the document" before it has one.
pub fn shown_file(doc: &Document) -> String {
    doc.file()
        .map_or_else(|| "the document".to_owned(), |p| p.display().to_string())
}

#[pymethods]
impl PyDocument {
    /// Opens a document (version 1, or a stage). Raises FileError naming the file.
    #[staticmethod]
    fn open(path: PathBuf) -> PyResult<PyDocument> {
        let doc = Document::open_document(&path).map_err(|e| file_error(e.to_string()))?;
        Ok(PyDocument::wrap(doc))
    }

    /// A new document of one figure on `skeleton` (read from its file, which the document names),
    /// at its rest pose, with no locks or sequences.
    #[staticmethod]
    fn new(skeleton: &PySkeleton) -> PyResult<PyDocument> {
        let path = skeleton.path.clone().ok_or_else(|| {
            error("the skeleton was not read from a file; a document names its skeleton's file")
        })?;
        let s = (*skeleton.inner).clone();
        let rest = Pose::rest(&s);
        Ok(PyDocument::wrap(Document::from_file(DocumentFile::new(
            path, s, rest,
        ))))
    }

    /// Saves the document (atomically, the editor's writer); the file becomes the document's.
    /// Raises FileError when it cannot be written.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.apply(Edit::Save(path)).map(|_| ())
    }

    /// The file it was opened from or last saved to.
    #[getter]
    fn file(&self) -> Option<PathBuf> {
        self.doc().file().map(PathBuf::from)
    }

    /// Whether it changed since it was opened or saved.
    #[getter]
    fn modified(&self) -> bool {
        self.doc().is_modified()
    }

    /// The figures' names, in stage order.
    #[getter]
    fn figures(&self) -> Vec<String> {
        self.doc()
            .figure_names()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// The figure being edited (what the edits below change).
    #[getter]
    fn figure(&self) -> String {
        self.doc().figure_name().to_owned()
    }

    /// Makes `name` the figure being edited (the frame and the sequence shown stay).
    fn select_figure(&self, name: String) -> PyResult<()> {
        self.apply(Edit::Stage(StageEdit::SelectFigure(name)))
            .map(|_| ())
    }

    /// The edited figure's skeleton.
    #[getter]
    fn skeleton(&self) -> PySkeleton {
        let doc = self.doc();
        PySkeleton::new(doc.skeleton().clone(), doc.source().map(PathBuf::from))
    }

    /// The edited figure's pose (a copy; change it with `set_pose`).
    #[getter]
    fn pose(&self) -> PyPose {
        let doc = self.doc();
        PyPose::new(Arc::new(doc.skeleton().clone()), doc.pose().to_vec())
    }

    /// Sets the edited figure's whole pose (the editor's Paste pose; its locks are solved again).
    fn set_pose(&self, pose: &PyPose) -> PyResult<()> {
        {
            let doc = self.doc();
            if *doc.skeleton() != *pose.skeleton {
                return Err(error(format!(
                    "the pose is of skeleton \"{}\"; figure \"{}\" is \"{}\"",
                    pose.skeleton.name(),
                    doc.figure_name(),
                    doc.skeleton().name()
                )));
            }
        }
        let clip = PoseClip {
            q: pose.q.clone(),
            joints: Vec::new(),
        };
        self.apply(Edit::PastePose {
            clip,
            flipped: false,
        })
        .map(|_| ())
    }

    /// The props: name → {"mass_kg", "position" [x, y, z], "rotation" [x, y, z, w]}.
    #[getter]
    fn props<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for p in self.doc().props() {
            let item = PyDict::new(py);
            let at = p.place.isometry();
            let t: [f64; 3] = at.translation.vector.into();
            let r = at.rotation.coords;
            item.set_item("mass_kg", p.mass_kg())?;
            item.set_item("position", t)?;
            item.set_item("rotation", [r.x, r.y, r.z, r.w])?;
            out.set_item(&p.name, item)?;
        }
        Ok(out)
    }

    /// Sets a prop's mass (kg): above 0 and at most 10 000; else LimitError.
    fn set_prop_mass(&self, prop: String, kg: f64) -> PyResult<()> {
        if let Some(why) = marionette_document::Prop::mass_problem(kg) {
            return Err(limit_error(format!("prop \"{prop}\": {why}")));
        }
        self.apply(Edit::Stage(StageEdit::SetPropMass {
            name: prop,
            mass: Some(kg),
        }))
        .map(|_| ())
    }

    /// The edited figure's locks: [{"name", "kind", "enabled", "frames", "goal"}], in order.
    #[getter]
    fn locks<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let doc = self.doc();
        doc.locks()
            .iter()
            .map(|l| {
                let item = PyDict::new(py);
                item.set_item("name", &l.name)?;
                item.set_item("kind", l.goal().kind.label())?;
                item.set_item("enabled", l.enabled)?;
                item.set_item("frames", l.frames())?;
                item.set_item("blend", l.blend())?;
                Ok(item)
            })
            .collect()
    }

    /// Locks a site where it is now: kind "position", "orientation", "pose" (both) or "plane"
    /// (on the floor's plane through it); `center_of_mass()` locks the centre of mass. Returns
    /// the new lock's name.
    #[pyo3(signature = (site, kind = "position"))]
    fn lock(&self, site: &str, kind: &str) -> PyResult<String> {
        let kind = match kind {
            "position" => LockKind::Position,
            "orientation" => LockKind::Orientation,
            "pose" => LockKind::Pose,
            "plane" => LockKind::Plane,
            other => {
                return Err(error(format!(
                    "lock kind \"{other}\": one of \"position\", \"orientation\", \"pose\", \"plane\""
                )));
            }
        };
        let part = {
            let doc = self.doc();
            let s = doc.skeleton().site_by_name(site).ok_or_else(|| {
                error(format!(
                    "site \"{site}\" is not in skeleton \"{}\"",
                    doc.skeleton().name()
                ))
            })?;
            LockPart::Site(s)
        };
        self.lock_with(part, kind)
    }

    /// Locks the centre of mass where it is now; returns the lock's name.
    fn lock_center_of_mass(&self) -> PyResult<String> {
        let root = self.doc().skeleton().root();
        self.lock_with(
            LockPart::Point(root, nalgebra::Vector3::zeros()),
            LockKind::CenterOfMass,
        )
    }

    /// Deletes a lock, by name.
    fn remove_lock(&self, name: &str) -> PyResult<()> {
        let i = self.lock_index(name)?;
        self.apply(Edit::RemoveLock(i)).map(|_| ())
    }

    /// Switches a lock on or off.
    fn set_lock_enabled(&self, name: &str, enabled: bool) -> PyResult<()> {
        let i = self.lock_index(name)?;
        self.apply(Edit::SetLockEnabled(i, enabled)).map(|_| ())
    }

    /// Sets the frames a lock holds on, (first, last), or None for every frame.
    fn set_lock_frames(&self, name: &str, frames: Option<(i64, i64)>) -> PyResult<()> {
        let i = self.lock_index(name)?;
        self.apply(Edit::SetLockFrames(i, frames)).map(|_| ())
    }

    /// Renames a lock.
    fn rename_lock(&self, name: &str, new_name: String) -> PyResult<()> {
        let i = self.lock_index(name)?;
        self.apply(Edit::RenameLock(i, new_name)).map(|_| ())
    }

    /// Sets a lock's weight (above 0; LimitError otherwise).
    fn set_lock_weight(&self, name: &str, weight: f64) -> PyResult<()> {
        if !(weight.is_finite() && weight > 0.0) {
            return Err(limit_error(format!(
                "lock \"{name}\": weight {weight} is not a number above 0"
            )));
        }
        let i = self.lock_index(name)?;
        self.apply(Edit::SetLockWeight {
            lock: i,
            weight,
            undo: marionette_editing::UndoStep::New,
        })
        .map(|_| ())
    }

    /// Moves the shown sequence's key at frame `from` to frame `to`.
    fn move_key(&self, from: i64, to: i64) -> PyResult<()> {
        self.apply(Edit::MoveKey { from, to }).map(|_| ())
    }

    /// The edited figure's sequences' names.
    #[getter]
    fn sequences(&self) -> Vec<String> {
        self.doc()
            .sequences()
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    /// The frames at which `sequence` has keys.
    fn keys(&self, sequence: &str) -> PyResult<Vec<i64>> {
        let i = self.sequence_index_of(sequence)?;
        Ok(self.doc().sequences()[i]
            .keys
            .iter()
            .map(|k| k.frame)
            .collect())
    }

    /// The pose keyed at `frame` of `sequence`.
    fn key_pose(&self, sequence: &str, frame: i64) -> PyResult<PyPose> {
        let i = self.sequence_index_of(sequence)?;
        let doc = self.doc();
        let key = doc.sequences()[i]
            .keys
            .iter()
            .find(|k| k.frame == frame)
            .ok_or_else(|| {
                error(format!(
                    "sequence \"{sequence}\" has no key at frame {frame}"
                ))
            })?;
        Ok(PyPose::new(
            Arc::new(doc.skeleton().clone()),
            key.pose.q.clone(),
        ))
    }

    /// A new sequence keyed at frame 0 with the current pose, shown; named `name` when given.
    /// Returns its name.
    #[pyo3(signature = (name = None))]
    fn new_sequence(&self, name: Option<String>) -> PyResult<String> {
        self.apply(Edit::NewSequence)?;
        let index = self.doc().sequences().len() - 1;
        if let Some(name) = name {
            self.apply(Edit::RenameSequence(index, name))?;
        }
        Ok(self.doc().sequences()[index].name.clone())
    }

    /// Shows a sequence (the one keys go into), by name.
    fn show_sequence(&self, name: &str) -> PyResult<()> {
        let i = self.sequence_index_of(name)?;
        self.apply(Edit::SelectSequence(Some(i))).map(|_| ())
    }

    /// Renames a sequence.
    fn rename_sequence(&self, name: &str, new_name: String) -> PyResult<()> {
        let i = self.sequence_index_of(name)?;
        self.apply(Edit::RenameSequence(i, new_name)).map(|_| ())
    }

    /// Deletes a sequence.
    fn delete_sequence(&self, name: &str) -> PyResult<()> {
        let i = self.sequence_index_of(name)?;
        self.apply(Edit::DeleteSequence(i)).map(|_| ())
    }

    /// The timeline's frame.
    #[getter]
    fn frame(&self) -> i64 {
        self.doc().frame()
    }

    /// Goes to a frame of the shown sequence (the figure takes the frame's baked pose).
    fn go_to_frame(&self, frame: i64) -> PyResult<()> {
        self.apply(Edit::GoToFrame(frame)).map(|_| ())
    }

    /// Keys the current pose at `frame` (default: the current frame) of the shown sequence (a
    /// new sequence when none is shown). The pose set at that frame is kept: going to the
    /// frame would show the sequence's in-between instead, so give the frame before posing.
    #[pyo3(signature = (frame = None))]
    fn set_key(&self, frame: Option<i64>) -> PyResult<()> {
        if let Some(frame) = frame
            && frame != self.doc().frame()
        {
            let pose = self.doc().pose().to_vec();
            self.apply(Edit::GoToFrame(frame))?;
            let clip = PoseClip {
                q: pose,
                joints: Vec::new(),
            };
            self.apply(Edit::PastePose {
                clip,
                flipped: false,
            })?;
        }
        self.apply(Edit::SetKey).map(|_| ())
    }

    /// Deletes the shown sequence's key at `frame`.
    fn delete_key(&self, frame: i64) -> PyResult<()> {
        self.apply(Edit::GoToFrame(frame))?;
        self.apply(Edit::DeleteKey).map(|_| ())
    }

    /// Undoes the last edit; False when there is nothing to undo.
    fn undo(&self) -> bool {
        self.apply(Edit::Undo).is_ok()
    }

    /// Redoes the last undone edit; False when there is nothing to redo.
    fn redo(&self) -> bool {
        self.apply(Edit::Redo).is_ok()
    }

    fn __repr__(&self) -> String {
        let doc = self.doc();
        format!(
            "Document({}: {} figures, {} sequences)",
            shown_file(&doc),
            doc.figures().len(),
            doc.sequences().len()
        )
    }
}

impl PyDocument {
    fn lock_with(&self, part: LockPart, kind: LockKind) -> PyResult<String> {
        self.apply(Edit::Lock { part, kind })?;
        Ok(self
            .doc()
            .locks()
            .last()
            .map(|l| l.name.clone())
            .unwrap_or_default())
    }
}
