//! What a file request asks for: the File menu's and the Sequence menu's actions on files, and
//! a replay's. The editor carries them out (its files module); a replay step resolves to one.

use crate::exchange::ExportFormat;

/// What a file request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// A new document on a skeleton file (RON, docs/skeleton-format.md).
    OpenSkeleton,
    /// Open a document (docs/file-formats.md, Document).
    OpenDocument,
    /// Save the document where it was opened or last saved, or ask where.
    SaveDocument,
    /// Save the document under a new name.
    SaveDocumentAs,
    /// Open a pose file into the current document (docs/file-formats.md, Pose).
    OpenPose,
    /// Export the current pose as a pose file, where it was last exported or a new name.
    SavePose,
    /// Export the current pose under a new name.
    SavePoseAs,
    /// Import a BVH capture as a new document.
    ImportBvh,
    /// Import a rigged glTF character as a new document.
    ImportCharacter,
    /// Add a figure to the stage from a skeleton or character file (File ▸ Add figure).
    AddFigure,
    /// Put a capture (BVH, or an FBX take) onto the figure as a new sequence (Sequence ▸ Retarget a capture).
    RetargetCapture,
    /// Export the shown sequence (or the pose) for other tools.
    Export(ExportFormat),
}

impl FileAction {
    /// Whether the action writes a file.
    pub fn saves(self) -> bool {
        matches!(
            self,
            FileAction::SaveDocument
                | FileAction::SaveDocumentAs
                | FileAction::SavePose
                | FileAction::SavePoseAs
                | FileAction::Export(_)
        )
    }

    /// The dialog's title and its button.
    pub fn title(self) -> (&'static str, &'static str) {
        match self {
            FileAction::OpenSkeleton => ("New document from skeleton", "Open"),
            FileAction::OpenDocument => ("Open document", "Open"),
            FileAction::SaveDocument | FileAction::SaveDocumentAs => ("Save document", "Save"),
            FileAction::OpenPose => ("Open pose", "Open"),
            FileAction::SavePose | FileAction::SavePoseAs => ("Export pose", "Export"),
            FileAction::ImportBvh => ("Import capture", "Import"),
            FileAction::ImportCharacter => ("Import character", "Import"),
            FileAction::AddFigure => ("Add figure (skeleton or character)", "Add"),
            FileAction::RetargetCapture => ("Retarget a capture onto this figure", "Retarget"),
            FileAction::Export(_) => ("Export", "Export"),
        }
    }
}
