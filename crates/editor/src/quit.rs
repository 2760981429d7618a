//! Quitting without losing work: closing the window (or File ▸ Quit) with unsaved edits asks
//! first (the panels show the question, [`Editor::confirm_quit`]) and writes the recovery file
//! meanwhile ([`crate::autosave`]); once the document is saved the editor exits, and when the
//! user chooses to discard the edits the recovery file goes too.

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;

use crate::state::Editor;

/// Asks to quit (the File menu); the same as closing the window.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuitRequest {
    /// Quit even if the document is unsaved.
    pub discard: bool,
}

/// Handles quit requests and window close requests.
pub struct QuitPlugin;

impl Plugin for QuitPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<QuitRequest>()
            .add_message::<WindowCloseRequested>()
            .add_systems(Update, quit);
    }
}

fn quit(
    mut closes: MessageReader<WindowCloseRequested>,
    mut requests: MessageReader<QuitRequest>,
    mut editor: ResMut<Editor>,
    mut exit: MessageWriter<AppExit>,
    autosave: Res<crate::autosave::Autosave>,
) {
    let mut asked = closes.read().count() > 0;
    let mut discard = false;
    for request in requests.read() {
        asked = true;
        discard |= request.discard;
    }
    if asked {
        if discard && editor.unsaved() {
            marionette_editing::Document::discard_recovery(
                editor.document.file(),
                &autosave.untitled,
            );
        }
        if discard || !editor.unsaved() {
            exit.write(AppExit::Success);
        } else {
            crate::autosave::write_recovery(&mut editor, &autosave.untitled);
            editor.confirm_quit = true;
        }
    } else if editor.confirm_quit && !editor.unsaved() {
        // The pose was saved from the question: quit as asked.
        exit.write(AppExit::Success);
    }
}
