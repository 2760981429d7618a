//! A capture file read once for a retarget ([`ReadCapture`]): the plan the editor shows and the
//! edit that runs the retarget share its motion.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_interchange::bvh::import::Imported;
use marionette_interchange::capture::{CaptureScale, read_capture};

use crate::EditError;

/// A capture file read once (at its own scale, every frame): the plan shows its map and the
/// edit that runs the retarget uses the same motion, so the file is not read again.
#[derive(Debug, Clone)]
pub struct ReadCapture {
    /// The capture file.
    pub path: PathBuf,
    /// Its skeleton and take.
    pub(crate) imported: Arc<Imported>,
    /// The take's name (the file's stem, or the FBX take's).
    pub(crate) name: String,
}

impl PartialEq for ReadCapture {
    /// The same file, read by the same read.
    fn eq(&self, other: &ReadCapture) -> bool {
        self.path == other.path && Arc::ptr_eq(&self.imported, &other.imported)
    }
}

impl ReadCapture {
    /// Reads and imports the capture at `path` (BVH, or an FBX file's first take).
    pub fn read(path: &Path) -> Result<ReadCapture, EditError> {
        let capture = read_capture(path, CaptureScale::Times(1.0), 1)
            .map_err(|e| EditError::Retarget(e.to_string()))?;
        Ok(ReadCapture {
            path: path.to_owned(),
            imported: Arc::new(capture.imported),
            name: capture.name,
        })
    }
}
