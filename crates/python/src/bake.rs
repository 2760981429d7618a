//! `Document.bake` and `Document.export`: a sequence baked with its locks held (on a stage, with
//! the whole stage: links held, props carried), handed over as numpy arrays; and the exports
//! the command writes, by the same function ([`export_document`]), so the bytes are the same.
//! What a bake hands over is [`Baked`].

use std::path::{Path, PathBuf};

use marionette_document::Stage;
use marionette_interchange::export::ExportFormat;
use marionette_interchange::stage::document_export::{DocumentExportError, export_document};
use marionette_interchange::stage::export::StageExport;
use marionette_motion::stage::StageBaker;
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::Skeleton;
use nalgebra::Isometry3;
use pyo3::prelude::*;

use crate::baked::{Bake, Baked, Flat};
use crate::document::{PyDocument, shown_file};
use crate::errors::{error, file_error};

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

/// The index of figure `name` (None: the edited one) of `stage`, or why not.
pub fn figure_index(doc: &PyDocument, stage: &Stage, name: Option<&str>) -> PyResult<usize> {
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
                let flat = Flat::of(&bake);
                Ok::<_, String>((bake, flat))
            })
            .map_err(|e| error(format!("{file}: {e}")))?;
        Baked::new(py, sequence, bake, flat)
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

/// The benchmark's account of what `Document.bake` adds to the bake itself, timed alone:
/// copying the figure's sequence and locks out of the document, one pass over the frames for
/// the values and lock errors, and the arrays made for Python (mean seconds over `repeats`).
#[pyfunction(name = "_bake_handover_cost")]
#[pyo3(signature = (document, sequence, repeats = 20))]
pub fn bake_handover_cost(
    py: Python<'_>,
    document: &PyDocument,
    sequence: &str,
    repeats: usize,
) -> PyResult<f64> {
    let source = BakeSource::of(document, sequence, None)?;
    let bake = py
        .detach(|| bake_figure(&source, sequence, 0))
        .map_err(error)?;
    let mut total = 0.0;
    for _ in 0..repeats.max(1) {
        let copy = bake.clone();
        let started = std::time::Instant::now();
        let source = BakeSource::of(document, sequence, None)?;
        let flat = Flat::of(&copy);
        let baked = Baked::new(py, sequence, copy, flat)?;
        total += started.elapsed().as_secs_f64();
        drop((source, baked));
    }
    Ok(total / repeats.max(1) as f64)
}
