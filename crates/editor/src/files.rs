//! Opening and saving files: native dialogs (rfd) run on their own thread so the window keeps
//! drawing while one is open, files dropped onto the window, and the requests the menus and
//! shortcuts make. Where no native dialog can be shown (no desktop portal and no zenity: rfd
//! then answers "nothing chosen" at once), the editor asks for the path in a window of its own
//! ([`PathPrompt`]), so saving never silently fails. Every failure is shown in the window and
//! changes nothing.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use crate::state::Editor;

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
    /// Export the shown sequence (or the pose) for other tools.
    Export(marionette_editing::exchange::ExportFormat),
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
            FileAction::ImportBvh => ("Import BVH", "Import"),
            FileAction::Export(_) => ("Export", "Export"),
        }
    }
}

/// Asks for a file action (from a menu or a shortcut).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRequest(pub FileAction);

/// A dialog's answer: the action, the path chosen (`None`: nothing) and how long the dialog was
/// open.
type Answer = (FileAction, Option<PathBuf>, Duration);

/// The answers of dialogs running on other threads.
#[derive(Resource)]
pub struct DialogAnswers {
    sender: Sender<Answer>,
    receiver: Mutex<Receiver<Answer>>,
    /// A dialog is open (further requests wait).
    pub open: bool,
    /// Native dialogs are tried; when false (`MARIONETTE_NO_NATIVE_DIALOGS` set), paths are
    /// always typed in the editor's own window.
    pub native: bool,
}

/// Set (to anything) to type file paths in the editor's own window instead of native dialogs.
pub const NO_NATIVE_DIALOGS: &str = "MARIONETTE_NO_NATIVE_DIALOGS";

impl Default for DialogAnswers {
    fn default() -> Self {
        let (sender, receiver) = channel();
        DialogAnswers {
            sender,
            receiver: Mutex::new(receiver),
            open: false,
            native: std::env::var_os(NO_NATIVE_DIALOGS).is_none(),
        }
    }
}

/// A path being typed because no native dialog could be shown.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedPath {
    /// What the path is for.
    pub action: FileAction,
    /// The text so far (starts as a suggestion).
    pub text: String,
}

/// The typed-path window's state: `Some` while it is open.
#[derive(Resource, Debug, Default)]
pub struct PathPrompt(pub Option<TypedPath>);

/// A dialog that answers "nothing chosen" sooner than this never reached the screen: nobody
/// cancels a file dialog that fast.
pub const DIALOG_UNAVAILABLE_WITHIN: Duration = Duration::from_millis(400);

/// File dialogs, drag-and-drop and the file requests.
pub struct FilesPlugin;

impl Plugin for FilesPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<FileRequest>()
            .init_resource::<DialogAnswers>()
            .init_resource::<PathPrompt>()
            .add_systems(Update, (handle_requests, receive_answers, dropped_files));
    }
}

