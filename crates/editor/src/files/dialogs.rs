//! Where a file request gets its path: native dialogs (rfd) run on their own thread so the window
//! keeps drawing while one is open; where none can be shown (no desktop portal and no zenity:
//! rfd then answers "nothing chosen" at once), the editor asks for the path in a window of its
//! own ([`Prompts::path`](crate::resources::Prompts)), so saving never silently fails. Saving
//! again uses the file the document (or the pose) already has.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use marionette_editing::Document;
use marionette_editing::exchange::ExportFormat;

use super::work::FileWork;
use crate::messages::FileAction;
use crate::resources::{Paths, TypedPath};

/// A dialog's answer: the action, the path chosen (`None`: nothing) and how long the dialog was
/// open.
pub type Answer = (FileAction, Option<PathBuf>, Duration);

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

/// A dialog that answers "nothing chosen" sooner than this never reached the screen: nobody
/// cancels a file dialog that fast.
pub const DIALOG_UNAVAILABLE_WITHIN: Duration = Duration::from_millis(400);

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

impl DialogAnswers {
    /// The answers that arrived (the dialog is closed once one has).
    pub fn received(&mut self) -> Vec<Answer> {
        let received: Vec<Answer> = match self.receiver.lock() {
            Ok(receiver) => receiver.try_iter().collect(),
            Err(_) => Vec::new(),
        };
        if !received.is_empty() {
            self.open = false;
        }
        received
    }
}

/// Asks for `action`'s path: saving again uses the file it was saved to; otherwise a native
/// dialog, or the editor's own path window.
pub fn ask(action: FileAction, answers: &mut DialogAnswers, work: &mut FileWork) {
    if action == FileAction::SavePose
        && let Some(path) = work.paths.last_pose.clone()
    {
        work.carry_out(action, &path);
        return;
    }
    if action == FileAction::SaveDocument
        && let Some(path) = work.document.file().map(Path::to_path_buf)
    {
        work.carry_out(action, &path);
        return;
    }
    if !answers.native {
        work.prompts.path = Some(TypedPath {
            action,
            text: suggested_path(&work.document, &work.paths, action),
        });
        return;
    }
    if answers.open {
        work.notices.info("A file dialog is already open");
        return;
    }
    answers.open = true;
    let sender = answers.sender.clone();
    let directory = skeleton_folder(&work.document).map(Path::to_path_buf);
    let spawned = std::thread::Builder::new()
        .name("file dialog".into())
        .spawn(move || {
            let began = Instant::now();
            let path = native_dialog(action, directory);
            // The editor may have closed meanwhile; nobody is left to tell.
            let _ = sender.send((action, path, began.elapsed()));
        });
    if let Err(e) = spawned {
        answers.open = false;
        work.notices
            .error(format!("Could not open a file dialog: {e}"));
    }
}

/// Shows the native dialog for `action` (blocking its thread) and returns the path chosen.
fn native_dialog(action: FileAction, directory: Option<PathBuf>) -> Option<PathBuf> {
    let mut dialog = match action {
        FileAction::ImportBvh | FileAction::RetargetCapture => {
            rfd::FileDialog::new().add_filter("capture (BVH, FBX)", &["bvh", "fbx"])
        }
        FileAction::ImportCharacter => rfd::FileDialog::new()
            .add_filter("character (glTF, VRM, FBX)", &["glb", "gltf", "vrm", "fbx"]),
        FileAction::AddFigure => rfd::FileDialog::new().add_filter(
            "skeleton or character",
            &["ron", "glb", "gltf", "vrm", "fbx"],
        ),
        FileAction::Export(f) => rfd::FileDialog::new().add_filter(f.extension(), &[f.extension()]),
        _ => rfd::FileDialog::new().add_filter("RON", &["ron"]),
    };
    if let Some(directory) = directory {
        dialog = dialog.set_directory(directory);
    }
    let (title, _) = action.title();
    let dialog = dialog.set_title(title);
    match action {
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
    }
}

