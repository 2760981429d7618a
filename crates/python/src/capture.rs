//! Captures from Python: `read_capture` (a BVH file or an FBX take, as the commands read it),
//! `retarget` (its motion put onto another figure, as `marionette retarget` does: a new document
//! on the target with one sequence, changed by the editor's edits) and `cleanup` (a sequence's
//! foot contacts found and locked by the edit the editor's Find foot contacts applies), each
//! with the report the command prints. The interpreter's lock is released while they run.

use std::path::PathBuf;
use std::sync::Arc;

use marionette_document::DocumentFile;
use marionette_editing::foot_contacts::FootSearch;
use marionette_editing::{Applied, Document, Edit, EditError, Solving};
use marionette_interchange::capture::{Capture, CaptureScale, read_take};
use marionette_interchange::retarget::placement::stand_where_the_figure_stands;
use marionette_interchange::retarget::{RetargetMap, retarget_imported};
use marionette_skeleton::Pose;
use pyo3::prelude::*;

use crate::document::{PyDocument, edit_error};
use crate::errors::{error, file_error, finite, limit_error};
use crate::skeleton::PySkeleton;

/// A capture read: its skeleton and its take.
#[pyclass(name = "Capture", module = "marionette", frozen)]
pub struct PyCapture {
    pub(crate) inner: Arc<Capture>,
    /// Whether its scale was given (else guessed).
    pub(crate) scale_given: bool,
    /// The capture's skeleton.
    #[pyo3(get)]
    skeleton: PySkeleton,
}

#[pymethods]
impl PyCapture {
    /// The take's name (the file's stem, or the FBX take's).
    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// The file read.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path.clone()
    }

    /// Frames in the file.
    #[getter]
    fn frames(&self) -> usize {
        self.inner.frames
    }

    /// Frames per second.
    #[getter]
    fn fps(&self) -> f64 {
        self.inner.imported.sequence.fps
    }

    /// The scale its lengths were read at (metres per file unit).
    #[getter]
    fn scale(&self) -> f64 {
        self.inner.scale
    }

    /// An FBX file's takes and the one read (None for BVH).
    #[getter]
    fn takes(&self) -> Option<(Vec<String>, String)> {
        self.inner.takes.clone()
    }

    /// The capture as a figure of its own, as `marionette import` and the editor's import make
    /// it: its skeleton written to `skeleton_path` (RON), and a new unsaved document on that
    /// skeleton at the take's first frame, holding the take as one sequence. The skeleton's
    /// joints weigh de Leva's segments by humanoid role (75 kg, male), or 1 kg each when it has
    /// no roles. Raises FileError when the skeleton cannot be written.
    fn to_document(&self, skeleton_path: PathBuf) -> PyResult<PyDocument> {
        let mut capture = Capture::clone(&self.inner);
        marionette_editing::weighed_character::weigh_capture(&mut capture);
        let imported = &capture.imported;
        let text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
            .map_err(|e| file_error(format!("{}: {e}", skeleton_path.display())))?;
        marionette_skeleton::ron_io::write_atomically(&skeleton_path, &text)
            .map_err(|e| file_error(format!("{}: cannot write: {e}", skeleton_path.display())))?;
        Ok(PyDocument::wrap(Document::from_file(
            imported.document(skeleton_path),
        )))
    }

    fn __repr__(&self) -> String {
        format!(
            "Capture({:?}: {} joints, {} frames at {} fps, scale {})",
            self.inner.name,
            self.inner.imported.skeleton.joints().len(),
            self.inner.frames,
            self.inner.imported.sequence.fps,
            self.inner.scale
        )
    }
}

