//! What the editor's parts ask of each other, as messages: every change to the work is one
//! [`EditRequest`] (applied by one system, the edit module's); besides, files to open or write
//! ([`FileRequest`]), the timeline's transport and clipboard ([`TimelineRequest`]), a press on
//! the figure ([`PickRequest`]), framing the selection ([`FocusSelection`]), the bone overlay ([`ToggleBones`]), quitting
//! ([`QuitRequest`]) and the answer to the recovery question ([`RecoveryAnswer`]).

use std::path::PathBuf;

use bevy::prelude::*;
use marionette_editing::Edit;
use marionette_skeleton::{JointId, SiteId};

/// One change to the work: the only way the panels, keys, drags, lock markers, the timeline,
/// replays and tests change the document.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct EditRequest(pub Edit);

pub use marionette_editing::file_action::FileAction;

/// A file action: on `path`, or (`None`) on a path the user is asked for (a dialog, or the
/// file the document or pose already has when saving).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct FileRequest {
    /// What to do.
    pub action: FileAction,
    /// On which file.
    pub path: Option<PathBuf>,
}

impl FileRequest {
    /// `action`, on a file the user is asked for.
    pub fn ask(action: FileAction) -> FileRequest {
        FileRequest { action, path: None }
    }

    /// `action` on `path`.
    pub fn on(action: FileAction, path: impl Into<PathBuf>) -> FileRequest {
        FileRequest {
            action,
            path: Some(path.into()),
        }
    }
}

/// What the timeline asks for that is not an edit: the transport (which frame is shown,
/// playing) and the clipboard.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineRequest {
    /// Step by this many frames.
    Step(i64),
    /// Go to the previous key (−1) or the next (+1).
    ToKey(i64),
    /// Go to the first key (false) or the last (true).
    ToEnd(bool),
    /// Play (true) or pause.
    Play(bool),
    /// Play if paused, pause if playing.
    TogglePlay,
    /// Copy the selected range of frames.
    Copy,
    /// Copy the selected range of frames, then cut it out of the sequence.
    Cut,
}

/// What a press landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickTarget {
    /// A joint's body.
    Body(JointId),
    /// A site's handle.
    Site(SiteId),
    /// A joint's origin (a replay's `DragJoint`).
    Joint(JointId),
}

/// How far behind a body's surface a site handle may lie and still win the press: handles sit
/// inside the ends of their bodies (metres).
pub const HANDLE_PREFERENCE: f32 = 0.08;

/// A primary-button press on something draggable, with the picking hit.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct PickRequest {
    /// What was hit.
    pub target: PickTarget,
    /// Where (world).
    pub hit: Vec3,
    /// Distance along the ray (nearest wins when several are hit in one frame).
    pub depth: f32,
    /// The camera the press came through (the drag follows the cursor in that view).
    pub camera: Entity,
}

impl PickRequest {
    /// The press goes to the hit with the smallest value: the nearest, with site handles counted
    /// [`HANDLE_PREFERENCE`] nearer than they are.
    pub fn preference(&self) -> f32 {
        match self.target {
            PickTarget::Site(_) => self.depth - HANDLE_PREFERENCE,
            PickTarget::Body(_) | PickTarget::Joint(_) => self.depth,
        }
    }
}

/// Frame the selection (or the whole figure) in every view (F, or a new skeleton opened).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusSelection;

/// Show or hide the bone overlay (View ▸ Bones).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToggleBones;

/// Asks to quit (the File menu); the same as closing the window.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuitRequest {
    /// Quit even if the document is unsaved.
    pub discard: bool,
}

/// The answer to the offer of unsaved work found at start: recover it (`true`) or discard it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecoveryAnswer(pub bool);
