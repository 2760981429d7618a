//! Keys as scripts name them: a key with its modifiers, written like `"ctrl+shift+z"` or `"f"`.
//! The editor turns them into its window's key codes (its replay's input module); the names are
//! checked here, where no window is needed.

use std::str::FromStr;

/// A key that a script can press, by its name on the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyName {
    /// A letter key, lower case.
    Letter(char),
    /// A digit key of the main row.
    Digit(u8),
    /// F1 to F12.
    Function(u8),
    /// Escape.
    Escape,
    /// Enter / Return.
    Enter,
    /// Space bar.
    Space,
    /// Tab.
    Tab,
    /// Delete.
    Delete,
    /// Backspace.
    Backspace,
    /// Arrow keys.
    Left,
    /// Arrow keys.
    Right,
    /// Arrow keys.
    Up,
    /// Arrow keys.
    Down,
}

/// A key with its modifiers, written like `"ctrl+shift+z"` or `"f"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyChord {
    /// Control (Command on macOS) held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
    /// The key pressed.
    pub key: KeyName,
}

impl FromStr for KeyChord {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut chord = KeyChord {
            ctrl: false,
            shift: false,
            alt: false,
            key: KeyName::Escape,
        };
        let lower = text.trim().to_ascii_lowercase();
        let mut parts: Vec<&str> = lower.split('+').map(str::trim).collect();
        let key = parts.pop().filter(|k| !k.is_empty()).ok_or_else(|| {
            format!("key \"{text}\" names no key (write it like \"ctrl+z\" or \"f\")")
        })?;
        for modifier in parts {
            let held = match modifier {
                "ctrl" | "control" | "cmd" => &mut chord.ctrl,
                "shift" => &mut chord.shift,
                "alt" | "option" => &mut chord.alt,
                other => {
                    return Err(format!(
                        "key \"{text}\": unknown modifier \"{other}\" (ctrl, shift or alt)"
                    ));
                }
            };
            if *held {
                return Err(format!(
                    "key \"{text}\": modifier \"{modifier}\" given twice"
                ));
            }
            *held = true;
        }
        chord.key =
            key_name(key).ok_or_else(|| format!("key \"{text}\": unknown key \"{key}\""))?;
        Ok(chord)
    }
}

fn key_name(key: &str) -> Option<KeyName> {
    let mut chars = key.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_ascii_lowercase() {
            return Some(KeyName::Letter(c));
        }
        if let Some(d) = c.to_digit(10) {
            return u8::try_from(d).ok().map(KeyName::Digit);
        }
    }
    if let Some(n) = key.strip_prefix('f').and_then(|n| n.parse::<u8>().ok())
        && (1..=12).contains(&n)
    {
        return Some(KeyName::Function(n));
    }
    Some(match key {
        "escape" | "esc" => KeyName::Escape,
        "enter" | "return" => KeyName::Enter,
        "space" => KeyName::Space,
        "tab" => KeyName::Tab,
        "delete" | "del" => KeyName::Delete,
        "backspace" => KeyName::Backspace,
        "left" => KeyName::Left,
        "right" => KeyName::Right,
        "up" => KeyName::Up,
        "down" => KeyName::Down,
        _ => return None,
    })
}
