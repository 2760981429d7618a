//! `Document.bake` and `Document.export`: a sequence baked with its locks held (on a stage, with
//! the whole stage: links held, props carried), handed over as numpy arrays; and the exports
//! the command writes, by the same function ([`export_document`]), so the bytes are the same.

use std::path::{Path, PathBuf};

use marionette_document::Stage;
use marionette_interchange::export::ExportFormat;
use marionette_interchange::stage::document_export::{DocumentExportError, export_document};
use marionette_interchange::stage::export::StageExport;
use marionette_motion::stage::StageBaker;
use marionette_motion::{BakeSettings, BakedFrame, Baker, bake_with_threads};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Isometry3, Point3};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::document::{PyDocument, shown_file};
use crate::errors::{error, file_error};

/// A baked sequence of one figure: every frame's values and world positions (metres, +Y up,
/// placed where the figure stands on its stage).
#[pyclass(name = "Baked", module = "marionette", frozen, get_all)]
pub struct Baked {
    /// The sequence's name.
    sequence: String,
    /// The figure's name.
    figure: String,
    /// Frames per second.
    fps: f64,
    /// The frame numbers (a numpy array of int64).
    frames: Py<PyArray1<i64>>,
    /// The joints' names, in hierarchy order (the second axis of `joints_world`).
    joint_names: Vec<String>,
    /// Every joint's world position: frames × joints × 3.
    joints_world: Py<PyArray3<f64>>,
    /// Every joint's values per frame, in file units (degrees, metres): name → frames × DOFs.
    values: Py<PyDict>,
    /// The root's translation per frame: frames × 3.
    root: Py<PyArray2<f64>>,
    /// Every site's world position: name → frames × 3.
    sites: Py<PyDict>,
    /// The centre of mass per frame: frames × 3.
    com: Py<PyArray2<f64>>,
    /// Every lock's error per frame (metres or radians; NaN where it is not active):
    /// name → array of frames.
    lock_errors: Py<PyDict>,
    /// On a stage, every prop's place per frame: name → {"position": frames × 3,
    /// "rotation": frames × 4 (x, y, z, w)}; empty for a one-figure document.
    props: Py<PyDict>,
}

#[pymethods]
impl Baked {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Baked({:?} of {:?}: {} frames)",
            self.sequence,
            self.figure,
            self.frames.bind(py).len().unwrap_or(0)
        )
    }
}

/// What a bake gives before it is handed to Python.
struct Bake {
    skeleton: Skeleton,
    figure: String,
    lock_names: Vec<String>,
    placement: Isometry3<f64>,
    fps: f64,
    frames: Vec<BakedFrame>,
    props: Vec<(String, Vec<Isometry3<f64>>)>,
}

/// Bakes `sequence` of figure `figure` (stage order) of `stage`.
fn bake_figure(
    stage: &Stage,
    sequence: &str,
    figure: usize,
    threads: usize,
) -> Result<Bake, String> {
    let chosen = &stage.figures[figure];
    let doc = &chosen.document;
    let base = |fps, frames, props| Bake {
        skeleton: doc.skeleton.clone(),
        figure: chosen.name.clone(),
        lock_names: doc.locks.iter().map(|l| l.name.clone()).collect(),
        placement: if stage.is_one_figure() {
            Isometry3::identity()
        } else {
            chosen.placement.isometry()
        },
        fps,
        frames,
        props,
    };
    if stage.is_one_figure() {
        let seq = doc
            .sequences
            .iter()
            .find(|s| s.name == sequence)
            .ok_or_else(|| {
                marionette_interchange::stage::document_export::no_sequence(
                    &doc.sequences,
                    sequence,
                )
            })?;
        let baker = Baker::new(&doc.skeleton, seq, &doc.locks, BakeSettings::default());
        let frames = bake_with_threads(&baker, threads, &|| {})
            .map_err(|e| format!("cannot start {threads} baking threads: {e}"))?;
        return Ok(base(seq.fps, frames, Vec::new()));
    }
    let baker = StageBaker::new(stage, sequence, BakeSettings::default())?;
    let bake = baker
        .bake_with_threads(threads, &|| {})
        .map_err(|e| format!("cannot start {threads} baking threads: {e}"))?;
    let frames = bake
        .frames
        .into_iter()
        .map(|mut f| f.figures.swap_remove(figure))
        .collect();
    let props = stage
        .props
        .iter()
        .map(|p| p.name.clone())
        .zip(bake.props)
        .collect();
    Ok(base(baker.fps(), frames, props))
}

