//! `--replay SCRIPT.ron`: plays a checked [`Script`] through the real window's input path. Cursor
//! moves, button presses and keys are written as the same messages winit's event loop writes
//! (`CursorMoved`, `MouseButtonInput`, `KeyboardInput` and their `WindowEvent`s) before the
//! frame's input systems run, so picking, egui and the editor's systems see them exactly as they
//! see a user. Any step that cannot be carried out ends the run with an error and a non-zero exit.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::window::{CursorMoved, PrimaryWindow, WindowEvent};
use marionette_editing::replay::{KeyChord, KeyName};
use marionette_editing::{Script, Step};

use crate::dragging::{PickRequest, PickTarget};
use crate::state::Editor;
use crate::timeline::TimelineAction;
use crate::views::{Layout, ViewCamera};
use marionette_document::LockPart;

/// Frames the cursor rests on a handle before pressing (picking updates its hover state from
/// the cursor's position first).
const SETTLE_FRAMES: u32 = 2;
/// Frames a drag holds still at its end before releasing, so the solver finishes the last move.
const HOLD_FRAMES: u32 = 10;

/// A replay in progress.
#[derive(Resource)]
pub struct Replay {
    file: PathBuf,
    steps: Vec<Step>,
    next: usize,
    phase: Phase,
    screenshots_pending: Arc<AtomicUsize>,
    failed: bool,
    frames: u64,
    started: Option<std::time::Instant>,
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// Take the next step.
    Ready,
    /// Let frames pass.
    Waiting(u32),
    /// Release the keys of a chord pressed last frame.
    KeyUp(KeyChord),
    /// A site drag in progress.
    Drag(SiteDrag),
    /// Playing the timeline for this many more frames.
    Playing(u32),
    /// Exit once every screenshot is on disk.
    Exiting,
}

/// What a scripted drag grips.
#[derive(Debug, Clone, PartialEq)]
enum Grip {
    /// A site's handle, pressed where it is drawn.
    Site(String),
    /// A joint's origin.
    Joint(String),
}

impl std::fmt::Display for Grip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Grip::Site(name) => write!(f, "site \"{name}\""),
            Grip::Joint(name) => write!(f, "joint \"{name}\""),
        }
    }
}

