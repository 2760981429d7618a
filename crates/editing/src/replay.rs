//! Replay scripts: `marionette-editor --replay SCRIPT.ron` plays a RON list `Replay([ ... ])` of
//! steps through the real window and input path (issue 5), for end-to-end tests and for
//! reproducing a user's session. This module reads and checks a script; the editor's replay
//! plugin turns each [`Step`] into window input, one after another.
//!
//! ```ron
//! Replay([
//!     SetView("front"),
//!     SetSolver("dls"),
//!     DragSite(site: "right fingertips", to: (0.3, 1.2, 0.4), frames: 30),
//!     Key("ctrl+z"),
//!     Screenshot("out.png"),
//!     SavePose("pose.ron"),
//!     CheckResidual(1.0),
//!     LockSite(site: "left heel", kind: Position),
//!     LockJoint(joint: "right wrist", kind: Orientation),
//!     DragJoint(joint: "pelvis", to: (0.0, 0.9, 0.0), frames: 20),
//!     CheckLocks(0.1),
//!     SaveDocument("crouch.ron"),
//!     OpenDocument("crouch.ron"),
//!     Recover(true),
//!     Exit,
//! ])
//! ```
//!
//! Every defect is reported at once, each naming the file and the step (1-based) at fault; the
//! names of views, solvers and keys are checked here, sites against the open skeleton by
//! [`Script::check_sites`]. Paths are kept as written: they are relative to the working directory.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use marionette_ik::SolverKind;
use marionette_skeleton::{FileError, Skeleton};
use serde::Deserialize;

/// The views a replay can put in the large viewport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Orthographic, looking along −Z (the figure's front).
    Front,
    /// Orthographic, looking along −X.
    Side,
    /// Orthographic, looking down −Y.
    Top,
    /// The orbiting perspective camera.
    Perspective,
}

impl View {
    /// Every view, in the four-view layout's order.
    pub const ALL: [View; 4] = [View::Perspective, View::Front, View::Side, View::Top];

    /// The name scripts and the user interface use.
    pub fn name(self) -> &'static str {
        match self {
            View::Front => "front",
            View::Side => "side",
            View::Top => "top",
            View::Perspective => "perspective",
        }
    }
}

impl FromStr for View {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        View::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("unknown view \"{s}\" (front, side, top or perspective)"))
    }
}

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

/// One step of a script, checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Let this many frames pass.
    Wait(u32),
    /// Move the cursor to window pixel (x, y), from the top left.
    Move(f32, f32),
    /// Press the left mouse button where the cursor is.
    Press,
    /// Release the left mouse button.
    Release,
    /// Press and release a key chord.
    Key(KeyChord),
    /// Type text into the focused text field (each character pressed and released).
    Type(String),
    /// Put a view in the large viewport.
    SetView(View),
    /// Choose the IK solver.
    SetSolver(SolverKind),
    /// Press on a site's handle, move the cursor in a straight line to the screen projection of
    /// the world point `to` over `frames` frames, then release.
    DragSite {
        /// The site's name.
        site: String,
        /// World target (metres).
        to: [f64; 3],
        /// Frames the drag lasts (at least 1).
        frames: u32,
    },
    /// Save a screenshot of the window.
    Screenshot(PathBuf),
    /// Save the current pose (docs/file-formats.md).
    SavePose(PathBuf),
    /// Check that the last solve (a drag's last frame) left every goal within this many
    /// millimetres (or milliradians); the run fails, naming the solver and why the goal is
    /// unmet, when it did not.
    CheckResidual(f64),
    /// Lock a site where it is (the Locks panel's buttons).
    LockSite {
        /// The site's name.
        site: String,
        /// What is held.
        kind: ReplayLockKind,
    },
    /// Lock a joint (its origin, or its frame) where it is.
    LockJoint {
        /// The joint's name.
        joint: String,
        /// What is held.
        kind: ReplayLockKind,
    },
    /// Press on a joint's origin (gripping it, as `DragSite` grips a site), move the cursor to
    /// the screen projection of `to` over `frames` frames, then release.
    DragJoint {
        /// The joint's name.
        joint: String,
        /// World target (metres).
        to: [f64; 3],
        /// Frames the drag lasts (at least 1).
        frames: u32,
    },
    /// Check that every lock holding now (enabled, and on the current frame while a sequence is
    /// shown) is within this many millimetres (or milliradians).
    CheckLocks(f64),
    /// Save the document (docs/file-formats.md, Document).
    SaveDocument(PathBuf),
    /// Open a document.
    OpenDocument(PathBuf),
    /// Answer the offer of unsaved work found at start: recover it (`true`) or discard it; the
    /// run fails when nothing is offered.
    Recover(bool),
    /// Go to a frame of the timeline (the shown sequence's pose there).
    SetFrame(i64),
    /// Set a key at the current frame (K).
    SetKey,
    /// Delete the key at the current frame (Alt+K).
    DeleteKey,
    /// Play the shown sequence for this many editor frames, one sequence frame each, then
    /// pause.
    Play {
        /// Editor frames (at least 1).
        frames: u32,
    },
    /// Close the editor.
    Exit,
}

