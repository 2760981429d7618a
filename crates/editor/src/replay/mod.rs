//! `--replay SCRIPT.ron`: plays a checked [`Script`] in the real window. Cursor moves, button
//! presses and keys go through the window's input path ([`input`]), so picking, egui and the
//! editor's systems see them exactly as they see a user; the other steps send the same messages
//! the panels send (edits, file and timeline requests) and read the same state the panels read
//! ([`steps`]). Any step that cannot be carried out ends the run with an error and a non-zero
//! exit.

pub mod input;
mod rotate;
mod steps;
mod tool_steps;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::input::ButtonState;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::window::PrimaryWindow;
use marionette_editing::replay::KeyChord;
use marionette_editing::{Script, Step};

use crate::resources::Notices;

/// A replay in progress.
#[derive(Resource)]
pub struct Replay {
    file: PathBuf,
    steps: Vec<Step>,
    next: usize,
    pub(crate) phase: Phase,
    pub(crate) screenshots_pending: Arc<AtomicUsize>,
    failed: bool,
    frames: u64,
    started: Option<std::time::Instant>,
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
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Grip {
    /// A site's handle, pressed where it is drawn.
    Site(String),
    /// A joint's origin.
    Joint(String),
    /// A joint's rotate handle: the ring of its hinge number n (from 0).
    Handle(String, usize),
}

impl std::fmt::Display for Grip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Grip::Site(name) => write!(f, "site \"{name}\""),
            Grip::Joint(name) => write!(f, "joint \"{name}\""),
            Grip::Handle(name, dof) => write!(f, "the ring of joint \"{name}\" DOF {dof}"),
        }
    }
}

/// A `DragSite` or `DragJoint` step: settle on the grip, press, move in a straight line, hold,
/// release.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SiteDrag {
    pub(crate) grip: Grip,
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

/// Runs a replay (when the [`Replay`] resource exists).
pub struct ReplayPlugin;

impl Plugin for ReplayPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(First, play.run_if(resource_exists::<Replay>));
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

/// One frame of the replay: takes steps until one needs the frame.
fn play(world: &mut World) {
    let mut window_query = world.query_filtered::<Entity, With<PrimaryWindow>>();
    let Ok(window) = window_query.single(world) else {
        return;
    };
    {
        let mut replay = world.resource_mut::<Replay>();
        replay.frames += 1;
        replay.started.get_or_insert_with(std::time::Instant::now);
    }
    for _ in 0..64 {
        let phase = world.resource::<Replay>().phase.clone();
        match phase {
            Phase::Waiting(n) => {
                world.resource_mut::<Replay>().phase = if n > 1 {
                    Phase::Waiting(n - 1)
                } else {
                    Phase::Ready
                };
                return;
            }
            Phase::Click(n) => {
                world.resource_mut::<Replay>().phase = if n > 1 {
                    Phase::Click(n - 1)
                } else {
                    input::mouse(world, window, ButtonState::Pressed);
                    Phase::ClickUp
                };
                return;
            }
            Phase::ClickUp => {
                input::mouse(world, window, ButtonState::Released);
                world.resource_mut::<Replay>().phase = Phase::Waiting(2);
                return;
            }
            Phase::Playing(n) => {
                world.resource_mut::<Replay>().phase = if n > 1 {
                    Phase::Playing(n - 1)
                } else {
                    world.resource_mut::<crate::timeline::Playback>().playing = false;
                    Phase::Ready
                };
                return;
            }
            Phase::KeyUp(chord) => {
                input::keys(world, window, &chord, ButtonState::Released);
                world.resource_mut::<Replay>().phase = Phase::Ready;
                return;
            }
            Phase::Drag(drag) => {
                let next = steps::drag_frame(world, window, drag);
                if let Some(next) = next {
                    world.resource_mut::<Replay>().phase = next;
                }
                return;
            }
            Phase::Exporting {
                errors,
                what,
                waited,
            } => {
                // The request is carried out in the first frame's update; the export then runs
                // on a thread of its own for as long as its resource is there.
                let running = world.contains_resource::<crate::export::RunningExport>();
                world.resource_mut::<Replay>().phase = if running || waited < 2 {
                    Phase::Exporting {
                        errors,
                        what,
                        waited: waited + 1,
                    }
                } else {
                    Phase::Confirm {
                        frames: 1,
                        errors,
                        what,
                    }
                };
                return;
            }
            Phase::Confirm {
                frames,
                errors,
                what,
            } => {
                if frames > 1 {
                    world.resource_mut::<Replay>().phase = Phase::Confirm {
                        frames: frames - 1,
                        errors,
                        what,
                    };
                    return;
                }
                world.resource_mut::<Replay>().phase = Phase::Ready;
                if world.resource::<Notices>().error_count() > errors {
                    fail(world, format!("could not {what}"));
                    return;
                }
                continue;
            }
            Phase::Exiting => {
                let pending = world
                    .resource::<Replay>()
                    .screenshots_pending
                    .load(Ordering::SeqCst);
                if pending == 0 {
                    report_frame_time(world);
                    let failed = world.resource::<Replay>().failed
                        || world.resource::<Notices>().errors().next().is_some();
                    world.write_message(if failed {
                        AppExit::error()
                    } else {
                        AppExit::Success
                    });
                }
                return;
            }
            Phase::Ready => {}
        }
        let (next, step) = {
            let replay = world.resource::<Replay>();
            (replay.next, replay.steps.get(replay.next).cloned())
        };
        let Some(step) = step else {
            // The script ended without Exit: keep the window open for the user.
            return;
        };
        world.resource_mut::<Replay>().next = next + 1;
        if steps::take_step(world, window, step) {
            return;
        }
    }
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

/// Prints the replay's frame count and mean frame time (whole frames: input, IK, rendering).
fn report_frame_time(world: &World) {
    let replay = world.resource::<Replay>();
    if let Some(started) = replay.started {
        let seconds = started.elapsed().as_secs_f64();
        let frames = replay.frames.max(1);
        println!(
            "replay {}: {} frames in {:.2} s, mean frame time {:.1} ms",
            replay.file.display(),
            frames,
            seconds,
            seconds * 1000.0 / frames as f64
        );
    }
}