/// What a dialog's answer does: a chosen path is used; "nothing chosen" after the dialog was
/// on screen is a cancel; "nothing chosen" at once means no dialog could be shown, and the path
/// is asked for in the editor's own window instead.
pub fn answered(
    work: &mut FileWork,
    action: FileAction,
    path: Option<PathBuf>,
    open_for: Duration,
) {
    match path {
        Some(path) => work.carry_out(action, &path),
        None if open_for < DIALOG_UNAVAILABLE_WITHIN => {
            work.notices.info(
                "No file dialog could be shown here (it needs xdg-desktop-portal or zenity): \
                 type the path",
            );
            work.prompts.path = Some(TypedPath {
                action,
                text: suggested_path(&work.document, &work.paths, action),
            });
        }
        None => {}
    }
}

/// The folder of the open skeleton's file (`None` for the built-in humanoid, or a file named
/// without a folder).
fn skeleton_folder(document: &Document) -> Option<&Path> {
    document
        .source()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
}

/// Where the typed path starts: the file last saved when saving (the document's, the pose's),
/// else a file beside the skeleton's, else in the working directory.
pub fn suggested_path(document: &Document, paths: &Paths, action: FileAction) -> String {
    let folder = skeleton_folder(document);
    let (last, name) = match action {
        FileAction::SavePose | FileAction::SavePoseAs => (paths.last_pose.clone(), "pose.ron"),
        FileAction::Export(f) => (
            None,
            match f {
                ExportFormat::Bvh => "export.bvh",
                ExportFormat::Glb => "export.glb",
                ExportFormat::Json => "export.json",
            },
        ),
        _ => (document.file().map(Path::to_path_buf), "figure.ron"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{Notices, OpenDocument, Prompts};

    /// An app with what the file system needs, nothing else.
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .init_resource::<OpenDocument>()
            .init_resource::<Notices>()
            .init_resource::<Paths>()
            .init_resource::<Prompts>()
            .init_resource::<crate::drag::ghosts::Ghosts>()
            .add_message::<crate::messages::EditRequest>();
        app
    }

    fn answer(app: &mut App, action: FileAction, path: Option<PathBuf>, open_for: Duration) {
        app.world_mut()
            .run_system_cached_with(
                |In((action, path, open_for)): In<Answer>, mut work: FileWork| {
                    answered(&mut work, action, path, open_for);
                },
                (action, path, open_for),
            )
            .expect("system ran");
    }

    #[test]
    fn a_dialog_that_could_not_be_shown_asks_for_the_path_in_the_editor() {
        let mut app = app();
        answer(
            &mut app,
            FileAction::SavePoseAs,
            None,
            Duration::from_millis(3),
        );
        assert_eq!(
            app.world().resource::<Prompts>().path,
            Some(TypedPath {
                action: FileAction::SavePoseAs,
                text: "pose.ron".into()
            })
        );
        assert!(
            app.world()
                .resource::<Notices>()
                .all()
                .iter()
                .any(|n| n.text.contains("type the path"))
        );
    }

    #[test]
    fn a_cancelled_dialog_does_nothing_and_a_chosen_path_is_used() {
        let mut app = app();
        answer(&mut app, FileAction::SavePose, None, Duration::from_secs(4));
        assert_eq!(app.world().resource::<Prompts>().path, None);
        let dir = std::env::temp_dir().join(format!("marionette-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("chosen.ron");
        answer(
            &mut app,
            FileAction::SavePose,
            Some(path.clone()),
            Duration::from_secs(4),
        );
        assert!(path.exists(), "the pose was saved");
        let paths = app.world().resource::<Paths>();
        assert_eq!(paths.last_pose.as_deref(), Some(path.as_path()));
        // Saving again suggests the pose's own file.
        let document = &app.world().resource::<OpenDocument>().0;
        assert_eq!(
            suggested_path(document, paths, FileAction::SavePoseAs),
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
