//! Nothing lost after a crash: while the document has unsaved edits it is written every 60 s
//! (and when quitting is asked with edits unsaved) to a recovery file beside it, or in the user's
//! data folder for a document never saved ([`marionette_editing::document_io`]). On start a
//! recovery file newer than the document is offered: recover (the edits come back, unsaved) or
//! discard (the file is removed).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_editing::Document;

use crate::state::Editor;

/// How often unsaved edits are written to the recovery file.
pub const AUTOSAVE_EVERY: Duration = Duration::from_secs(60);

/// Set to a number of seconds to autosave more often (tests).
pub const AUTOSAVE_SECONDS_VAR: &str = "MARIONETTE_AUTOSAVE_SECONDS";

/// When the recovery file was last written (or the editor started), and where an untitled
/// document's goes.
#[derive(Resource, Debug)]
pub struct Autosave {
    /// The interval.
    pub every: Duration,
    /// The last write (or the start).
    pub last: Instant,
    /// The folder of a never-saved document's recovery file (the user's data folder; tests
    /// point it elsewhere).
    pub untitled: PathBuf,
    /// Whether the document had a file last frame (when a never-saved document is first
    /// saved, its untitled recovery file goes).
    had_file: bool,
}

impl Default for Autosave {
    fn default() -> Self {
        let every = std::env::var(AUTOSAVE_SECONDS_VAR)
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(AUTOSAVE_EVERY, Duration::from_secs_f64);
        Autosave {
            every,
            last: Instant::now(),
            untitled: marionette_editing::document_io::data_dir(),
            had_file: false,
        }
    }
}

/// A recovery file found at start, waiting for the user's answer.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct RecoveryOffer(pub Option<PathBuf>);

/// Autosaves and offers recovery.
pub struct AutosavePlugin;

impl Plugin for AutosavePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Autosave>()
            .init_resource::<RecoveryOffer>()
            .add_systems(Startup, find_recovery)
            .add_systems(Update, autosave.after(crate::dragging::DragSet::End));
    }
}

/// Looks for a recovery file of the open document (or of an unsaved one).
fn find_recovery(
    editor: Res<Editor>,
    mut timer: ResMut<Autosave>,
    mut offer: ResMut<RecoveryOffer>,
) {
    timer.had_file = editor.document.file().is_some();
    offer.0 =
        marionette_editing::document_io::pending_recovery(editor.document.file(), &timer.untitled);
}

/// Writes the recovery file when the interval has passed and there are unsaved edits (not in
/// the middle of a drag, whose pose is not an edit yet).
fn autosave(mut editor: ResMut<Editor>, mut timer: ResMut<Autosave>, offer: Res<RecoveryOffer>) {
    let has_file = editor.document.file().is_some();
    if has_file && !timer.had_file && !editor.document.is_modified() {
        Document::discard_recovery(None, &timer.untitled);
    }
    timer.had_file = has_file;
    if timer.last.elapsed() < timer.every || editor.document.drag().is_some() || offer.0.is_some() {
        return;
    }
    timer.last = Instant::now();
    write_recovery(&mut editor, &timer.untitled);
}

/// Writes the recovery file now if there are unsaved edits (an untitled document's in
/// `untitled`); failures are shown.
pub fn write_recovery(editor: &mut Editor, untitled: &Path) {
    match editor.document.autosave(untitled) {
        Ok(_) => {}
        Err(e) => editor.fail(format!("Could not write the recovery file: {e}")),
    }
}

/// Takes or removes the offered recovery file.
pub fn answer_recovery(editor: &mut Editor, offer: &mut RecoveryOffer, recover: bool) {
    let Some(path) = offer.0.take() else {
        return;
    };
    let untitled = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let file = editor.document.file().map(std::path::Path::to_path_buf);
    if recover {
        match Document::recover(&path, file.as_deref()) {
            Ok(document) => {
                editor.adopt(document);
                editor.inform(format!(
                    "Recovered unsaved work from {} (save to keep it)",
                    path.display()
                ));
            }
            Err(e) => editor.fail(format!("Could not recover {}: {e}", path.display())),
        }
    } else {
        Document::discard_recovery(file.as_deref(), &untitled);
        editor.inform("Discarded the unsaved work of the last session");
    }
}

/// The question shown while a recovery file is on offer.
pub fn recovery_question(ui: &mut egui::Ui, editor: &mut Editor, offer: &mut RecoveryOffer) {
    let Some(path) = offer.0.clone() else {
        return;
    };
    let mut answer = None;
    egui::Window::new("Recover unsaved work?")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            ui.label(format!(
                "The last session ended with unsaved edits, kept in\n{}",
                path.display()
            ));
            ui.horizontal(|ui| {
                if ui.button("Recover").clicked() {
                    answer = Some(true);
                }
                if ui.button("Discard").clicked() {
                    answer = Some(false);
                }
            });
        });
    if let Some(recover) = answer {
        answer_recovery(editor, offer, recover);
    }
}
