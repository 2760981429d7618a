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

/// What a bake reads, copied out of the document's lock: a version-1 document's figure alone
/// (its skeleton, the one sequence and its locks), or the whole stage.
pub enum BakeSource {
    /// One figure at the origin, named after its skeleton.
    Figure {
        /// Its skeleton.
        skeleton: Box<Skeleton>,
        /// The sequence, or (when the figure has none of that name) the message saying which
        /// it has.
        sequence: Result<marionette_document::Sequence, String>,
        /// Its locks.
        locks: Vec<marionette_document::Lock>,
    },
    /// A stage, and the figure baked.
    Stage(Box<Stage>, usize),
}

impl BakeSource {
    /// What baking `sequence` of figure `figure` (None: the edited one) of `doc` reads.
    fn of(doc: &PyDocument, sequence: &str, figure: Option<&str>) -> PyResult<BakeSource> {
        let d = doc.doc();
        if !d.is_stage() {
            if let Some(name) = figure.filter(|&n| n != d.figure_name()) {
                return Err(error(format!(
                    "{}: no figure \"{name}\" on the stage (figures: \"{}\")",
                    shown_file(&d),
                    d.figure_name()
                )));
            }
            let found = d.sequences().iter().find(|s| s.name == sequence).cloned();
            return Ok(BakeSource::Figure {
                skeleton: Box::new(d.skeleton().clone()),
                sequence: found.ok_or_else(|| {
                    marionette_interchange::stage::document_export::no_sequence(
                        d.sequences(),
                        sequence,
                    )
                }),
                locks: d.locks().to_vec(),
            });
        }
        drop(d);
        let stage = doc.doc().to_stage();
        let f = figure_index(doc, &stage, figure)?;
        Ok(BakeSource::Stage(Box::new(stage), f))
    }
}

/// Bakes `sequence` of the source on `threads` threads.
fn bake_figure(source: &BakeSource, sequence: &str, threads: usize) -> Result<Bake, String> {
    let (stage, figure) = match source {
        BakeSource::Figure {
            skeleton,
            sequence,
            locks,
        } => {
            let seq = sequence.as_ref().map_err(Clone::clone)?;
            let baker = Baker::new(skeleton, seq, locks, BakeSettings::default());
            let frames = bake_with_threads(&baker, threads, &|| {})
                .map_err(|e| format!("cannot start {threads} baking threads: {e}"))?;
            return Ok(Bake {
                skeleton: (**skeleton).clone(),
                figure: skeleton.name().to_owned(),
                lock_names: locks.iter().map(|l| l.name.clone()).collect(),
                placement: Isometry3::identity(),
                fps: seq.fps,
                frames,
                props: Vec::new(),
            });
        }
        BakeSource::Stage(stage, figure) => (stage, *figure),
    };
    let chosen = &stage.figures[figure];
    let doc = &chosen.document;
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
    Ok(Bake {
        skeleton: doc.skeleton.clone(),
        figure: chosen.name.clone(),
        lock_names: doc.locks.iter().map(|l| l.name.clone()).collect(),
        placement: chosen.placement.isometry(),
        fps: baker.fps(),
        frames,
        props,
    })
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

/// Every frame's world positions and values, on `threads` threads (0: one per core), each
/// taking a run of frames; the runs are then joined in order.
fn flatten(b: &Bake, threads: usize) -> Flat {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let run = b.frames.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Flat> = std::thread::scope(|scope| {
        let workers: Vec<_> = b
            .frames
            .chunks(run)
            .map(|frames| scope.spawn(move || flatten_run(b, frames)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a flattening thread does not panic"))
            .collect()
    });
    let mut all = Flat::empty(b, 0);
    for part in parts {
        all.joints.extend(part.joints);
        all.com.extend(part.com);
        all.root.extend(part.root);
        for (to, from) in all.sites.iter_mut().zip(part.sites) {
            to.extend(from);
        }
        for (to, from) in all.values.iter_mut().zip(part.values) {
            to.extend(from);
        }
        for (to, from) in all.errors.iter_mut().zip(part.errors) {
            to.extend(from);
        }
    }
    all
}

impl Flat {
    /// Room for `n` frames of `b`'s figure (errors NaN until a frame says otherwise).
    fn empty(b: &Bake, n: usize) -> Flat {
        let s = &b.skeleton;
        Flat {
            joints: Vec::with_capacity(n * s.joints().len() * 3),
            sites: vec![Vec::with_capacity(n * 3); s.sites().len()],
            com: Vec::with_capacity(n * 3),
            root: Vec::with_capacity(n * 3),
            values: vec![Vec::new(); s.joints().len()],
            errors: vec![vec![f64::NAN; n]; b.lock_names.len()],
        }
    }
}

/// One run of frames of [`flatten`].
fn flatten_run(b: &Bake, frames: &[BakedFrame]) -> Flat {
    let s = &b.skeleton;
    let mut fk = Fk::new(s);
    let place = |p| -> [f64; 3] { (b.placement * Point3::from(p)).coords.into() };
    let mut flat = Flat::empty(b, frames.len());
    for (k, frame) in frames.iter().enumerate() {
        fk.update(s, &frame.q);
        for j in s.joint_ids() {
            flat.joints.extend(place(fk.joint_position(j)));
            for d in s.joint_dofs(j) {
                let dof = s.dof(d);
                flat.values[j.index()].push(dof.to_file_units(frame.q[d.state_index()]));
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
        let source = BakeSource::of(self, sequence, figure)?;
        let file = shown_file(&self.doc());
        let (bake, flat) = py
            .detach(|| {
                let bake = bake_figure(&source, sequence, threads)?;
                let flat = flatten(&bake, threads);
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
    let source = BakeSource::of(document, sequence, None)?;
    py.detach(|| {
        let started = std::time::Instant::now();
        for _ in 0..repeats.max(1) {
            std::hint::black_box(bake_figure(&source, sequence, threads)?);
        }
        Ok::<f64, String>(started.elapsed().as_secs_f64() / repeats.max(1) as f64)
    })
    .map_err(error)
}
