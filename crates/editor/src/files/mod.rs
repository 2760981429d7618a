//! Opening and saving files: the menus' and shortcuts' requests ([`FileRequest`]), the answers of
//! native dialogs ([`dialogs`]) and of the editor's own path window, files dropped onto the
//! window, and the answer to the recovery offer. Opening or importing replaces the document with
//! a new one, saving writes it (and marks it saved), exporting runs on a thread of its own
//! ([`crate::export`]); a pose file opened is an edit ([`Edit::OpenPose`]), like every change to
//! the work, and a save or export asked for during a drag first ends the drag ([`Edit::EndDrag`])
//! and is carried out the frame after. A file opened is read once and taken by what it holds
//! ([`open`]). Every failure is shown in the window and changes nothing.

pub mod dialogs;
mod open;
mod work;

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::EditorSet;
use crate::messages::{FileRequest, RecoveryAnswer};
use crate::resources::{Paths, Prompts};
use dialogs::DialogAnswers;
pub use work::FileWork;

pub use dialogs::{NO_NATIVE_DIALOGS, typed_path};

/// File dialogs, drag-and-drop and the file requests.
pub struct FilesPlugin;

impl Plugin for FilesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<FileRequest>()
            .add_message::<RecoveryAnswer>()
            .add_message::<FileDragAndDrop>()
            .init_resource::<DialogAnswers>()
            .init_resource::<Paths>()
            .init_resource::<Prompts>()
            .add_systems(Update, carry_out_files.in_set(EditorSet::Apply));
    }
}

/// Carries out this frame's file requests, dialog answers, dropped files and the answer to the
/// recovery offer.
pub fn carry_out_files(
    mut requests: MessageReader<FileRequest>,
    mut drops: MessageReader<FileDragAndDrop>,
    mut recoveries: MessageReader<RecoveryAnswer>,
    mut answers: ResMut<DialogAnswers>,
    mut work: FileWork,
) {
    for (action, path) in std::mem::take(&mut *work.after_drag) {
        work.carry_out(action, &path);
    }
    for request in requests.read() {
        match &request.path {
            Some(path) => work.carry_out(request.action, path),
            None => dialogs::ask(request.action, &mut answers, &mut work),
        }
    }
    if answers.open {
        for (action, path, open_for) in answers.received() {
            dialogs::answered(&mut work, action, path, open_for);
        }
    }
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            work.open_file(path_buf, None);
        }
    }
    for &RecoveryAnswer(recover) in recoveries.read() {
        work.answer_recovery(recover);
    }
}
