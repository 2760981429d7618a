//! [`FileWork`]: what opening and saving files changes, and how each file action is carried
//! out on it.

use std::path::{Path, PathBuf};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use marionette_editing::{Applied, Document, Edit, Solving};
use marionette_interchange::file_kind::FileKind;

use crate::drag::ghosts::Ghosts;
use crate::export::RunningExport;
use crate::messages::{EditRequest, FileAction};
use crate::resources::{Notices, OpenDocument, Paths, Prompts};

/// What opening and saving files changes.
#[derive(SystemParam)]
pub struct FileWork<'w, 's> {
    /// The open document.
    pub document: ResMut<'w, OpenDocument>,
    /// The messages for the user.
    pub notices: ResMut<'w, Notices>,
    /// The paths remembered.
    pub paths: ResMut<'w, Paths>,
    /// The questions asked (the path window, the recovery offer).
    pub prompts: ResMut<'w, Prompts>,
    ghosts: ResMut<'w, Ghosts>,
    running: Option<Res<'w, RunningExport>>,
    commands: Commands<'w, 's>,
    edits: MessageWriter<'w, EditRequest>,
    /// Saves and exports asked for during a drag, carried out the frame after its end.
    pub(super) after_drag: Local<'s, Vec<(FileAction, PathBuf)>>,
}

impl FileWork<'_, '_> {
    /// Opens or saves `path` as `action` says.
    pub fn carry_out(&mut self, action: FileAction, path: &Path) {
        if self.document.drag().is_some() && action.saves() {
            // What is saved or exported is the work with the drag ended: end it first.
            self.edits.write(EditRequest(Edit::EndDrag));
            self.after_drag.push((action, path.to_path_buf()));
            return;
        }
        let is_character = || FileKind::of(path).is_ok_and(|k| k == FileKind::Character);
        match action {
            FileAction::OpenSkeleton | FileAction::OpenDocument if is_character() => {
                self.import_character(path);
            }
            FileAction::OpenSkeleton => {
                self.open_skeleton(path);
            }
            FileAction::OpenDocument => {
                self.open_document(path);
            }
            FileAction::SaveDocument | FileAction::SaveDocumentAs => {
                self.save_document(path);
            }
            FileAction::OpenPose => {
                self.edits
                    .write(EditRequest(Edit::OpenPose(path.to_path_buf())));
            }
            FileAction::SavePose | FileAction::SavePoseAs => self.save_pose(path),
            FileAction::ImportBvh => self.import_bvh(path),
            FileAction::ImportCharacter => self.import_character(path),
            FileAction::AddFigure => {
                let stem = path
                    .file_stem()
                    .map_or_else(|| "Figure".into(), |s| s.to_string_lossy().into_owned());
                let stem = stem.strip_suffix(".skeleton").unwrap_or(&stem);
                self.edits.write(EditRequest(Edit::Stage(
                    marionette_editing::stage::StageEdit::AddFigure {
                        name: self.document.free_name(stem),
                        file: Some(path.to_path_buf()),
                        placement: self.document.beside_the_others(),
                    },
                )));
            }
            // The map is shown before the retarget runs (its window sends the edit).
            FileAction::RetargetCapture => match self.document.plan_retarget(path) {
                Ok(plan) => self.prompts.retarget = Some(plan),
                Err(e) => self.notices.error(e.to_string()),
            },
            FileAction::Export(format) => {
                if self.running.is_some() {
                    self.notices.info("An export is already running");
                    return;
                }
                let assets = self.paths.assets.clone();
                match crate::export::start(&self.document, format, path, assets.as_deref()) {
                    Ok(running) => self.commands.insert_resource(running),
                    Err(e) => self.notices.error(e),
                }
            }
        }
    }

    /// Edits `document` from now on.
    fn adopt(&mut self, document: Document) {
        self.document.0 = document;
        self.ghosts.clear();
        // A map made for the figure that was open no longer applies.
        self.prompts.retarget = None;
        self.paths.last_pose = None;
    }

    /// Starts a new document on another skeleton (File ▸ New from skeleton).
    fn open_skeleton(&mut self, path: &Path) {
        self.adopt_skeleton(path, Document::open(path));
    }

    /// Starts a new document on the skeleton opened from `path`, or says why it could not be.
    fn adopt_skeleton(
        &mut self,
        path: &Path,
        opened: Result<Document, marionette_skeleton::SkeletonError>,
    ) {
        match opened {
            Ok(document) => {
                let document = document.standing();
                let joints = document.skeleton().joints().len();
                let name = document.skeleton().name().to_owned();
                self.adopt(document);
                self.notices.info(format!(
                    "New document on skeleton \"{name}\" ({joints} joints) from {}",
                    path.display()
                ));
            }
            Err(e) => self
                .notices
                .error(format!("Could not open the skeleton: {e}")),
        }
    }