/// A `DragSite` or `DragJoint` step: settle on the grip, press, move in a straight line, hold,
/// release.
#[derive(Debug, Clone, PartialEq)]
struct SiteDrag {
    grip: Grip,
    /// Window pixels of the handle and of the target.
    from: Vec2,
    to: Vec2,
    /// Frames of the move, and how many have passed.
    frames: u32,
    frame: u32,
    stage: DragStage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DragStage {
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

/// Writes one input message the way winit does: the specific message and its `WindowEvent`.
fn inject<M: Message + Clone + Into<WindowEvent>>(world: &mut World, message: M) {
    world.write_message(message.clone());
    world.write_message(message.into());
}

fn move_cursor(world: &mut World, window: Entity, position: Vec2) {
    let mut previous = None;
    if let Some(mut w) = world.get_mut::<Window>(window) {
        previous = w.cursor_position();
        let scale = f64::from(w.scale_factor());
        w.set_physical_cursor_position(Some(DVec2::new(
            f64::from(position.x) * scale,
            f64::from(position.y) * scale,
        )));
    }
    inject(
        world,
        CursorMoved {
            window,
            position,
            delta: previous.map(|p| position - p),
        },
    );
}

fn mouse(world: &mut World, window: Entity, state: ButtonState) {
    inject(
        world,
        MouseButtonInput {
            button: MouseButton::Left,
            state,
            window,
        },
    );
}

fn key_codes(chord: &KeyChord) -> Vec<(KeyCode, Key)> {
    let mut keys = Vec::new();
    if chord.ctrl {
        keys.push((KeyCode::ControlLeft, Key::Control));
    }
    if chord.shift {
        keys.push((KeyCode::ShiftLeft, Key::Shift));
    }
    if chord.alt {
        keys.push((KeyCode::AltLeft, Key::Alt));
    }
    keys.push(match chord.key {
        KeyName::Letter(c) => (letter_code(c), Key::Character(c.to_string().into())),
        KeyName::Digit(d) => (digit_code(d), Key::Character(d.to_string().into())),
        KeyName::Function(n) => function_key(n),
        KeyName::Escape => (KeyCode::Escape, Key::Escape),
        KeyName::Enter => (KeyCode::Enter, Key::Enter),
        KeyName::Space => (KeyCode::Space, Key::Space),
        KeyName::Tab => (KeyCode::Tab, Key::Tab),
        KeyName::Delete => (KeyCode::Delete, Key::Delete),
        KeyName::Backspace => (KeyCode::Backspace, Key::Backspace),
        KeyName::Left => (KeyCode::ArrowLeft, Key::ArrowLeft),
        KeyName::Right => (KeyCode::ArrowRight, Key::ArrowRight),
        KeyName::Up => (KeyCode::ArrowUp, Key::ArrowUp),
        KeyName::Down => (KeyCode::ArrowDown, Key::ArrowDown),
    });
    keys
}

fn letter_code(c: char) -> KeyCode {
    const LETTERS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    let index = (c as usize).wrapping_sub('a' as usize);
    LETTERS.get(index).copied().unwrap_or(KeyCode::KeyA)
}

fn digit_code(d: u8) -> KeyCode {
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    DIGITS
        .get(usize::from(d))
        .copied()
        .unwrap_or(KeyCode::Digit0)
}

fn function_key(n: u8) -> (KeyCode, Key) {
    const KEYS: [(KeyCode, Key); 12] = [
        (KeyCode::F1, Key::F1),
        (KeyCode::F2, Key::F2),
        (KeyCode::F3, Key::F3),
        (KeyCode::F4, Key::F4),
        (KeyCode::F5, Key::F5),
        (KeyCode::F6, Key::F6),
        (KeyCode::F7, Key::F7),
        (KeyCode::F8, Key::F8),
        (KeyCode::F9, Key::F9),
        (KeyCode::F10, Key::F10),
        (KeyCode::F11, Key::F11),
        (KeyCode::F12, Key::F12),
    ];
    KEYS.get(usize::from(n.saturating_sub(1)))
        .cloned()
        .unwrap_or((KeyCode::F1, Key::F1))
}

/// Each character of `text` pressed (carrying its text, as winit reports typing) and released.
fn type_text(world: &mut World, window: Entity, text: &str) {
    for c in text.chars() {
        for state in [ButtonState::Pressed, ButtonState::Released] {
            inject(
                world,
                KeyboardInput {
                    key_code: KeyCode::Unidentified(
                        bevy::input::keyboard::NativeKeyCode::Unidentified,
                    ),
                    logical_key: Key::Character(c.to_string().into()),
                    state,
                    text: (state == ButtonState::Pressed).then(|| c.to_string().into()),
                    repeat: false,
                    window,
                },
            );
        }
    }
}

fn keys(world: &mut World, window: Entity, chord: &KeyChord, state: ButtonState) {
    let mut codes = key_codes(chord);
    if state == ButtonState::Released {
        codes.reverse();
    }
    for (key_code, logical_key) in codes {
        inject(
            world,
            KeyboardInput {
                key_code,
                logical_key,
                state,
                text: None,
                repeat: false,
                window,
            },
        );
    }
}

/// The window pixel where `p` appears in the large view.
fn project_in_large_view(world: &mut World, p: Vec3) -> Option<Vec2> {
    let large = world.resource::<Layout>().large;
    let mut cameras = world.query::<(&ViewCamera, &Camera, &GlobalTransform)>();
    cameras
        .iter(world)
        .find(|(v, camera, _)| v.view == large && camera.is_active)
        .and_then(|(_, camera, transform)| camera.world_to_viewport(transform, p).ok())
}

fn site_position(world: &World, name: &str) -> Option<Vec3> {
    let editor = world.resource::<Editor>();
    let site = editor.skeleton().site_by_name(name)?;
    Some(crate::scene::vec3(
        &editor.document.fk().site_position(site),
    ))
}

fn joint_position(world: &World, name: &str) -> Option<Vec3> {
    let editor = world.resource::<Editor>();
    let joint = editor.skeleton().joint_by_name(name)?;
    Some(crate::convert::vec3(
        &editor.document.fk().joint_position(joint),
    ))
}

/// The press of a `DragJoint` lands on the joint's origin: a pick of that point through the
/// large view, nearer than anything picking finds there.
fn grip_joint(world: &mut World, name: &str) {
    let Some(at) = joint_position(world, name) else {
        return;
    };
    let Some(joint) = world.resource::<Editor>().skeleton().joint_by_name(name) else {
        return;
    };
    let large = world.resource::<Layout>().large;
    let mut cameras = world.query::<(Entity, &ViewCamera, &Camera)>();
    let camera = cameras
        .iter(world)
        .find(|(_, v, c)| v.view == large && c.is_active)
        .map(|(e, _, _)| e);
    if let Some(camera) = camera {
        world.write_message(PickRequest {
            target: PickTarget::Joint(joint),
            hit: at,
            depth: f32::NEG_INFINITY,
            camera,
        });
    }
}

fn fail(world: &mut World, text: String) {
    let mut replay = world.resource_mut::<Replay>();
    replay.failed = true;
    let file = replay.file.display().to_string();
    let step = replay.next;
    replay.phase = Phase::Exiting;
    replay.next = replay.steps.len();
    world
        .resource_mut::<Editor>()
        .fail(format!("{file}: step {step}: {text}"));
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
                keys(world, window, &chord, ButtonState::Released);
                world.resource_mut::<Replay>().phase = Phase::Ready;
                return;
            }
            Phase::Drag(drag) => {
                let next = drag_frame(world, window, drag);
                if let Some(next) = next {
                    world.resource_mut::<Replay>().phase = next;
                }
                return;
            }
            Phase::Exiting => {
                let pending = world
                    .resource::<Replay>()
                    .screenshots_pending
                    .load(Ordering::SeqCst);
                if pending == 0 {
                    report_frame_time(world);
                    let failed = world.resource::<Replay>().failed
                        || world
                            .resource::<Editor>()
                            .notices
                            .iter()
                            .any(|n| n.is_error);
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
        if take_step(world, window, step) {
            return;
        }
    }
}

/// Carries out one step; true when it used up this frame.
fn take_step(world: &mut World, window: Entity, step: Step) -> bool {
    match step {
        Step::Wait(frames) => {
            world.resource_mut::<Replay>().phase = Phase::Waiting(frames.max(1));
            true
        }
        Step::Move(x, y) => {
            move_cursor(world, window, Vec2::new(x, y));
            true
        }
        Step::Press => {
            mouse(world, window, ButtonState::Pressed);
            true
        }
        Step::Release => {
            mouse(world, window, ButtonState::Released);
            true
        }
        Step::Key(chord) => {
            keys(world, window, &chord, ButtonState::Pressed);
            world.resource_mut::<Replay>().phase = Phase::KeyUp(chord);
            true
        }
        Step::Type(text) => {
            type_text(world, window, &text);
            true
        }
        Step::SetView(view) => {
            world.resource_mut::<Layout>().large = view;
            // The camera moves into the large viewport this frame; let it settle.
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::SetSolver(kind) => {
            world.resource_mut::<Editor>().set_solver(kind);
            false
        }
        Step::DragSite { site, to, frames } => {
            let grip = Grip::Site(site);
            start_drag(world, window, grip, to, frames)
        }
        Step::DragJoint { joint, to, frames } => {
            let grip = Grip::Joint(joint);
            start_drag(world, window, grip, to, frames)
        }
        Step::LockSite { site, kind } => {
            let part = world
                .resource::<Editor>()
                .skeleton()
                .site_by_name(&site)
                .map(LockPart::Site);
            lock_step(world, part, kind.kind(), &format!("site \"{site}\""));
            // The panels change with a new lock: let the layout settle before the next step.
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::LockJoint { joint, kind } => {
            let part = world
                .resource::<Editor>()
                .skeleton()
                .joint_by_name(&joint)
                .map(|j| LockPart::Point(j, nalgebra::Vector3::zeros()));
            lock_step(world, part, kind.kind(), &format!("joint \"{joint}\""));
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::CheckLocks(max_mm) => {
            let editor = world.resource::<Editor>();
            let locks = editor.document.locks();
            let broken: Vec<String> = editor
                .document
                .lock_violations()
                .iter()
                .zip(locks)
                .filter(|(v, l)| {
                    l.active_at(editor.document.lock_frame()) && v.largest() * 1000.0 > max_mm
                })
                .map(|(v, l)| format!("\"{}\" gave way by {v}", l.name))
                .collect();
            if !broken.is_empty() {
                fail(
                    world,
                    format!("locks beyond {max_mm} mm: {}", broken.join(", ")),
                );
            }
            false
        }
        Step::SaveDocument(path) => {
            if !world.resource_mut::<Editor>().save_document(&path) {
                fail(
                    world,
                    format!("could not save the document to {}", path.display()),
                );
            }
            false
        }
        Step::Recover(recover) => {
            let offered = world
                .resource::<crate::autosave::RecoveryOffer>()
                .0
                .is_some();
            if !offered {
                fail(
                    world,
                    "no unsaved work from an earlier session is offered".into(),
                );
                return true;
            }
            world.resource_scope(|world, mut offer: Mut<crate::autosave::RecoveryOffer>| {
                let mut editor = world.resource_mut::<Editor>();
                crate::autosave::answer_recovery(&mut editor, &mut offer, recover);
            });
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::OpenDocument(path) => {
            if !world.resource_mut::<Editor>().open_document(&path) {
                fail(
                    world,
                    format!("could not open the document {}", path.display()),
                );
            }
            // The scene is rebuilt for the document's skeleton: let it settle.
            world.resource_mut::<Replay>().phase = Phase::Waiting(2);
            true
        }
        Step::Screenshot(path) => {
            // The capture is of this frame's rendering: nothing else may change in it.
            screenshot(world, path);
            true
        }
        Step::SavePose(path) => {
            if !world.resource_mut::<Editor>().save_pose(&path) {
                fail(
                    world,
                    format!("could not save the pose to {}", path.display()),
                );
            }
            false
        }
        Step::CheckResidual(max_mm) => {
            let editor = world.resource::<Editor>();
            let status = world.resource::<crate::state::SolveStatus>();
            let problem = match status.outcome(editor.document.id()) {
                None => Some("no solve has run".to_owned()),
                Some(outcome) if outcome.report.residual * 1000.0 > max_mm => {
                    let why = outcome
                        .report
                        .worst_shortfall()
                        .map(|(_, s)| s.describe(editor.skeleton()))
                        .unwrap_or_default();
                    Some(format!(
                        "{}: residual {:.4} mm is above {max_mm} mm ({why})",
                        outcome.ran,
                        outcome.report.residual * 1000.0
                    ))
                }
                Some(_) => None,
            };
            if let Some(text) = problem {
                fail(world, text);
            }
            false
        }
        Step::SetFrame(frame) => timeline_step(world, TimelineAction::SetFrame(frame)),
        Step::SetKey => timeline_step(world, TimelineAction::SetKey),
        Step::DeleteKey => timeline_step(world, TimelineAction::DeleteKey),
        Step::Play { frames } => {
            world.resource_mut::<crate::timeline::Playback>().fixed_step = true;
            world.write_message(TimelineAction::Play(true));
            world.resource_mut::<Replay>().phase = Phase::Playing(frames);
            true
        }
        Step::Exit => {
            world.resource_mut::<Replay>().phase = Phase::Exiting;
            true
        }
    }
}

/// Sends a timeline action (as the panel does), then lets a frame pass for it to be carried out
/// and the panels to show it.
fn timeline_step(world: &mut World, action: TimelineAction) -> bool {
    world.write_message(action);
    world.resource_mut::<Replay>().phase = Phase::Waiting(2);
    true
}

/// Begins a scripted drag of `grip` towards world point `to`; true (the step used the frame).
fn start_drag(world: &mut World, window: Entity, grip: Grip, to: [f64; 3], frames: u32) -> bool {
    let at = match &grip {
        Grip::Site(site) => site_position(world, site),
        Grip::Joint(joint) => joint_position(world, joint),
    };
    let Some(at) = at else {
        fail(world, format!("no {grip}"));
        return true;
    };
    let target = crate::convert::array_vec3(&to);
    let (Some(from), Some(to_px)) = (
        project_in_large_view(world, at),
        project_in_large_view(world, target),
    ) else {
        fail(
            world,
            format!("{grip} or its target is not visible in the large view"),
        );
        return true;
    };
    move_cursor(world, window, from);
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip,
        from,
        to: to_px,
        frames: frames.max(1),
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES),
    });
    true
}

/// A lock step: locks `part` as `kind`, or fails the run.
fn lock_step(
    world: &mut World,
    part: Option<LockPart>,
    kind: marionette_document::LockKind,
    what: &str,
) {
    let Some(part) = part else {
        fail(world, format!("no {what}"));
        return;
    };
    if world.resource_mut::<Editor>().lock(part, kind).is_none() {
        fail(world, format!("could not lock {what}"));
    }
}

/// One frame of a site drag; the phase that follows (`None` when the replay failed and already
/// moved on).
fn drag_frame(world: &mut World, window: Entity, mut drag: SiteDrag) -> Option<Phase> {
    match drag.stage {
        DragStage::Settle(n) if n > 1 => drag.stage = DragStage::Settle(n - 1),
        DragStage::Settle(_) => {
            mouse(world, window, ButtonState::Pressed);
            if let Grip::Joint(name) = &drag.grip {
                grip_joint(world, name);
            }
            drag.stage = DragStage::Press;
        }
        DragStage::Press => {
            if world.resource::<Editor>().document.drag().is_none() {
                mouse(world, window, ButtonState::Released);
                fail(
                    world,
                    format!(
                        "the press at ({:.1}, {:.1}) did not start a drag on {} \
                         (is its handle hidden behind a panel or another body?)",
                        drag.from.x, drag.from.y, drag.grip
                    ),
                );
                return None;
            }
            drag.stage = DragStage::Move;
            drag_move(world, window, &mut drag);
        }
        DragStage::Move => drag_move(world, window, &mut drag),
        DragStage::Hold(n) if n > 1 => drag.stage = DragStage::Hold(n - 1),
        DragStage::Hold(_) => {
            mouse(world, window, ButtonState::Released);
            return Some(Phase::Ready);
        }
    }
    Some(Phase::Drag(drag))
}

/// Moves the cursor one step along the drag's line; after the last, the drag holds.
fn drag_move(world: &mut World, window: Entity, drag: &mut SiteDrag) {
    drag.frame += 1;
    let t = drag.frame as f32 / drag.frames as f32;
    move_cursor(world, window, drag.from.lerp(drag.to, t.min(1.0)));
    if drag.frame >= drag.frames {
        drag.stage = DragStage::Hold(HOLD_FRAMES);
    }
}

fn screenshot(world: &mut World, path: PathBuf) {
    let pending = world.resource::<Replay>().screenshots_pending.clone();
    pending.fetch_add(1, Ordering::SeqCst);
    world.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut editor: ResMut<Editor>| {
            let saved = captured
                .image
                .clone()
                .try_into_dynamic()
                .map_err(|e| e.to_string())
                .and_then(|image| image.to_rgb8().save(&path).map_err(|e| e.to_string()));
            match saved {
                Ok(()) => editor.inform(format!("Saved screenshot {}", path.display())),
                Err(e) => editor.fail(format!("Could not save screenshot {}: {e}", path.display())),
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
