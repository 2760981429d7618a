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
pub mod retarget;
pub mod solve;

use std::path::{Path, PathBuf};

use marionette_editing::{Applied, Document, Edit, EditError, Solving};
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_skeleton::{Pose, Skeleton};

/// Loads a skeleton, turning the error into the text `main` prints.
pub fn load_skeleton(path: &Path) -> Result<Skeleton, String> {
    Skeleton::load(path).map_err(|e| e.to_string())
}

/// A skeleton, a pose and the skeleton file's path, from a skeleton file and an optional pose
/// file, or from a one-figure Document file (its skeleton, and its pose unless a pose file is
/// given); the file is opened once, by what it holds ([`open`]).
pub fn load_figure(path: &Path, pose: Option<&Path>) -> Result<(Skeleton, Pose, PathBuf), String> {
    let file = path.display();
    match open(path, CaptureOptions::default()) {
        Ok(Opened::Document(stage)) => match stage.into_one_figure() {
            Ok(doc) => {
                let q = match pose {
                    Some(p) => load_pose(&doc.skeleton, Some(p))?,
                    None => doc.pose,
                };
                Ok((doc.skeleton, q, doc.skeleton_path))
            }
            Err(_) => Err(format!(
                "{file}: this is a stage document (version 2: several figures or props); only a \
                 one-figure document (version 1) or a skeleton can be read here"
            )),
        },
        Ok(Opened::Skeleton(skeleton)) => {
            let q = load_pose(&skeleton, pose)?;
            Ok((*skeleton, q, path.to_path_buf()))
        }
        Ok(other) => Err(format!(
            "{file}: this is {}, not a skeleton or a document",
            other.kind().describe()
        )),
        // RON whose start names no kind: a skeleton that omits its name, as the reader says.
        Err(OpenError::NotOpened {
            kind: FileKind::Other,
            ..
        }) => {
            let skeleton = load_skeleton(path)?;
            let q = load_pose(&skeleton, pose)?;
            Ok((skeleton, q, path.to_path_buf()))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The stage (a document of either version) at `path`, opened once ([`open`]), or why not.
pub fn open_stage(path: &Path) -> Result<marionette_document::Stage, String> {
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