fn handle_requests(
    mut requests: MessageReader<FileRequest>,
    mut editor: ResMut<Editor>,
    mut answers: ResMut<DialogAnswers>,
    mut prompt: ResMut<PathPrompt>,
) {
    for &FileRequest(action) in requests.read() {
        if action == FileAction::SavePose
            && let Some(path) = editor.pose_path.clone()
        {
            editor.save_pose(&path);
            continue;
        }
        if action == FileAction::SaveDocument
            && let Some(path) = editor.document.file().map(Path::to_path_buf)
        {
            editor.save_document(&path);
            continue;
        }
        if !answers.native {
            prompt.0 = Some(TypedPath {
                action,
                text: suggested_path(&editor, action),
            });
            continue;
        }
        if answers.open {
            editor.inform("A file dialog is already open");
            continue;
        }
        answers.open = true;
        let sender = answers.sender.clone();
        let directory = skeleton_folder(&editor).map(Path::to_path_buf);
        let spawned = std::thread::Builder::new()
            .name("file dialog".into())
            .spawn(move || {
                let began = Instant::now();
                let mut dialog = match action {
                    FileAction::ImportBvh => rfd::FileDialog::new().add_filter("BVH", &["bvh"]),
                    FileAction::Export(f) => {
                        rfd::FileDialog::new().add_filter(f.extension(), &[f.extension()])
                    }
                    _ => rfd::FileDialog::new().add_filter("RON", &["ron"]),
                };
                if let Some(directory) = directory {
                    dialog = dialog.set_directory(directory);
                }
                let (title, _) = action.title();
                let dialog = dialog.set_title(title);
                let path = match action {
                    FileAction::SavePose | FileAction::SavePoseAs => {
                        dialog.set_file_name("pose.ron").save_file()
                    }
                    FileAction::SaveDocument | FileAction::SaveDocumentAs => {
                        dialog.set_file_name("figure.ron").save_file()
                    }
                    FileAction::Export(f) => dialog
                        .set_file_name(format!("export.{}", f.extension()))
                        .save_file(),
                    _ => dialog.pick_file(),
                };
                // The editor may have closed meanwhile; nobody is left to tell.
                let _ = sender.send((action, path, began.elapsed()));
            });
        if let Err(e) = spawned {
            answers.open = false;
            editor.fail(format!("Could not open a file dialog: {e}"));
        }
    }
}

fn receive_answers(
    mut answers: ResMut<DialogAnswers>,
    mut editor: ResMut<Editor>,
    mut prompt: ResMut<PathPrompt>,
) {
    let received: Vec<_> = match answers.receiver.lock() {
        Ok(receiver) => receiver.try_iter().collect(),
        Err(_) => return,
    };
    for (action, path, open_for) in received {
        answers.open = false;
        answered(&mut editor, &mut prompt, action, path, open_for);
    }
}

/// What a dialog's answer does: a chosen path is used; "nothing chosen" after the dialog was
/// on screen is a cancel; "nothing chosen" at once means no dialog could be shown, and the path
/// is asked for in the editor's own window instead.
pub fn answered(
    editor: &mut Editor,
    prompt: &mut PathPrompt,
    action: FileAction,
    path: Option<PathBuf>,
    open_for: Duration,
) {
    match path {
        Some(path) => carry_out(editor, action, &path),
        None if open_for < DIALOG_UNAVAILABLE_WITHIN => {
            editor.inform(
                "No file dialog could be shown here (it needs xdg-desktop-portal or zenity): \
                 type the path",
            );
            prompt.0 = Some(TypedPath {
                action,
                text: suggested_path(editor, action),
            });
        }
        None => {}
    }
}

/// Opens or saves `path` as `action` says.
pub fn carry_out(editor: &mut Editor, action: FileAction, path: &Path) {
    match action {
        FileAction::OpenSkeleton => {
            editor.open_skeleton(path);
        }
        FileAction::OpenDocument => {
            editor.open_document(path);
        }
        FileAction::SaveDocument | FileAction::SaveDocumentAs => {
            editor.save_document(path);
        }
        FileAction::OpenPose => {
            editor.open_pose(path);
        }
        FileAction::SavePose | FileAction::SavePoseAs => {
            editor.save_pose(path);
        }
        FileAction::ImportBvh => {
            editor.import_bvh(path);
        }
        FileAction::Export(format) => {
            editor.export(format, path);
        }
    }
}

/// The folder of the open skeleton's file (`None` for the built-in humanoid, or a file named
/// without a folder).
fn skeleton_folder(editor: &Editor) -> Option<&Path> {
    editor
        .document
        .source()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
}