/// Flat world positions and values of every frame, computed without the interpreter.
struct Flat {
    joints: Vec<f64>,
    sites: Vec<Vec<f64>>,
    com: Vec<f64>,
    root: Vec<f64>,
    values: Vec<Vec<f64>>,
    errors: Vec<Vec<f64>>,
}

fn flatten(b: &Bake) -> Flat {
    let s = &b.skeleton;
    let n = b.frames.len();
    let mut fk = Fk::new(s);
    let place = |p| -> [f64; 3] { (b.placement * Point3::from(p)).coords.into() };
    let mut flat = Flat {
        joints: Vec::with_capacity(n * s.joints().len() * 3),
        sites: vec![Vec::with_capacity(n * 3); s.sites().len()],
        com: Vec::with_capacity(n * 3),
        root: Vec::with_capacity(n * 3),
        values: vec![Vec::new(); s.joints().len()],
        errors: vec![vec![f64::NAN; n]; b.lock_names.len()],
    };
    for (k, frame) in b.frames.iter().enumerate() {
        fk.update(s, &frame.q);
        for j in s.joint_ids() {
            flat.joints.extend(place(fk.joint_position(j)));
            for d in s.joint_dofs(j) {
                let dof = s.dof(d);
                flat.values[j.index()].push(dof.to_written_units(frame.q[d.state_index()]));
            }
        }
        for site in s.site_ids() {
            flat.sites[site.index()].extend(place(fk.site_position(site)));
        }
        flat.com.extend(place(fk.center_of_mass()));
        flat.root.extend(&frame.q[..3]);
        for &(lock, e) in &frame.lock_errors {
            flat.errors[lock][k] = e;
        }
    }
    flat
}

fn array2<'py>(py: Python<'py>, v: &[f64], cols: usize) -> PyResult<Bound<'py, PyArray2<f64>>> {
    v.to_pyarray(py).reshape([v.len() / cols.max(1), cols])
}

fn hand_over(py: Python<'_>, sequence: &str, b: Bake, flat: Flat) -> PyResult<Baked> {
    let s = &b.skeleton;
    let n = b.frames.len();
    let values = PyDict::new(py);
    for j in s.joint_ids() {
        let cols = s.joint(j).dofs.len();
        if cols > 0 {
            values.set_item(&s.joint(j).name, array2(py, &flat.values[j.index()], cols)?)?;
        }
    }
    let sites = PyDict::new(py);
    for site in s.site_ids() {
        sites.set_item(
            &s.site(site).name,
            array2(py, &flat.sites[site.index()], 3)?,
        )?;
    }
    let errors = PyDict::new(py);
    for (name, e) in b.lock_names.iter().zip(&flat.errors) {
        errors.set_item(name, e.to_pyarray(py))?;
    }
    let props = PyDict::new(py);
    for (name, places) in &b.props {
        let position: Vec<f64> = places
            .iter()
            .flat_map(|p| <[f64; 3]>::from(p.translation.vector))
            .collect();
        let rotation: Vec<f64> = places
            .iter()
            .flat_map(|p| {
                let r = p.rotation.coords;
                [r.x, r.y, r.z, r.w]
            })
            .collect();
        let item = PyDict::new(py);
        item.set_item("position", array2(py, &position, 3)?)?;
        item.set_item("rotation", array2(py, &rotation, 4)?)?;
        props.set_item(name, item)?;
    }
    let numbers: Vec<i64> = b.frames.iter().map(|f| f.frame).collect();
    Ok(Baked {
        sequence: sequence.to_owned(),
        figure: b.figure,
        fps: b.fps,
        frames: numbers.to_pyarray(py).unbind(),
        joint_names: s.joints().iter().map(|j| j.name.clone()).collect(),
        joints_world: flat
            .joints
            .to_pyarray(py)
            .reshape([n, s.joints().len(), 3])?
            .unbind(),
        values: values.unbind(),
        root: array2(py, &flat.root, 3)?.unbind(),
        sites: sites.unbind(),
        com: array2(py, &flat.com, 3)?.unbind(),
        lock_errors: errors.unbind(),
        props: props.unbind(),
    })
}

/// The index of figure `name` (None: the edited one) of `stage`, or why not.
fn figure_index(doc: &PyDocument, stage: &Stage, name: Option<&str>) -> PyResult<usize> {
    match name {
        None => Ok(doc.doc().active_figure()),
        Some(name) => stage.figure_index(name).ok_or_else(|| {
            error(format!(
                "{}: no figure \"{name}\" on the stage (figures: {})",
                shown_file(&doc.doc()),
                stage.figure_list()
            ))
        }),
    }
}

