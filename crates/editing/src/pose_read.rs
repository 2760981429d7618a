//! A pose file read once ([`ReadPose`]): opening a file by what it holds reads it, and the edit
//! that applies it ([`crate::Edit::OpenPose`]) takes what was read, so the file is not read again.

use std::path::{Path, PathBuf};

use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_skeleton::ron_io::display_path;
use marionette_skeleton::{Pose, PoseError, PoseFile, Skeleton};

/// A pose file as read: its joints by name, fitted to a skeleton when applied.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPose {
    /// The pose file.
    pub path: PathBuf,
    /// What it holds.
    pub file: PoseFile,
}

impl ReadPose {
    /// Reads the pose file at `path` ([`open`]); any other kind of file is refused, naming it.
    pub fn read(path: &Path) -> Result<ReadPose, OpenError> {
        match open(path, CaptureOptions::default())? {
            Opened::Pose(file) => Ok(ReadPose {
                path: path.to_path_buf(),
                file,
            }),
            other => Err(OpenError::NotOpened {
                file: display_path(path),
                kind: other.kind(),
            }),
        }
    }

    /// The pose fitted to `skeleton`, or every way it does not fit, naming the file.
    pub(crate) fn pose_of(&self, skeleton: &Skeleton) -> Result<Pose, PoseError> {
        Pose::from_file(skeleton, &self.file).map_err(|defects| PoseError::Invalid {
            file: display_path(&self.path),
            defects,
        })
    }

    /// The file's name, for the undo step ("Open pose NAME").
    pub(crate) fn name(&self) -> String {
        self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}
