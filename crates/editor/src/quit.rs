//! Quitting without losing work: closing the window (or File ▸ Quit) with unsaved edits asks
//! first (the panels show the question, [`Prompts::quit`]) and writes the recovery file
//! meanwhile ([`crate::autosave`]); once the document is saved the editor exits, and when the
//! user chooses to discard the edits the recovery file goes too.

use bevy::prelude::*;
use bevy::window::WindowCloseRequested;

use crate::EditorSet;
use crate::autosave::{Autosave, write_recovery};
use crate::messages::QuitRequest;
use crate::resources::{Notices, OpenDocument, Prompts};

/// Handles quit requests and window close requests.
pub struct QuitPlugin;

impl Plugin for QuitPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<QuitRequest>()
            .add_message::<WindowCloseRequested>()
            .add_systems(Update, quit.in_set(EditorSet::Settle));
    }
}

fn quit(
    mut closes: MessageReader<WindowCloseRequested>,
    mut requests: MessageReader<QuitRequest>,
    document: Res<OpenDocument>,
    mut prompts: ResMut<Prompts>,
    mut notices: ResMut<Notices>,
    mut exit: MessageWriter<AppExit>,
    autosave: Res<Autosave>,
) {
    let mut asked = closes.read().count() > 0;
    let mut discard = false;
    for request in requests.read() {
        asked = true;
        discard |= request.discard;
    }
    let unsaved = document.is_modified();
    if asked {
        if discard && unsaved {
            marionette_editing::Document::discard_recovery(document.file(), &autosave.untitled);
        }
        if discard || !unsaved {
            exit.write(AppExit::Success);
        } else {
            write_recovery(&document, &autosave.untitled, &mut notices);
            prompts.quit = true;
        }
    } else if prompts.quit && !unsaved {
        // The document was saved from the question: quit as asked.
        exit.write(AppExit::Success);
    }
}