/// Reads a capture (BVH, or an FBX file's take: `take`, else its first) at `scale` metres per
/// file unit (None: guessed to make the figure a person's height), keying every `every`-th
/// frame. Raises FileError naming the file.
#[pyfunction]
#[pyo3(signature = (path, scale = None, take = None, every = 1))]
pub fn read_capture(
    py: Python<'_>,
    path: PathBuf,
    scale: Option<f64>,
    take: Option<String>,
    every: usize,
) -> PyResult<PyCapture> {
    let scale_given = scale.is_some();
    let scale = match scale {
        Some(s) if finite(s, "scale")? <= 0.0 => {
            return Err(limit_error(format!("scale {s} is not above 0")));
        }
        Some(s) => CaptureScale::Times(s),
        None => CaptureScale::Guess,
    };
    if every == 0 {
        return Err(limit_error(
            "every: 0 is not a number of frames (1 or more)",
        ));
    }
    let capture = py
        .detach(|| read_take(&path, scale, every, take.as_deref()))
        .map_err(|e| file_error(e.to_string()))?;
    let skeleton = PySkeleton::new(capture.imported.skeleton.clone(), None);
    Ok(PyCapture {
        inner: Arc::new(capture),
        scale_given,
        skeleton,
    })
}

/// A retarget's outcome: the new document and what the command prints of it.
#[pyclass(name = "Retargeted", module = "marionette", frozen, get_all)]
pub struct Retargeted {
    /// The new document on the target's skeleton, with the take as one sequence.
    document: Py<PyDocument>,
    /// The sequence's name.
    sequence: String,
    /// The humanoid map used: (bone, capture joint, target joint) each.
    map: Vec<(String, String, String)>,
    /// Bones the target's limits held: (bone, frames, most degrees) each.
    limited: Vec<(String, usize, f64)>,
    /// The root motion's scale (the ratio of hip heights).
    hip_ratio: f64,
    /// With `clean_feet`: the cleanup's report (as `marionette cleanup --json` prints it).
    cleanup: Option<Py<PyAny>>,
}

/// The target of a retarget: a skeleton (at rest), or a document's edited figure (at its pose).
fn target_of(onto: &Bound<'_, PyAny>) -> PyResult<(marionette_skeleton::Skeleton, Pose, PathBuf)> {
    if let Ok(s) = onto.cast::<PySkeleton>() {
        let s = s.get();
        let path = s.path.clone().ok_or_else(|| {
            error("the target skeleton was not read from a file; the new document names its file")
        })?;
        let skeleton = (*s.inner).clone();
        let rest = Pose::rest(&skeleton);
        return Ok((skeleton, rest, path));
    }
    if let Ok(d) = onto.cast::<PyDocument>() {
        let doc = d.get().doc();
        let path = doc.source().map(PathBuf::from).ok_or_else(|| {
            error("the target figure's skeleton has no file; the new document names its file")
        })?;
        return Ok((
            doc.skeleton().clone(),
            Pose {
                q: doc.pose().to_vec(),
            },
            path,
        ));
    }
    Err(error("onto: a Skeleton or a Document"))
}