/// What a replay's lock step holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplayLockKind {
    /// The point's position.
    Position,
    /// The joint frame's orientation.
    Orientation,
    /// Position and orientation.
    Pose,
    /// The horizontal plane through the point.
    Plane,
}

impl ReplayLockKind {
    /// The lock kind it makes.
    pub fn kind(self) -> marionette_document::LockKind {
        use marionette_document::LockKind;
        match self {
            ReplayLockKind::Position => LockKind::Position,
            ReplayLockKind::Orientation => LockKind::Orientation,
            ReplayLockKind::Pose => LockKind::Pose,
            ReplayLockKind::Plane => LockKind::Plane,
        }
    }
}

/// A checked script.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// What is wrong with a script's step (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayDefect {
    /// The step at fault, counted from 1.
    pub step: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ReplayDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: {}", self.step, self.message)
    }
}

/// Why a replay script could not be read.
pub type ReplayError = FileError<ReplayDefect>;

/// The file's text as written, before names are checked.
#[derive(Debug, Deserialize)]
#[serde(rename = "Replay")]
struct ReplayFile(Vec<RawStep>);

#[derive(Debug, Deserialize)]
enum RawStep {
    Wait(u32),
    Move(f32, f32),
    Press,
    Release,
    Key(String),
    Type(String),
    SetView(String),
    SetSolver(String),
    DragSite {
        site: String,
        to: (f64, f64, f64),
        frames: u32,
    },
    Screenshot(String),
    SavePose(String),
    CheckResidual(f64),
    LockSite {
        site: String,
        kind: ReplayLockKind,
    },
    LockJoint {
        joint: String,
        kind: ReplayLockKind,
    },
    DragJoint {
        joint: String,
        to: (f64, f64, f64),
        frames: u32,
    },
    CheckLocks(f64),
    SaveDocument(String),
    OpenDocument(String),
    Recover(bool),
    SetFrame(i64),
    SetKey,
    DeleteKey,
    Play {
        frames: u32,
    },
    Exit,
}

impl Script {
    /// Reads and checks a script file.
    pub fn load(path: impl AsRef<Path>) -> Result<Script, ReplayError> {
        let path = path.as_ref();
        let file: ReplayFile = ReplayError::read_ron(path)?;
        Script::check(file, &marionette_skeleton::ron_io::display_path(path))
    }

