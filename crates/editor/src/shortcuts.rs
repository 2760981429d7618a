//! The standard shortcuts: Ctrl+Z undo, Ctrl+Shift+Z (or Ctrl+Y) redo, Ctrl+O open a document,
//! Ctrl+Shift+O open a pose, Ctrl+S save the document (Ctrl+Shift+S under a new name), F frame
//! the selection, L lock the selection's position, Shift+L its pose. Escape cancels a drag
//! ([`crate::dragging`]). Keys typed into a text field of a panel are the panel's.

use bevy::prelude::*;

use crate::files::{FileAction, FileRequest};
use crate::state::Editor;
use crate::views::FrameRequest;

/// Keyboard shortcuts.
pub struct ShortcutsPlugin;

impl Plugin for ShortcutsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, shortcuts.before(crate::dragging::DragSet::Begin));
    }
}

/// What a key press asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shortcut {
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
    /// A file action.
    File(FileAction),
    /// Frame the selection.
    Frame,
    /// Lock the selection.
    Lock(marionette_document::LockKind),
}

/// The shortcut for `key` pressed with the modifiers held, if any.
pub fn shortcut_for(key: KeyCode, ctrl: bool, shift: bool) -> Option<Shortcut> {
    Some(match (key, ctrl, shift) {
        (KeyCode::KeyZ, true, false) => Shortcut::Undo,
        (KeyCode::KeyZ, true, true) | (KeyCode::KeyY, true, false) => Shortcut::Redo,
        (KeyCode::KeyO, true, false) => Shortcut::File(FileAction::OpenDocument),
        (KeyCode::KeyO, true, true) => Shortcut::File(FileAction::OpenPose),
        (KeyCode::KeyS, true, false) => Shortcut::File(FileAction::SaveDocument),
        (KeyCode::KeyS, true, true) => Shortcut::File(FileAction::SaveDocumentAs),
        (KeyCode::KeyF, false, false) => Shortcut::Frame,
        (KeyCode::KeyL, false, false) => Shortcut::Lock(marionette_document::LockKind::Position),
        (KeyCode::KeyL, false, true) => Shortcut::Lock(marionette_document::LockKind::Pose),
        _ => return None,
    })
}

fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut editor: ResMut<Editor>,
    selection: Res<crate::selection::Selection>,
    mut files: MessageWriter<FileRequest>,
    mut frames: MessageWriter<FrameRequest>,
) {
    if egui_input.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for &key in keys.get_just_pressed() {
        match shortcut_for(key, ctrl, shift) {
            Some(Shortcut::Undo) => editor.undo(),
            Some(Shortcut::Redo) => editor.redo(),
            Some(Shortcut::File(action)) => {
                files.write(FileRequest(action));
            }
            Some(Shortcut::Frame) => {
                frames.write(FrameRequest);
            }
            Some(Shortcut::Lock(kind)) => {
                editor.lock_selection(&selection, kind);
            }
            None => {}
        }
    }
}