/// Puts `capture`'s motion onto `onto` (a Skeleton at its rest pose, or a Document's edited
/// figure at its pose), as `marionette retarget` does: the humanoid map found on both (with
/// `map`, a map file of bones mapped by hand, over it); `where_it_stands` starts the take where
/// the figure stands; `clean_feet` then finds and locks the feet's contacts.
#[pyfunction]
#[pyo3(signature = (capture, onto, map = None, where_it_stands = false, clean_feet = false))]
pub fn retarget(
    py: Python<'_>,
    capture: &PyCapture,
    onto: &Bound<'_, PyAny>,
    map: Option<PathBuf>,
    where_it_stands: bool,
    clean_feet: bool,
) -> PyResult<Retargeted> {
    let (target, pose, skeleton_path) = target_of(onto)?;
    let file = capture.inner.path.display().to_string();
    let captured = &capture.inner.imported;
    let overrides = match &map {
        Some(path) => RetargetMap::read(path)
            .map_err(file_error)?
            .resolve(&captured.skeleton, &target)
            .map_err(|defects| {
                let lines: Vec<String> = defects
                    .iter()
                    .map(|d| format!("{}: {d}", path.display()))
                    .collect();
                file_error(lines.join("\n"))
            })?,
        None => Vec::new(),
    };
    let made = py.detach(|| {
        let onto_name = target.name().to_owned();
        let fail = |e: String| format!("{file} onto {onto_name}: {e}");
        let mut result = retarget_imported(
            captured,
            (&target, &pose.q),
            &overrides,
            &capture.inner.name,
        )
        .map_err(|e| fail(e.to_string()))?;
        if where_it_stands {
            stand_where_the_figure_stands(&target, &pose.q, &mut result.sequence)
                .map_err(|e| fail(e.to_string()))?;
        }
        let mut doc = Document::from_file(DocumentFile::new(skeleton_path, target.clone(), pose));
        let sequence = Box::new(result.sequence.clone());
        doc.apply(Edit::AddSequence(sequence), &mut Solving::default())
            .map_err(|e| fail(e.to_string()))?;
        let index = doc.sequences().len() - 1;
        let cleaned = if clean_feet {
            Some(clean(&mut doc, index, Vec::new()).map_err(|e| fail(e.to_string()))?)
        } else {
            None
        };
        Ok::<_, String>((doc, result, index, cleaned))
    });
    let (doc, result, index, cleaned) = made.map_err(error)?;
    let sequence = doc.sequences()[index].name.clone();
    let cleanup = match cleaned {
        Some((c, micros)) => Some(json_to_python(py, &c.report_json(&sequence, micros))?),
        None => None,
    };
    let map = result
        .map
        .iter()
        .map(|m| {
            (
                m.bone.vrm_name().to_owned(),
                captured.skeleton.joint(m.capture).name.clone(),
                target.joint(m.target).name.clone(),
            )
        })
        .collect();
    let limited = result
        .limited
        .iter()
        .map(|(bone, frames, most)| (bone.vrm_name().to_owned(), *frames, *most))
        .collect();
    Ok(Retargeted {
        document: Py::new(py, PyDocument::wrap(doc))?,
        sequence,
        map,
        limited,
        hip_ratio: result.hip_ratio,
        cleanup,
    })
}

/// The cleanup edit on sequence `index` of `doc` (`points`: the foot points; empty: each
/// foot's heel and toes): its report and the microseconds it took.
fn clean(
    doc: &mut Document,
    index: usize,
    points: Vec<String>,
) -> Result<(marionette_motion::cleanup::Cleaned, f64), EditError> {
    let began = std::time::Instant::now();
    let search = FootSearch {
        sequence: Some(index),
        points,
    };
    match doc.apply(Edit::FindFootContacts(search), &mut Solving::default())? {
        Applied::Cleaned(cleaned, _) => Ok((*cleaned, began.elapsed().as_secs_f64() * 1e6)),
        other => Err(EditError::FootContacts(format!(
            "the cleanup reported {other:?}"
        ))),
    }
}

/// A JSON value as the Python object `json.loads` makes of it.
pub fn json_to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

/// Finds the foot contacts of `sequence` in `document` and locks them (the feet's earlier
/// contact locks replaced), as `marionette cleanup` does, by the edit the editor's Find foot
/// contacts applies; `sites` is "auto" (each foot's heel and toes) or a list of site or joint
/// names; `figure` chooses a stage's figure first. Returns the command's JSON report as a dict.
#[pyfunction]
#[pyo3(signature = (document, sequence, sites = None, figure = None))]
pub fn cleanup(
    py: Python<'_>,
    document: &PyDocument,
    sequence: &str,
    sites: Option<Vec<String>>,
    figure: Option<String>,
) -> PyResult<Py<PyAny>> {
    if let Some(name) = figure {
        document.apply(Edit::Stage(
            marionette_editing::stage::StageEdit::SelectFigure(name),
        ))?;
    }
    let index = document.sequence_index_of(sequence)?;
    let points = sites.unwrap_or_default();
    // The document is locked inside the work without the interpreter's lock, never across
    // taking that lock back: a thread waiting for the document while holding it cannot then
    // block this one.
    let (cleaned, micros) = py
        .detach(|| clean(&mut document.doc(), index, points))
        .map_err(edit_error)?;
    json_to_python(py, &cleaned.report_json(sequence, micros))
}
