//! [`FileWork`]: what opening and saving files changes, and how each file action is carried
//! out on it.

use std::path::{Path, PathBuf};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use marionette_editing::pose_read::ReadPose;
use marionette_editing::{Applied, Document, Edit, Solving};

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
    pub(super) edits: MessageWriter<'w, EditRequest>,
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
        match action {
            FileAction::OpenSkeleton
            | FileAction::OpenDocument
            | FileAction::ImportBvh
            | FileAction::ImportCharacter => self.open_file(path, Some(action)),
            FileAction::SaveDocument | FileAction::SaveDocumentAs => {
                self.save_document(path);
            }
            // Only a pose: another kind of file would replace the work without asking.
            FileAction::OpenPose => match ReadPose::read(path) {
                Ok(read) => {
                    self.edits.write(EditRequest(Edit::OpenPose(read)));
                }
                Err(e) => self.notices.error(format!("Could not open the pose: {e}")),
            },
            FileAction::SavePose | FileAction::SavePoseAs => self.save_pose(path),
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
    pub(super) fn adopt(&mut self, document: Document) {
        self.document.0 = document;
        self.ghosts.clear();
        // A map made for the figure that was open no longer applies.
        self.prompts.retarget = None;
        self.paths.last_pose = None;
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
