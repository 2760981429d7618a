//! One door for every file Marionette reads: [`open`] reads the file once, tells its kind once
//! ([`FileKind`], by its first bytes; an FBX file by whether it holds a skinned mesh, from the
//! same load that converts it) and returns what it holds: a skeleton, a pose, a document of
//! either version (a stage), a rigged character or a capture. The command line, the editor and
//! the stage's figures open files here.

use std::path::Path;

use marionette_document::{Stage, StageError, StageFile};
use marionette_skeleton::ron_io::{self, MAX_DATA_BYTES, MAX_FILE_BYTES};
use marionette_skeleton::{PoseError, PoseFile, Skeleton, SkeletonError};

use crate::capture::{Capture, CaptureError, CaptureOptions, capture_of_bytes, capture_of_fbx};
use crate::character::{Character, CharacterBytes, CharacterError, gltf_or_take};
use crate::file_kind::{FileKind, HEAD_BYTES};

/// What a file holds.
#[derive(Debug)]
pub enum Opened {
    /// A skeleton file.
    Skeleton(Box<Skeleton>),
    /// A pose file, as written (its joints by name: fitted to a skeleton by
    /// [`marionette_skeleton::Pose::from_file`]).
    Pose(PoseFile),
    /// A document: version 1 (a stage of one figure) or a stage.
    Document(Box<Stage>),
    /// A rigged character: glTF, VRM, or an FBX file with a skinned mesh.
    Character(Box<Character>),
    /// A motion capture: BVH, or an FBX file's take.
    Capture(Box<Capture>),
    /// An IK problem file, as text: the IK crate reads it (`marionette_ik::Problem::from_ron_str`,
    /// which reads the files it names relative to its path).
    Problem(String),
}

impl Opened {
    /// The kind of file it was.
    pub fn kind(&self) -> FileKind {
        match self {
            Opened::Skeleton(_) => FileKind::Skeleton,
            Opened::Pose(_) => FileKind::Pose,
            Opened::Document(_) => FileKind::Document,
            Opened::Character(_) => FileKind::Character,
            Opened::Capture(_) => FileKind::Capture,
            Opened::Problem(_) => FileKind::Problem,
        }
    }
}

/// Why a file could not be opened; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is of no kind Marionette knows by its start.
    #[error("{file}: this is {}, not a skeleton, pose, document, character or capture", kind.describe())]
    NotOpened {
        /// The file.
        file: String,
        /// What it is.
        kind: FileKind,
    },
    /// RON whose start names no kind, read as neither a skeleton nor a pose.
    #[error(
        "{file} is neither a skeleton nor a pose.\nAs a skeleton: {as_skeleton}\nAs a pose: {as_pose}"
    )]
    Unnamed {
        /// The file.
        file: String,
        /// Why it is not a skeleton.
        as_skeleton: Box<SkeletonError>,
        /// Why it is not a pose.
        as_pose: Box<PoseError>,
    },
    /// A skeleton file that does not hold a valid skeleton.
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
    /// A pose file that could not be parsed.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// A document that could not be opened.
    #[error(transparent)]
    Document(#[from] StageError),
    /// A character that could not be read.
    #[error(transparent)]
    Character(#[from] CharacterError),
    /// A capture that could not be read.
    #[error(transparent)]
    Capture(#[from] CaptureError),
}

/// Opens the file at `path` (a capture read as `capture` says), reading it once.
pub fn open(path: &Path, capture: CaptureOptions) -> Result<Opened, OpenError> {
    let file = ron_io::display_path(path);
    let read = |source| OpenError::Read {
        file: file.clone(),
        source,
    };
    let bytes =
        ron_io::read_bytes(path, MAX_DATA_BYTES, "a file Marionette reads").map_err(read)?;
    let kind = FileKind::of_head(&bytes[..bytes.len().min(HEAD_BYTES as usize)]);
    match kind {
        FileKind::Skeleton | FileKind::Pose | FileKind::Document | FileKind::Problem => {
            let text = text_of(bytes).map_err(read)?;
            Ok(match kind {
                FileKind::Skeleton => {
                    Opened::Skeleton(Box::new(Skeleton::from_ron_str(&text, &file)?))
                }
                FileKind::Pose => Opened::Pose(PoseError::parse_ron(&text, &file)?),
                FileKind::Problem => Opened::Problem(text),
                _ => Opened::Document(Box::new(StageFile::from_ron_str(&text, path)?.stage)),
            })
        }
        FileKind::Character => Ok(match gltf_or_take(&bytes, path, capture.take)? {
            CharacterBytes::Gltf(file) => Opened::Character(Box::new(Character::from_file(file)?)),
            CharacterBytes::Take(take) => {
                Opened::Capture(Box::new(capture_of_fbx(path, take, capture)?))
            }
        }),
        FileKind::Capture => Ok(Opened::Capture(Box::new(capture_of_bytes(
            path, &bytes, capture,
        )?))),
        FileKind::Other => match unnamed_ron(bytes) {
            Some(text) => skeleton_or_pose(&text, file),
            None => Err(OpenError::NotOpened { file, kind }),
        },
    }
}

/// The text of a RON file whose top level has no name (`(…)`): a skeleton or a pose that omits
/// it, told apart by reading it; `None` for anything else.
fn unnamed_ron(bytes: Vec<u8>) -> Option<String> {
    let text = text_of(bytes).ok()?;
    let rest = ron_io::after_comments(&text);
    rest.starts_with('(').then_some(text)
}

/// RON with no name at its top read as a skeleton, else as a pose; both reasons when neither.
fn skeleton_or_pose(text: &str, file: String) -> Result<Opened, OpenError> {
    let as_skeleton = match Skeleton::from_ron_str(text, &file) {
        Ok(skeleton) => return Ok(Opened::Skeleton(Box::new(skeleton))),
        Err(e) => e,
    };
    match PoseError::parse_ron(text, &file) {
        Ok(pose) => Ok(Opened::Pose(pose)),
        Err(as_pose) => Err(OpenError::Unnamed {
            file,
            as_skeleton: Box::new(as_skeleton),
            as_pose: Box::new(as_pose),
        }),
    }
}

/// A RON file's bytes as text: at most [`MAX_FILE_BYTES`], UTF-8.
fn text_of(bytes: Vec<u8>) -> std::io::Result<String> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {} MiB; not a skeleton, pose or document",
            MAX_FILE_BYTES >> 20
        )));
    }
    ron_io::utf8_text(bytes)
}
