//! Synthetic window input, written as winit's event loop writes it: cursor moves, the left
//! button and keys, each as its specific message and its `WindowEvent`, so picking, egui and the
//! editor's systems see them exactly as they see a user's. Scripts name keys in the Bevy-free
//! core (`marionette_editing::replay::KeyChord`); here they become the window's key codes.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::window::{CursorMoved, WindowEvent};
use marionette_editing::replay::{KeyChord, KeyName};

/// Writes one input message the way winit does: the specific message and its `WindowEvent`.
fn inject<M: Message + Clone + Into<WindowEvent>>(world: &mut World, message: M) {
    world.write_message(message.clone());
    world.write_message(message.into());
}

/// Moves the cursor to window pixel `position`.
pub fn move_cursor(world: &mut World, window: Entity, position: Vec2) {
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

/// The left button pressed or released.
pub fn mouse(world: &mut World, window: Entity, state: ButtonState) {
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
pub fn type_text(world: &mut World, window: Entity, text: &str) {
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

/// A chord's keys pressed (modifiers first) or released (modifiers last).
pub fn keys(world: &mut World, window: Entity, chord: &KeyChord, state: ButtonState) {
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
