//! Opening a file by what it holds: File ▸ Open document, New from skeleton, Import capture,
//! Import character and a file dropped onto the window all read the file once through
//! [`Document::open_work`] ([`marionette_interchange::open`]) and take what it holds: a
//! document is opened, a skeleton starts a new document, a character or a capture is imported
//! as a new document (its skeleton written beside the file), a pose is applied to the open
//! document. A file whose start names no kind is tried as a skeleton, then as a pose (by
//! [`marionette_interchange::open`]). Every failure says which file
//! and why, and changes nothing.

use std::path::Path;

use marionette_editing::exchange::{ImportedCapture, ImportedCharacterDocument, OpenedWork};
use marionette_editing::{Document, Edit};
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::OpenError;

use super::work::FileWork;
use crate::messages::{EditRequest, FileAction};

impl FileWork<'_, '_> {
    /// Opens `path` by what it holds; `asked` is the menu's action (`None`: a dropped file),
    /// which names what failed when the file cannot be read.
    pub(super) fn open_file(&mut self, path: &Path, asked: Option<FileAction>) {
        match Document::open_work(path) {
            Ok(OpenedWork::Document(document)) => self.took_document(path, document),
            Ok(OpenedWork::Skeleton(document)) => self.took_skeleton(path, document),
            Ok(OpenedWork::Character(imported, report)) => {
                self.took_character(path, imported, &report);
            }
            Ok(OpenedWork::Capture(imported)) => self.took_capture(path, imported),
            Ok(OpenedWork::Pose(read)) => {
                self.edits.write(EditRequest(Edit::OpenPose(read)));
            }
            Err(OpenError::NotOpened {
                kind: FileKind::Problem,
                ..
            }) => self.notices.error(format!(
                "Could not open {}: it is an IK problem file, which `marionette solve` reads; \
                 the editor opens documents, skeletons, poses, characters and captures",
                path.display()
            )),
            Err(e) => {
                let what = match (&e, asked) {
                    (OpenError::Document(_), _) | (_, Some(FileAction::OpenDocument)) => {
                        "Could not open the document".to_owned()
                    }
                    (OpenError::Skeleton(_), _) | (_, Some(FileAction::OpenSkeleton)) => {
                        "Could not open the skeleton".to_owned()
                    }
                    (OpenError::Character(_), _) | (_, Some(FileAction::ImportCharacter)) => {
                        "Could not import the character".to_owned()
                    }
                    (OpenError::Capture(_), _) | (_, Some(FileAction::ImportBvh)) => {
                        "Could not import the BVH file".to_owned()
                    }
                    _ => format!("Could not open {}", path.display()),
                };
                self.notices.error(format!("{what}: {e}"));
            }
        }
    }

    /// A Document file opened.
    fn took_document(&mut self, path: &Path, document: Document) {
        let said = format!(
            "Opened {} ({} locks, {} sequences)",
            path.display(),
            document.locks().len(),
            document.sequences().len()
        );
        self.adopt(document);
        self.notices.info(said);
    }

    /// A new document on the skeleton opened from `path`, standing.
    fn took_skeleton(&mut self, path: &Path, document: Document) {
        let document = document.standing();
        let joints = document.skeleton().joints().len();
        let name = document.skeleton().name().to_owned();
        self.adopt(document);
        self.notices.info(format!(
            "New document on skeleton \"{name}\" ({joints} joints) from {}",
            path.display()
        ));
    }

    /// A character imported as a new document (its skeleton written beside it).
    fn took_character(
        &mut self,
        path: &Path,
        imported: ImportedCharacterDocument,
        report: &[String],
    ) {
        let joints = imported.document.skeleton().joints().len();
        self.adopt(imported.document);
        self.notices.info(format!(
            "Imported {}: {joints} joints (skeleton written to {}); {}",
            path.display(),
            imported.skeleton_path.display(),
            report.get(1).map_or("", String::as_str)
        ));
        for line in report {
            eprintln!("marionette-editor: {line}");
        }
    }

    /// A capture imported as a new document (its skeleton written beside it).
    fn took_capture(&mut self, path: &Path, imported: ImportedCapture) {
        let keys = imported.document.sequences()[0].keys.len();
        let joints = imported.document.skeleton().joints().len();
        let extra = if imported.extra_rows > 0 {
            format!(
                "; {} rows after the declared frames were ignored",
                imported.extra_rows
            )
        } else {
            String::new()
        };
        self.adopt(imported.document);
        self.notices.info(format!(
            "Imported {}: {joints} joints, {keys} frames, lengths × {} (skeleton written to {}){extra}",
            path.display(),
            imported.scale,
            imported.skeleton_path.display()
        ));
    }
}
