//! The editor's commands and their keys, in one table ([`Command`]: label, shortcut text and key
//! chords, after the rerun viewer's `UICommand`), read by the key handler and by the menus, so a
//! shortcut is written once. Ctrl means Control or Super (Command on macOS) everywhere. Keys typed
//! into a panel's text field are the panel's. What a command does is [`Requests::command`]: an
//! edit, a file request, a timeline request or framing the selection.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use marionette_document::LockKind;
use marionette_editing::beside::BesideChange;
use marionette_editing::{Document, Edit};

use crate::EditorSet;
use crate::beside::BesideRequest;
use crate::messages::{
    EditRequest, FileAction, FileRequest, FocusSelection, QuitRequest, RecoveryAnswer,
    TimelineRequest, ToggleBones,
};
use crate::resources::{Notices, OpenDocument};
use crate::selection::Selection;

/// A key with the modifiers that must be held (and no others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chord {
    /// Control (or Super) held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
    /// The key.
    pub key: KeyCode,
}

const fn key(key: KeyCode) -> Chord {
    Chord {
        ctrl: false,
        shift: false,
        alt: false,
        key,
    }
}

const fn ctrl(key: KeyCode) -> Chord {
    Chord {
        ctrl: true,
        ..self::key(key)
    }
}

const fn ctrl_shift(key: KeyCode) -> Chord {
    Chord {
        ctrl: true,
        shift: true,
        ..self::key(key)
    }
}

const fn shift(key: KeyCode) -> Chord {
    Chord {
        shift: true,
        ..self::key(key)
    }
}

const fn alt(key: KeyCode) -> Chord {
    Chord {
        alt: true,
        ..self::key(key)
    }
}

/// Everything the user can do with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Open a document.
    OpenDocument,
    /// Save the document.
    SaveDocument,
    /// Save the document under a new name.
    SaveDocumentAs,
    /// Open a pose file.
    OpenPose,
    /// Frame the selection in every view.
    FocusSelection,
    /// Show or hide the bones.
    ToggleBones,
    /// Lock the selection's position.
    LockPosition,
    /// Lock the selection's pose (position and orientation).
    LockPose,
    /// Cancel the drag in progress.
    CancelDrag,
    /// Set a key at the current frame.
    SetKey,
    /// Set a key at the current frame on the selected joints only.
    KeySelectedJoints,
    /// Delete the key at the current frame.
    DeleteKey,
    /// Play or pause.
    PlayPause,
    /// One frame back.
    StepBack,
    /// One frame on.
    StepForward,
    /// The previous key.
    PreviousKey,
    /// The next key.
    NextKey,
    /// The first key.
    FirstKey,
    /// The last key.
    LastKey,
    /// Mirror the whole pose across the figure's plane.
    MirrorPose,
    /// Mirror the selected joints' limbs onto the other side.
    MirrorLimb,
    /// Copy the pose of the selected joints (or the whole pose).
    CopyPose,
    /// Paste the pose copied.
    PastePose,
    /// Paste the pose copied onto the other side, mirrored.
    PasteFlipped,
    /// Show the motion trail of the selected site (or joint) around the current frame.
    ShowTrail,
    /// Hide every motion trail.
    HideTrails,
}

impl Command {
    /// Every command, in the order the key handler tries them.
    pub const ALL: [Command; 28] = [
        Command::Undo,
        Command::Redo,
        Command::OpenDocument,
        Command::SaveDocument,
        Command::SaveDocumentAs,
        Command::OpenPose,
        Command::FocusSelection,
        Command::ToggleBones,
        Command::LockPosition,
        Command::LockPose,
        Command::CancelDrag,
        Command::SetKey,
        Command::KeySelectedJoints,
        Command::DeleteKey,
        Command::PlayPause,
        Command::StepBack,
        Command::StepForward,
        Command::PreviousKey,
        Command::NextKey,
        Command::FirstKey,
        Command::LastKey,
        Command::MirrorPose,
        Command::MirrorLimb,
        Command::CopyPose,
        Command::PastePose,
        Command::PasteFlipped,
        Command::ShowTrail,
        Command::HideTrails,
    ];

