//! `--replay SCRIPT.ron`: plays a checked [`marionette_editing::Script`] in the real window.
//! Each step is resolved against the open document by the editing crate
//! ([`marionette_editing::Step::resolve`]) into an action, which the player carries out
//! ([`actions`]): cursor moves, button presses and keys through the window's input path
//! ([`input`]), so picking, egui and the editor's systems see them exactly as they see a user;
//! drags and clicks at world points projected through the large view ([`drag`]); edits and file
//! requests as the messages the panels send. Any step that cannot be carried out ends the run
//! with an error and a non-zero exit.

mod actions;
mod drag;
pub mod input;
mod state;

use std::sync::atomic::Ordering;

use bevy::input::ButtonState;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::resources::Notices;
pub use state::Replay;
use state::{Phase, fail};

/// Runs a replay (when the [`Replay`] resource exists).
pub struct ReplayPlugin;

impl Plugin for ReplayPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            First,
            play.run_if(resource_exists::<Replay>)
                .in_set(crate::EditorSet::Replay),
        );
    }
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
            Phase::Drag(dragging) => {
                let next = drag::drag_frame(world, window, dragging);
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
        if actions::take_step(world, window, &step) {
            return;
        }
    }
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
    if let Some(drawn) = world.get_resource::<crate::gizmos::physics::PhysicsDrawTime>()
        && drawn.frames > 0
    {
        println!(
            "physics overlays drawn on {} frames ({} figures): mean {:.1} µs, longest {:.1} µs a \
             frame",
            drawn.frames,
            drawn.figures,
            drawn.total.as_secs_f64() * 1e6 / drawn.frames as f64,
            drawn.longest.as_secs_f64() * 1e6
        );
    }
}
