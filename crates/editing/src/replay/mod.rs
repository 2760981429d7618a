//! Replay scripts: `marionette-editor --replay SCRIPT.ron` plays a RON list `Replay([ ... ])` of
//! steps through the real window and input path (issue 5), for end-to-end tests and for
//! reproducing a user's session. This module reads a script ([`Step`]s, deserialized as written),
//! checks every step at once ([`Step::check`]) and resolves each step, when it is taken, against
//! the document open then ([`Step::resolve`]) into an [`Action`]; the editor's replay player
//! only turns actions into window input and the messages the panels send.
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
//!     AddFigure(name: "B", file: "skeletons/humanoid.ron", at: (0.0, 1.2), facing: 180.0),
//!     SelectFigure("B"),
//!     LockBetween(a: ("humanoid", "right fingertips"), b: ("B", "left fingertips")),
//!     AddProp(name: "stick", shape: Cylinder(radius: 0.02, length: 1.0), at: (0.3, 1.0, 0.6)),
//!     Grip(prop: "stick", figure: "B", site: "right fingertips", frame: 10),
//!     Release(prop: "stick", frame: 30),
//!     Exit,
//! ])
//! ```
//!
//! Every defect is reported at once, each naming the file and the step (1-based) at fault; the
//! names of views, solvers and keys are checked here, sites against the open skeleton by
//! [`Script::check_sites`]. Paths are kept as written: they are relative to the working directory.

use std::fmt;
use std::path::Path;

use marionette_skeleton::{FileError, Skeleton};

mod action;
mod check;
mod keys;
mod names;
mod physics_steps;
mod resolve;
mod stage_steps;
mod step;
mod timeline_steps;

pub use action::{Action, DragGrip, Panel, ReplayContext, Window};
pub use check::NamedPart;
pub use keys::{KeyChord, KeyName};
pub use step::{ReplayInterpolation, ReplayLockKind, Step};

/// The file's text, read directly into steps.
#[derive(Debug, serde::Deserialize)]
#[serde(rename = "Replay")]
struct ReplayFile(Vec<Step>);

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

impl Script {
    /// Reads and checks a script file.
    pub fn load(path: impl AsRef<Path>) -> Result<Script, ReplayError> {
        let path = path.as_ref();
        let file = marionette_skeleton::ron_io::display_path(path);
        let text =
            marionette_skeleton::ron_io::read_text(path).map_err(|source| FileError::Io {
                file: file.clone(),
                source,
            })?;
        Script::parse(&text, &file)
    }

