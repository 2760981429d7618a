//! Nothing lost after a crash: while the document has unsaved edits it is written every 60 s
//! (and when quitting is asked with edits unsaved) to a recovery file beside it, or in the user's
//! data folder for a document never saved ([`marionette_editing::document::io`]). On start a
//! recovery file newer than the document is offered ([`Prompts::recovery`]; the panels ask,
//! the files carry out the answer): recover (the edits come back, unsaved) or discard (the
//! file is removed).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use marionette_editing::Document;

use crate::EditorSet;
use crate::resources::{Notices, OpenDocument, Prompts};

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
            untitled: marionette_editing::document::io::data_dir(),
            had_file: false,
        }
    }
}

/// Autosaves and offers recovery.
pub struct AutosavePlugin;

impl Plugin for AutosavePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Autosave>()
            .add_systems(Startup, find_recovery.in_set(EditorSet::Setup))
            .add_systems(Update, autosave.in_set(EditorSet::Settle));
    }
}

/// Looks for a recovery file of the open document (or of an unsaved one).
fn find_recovery(
    document: Res<OpenDocument>,
    mut timer: ResMut<Autosave>,
    mut prompts: ResMut<Prompts>,
) {
    timer.had_file = document.file().is_some();
    prompts.recovery =
        marionette_editing::document::io::pending_recovery(document.file(), &timer.untitled);
}

/// Writes the recovery file when the interval has passed and there are unsaved edits (not in
/// the middle of a drag, whose pose is not an edit yet).
fn autosave(
    document: Res<OpenDocument>,
    mut timer: ResMut<Autosave>,
    prompts: Res<Prompts>,
    mut notices: ResMut<Notices>,
) {
    let has_file = document.file().is_some();
    if has_file && !timer.had_file && !document.is_modified() {
        Document::discard_recovery(None, &timer.untitled);
    }
    if timer.had_file != has_file {
        timer.had_file = has_file;
    }
    if timer.last.elapsed() < timer.every || document.drag().is_some() || prompts.recovery.is_some()
    {
        return;
    }
    timer.last = Instant::now();
    write_recovery(&document, &timer.untitled, &mut notices);
}

/// Writes the recovery file now if there are unsaved edits (an untitled document's in
/// `untitled`); failures are shown.
pub fn write_recovery(document: &Document, untitled: &Path, notices: &mut Notices) {
    if let Err(e) = document.autosave(untitled) {
        notices.error(format!("Could not write the recovery file: {e}"));
    }
}