    /// The command's name in menus and tooltips.
    pub fn label(self) -> &'static str {
        match self {
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::OpenDocument => "Open…",
            Command::SaveDocument => "Save",
            Command::SaveDocumentAs => "Save as…",
            Command::OpenPose => "Open pose…",
            Command::FocusSelection => "Frame selection",
            Command::ToggleBones => "Bones",
            Command::LockPosition => "Lock position",
            Command::LockPose => "Lock pose",
            Command::CancelDrag => "Cancel drag",
            Command::SetKey => "Set key",
            Command::KeySelectedJoints => "Key selected joints",
            Command::DeleteKey => "Delete key",
            Command::PlayPause => "Play / pause",
            Command::StepBack => "Previous frame",
            Command::StepForward => "Next frame",
            Command::PreviousKey => "Previous key",
            Command::NextKey => "Next key",
            Command::FirstKey => "First key",
            Command::LastKey => "Last key",
            Command::MirrorPose => "Mirror pose",
            Command::MirrorLimb => "Mirror selected limb to the other side",
            Command::CopyPose => "Copy pose",
            Command::PastePose => "Paste pose",
            Command::PasteFlipped => "Paste flipped",
            Command::ShowTrail => "Show trail of the selection",
            Command::HideTrails => "Hide trails",
        }
    }

    /// The key chords that run it (the first is the one menus show).
    pub fn chords(self) -> &'static [Chord] {
        match self {
            Command::Undo => const { &[ctrl(KeyCode::KeyZ)] },
            Command::Redo => const { &[ctrl_shift(KeyCode::KeyZ), ctrl(KeyCode::KeyY)] },
            Command::OpenDocument => const { &[ctrl(KeyCode::KeyO)] },
            Command::SaveDocument => const { &[ctrl(KeyCode::KeyS)] },
            Command::SaveDocumentAs => const { &[ctrl_shift(KeyCode::KeyS)] },
            Command::OpenPose => const { &[ctrl_shift(KeyCode::KeyO)] },
            Command::FocusSelection => const { &[key(KeyCode::KeyF)] },
            Command::ToggleBones => const { &[key(KeyCode::KeyB)] },
            Command::LockPosition => const { &[key(KeyCode::KeyL)] },
            Command::LockPose => const { &[shift(KeyCode::KeyL)] },
            Command::CancelDrag => const { &[key(KeyCode::Escape)] },
            Command::SetKey => const { &[key(KeyCode::KeyK)] },
            Command::KeySelectedJoints => const { &[shift(KeyCode::KeyK)] },
            Command::DeleteKey => const { &[alt(KeyCode::KeyK)] },
            Command::PlayPause => const { &[key(KeyCode::Space)] },
            Command::StepBack => const { &[key(KeyCode::ArrowLeft)] },
            Command::StepForward => const { &[key(KeyCode::ArrowRight)] },
            Command::PreviousKey => const { &[alt(KeyCode::ArrowLeft)] },
            Command::NextKey => const { &[alt(KeyCode::ArrowRight)] },
            Command::FirstKey => const { &[key(KeyCode::Home)] },
            Command::LastKey => const { &[key(KeyCode::End)] },
            Command::MirrorPose => const { &[ctrl(KeyCode::KeyM)] },
            Command::MirrorLimb => const { &[ctrl_shift(KeyCode::KeyM)] },
            Command::CopyPose => const { &[ctrl(KeyCode::KeyC)] },
            Command::PastePose => const { &[ctrl(KeyCode::KeyV)] },
            Command::PasteFlipped => const { &[ctrl_shift(KeyCode::KeyV)] },
            Command::ShowTrail => const { &[shift(KeyCode::KeyT)] },
            Command::HideTrails => const { &[alt(KeyCode::KeyT)] },
        }
    }

    /// The shortcut as menus write it ("Ctrl+Shift+Z").
    pub fn shortcut_text(self) -> String {
        self.chords().first().map(chord_text).unwrap_or_default()
    }

    /// The command a key pressed with these modifiers runs, if any.
    pub fn for_key(key: KeyCode, ctrl: bool, shift: bool, alt: bool) -> Option<Command> {
        let pressed = Chord {
            ctrl,
            shift,
            alt,
            key,
        };
        Command::ALL
            .into_iter()
            .find(|c| c.chords().contains(&pressed))
    }
}

