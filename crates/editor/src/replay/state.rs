//! A replay's state: the script's steps, where it is, what the current step is waiting for
//! ([`Phase`]), and the two things every part of the player does: fail the run, take a
//! screenshot.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use marionette_editing::replay::{DragGrip, KeyChord};
use marionette_editing::{Script, Step};
use marionette_skeleton::{DofId, JointId};

use crate::resources::Notices;

/// A replay in progress.
#[derive(Resource)]
pub struct Replay {
    pub(crate) file: PathBuf,
    pub(crate) steps: Vec<Step>,
    pub(crate) next: usize,
    pub(crate) phase: Phase,
    pub(crate) screenshots_pending: Arc<AtomicUsize>,
    pub(crate) failed: bool,
    pub(crate) frames: u64,
    pub(crate) started: Option<std::time::Instant>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Phase {
    /// Take the next step.
    Ready,
    /// Let frames pass.
    Waiting(u32),
    /// Let the cursor settle this many frames, then click (press, a frame, release).
    Click(u32),
    /// Release the button pressed by a click.
    ClickUp,
    /// Release the keys of a chord pressed last frame.
    KeyUp(KeyChord),
    /// A site drag in progress.
    Drag(SiteDrag),
    /// Let frames pass, then fail the run if an error was reported meanwhile (a request sent
    /// as a message is carried out in a later frame).
    Confirm {
        /// Frames left.
        frames: u32,
        /// Errors reported before the step ([`Notices::error_count`]).
        errors: u64,
        /// What the step did, for the failure's message.
        what: String,
    },
    /// An export running: wait until it is written, then fail the run if an error was reported.
    Exporting {
        /// Errors reported before the step.
        errors: u64,
        /// What the step did.
        what: String,
        /// Frames waited (the request is carried out in the first one's update).
        waited: u32,
    },
    /// Playing the timeline for this many more frames.
    Playing(u32),
    /// Exit once every screenshot is on disk.
    Exiting,
}

/// What a scripted drag grips.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Grip {
    /// A site's handle or a joint's origin.
    Point(DragGrip),
    /// A joint's rotate handle: the ring of its hinge.
    Ring(JointId, DofId),
}

/// A `DragSite` or `DragJoint` step: settle on the grip, press, move in a straight line, hold,
/// release.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SiteDrag {
    pub(crate) grip: Grip,
    /// The grip as the step names it, for messages.
    pub(crate) label: String,
    /// The figure edited when the step began: the press must grip the grip on it (on a stage
    /// another figure's body may be in front, and has joints and sites of the same names).
    pub(crate) figure: String,
    /// Window pixels of the handle and of the target.
    pub(crate) from: Vec2,
    pub(crate) to: Vec2,
    /// Frames of the move, and how many have passed.
    pub(crate) frames: u32,
    pub(crate) frame: u32,
    pub(crate) stage: DragStage,
    /// Window pixels to pass through, one a frame (empty: the straight line `from`–`to`).
    pub(crate) path: Vec<Vec2>,
    /// A `RotateJoint` whose path is still to be made (the degrees): made a few frames after
    /// the joint was selected, once the layout has settled.
    pub(crate) pending: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DragStage {
    Settle(u32),
    Press,
    Move,
    Hold(u32),
}

impl Replay {
    /// A replay of `script` (read from `file`).
    pub fn new(script: Script, file: PathBuf) -> Replay {
        Replay {
            file,
            steps: script.steps,
            next: 0,
            phase: Phase::Ready,
            screenshots_pending: Arc::new(AtomicUsize::new(0)),
            failed: false,
            frames: 0,
            started: None,
        }
    }
}

/// Ends the run with `text` as the error (naming the script and the step).
pub(crate) fn fail(world: &mut World, text: String) {
    let mut replay = world.resource_mut::<Replay>();
    replay.failed = true;
    let file = replay.file.display().to_string();
    let step = replay.next;
    replay.phase = Phase::Exiting;
    replay.next = replay.steps.len();
    world
        .resource_mut::<Notices>()
        .error(format!("{file}: step {step}: {text}"));
}

/// Saves a screenshot of this frame's rendering to `path` (before exiting, the replay waits for
/// every one to be on disk).
pub(crate) fn screenshot(world: &mut World, path: PathBuf) {
    let pending = world.resource::<Replay>().screenshots_pending.clone();
    pending.fetch_add(1, Ordering::SeqCst);
    world.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut notices: ResMut<Notices>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|image| image.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => notices.info(format!("Saved screenshot {}", path.display())),
                Err(e) => {
                    notices.error(format!("Could not save screenshot {}: {e}", path.display()))
                }
            }
            pending.fetch_sub(1, Ordering::SeqCst);
        },
    );
}