    /// Parses and checks script text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Script, ReplayError> {
        Script::check(ReplayError::parse_ron(text, file)?, file)
    }

    fn check(file: ReplayFile, name: &str) -> Result<Script, ReplayError> {
        let mut steps = Vec::with_capacity(file.0.len());
        let mut defects = Vec::new();
        for (index, raw) in file.0.into_iter().enumerate() {
            match check_step(raw) {
                Ok(step) => steps.push(step),
                Err(message) => defects.push(ReplayDefect {
                    step: index + 1,
                    message,
                }),
            }
        }
        if defects.is_empty() {
            Ok(Script { steps })
        } else {
            Err(FileError::Invalid {
                file: name.to_owned(),
                defects,
            })
        }
    }

    /// Checks that every `DragSite` and `LockSite` names a site of `skeleton`, and every
    /// `LockJoint` and `DragJoint` a joint; `file` names the script.
    pub fn check_sites(&self, skeleton: &Skeleton, file: &str) -> Result<(), ReplayError> {
        let defects: Vec<ReplayDefect> = self
            .steps
            .iter()
            .enumerate()
            .filter_map(|(index, step)| match step {
                Step::DragSite { site, .. } | Step::LockSite { site, .. }
                    if skeleton.site_by_name(site).is_none() =>
                {
                    Some(ReplayDefect {
                        step: index + 1,
                        message: format!("skeleton \"{}\" has no site \"{site}\"", skeleton.name()),
                    })
                }
                Step::DragJoint { joint, .. } | Step::LockJoint { joint, .. }
                    if skeleton.joint_by_name(joint).is_none() =>
                {
                    Some(ReplayDefect {
                        step: index + 1,
                        message: format!(
                            "skeleton \"{}\" has no joint \"{joint}\"",
                            skeleton.name()
                        ),
                    })
                }
                _ => None,
            })
            .collect();
        if defects.is_empty() {
            Ok(())
        } else {
            Err(FileError::Invalid {
                file: file.to_owned(),
                defects,
            })
        }
    }
}

fn check_step(raw: RawStep) -> Result<Step, String> {
    Ok(match raw {
        RawStep::Wait(frames) => Step::Wait(frames),
        RawStep::Move(x, y) => {
            if !(x.is_finite() && y.is_finite()) {
                return Err(format!("Move({x}, {y}): pixel coordinates must be finite"));
            }
            Step::Move(x, y)
        }
        RawStep::Press => Step::Press,
        RawStep::Release => Step::Release,
        RawStep::Key(text) => Step::Key(text.parse()?),
        RawStep::Type(text) => {
            if text.chars().any(char::is_control) {
                return Err(format!(
                    "Type({text:?}): only printable characters can be typed (use Key for others)"
                ));
            }
            Step::Type(text)
        }
        RawStep::SetView(name) => Step::SetView(name.parse()?),
        RawStep::SetSolver(name) => Step::SetSolver(name.parse().map_err(|_| {
            let known: Vec<&str> = SolverKind::ALL.iter().map(|k| k.name()).collect();
            format!("unknown solver \"{name}\" (one of {})", known.join(", "))
        })?),
        RawStep::DragSite { site, to, frames } => {
            let to = [to.0, to.1, to.2];
            if to.iter().any(|v| !v.is_finite()) {
                return Err(format!("DragSite \"{site}\": target {to:?} is not finite"));
            }
            if frames == 0 {
                return Err(format!("DragSite \"{site}\": frames must be at least 1"));
            }
            Step::DragSite { site, to, frames }
        }
        RawStep::Screenshot(path) => Step::Screenshot(non_empty_path(path, "Screenshot")?),
        RawStep::SavePose(path) => Step::SavePose(non_empty_path(path, "SavePose")?),
        RawStep::CheckResidual(mm) => {
            if !(mm.is_finite() && mm > 0.0) {
                return Err(format!(
                    "CheckResidual: {mm} is not a number of millimetres > 0"
                ));
            }
            Step::CheckResidual(mm)
        }
        RawStep::LockSite { site, kind } => Step::LockSite { site, kind },
        RawStep::LockJoint { joint, kind } => Step::LockJoint { joint, kind },
        RawStep::DragJoint { joint, to, frames } => {
            let to = [to.0, to.1, to.2];
            if to.iter().any(|v| !v.is_finite()) {
                return Err(format!(
                    "DragJoint \"{joint}\": target {to:?} is not finite"
                ));
            }
            if frames == 0 {
                return Err(format!("DragJoint \"{joint}\": frames must be at least 1"));
            }
            Step::DragJoint { joint, to, frames }
        }
        RawStep::CheckLocks(mm) => {
            if !(mm.is_finite() && mm > 0.0) {
                return Err(format!(
                    "CheckLocks: {mm} is not a number of millimetres > 0"
                ));
            }
            Step::CheckLocks(mm)
        }
        RawStep::SaveDocument(path) => Step::SaveDocument(non_empty_path(path, "SaveDocument")?),
        RawStep::OpenDocument(path) => Step::OpenDocument(non_empty_path(path, "OpenDocument")?),
        RawStep::Recover(recover) => Step::Recover(recover),
        RawStep::SetFrame(frame) => Step::SetFrame(frame),
        RawStep::SetKey => Step::SetKey,
        RawStep::DeleteKey => Step::DeleteKey,
        RawStep::Play { frames } => {
            if frames == 0 {
                return Err("Play: frames must be at least 1".into());
            }
            Step::Play { frames }
        }
        RawStep::Exit => Step::Exit,
    })
}

