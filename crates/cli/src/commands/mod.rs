//! One module per subcommand; each exposes `XArgs` (clap) and `run(&XArgs)`.
//!
//! `run` returns the exit code on success and the error text (one or more lines, each naming the
//! file at fault) on bad input, which `main` prints to standard error with exit status 1.

pub mod bake;
pub mod bench;
pub mod check;
pub mod cleanup;
pub mod demo;
pub mod export;
pub mod fk;
pub mod import;
pub mod physics;
pub mod retarget;
pub mod solve;

use std::path::{Path, PathBuf};

use marionette_document::{Placement, Stage};
use marionette_editing::{Applied, Document, Edit, EditError, Solving};
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::open::{Opened, open};
use marionette_skeleton::{Pose, Skeleton};

/// Loads a skeleton, turning the error into the text `main` prints.
pub fn load_skeleton(path: &Path) -> Result<Skeleton, String> {
    Skeleton::load(path).map_err(|e| e.to_string())
}

/// A figure the commands read: a skeleton file's, a one-figure document's or one figure of a
/// stage, with its pose and where it stands.
#[derive(Debug)]
pub struct Figure {
    /// Its skeleton.
    pub skeleton: Skeleton,
    /// Its pose: the pose file's, else the document's, else the rest pose.
    pub pose: Pose,
    /// The skeleton's file.
    pub skeleton_path: PathBuf,
    /// Where it stands on its stage (the identity for a skeleton file or a version-1 document).
    pub placement: Placement,
    /// Its body, as its document gives it (none for a skeleton file).
    pub body: Option<marionette_document::Body>,
}

/// The figure in the file at `path`, opened once, by what it holds ([`open`]): a skeleton file
/// (at `pose`, or its rest pose), a one-figure document or the figure `figure` names of a stage
/// (at `pose`, or the document's pose). A stage of several figures needs `figure`.
pub fn load_figure(
    path: &Path,
    pose: Option<&Path>,
    figure: Option<&str>,
) -> Result<Figure, String> {
    let opened = open(path, CaptureOptions::default()).map_err(|e| e.to_string())?;
    figure_in(opened, path, pose, figure)
}

/// [`load_figure`] of a file opened already.
pub fn figure_in(
    opened: Opened,
    path: &Path,
    pose: Option<&Path>,
    figure: Option<&str>,
) -> Result<Figure, String> {
    let file = path.display();
    match opened {
        Opened::Document(stage) => {
            let index = figure_of(&stage, figure, path)?;
            let chosen = stage.figures.into_iter().nth(index).expect("a figure");
            let doc = chosen.document;
            let q = match pose {
                Some(p) => load_pose(&doc.skeleton, Some(p))?,
                None => doc.pose,
            };
            Ok(Figure {
                skeleton: doc.skeleton,
                pose: q,
                skeleton_path: doc.skeleton_path,
                placement: chosen.placement,
                body: doc.body,
            })
        }
        Opened::Skeleton(skeleton) => {
            if let Some(name) = figure {
                return Err(format!(
                    "{file}: this is a skeleton file; --figure \"{name}\" names a figure of a \
                     stage document"
                ));
            }
            let q = load_pose(&skeleton, pose)?;
            Ok(Figure {
                skeleton: *skeleton,
                pose: q,
                skeleton_path: path.to_path_buf(),
                placement: Placement::default(),
                body: None,
            })
        }
        other => Err(format!(
            "{file}: this is {}, not a skeleton or a document",
            other.kind().describe()
        )),
    }
}

/// The index of the figure `wanted` names on `stage` (read from `path`); without a name, its
/// one figure, or an error listing the figures to choose from.
pub fn figure_of(stage: &Stage, wanted: Option<&str>, path: &Path) -> Result<usize, String> {
    let file = path.display();
    match wanted {
        Some(name) => stage.figure_index(name).ok_or_else(|| {
            format!(
                "{file}: no figure \"{name}\" on the stage (figures: {})",
                stage.figure_list()
            )
        }),
        None if stage.figures.len() == 1 => Ok(0),
        None => Err(format!(
            "{file}: a stage holds several figures; say which with --figure NAME (figures: {})",
            stage.figure_list()
        )),
    }
}

/// The stage (a document of either version) at `path`, opened once ([`open`]), or why not.
pub fn open_stage(path: &Path) -> Result<Stage, String> {
    match open(path, CaptureOptions::default()) {
        Ok(Opened::Document(stage)) => Ok(*stage),
        Ok(other) => Err(format!(
            "{}: this is {}, not a document",
            path.display(),
            other.kind().describe()
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Loads a pose for `skeleton`, or the rest pose when no file is given.
pub fn load_pose(skeleton: &Skeleton, path: Option<&Path>) -> Result<Pose, String> {
    match path {
        Some(p) => Pose::load(skeleton, p).map_err(|e| e.to_string()),
        None => Ok(Pose::rest(skeleton)),
    }
}

/// Parses a finite number > 0 (a tolerance).
pub fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("\"{s}\" is not a positive number")),
    }
}

/// Applies `edit` to `doc`: the one way the commands change a document, as the editor does.
pub fn apply(doc: &mut Document, edit: Edit) -> Result<Applied, EditError> {
    doc.apply(edit, &mut Solving::default())
}

/// Saves `doc` to `path` (an edit: the same writer as the editor's Save), or the error naming
/// the file.
pub fn save(doc: &mut Document, path: &Path) -> Result<(), String> {
    match apply(doc, Edit::Save(path.to_path_buf())) {
        Ok(_) => Ok(()),
        Err(EditError::Save(why)) => Err(format!("{}: {why}", path.display())),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The sequence of `sequences` (a document's) named `name`, or an error naming those the
/// document has.
pub fn find_sequence<'d>(
    sequences: &'d [marionette_document::Sequence],
    name: &str,
    path: &Path,
) -> Result<&'d marionette_document::Sequence, String> {
    sequence_index(sequences, name, path).map(|i| &sequences[i])
}

/// The index of the sequence of `sequences` named `name`, or an error naming those the
/// document has.
pub fn sequence_index(
    sequences: &[marionette_document::Sequence],
    name: &str,
    path: &Path,
) -> Result<usize, String> {
    sequences
        .iter()
        .position(|s| s.name == name)
        .ok_or_else(|| {
            let names: Vec<String> = sequences
                .iter()
                .map(|s| format!("\"{}\"", s.name))
                .collect();
            format!(
                "{}: no sequence named \"{name}\" (the document has {})",
                path.display(),
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            )
        })
}