/// A chord as menus write it.
fn chord_text(chord: &Chord) -> String {
    let mut text = String::new();
    for (held, name) in [
        (chord.ctrl, "Ctrl+"),
        (chord.shift, "Shift+"),
        (chord.alt, "Alt+"),
    ] {
        if held {
            text.push_str(name);
        }
    }
    let key = match chord.key {
        KeyCode::Escape => "Esc".to_owned(),
        KeyCode::Space => "Space".to_owned(),
        KeyCode::ArrowLeft => "←".to_owned(),
        KeyCode::ArrowRight => "→".to_owned(),
        KeyCode::Home => "Home".to_owned(),
        KeyCode::End => "End".to_owned(),
        other => format!("{other:?}")
            .strip_prefix("Key")
            .map_or_else(|| format!("{other:?}"), str::to_owned),
    };
    text + &key
}

/// Where requests go: the writers of every message the commands, the panels and the keys send.
#[derive(SystemParam)]
pub struct Requests<'w> {
    /// Edits.
    pub edits: MessageWriter<'w, EditRequest>,
    /// Changes of the trails shown and the pose copied.
    pub kept: MessageWriter<'w, BesideRequest>,
    /// File actions.
    pub files: MessageWriter<'w, FileRequest>,
    /// The timeline's transport and clipboard.
    pub timeline: MessageWriter<'w, TimelineRequest>,
    /// Framing the selection.
    pub focus: MessageWriter<'w, FocusSelection>,
    /// Showing or hiding the bones.
    pub bones: MessageWriter<'w, ToggleBones>,
    /// Quitting.
    pub quit: MessageWriter<'w, QuitRequest>,
    /// The answer to the recovery offer.
    pub recovery: MessageWriter<'w, RecoveryAnswer>,
}

