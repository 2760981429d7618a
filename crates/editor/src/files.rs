//! Opening and saving files: native dialogs (rfd) run on their own thread so the window keeps
//! drawing while one is open, files dropped onto the window, and the requests the menus and
//! shortcuts make. Every failure is shown in the window and changes nothing.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::state::Editor;

/// What a file request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Open a skeleton (RON, SKELETON_FORMAT.md).
    OpenSkeleton,
    /// Open a pose (FILE_FORMATS.md).
    OpenPose,
    /// Save the pose where it was last opened or saved, or ask where.
    SavePose,
    /// Save the pose under a new name.
    SavePoseAs,
}

/// Asks for a file action (from a menu or a shortcut).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRequest(pub FileAction);

/// The answers of dialogs running on other threads.
#[derive(Resource)]
pub struct DialogAnswers {
    sender: Sender<(FileAction, Option<PathBuf>)>,
    receiver: Mutex<Receiver<(FileAction, Option<PathBuf>)>>,
    /// A dialog is open (further requests wait).
    pub open: bool,
}

impl Default for DialogAnswers {
    fn default() -> Self {
        let (sender, receiver) = channel();
        DialogAnswers {
            sender,
            receiver: Mutex::new(receiver),
            open: false,
        }
    }
}

/// File dialogs, drag-and-drop and the file requests.
pub struct FilesPlugin;

impl Plugin for FilesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<FileRequest>()
            .init_resource::<DialogAnswers>()
            .add_systems(Update, (handle_requests, receive_answers, dropped_files));
    }
}

fn handle_requests(
    mut requests: MessageReader<FileRequest>,
    mut editor: ResMut<Editor>,
    mut answers: ResMut<DialogAnswers>,
) {
    for &FileRequest(action) in requests.read() {
        if action == FileAction::SavePose
            && let Some(path) = editor.pose_path.clone()
        {
            editor.save_pose(&path);
            continue;
        }
        if answers.open {
            editor.inform("A file dialog is already open");
            continue;
        }
        answers.open = true;
        let sender = answers.sender.clone();
        let directory = editor
            .document
            .source()
            .and_then(Path::parent)
            .map(Path::to_path_buf);
        let spawned = std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let mut dialog = rfd::FileDialog::new().add_filter("RON", &["ron"]);
                if let Some(directory) = directory {
                    dialog = dialog.set_directory(directory);
                }
                let path = match action {
                    FileAction::OpenSkeleton => dialog.set_title("Open skeleton").pick_file(),
                    FileAction::OpenPose => dialog.set_title("Open pose").pick_file(),
                    FileAction::SavePose | FileAction::SavePoseAs => dialog
                        .set_title("Save pose")
                        .set_file_name("pose.ron")
                        .save_file(),
                };
                // The editor may have closed meanwhile; nobody is left to tell.
                let _ = sender.send((action, path));
            });
        if let Err(e) = spawned {
            answers.open = false;
            editor.fail(format!("Could not open a file dialog: {e}"));
        }
    }
}

fn receive_answers(mut answers: ResMut<DialogAnswers>, mut editor: ResMut<Editor>) {
    let received: Vec<_> = match answers.receiver.lock() {
        Ok(receiver) => receiver.try_iter().collect(),
        Err(_) => return,
    };
    for (action, path) in received {
        answers.open = false;
        let Some(path) = path else { continue };
        match action {
            FileAction::OpenSkeleton => {
                editor.open_skeleton(&path);
            }
            FileAction::OpenPose => {
                editor.open_pose(&path);
            }
            FileAction::SavePose | FileAction::SavePoseAs => {
                editor.save_pose(&path);
            }
        }
    }
}

/// A file dropped onto the window: a skeleton if it reads as one, else a pose of the current
/// skeleton; when it is neither, both reasons are shown.
fn dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut editor: ResMut<Editor>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open_dropped(&mut editor, path_buf);
        }
    }
}

/// Opens a dropped file (see [`FilesPlugin`]).
pub fn open_dropped(editor: &mut Editor, path: &Path) {
    let skeleton_error = match marionette_editing::Document::open(path) {
        Ok(document) => {
            editor.adopt(document, path);
            return;
        }
        Err(e) => e,
    };
    if let Err(pose_error) = editor.try_open_pose(path) {
        editor.fail(format!(
            "{} is neither a skeleton nor a pose of this skeleton.\nAs a skeleton: \
             {skeleton_error}\nAs a pose: {pose_error}",
            path.display()
        ));
    }
}