    /// Opens a Document file; on error the open document stays.
    fn open_document(&mut self, path: &Path) {
        match Document::open_document(path) {
            Ok(document) => {
                let said = format!(
                    "Opened {} ({} locks, {} sequences)",
                    path.display(),
                    document.locks().len(),
                    document.sequences().len()
                );
                self.adopt(document);
                self.notices.info(said);
            }
            Err(e) => self
                .notices
                .error(format!("Could not open the document: {e}")),
        }
    }

    /// Saves the document (atomically) to `path`: an edit (it records nothing; the document is
    /// then unmodified), applied here so that the file is written before the next request.
    fn save_document(&mut self, path: &Path) {
        let save = Edit::Save(path.to_path_buf());
        match self.document.apply(save, &mut Solving::default()) {
            Ok(Applied::Said(said)) => self.notices.info(said),
            Ok(_) => {}
            Err(e) => self.notices.error(e.to_string()),
        }
    }

    /// Exports the current pose as a pose file.
    fn save_pose(&mut self, path: &Path) {
        match self.document.save_pose(path) {
            Ok(()) => {
                self.paths.last_pose = Some(path.to_path_buf());
                self.notices
                    .info(format!("Exported the pose to {}", path.display()));
            }
            Err(e) => self.notices.error(format!("Could not save the pose: {e}")),
        }
    }

    /// Imports a BVH capture as a new document (its skeleton written beside it).
    fn import_bvh(&mut self, path: &Path) {
        match Document::import_bvh(path) {
            Ok(imported) => {
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
            Err(e) => self
                .notices
                .error(format!("Could not import the BVH file: {e}")),
        }
    }

    /// Imports a rigged glTF character as a new document (its skeleton written beside it).
    fn import_character(&mut self, path: &Path) {
        match Document::import_character(path) {
            Ok((imported, report)) => {
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
            Err(e) => self
                .notices
                .error(format!("Could not import the character: {e}")),
        }
    }

    /// A file dropped onto the window, by its kind ([`FileKind`]): a character or a capture
    /// is imported, a document opened, a skeleton starts a new document; a file whose start
    /// names no kind is opened as a skeleton if it reads as one, else as a pose of the current
    /// skeleton; when it is none of them, the reasons are shown and nothing changes.
    pub(super) fn open_dropped(&mut self, path: &Path) {
        let kind = match FileKind::of(path) {
            Ok(kind) => kind,
            Err(e) => {
                self.notices
                    .error(format!("Could not open {}: {e}", path.display()));
                return;
            }
        };
        match kind {
            FileKind::Character => return self.import_character(path),
            FileKind::Capture => return self.import_bvh(path),
            FileKind::Document => return self.open_document(path),
            FileKind::Skeleton => return self.open_skeleton(path),
            FileKind::Pose => return self.carry_out(FileAction::OpenPose, path),
            FileKind::Problem => {
                self.notices.error(format!(
                    "Could not open {}: it is an IK problem file, which `marionette solve` reads; \
                     the editor opens documents, skeletons, poses, characters and captures",
                    path.display()
                ));
                return;
            }
            FileKind::Other => {}
        }
        let skeleton_error = match Document::open(path) {
            Ok(document) => {
                self.adopt_skeleton(path, Ok(document));
                return;
            }
            Err(e) => e,
        };
        match marionette_skeleton::Pose::load(self.document.skeleton(), path) {
            Ok(_) => self.carry_out(FileAction::OpenPose, path),
            Err(pose_error) => self.notices.error(format!(
                "{} is neither a skeleton nor a pose of this skeleton.\nAs a skeleton: \
                 {skeleton_error}\nAs a pose: {pose_error}",
                path.display()
            )),
        }
    }

    /// Takes or removes the recovery file on offer.
    pub(super) fn answer_recovery(&mut self, recover: bool) {
        let Some(path) = self.prompts.recovery.take() else {
            self.notices
                .error("no unsaved work from an earlier session is offered");
            return;
        };
        let untitled: PathBuf = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let file = self.document.file().map(Path::to_path_buf);
        if recover {
            match Document::recover(&path, file.as_deref()) {
                Ok(document) => {
                    self.adopt(document);
                    self.notices.info(format!(
                        "Recovered unsaved work from {} (save to keep it)",
                        path.display()
                    ));
                }
                Err(e) => self
                    .notices
                    .error(format!("Could not recover {}: {e}", path.display())),
            }
        } else {
            Document::discard_recovery(file.as_deref(), &untitled);
            self.notices
                .info("Discarded the unsaved work of the last session");
        }
    }
}