impl Requests<'_> {
    /// Sends an edit.
    pub fn edit(&mut self, edit: Edit) {
        self.edits.write(EditRequest(edit));
    }

    /// Asks for a change of what is kept beside the document (trails, the pose copied).
    pub fn beside(&mut self, change: BesideChange) {
        self.kept.write(BesideRequest(change));
    }

    /// Runs `command` on `document` with `selection` (a lock needs something selected; says so
    /// when nothing is).
    pub fn command(
        &mut self,
        command: Command,
        document: &Document,
        selection: &Selection,
        notices: &mut Notices,
    ) {
        let file = |action| FileRequest::ask(action);
        match command {
            Command::Undo => self.edit(Edit::Undo),
            Command::Redo => self.edit(Edit::Redo),
            Command::OpenDocument => {
                self.files.write(file(FileAction::OpenDocument));
            }
            Command::SaveDocument => {
                self.files.write(file(FileAction::SaveDocument));
            }
            Command::SaveDocumentAs => {
                self.files.write(file(FileAction::SaveDocumentAs));
            }
            Command::OpenPose => {
                self.files.write(file(FileAction::OpenPose));
            }
            Command::FocusSelection => {
                self.focus.write(FocusSelection);
            }
            Command::ToggleBones => {
                self.bones.write(ToggleBones);
            }
            Command::LockPosition | Command::LockPose => {
                let kind = if command == Command::LockPose {
                    LockKind::Pose
                } else {
                    LockKind::Position
                };
                match selection.part(document) {
                    Some(part) => self.edit(Edit::Lock { part, kind }),
                    None => notices.info("Select a body part or a site handle to lock it"),
                }
            }
            Command::CancelDrag => self.edit(Edit::CancelDrag),
            Command::SetKey => self.edit(Edit::SetKey),
            Command::ShowTrail => {
                let of = match (selection.site(document), selection.joint(document)) {
                    (Some(site), _) => Some(marionette_editing::Grip::Site(site)),
                    (None, Some(joint)) => Some(marionette_editing::Grip::Joint(joint)),
                    _ => None,
                };
                let keys = document
                    .current_sequence()
                    .and_then(|i| document.sequences().get(i))
                    .and_then(|s| Some((s.keys.first()?.frame, s.keys.last()?.frame)));
                match (of, keys) {
                    (Some(of), Some((first, last))) => {
                        // Two seconds either side of the current frame, within the keys.
                        let now = document.frame().clamp(first, last);
                        let (from, to) = ((now - 48).max(first), (now + 48).min(last));
                        self.beside(BesideChange::ShowTrail { of, from, to });
                    }
                    (None, _) => {
                        notices.info("Select a site (a hand, a heel) or a joint to show its trail")
                    }
                    (_, None) => notices.info("Show a sequence to see a trail"),
                }
            }
            Command::HideTrails => self.beside(BesideChange::HideTrails),
            Command::KeySelectedJoints => {
                let joints = selection.joints(document);
                if joints.is_empty() {
                    notices.info("Select the joints to key (click one, Shift+click for more)");
                } else {
                    self.edit(Edit::KeyJoints(joints));
                }
            }
            Command::DeleteKey => self.edit(Edit::DeleteKey),
            Command::PlayPause => self.transport(TimelineRequest::TogglePlay),
            Command::StepBack => self.transport(TimelineRequest::Step(-1)),
            Command::StepForward => self.transport(TimelineRequest::Step(1)),
            Command::PreviousKey => self.transport(TimelineRequest::ToKey(-1)),
            Command::NextKey => self.transport(TimelineRequest::ToKey(1)),
            Command::FirstKey => self.transport(TimelineRequest::ToEnd(false)),
            Command::LastKey => self.transport(TimelineRequest::ToEnd(true)),
            Command::MirrorPose => self.edit(Edit::MirrorPose),
            Command::MirrorLimb => {
                let joints = selection.joints(document);
                if joints.is_empty() {
                    notices.info("Select a joint of the limb to mirror it onto the other side");
                }
                for joint in joints {
                    self.edit(Edit::MirrorLimb(joint));
                }
            }
            Command::CopyPose => self.beside(BesideChange::CopyPose(selection.joints(document))),
            Command::PastePose => self.beside(BesideChange::PastePose { flipped: false }),
            Command::PasteFlipped => self.beside(BesideChange::PastePose { flipped: true }),
        }
    }

    fn transport(&mut self, request: TimelineRequest) {
        self.timeline.write(request);
    }
}

/// Runs the commands of the keys pressed.
pub struct KeysPlugin;

impl Plugin for KeysPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, run_keys.in_set(EditorSet::Input));
    }
}

/// The commands of this frame's key presses.
fn run_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    mut notices: ResMut<Notices>,
    mut requests: Requests,
) {
    if keys.get_just_pressed().len() == 0
        || egui_input.is_some_and(|e| e.wants_any_keyboard_input())
    {
        return;
    }
    let ctrl = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let alt = keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]);
    for &key in keys.get_just_pressed() {
        if let Some(command) = Command::for_key(key, ctrl, shift, alt) {
            requests.command(command, &document, &selection, &mut notices);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chord_runs_one_command_and_menus_show_the_first() {
        let mut seen = Vec::new();
        for command in Command::ALL {
            for chord in command.chords() {
                assert!(!seen.contains(chord), "{chord:?} is bound twice");
                seen.push(*chord);
                assert_eq!(
                    Command::for_key(chord.key, chord.ctrl, chord.shift, chord.alt),
                    Some(command)
                );
            }
        }
        assert_eq!(Command::Redo.shortcut_text(), "Ctrl+Shift+Z");
        assert_eq!(Command::OpenDocument.shortcut_text(), "Ctrl+O");
        assert_eq!(Command::DeleteKey.shortcut_text(), "Alt+K");
        assert_eq!(Command::FocusSelection.shortcut_text(), "F");
        assert_eq!(
            Command::for_key(KeyCode::KeyY, true, false, false),
            Some(Command::Redo)
        );
        assert_eq!(Command::for_key(KeyCode::KeyK, true, false, false), None);
    }
}