/// Where the typed path starts: the file last saved when saving (the document's, the pose's),
/// else a file beside the skeleton's, else in the working directory.
fn suggested_path(editor: &Editor, action: FileAction) -> String {
    let folder = skeleton_folder(editor);
    let (last, name) = match action {
        FileAction::SavePose | FileAction::SavePoseAs => (editor.pose_path.clone(), "pose.ron"),
        FileAction::Export(f) => (
            None,
            match f {
                marionette_editing::exchange::ExportFormat::Bvh => "export.bvh",
                marionette_editing::exchange::ExportFormat::Glb => "export.glb",
                marionette_editing::exchange::ExportFormat::Json => "export.json",
            },
        ),
        _ => (editor.document.file().map(Path::to_path_buf), "figure.ron"),
    };
    match (action.saves(), last, folder) {
        (true, Some(path), _) => path.display().to_string(),
        (true, None, Some(folder)) => folder.join(name).display().to_string(),
        (true, None, None) => name.into(),
        (false, _, Some(folder)) => format!("{}/", folder.display()),
        (false, _, None) => String::new(),
    }
}

/// A typed path as a file path: surrounding blanks dropped, a leading `~/` meaning the home
/// folder; `None` when nothing is left.
pub fn typed_path(text: &str) -> Option<PathBuf> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Some(PathBuf::from(home).join(rest)),
        _ => Some(PathBuf::from(text)),
    }
}

/// A file dropped onto the window: a document if it is one, else a skeleton (a new document on
/// it) if it reads as one, else a pose of the current skeleton; when it is none of them, the
/// reasons are shown and nothing changes.
fn dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut editor: ResMut<Editor>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            open_dropped(&mut editor, path_buf);
        }
    }
}

/// Opens a dropped file (see [`FilesPlugin`]).
pub fn open_dropped(editor: &mut Editor, path: &Path) {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bvh"))
    {
        editor.import_bvh(path);
        return;
    }
    let is_document = marionette_skeleton::ron_io::read_text(path)
        .ok()
        .is_some_and(|text| marionette_skeleton::ron_io::top_level_name(&text) == Some("Document"));
    if is_document {
        editor.open_document(path);
        return;
    }
    let skeleton_error = match marionette_editing::Document::open(path) {
        Ok(_) => {
            editor.open_skeleton(path);
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

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::Document;
    use marionette_skeleton::builtin;

    fn editor() -> Editor {
        Editor::new(Document::new(builtin::humanoid(), None))
    }

    #[test]
    fn a_dialog_that_could_not_be_shown_asks_for_the_path_in_the_editor() {
        let (mut editor, mut prompt) = (editor(), PathPrompt::default());
        answered(
            &mut editor,
            &mut prompt,
            FileAction::SavePoseAs,
            None,
            Duration::from_millis(3),
        );
        assert_eq!(
            prompt.0,
            Some(TypedPath {
                action: FileAction::SavePoseAs,
                text: "pose.ron".into()
            })
        );
        assert!(
            editor
                .notices
                .iter()
                .any(|n| n.text.contains("type the path"))
        );
    }

    #[test]
    fn a_cancelled_dialog_does_nothing_and_a_chosen_path_is_used() {
        let (mut editor, mut prompt) = (editor(), PathPrompt::default());
        answered(
            &mut editor,
            &mut prompt,
            FileAction::SavePose,
            None,
            Duration::from_secs(4),
        );
        assert_eq!(prompt.0, None);
        let dir = std::env::temp_dir().join(format!("marionette-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("chosen.ron");
        answered(
            &mut editor,
            &mut prompt,
            FileAction::SavePose,
            Some(path.clone()),
            Duration::from_secs(4),
        );
        assert!(path.exists(), "the pose was saved");
        assert_eq!(editor.pose_path.as_deref(), Some(path.as_path()));
        // Saving again suggests the pose's own file.
        assert_eq!(
            suggested_path(&editor, FileAction::SavePoseAs),
            path.display().to_string()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn typed_paths_are_trimmed_and_know_home() {
        assert_eq!(typed_path("   "), None);
        assert_eq!(typed_path(" a/b.ron \n"), Some(PathBuf::from("a/b.ron")));
        if let Some(home) = std::env::var_os("HOME") {
            assert_eq!(
                typed_path("~/poses/x.ron"),
                Some(PathBuf::from(home).join("poses/x.ron"))
            );
        }
        assert_eq!(typed_path("/abs/x.ron"), Some(PathBuf::from("/abs/x.ron")));
    }
}