fn non_empty_path(path: String, step: &str) -> Result<PathBuf, String> {
    if path.trim().is_empty() {
        Err(format!("{step}: the path is empty"))
    } else {
        Ok(PathBuf::from(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"Replay([
        Wait(5),
        SetView("front"),
        SetSolver("dls"),
        Move(640, 400.5),
        Press,
        Move(700, 380),
        Release,
        DragSite(site: "right fingertips", to: (0.3, 1.2, 0.4), frames: 30),
        Key("ctrl+shift+z"),
        Key("F"),
        Screenshot("out.png"),
        SavePose("pose.ron"),
        Exit,
        Type("poses/a b.ron"),
        LockSite(site: "left heel", kind: Position),
        LockJoint(joint: "pelvis", kind: Pose),
        DragJoint(joint: "pelvis", to: (0.0, 0.9, 0.0), frames: 20),
        CheckLocks(0.1),
        SaveDocument("crouch.ron"),
        OpenDocument("crouch.ron"),
        SetFrame(24),
        SetKey,
        DeleteKey,
        Play(frames: 48),
    ])"#;

    #[test]
    fn the_issue_example_reads_into_steps() {
        let script = Script::parse(EXAMPLE, "example.ron").expect("valid script");
        assert_eq!(script.steps.len(), 24);
        assert_eq!(script.steps[20], Step::SetFrame(24));
        assert_eq!(script.steps[23], Step::Play { frames: 48 });
        assert_eq!(
            script.steps[14],
            Step::LockSite {
                site: "left heel".into(),
                kind: ReplayLockKind::Position
            }
        );
        assert_eq!(
            script.steps[16],
            Step::DragJoint {
                joint: "pelvis".into(),
                to: [0.0, 0.9, 0.0],
                frames: 20
            }
        );
        assert_eq!(script.steps[19], Step::OpenDocument("crouch.ron".into()));
        assert_eq!(script.steps[13], Step::Type("poses/a b.ron".into()));
        assert_eq!(script.steps[1], Step::SetView(View::Front));
        assert_eq!(
            script.steps[2],
            Step::SetSolver(SolverKind::DampedLeastSquares)
        );
        assert_eq!(script.steps[3], Step::Move(640.0, 400.5));
        assert_eq!(
            script.steps[7],
            Step::DragSite {
                site: "right fingertips".into(),
                to: [0.3, 1.2, 0.4],
                frames: 30
            }
        );
        assert_eq!(
            script.steps[8],
            Step::Key(KeyChord {
                ctrl: true,
                shift: true,
                alt: false,
                key: KeyName::Letter('z')
            })
        );
        assert_eq!(script.steps[12], Step::Exit);
        let humanoid = marionette_skeleton::builtin::humanoid();
        script
            .check_sites(&humanoid, "example.ron")
            .expect("sites exist");
    }

    #[test]
    fn every_bad_step_is_reported_with_its_number() {
        let text = r#"Replay([
            SetView("diagonal"),
            SetSolver("magic"),
            Key("hyper+z"),
            Key("ctrl+"),
            DragSite(site: "hand", to: (0.0, 1.0, 0.0), frames: 0),
            Screenshot(""),
            Type("a\tb"),
            Exit,
        ])"#;
        let err = Script::parse(text, "bad.ron").expect_err("invalid script");
        let lines = err.lines();
        assert_eq!(lines.len(), 7, "{lines:#?}");
        assert!(lines[6].contains("step 7: Type(\"a\\tb\"): only printable characters"));
        assert!(lines[0].starts_with("bad.ron: step 1: unknown view \"diagonal\""));
        assert!(lines[1].contains("step 2: unknown solver \"magic\" (one of jt, pinv, dls"));
        assert!(lines[2].contains("step 3: key \"hyper+z\": unknown modifier \"hyper\""));
        assert!(lines[3].contains("step 4: key \"ctrl+\" names no key"));
        assert!(lines[4].contains("step 5: DragSite \"hand\": frames must be at least 1"));
        assert!(lines[5].contains("step 6: Screenshot: the path is empty"));
    }

    #[test]
    fn syntax_errors_and_unknown_steps_give_a_position() {
        for text in [
            "Replay([Wait(1),",
            "Replay([Jump(3)])",
            "Replay([Wait(-1)])",
        ] {
            match Script::parse(text, "s.ron") {
                Err(FileError::Syntax { file, line, .. }) => {
                    assert_eq!((file.as_str(), line), ("s.ron", 1));
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn unknown_sites_are_named() {
        let script = Script::parse(
            r#"Replay([DragSite(site: "tail", to: (0, 0, 0), frames: 2)])"#,
            "s.ron",
        )
        .expect("valid script");
        let err = script
            .check_sites(&marionette_skeleton::builtin::humanoid(), "s.ron")
            .expect_err("no tail");
        assert_eq!(
            err.to_string(),
            "s.ron: step 1: skeleton \"humanoid\" has no site \"tail\""
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let err = Script::load("no/such/replay.ron").expect_err("missing");
        assert!(matches!(err, FileError::Io { .. }), "{err:?}");
        assert!(err.to_string().starts_with("no/such/replay.ron: "), "{err}");
    }

    proptest::proptest! {
        /// Truncated and mutated scripts are errors, never panics.
        #[test]
        fn mangled_scripts_never_panic(cut in 0usize..400, at in 0usize..400, byte in 0u8..128) {
            let mut text = EXAMPLE.as_bytes().to_vec();
            let at = at.min(text.len() - 1);
            text[at] = byte;
            text.truncate(cut.min(text.len()));
            let _ = Script::parse(&String::from_utf8_lossy(&text), "m.ron");
        }
    }

    #[test]
    fn key_names() {
        let key = |t: &str| t.parse::<KeyChord>().map(|c| c.key);
        assert_eq!(key("f"), Ok(KeyName::Letter('f')));
        assert_eq!(key("F5"), Ok(KeyName::Function(5)));
        assert_eq!(key("ctrl+7"), Ok(KeyName::Digit(7)));
        assert_eq!(key("Escape"), Ok(KeyName::Escape));
        assert!(key("f13").is_err());
        assert!("shift+shift+a".parse::<KeyChord>().is_err());
        assert!("".parse::<KeyChord>().is_err());
    }
}