    /// Parses and checks script text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Script, ReplayError> {
        let text = step::spell_prop_release(text);
        Script::check(ReplayError::parse_ron(&text, file)?, file)
    }

    fn check(file: ReplayFile, name: &str) -> Result<Script, ReplayError> {
        let defects: Vec<ReplayDefect> = file
            .0
            .iter()
            .enumerate()
            .filter_map(|(index, step)| {
                step.check().err().map(|message| ReplayDefect {
                    step: index + 1,
                    message,
                })
            })
            .collect();
        if defects.is_empty() {
            Ok(Script { steps: file.0 })
        } else {
            Err(FileError::Invalid {
                file: name.to_owned(),
                defects,
            })
        }
    }

    /// Checks that every step naming a site ([`NamedPart::Site`]) names a site of `skeleton`,
    /// and every step naming a joint a joint, up to the first step that adds or selects another
    /// figure (the steps after it are checked when they are taken); `file` names the script.
    pub fn check_sites(&self, skeleton: &Skeleton, file: &str) -> Result<(), ReplayError> {
        let defects: Vec<ReplayDefect> = self
            .steps
            .iter()
            .take_while(|step| !matches!(step, Step::SelectFigure(_) | Step::OpenDocument(_)))
            .enumerate()
            .filter_map(|(index, step)| {
                let missing = match step.named_part()? {
                    NamedPart::Site(site) if skeleton.site_by_name(site).is_none() => {
                        format!("site \"{site}\"")
                    }
                    NamedPart::Joint(joint) if skeleton.joint_by_name(joint).is_none() => {
                        format!("joint \"{joint}\"")
                    }
                    NamedPart::Site(_) | NamedPart::Joint(_) => return None,
                };
                Some(ReplayDefect {
                    step: index + 1,
                    message: format!("skeleton \"{}\" has no {missing}", skeleton.name()),
                })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::View;
    use marionette_ik::SolverKind;

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
        let doc = crate::Document::new(marionette_skeleton::builtin::humanoid(), None);
        let context = ReplayContext {
            selected: &[],
            retarget: None,
            beside: &crate::beside::Beside::default(),
        };
        let resolve = |k: usize| script.steps[k].resolve(&doc, context);
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
                to: (0.0, 0.9, 0.0),
                frames: 20
            }
        );
        let pelvis = doc.skeleton().joint_by_name("pelvis").expect("a pelvis");
        assert_eq!(
            resolve(16),
            Ok(Action::Drag {
                grip: DragGrip::Joint(pelvis),
                to: nalgebra::Vector3::new(0.0, 0.9, 0.0),
                frames: 20
            })
        );
        assert_eq!(script.steps[19], Step::OpenDocument("crouch.ron".into()));
        assert_eq!(script.steps[13], Step::Type("poses/a b.ron".into()));
        assert_eq!(script.steps[1], Step::SetView("front".into()));
        assert_eq!(resolve(1), Ok(Action::SetView(View::Front)));
        assert_eq!(
            resolve(2),
            Ok(Action::SetSolver(SolverKind::DampedLeastSquares))
        );
        assert_eq!(script.steps[3], Step::Move(640.0, 400.5));
        assert_eq!(
            script.steps[7],
            Step::DragSite {
                site: "right fingertips".into(),
                to: (0.3, 1.2, 0.4),
                frames: 30
            }
        );
        assert_eq!(
            resolve(8),
            Ok(Action::Key(KeyChord {
                ctrl: true,
                shift: true,
                alt: false,
                key: KeyName::Letter('z')
            }))
        );
        // A name the open document lacks fails when the step is taken, naming it.
        let tail = Step::LockSite {
            site: "tail".into(),
            kind: ReplayLockKind::Position,
        };
        assert_eq!(
            tail.resolve(&doc, context),
            Err("skeleton \"humanoid\" has no site \"tail\"".into())
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
    fn the_capture_steps_read_and_an_empty_site_is_refused() {
        let script = Script::parse(
            r#"Replay([ShowSequence("01_01"), FindFootContacts, MotionPlot("left heel")])"#,
            "s.ron",
        )
        .expect("valid script");
        assert_eq!(
            script.steps,
            vec![
                Step::ShowSequence("01_01".into()),
                Step::FindFootContacts,
                Step::MotionPlot("left heel".into()),
            ]
        );
        let err = Script::parse(r#"Replay([MotionPlot(" ")])"#, "s.ron").expect_err("empty");
        assert!(
            err.to_string().contains("MotionPlot: the site is empty"),
            "{err}"
        );
    }

    #[test]
    fn every_step_naming_an_unknown_joint_is_named_before_the_run() {
        let script = Script::parse(
            r#"Replay([
                SelectJoint("left kneecap"),
                AddToSelection("left knee"),
                RotateJoint(joint: "tail", dof: 0, degrees: 10),
                MoveKeys(joint: "wing", from: 0, to: 4),
                Wait(1),
            ])"#,
            "s.ron",
        )
        .expect("valid script");
        let err = script
            .check_sites(&marionette_skeleton::builtin::humanoid(), "s.ron")
            .expect_err("unknown joints")
            .to_string();
        for (step, joint) in [(1, "left kneecap"), (3, "tail"), (4, "wing")] {
            assert!(
                err.contains(&format!(
                    "step {step}: skeleton \"humanoid\" has no joint \"{joint}\""
                )),
                "{err}"
            );
        }
        assert!(!err.contains("step 2"), "{err}");
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

        /// The prop step's spelling touches only `Release(` outside strings: any other text,
        /// whatever its characters, comes back as it was.
        #[test]
        fn only_the_prop_release_is_respelled(text in "\\PC{0,80}") {
            let out = step::spell_prop_release(&text);
            if !text.contains("Release") {
                proptest::prop_assert_eq!(&out, &text);
            }
            proptest::prop_assert_eq!(out.replace("ReleaseProp", "Release"), text.replace("ReleaseProp", "Release"));
        }
    }

    #[test]
    fn both_releases_read() {
        let script = Script::parse(
            r#"Replay([Release, Release(prop: "stick", frame: 3), Type("Release(x"), Release ( prop: "b", frame: 4 ), MyRelease])"#,
            "r.ron",
        );
        // `MyRelease` is no step: the error names it, the rest read as spelled.
        let err = script.expect_err("MyRelease is unknown").to_string();
        assert!(err.contains("MyRelease"), "{err}");
        let script = Script::parse(
            r#"Replay([Release, Release(prop: "stick", frame: 3), Type("Release(x"), Release ( prop: "b", frame: 4 )])"#,
            "r.ron",
        )
        .expect("reads");
        assert_eq!(script.steps[0], Step::Release);
        assert_eq!(
            script.steps[1],
            Step::ReleaseProp {
                prop: "stick".into(),
                frame: 3
            }
        );
        assert_eq!(script.steps[2], Step::Type("Release(x".into()));
        assert!(matches!(&script.steps[3], Step::ReleaseProp { prop, frame: 4 } if prop == "b"));
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