/// The export format a file's extension names.
fn format_of(path: &Path) -> PyResult<ExportFormat> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("bvh") => Ok(ExportFormat::Bvh),
        Some("glb") => Ok(ExportFormat::Glb),
        Some("json") => Ok(ExportFormat::Json),
        _ => Err(error(format!(
            "{}: export writes .bvh, .glb or .json files",
            path.display()
        ))),
    }
}

#[pymethods]
impl PyDocument {
    /// Bakes `sequence` (every frame from its first key to its last, each re-solved against its
    /// locks; on a stage, with the whole stage) for `figure` (default: the edited one), on
    /// `threads` threads (0: one per core; the frames are the same whatever the number).
    #[pyo3(signature = (sequence, figure = None, threads = 0))]
    fn bake(
        &self,
        py: Python<'_>,
        sequence: &str,
        figure: Option<&str>,
        threads: usize,
    ) -> PyResult<Baked> {
        let stage = self.doc().to_stage();
        let f = figure_index(self, &stage, figure)?;
        let file = shown_file(&self.doc());
        let (bake, flat) = py
            .detach(|| {
                let bake = bake_figure(&stage, sequence, f, threads)?;
                let flat = flatten(&bake);
                Ok::<_, String>((bake, flat))
            })
            .map_err(|e| error(format!("{file}: {e}")))?;
        hand_over(py, sequence, bake, flat)
    }

    /// Writes `sequence` (None: the edited figure's pose, one frame) to `path` as BVH, glb or
    /// JSON by its extension: the same bytes `marionette export` writes. A stage's glb holds
    /// every figure and prop; its BVH and JSON one figure (default: the edited one), placed on
    /// the stage. Returns the warnings (what was written otherwise than asked).
    #[pyo3(signature = (sequence, path, figure = None))]
    fn export(
        &self,
        py: Python<'_>,
        sequence: Option<&str>,
        path: PathBuf,
        figure: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let format = format_of(&path)?;
        let stage = self.doc().to_stage();
        let file = self.doc().file().map(PathBuf::from);
        let shown = shown_file(&self.doc());
        let one = stage.is_one_figure();
        let f = match (format, one) {
            (_, true) | (ExportFormat::Glb, false) => match figure {
                Some(name) => Some(figure_index(self, &stage, Some(name))?),
                None => None,
            },
            (_, false) => Some(figure_index(self, &stage, figure)?),
        };
        let folder = file
            .as_deref()
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let pose_name = file
            .as_deref()
            .and_then(Path::file_stem)
            .map_or_else(|| "pose".to_owned(), |s| s.to_string_lossy().into_owned());
        let written = py.detach(|| {
            let export = StageExport {
                stage: &stage,
                sequence,
                figure: f,
                format,
                folder: &folder,
                assets: None,
                pose_name: &pose_name,
            };
            export_document(export, &|| {})
        });
        let written = written.map_err(|e| match e {
            DocumentExportError::NotFound(why) => error(format!("{shown}: {why}")),
            DocumentExportError::Write(why) => {
                error(format!("{shown}: cannot write the export: {why}"))
            }
        })?;
        marionette_skeleton::ron_io::write_bytes_atomically(&path, &written.bytes)
            .map_err(|e| file_error(format!("{}: cannot write: {e}", path.display())))?;
        Ok(written.warnings)
    }
}

/// The benchmark's reference: `sequence` of the edited figure baked `repeats` times in Rust on
/// `threads` threads with nothing from Python in the loop (the bake alone, as `marionette bake`
/// runs it before writing), returning the mean seconds per bake; `Document.bake` is compared
/// with it (crates/python/bench/bench.py).
#[pyfunction(name = "_bake_in_rust")]
#[pyo3(signature = (document, sequence, repeats = 1, threads = 0))]
pub fn bake_in_rust(
    py: Python<'_>,
    document: &PyDocument,
    sequence: &str,
    repeats: usize,
    threads: usize,
) -> PyResult<f64> {
    let stage = document.doc().to_stage();
    let f = document.doc().active_figure();
    py.detach(|| {
        let started = std::time::Instant::now();
        for _ in 0..repeats.max(1) {
            std::hint::black_box(bake_figure(&stage, sequence, f, threads)?);
        }
        Ok::<f64, String>(started.elapsed().as_secs_f64() / repeats.max(1) as f64)
    })
    .map_err(error)
}
