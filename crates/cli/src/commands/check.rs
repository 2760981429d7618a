//! `marionette check FILE... [--skeleton S]`: validates skeleton, problem, document and pose
//! files, rigged characters and captures, each opened as every front end opens it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::output::outln;
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::open::{Opened, open};
use marionette_skeleton::{Pose, PoseError, Skeleton};

/// Arguments of `marionette check`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette check skeletons/*.ron\n  \
    marionette check --skeleton skeletons/stickman.ron pose.ron\n  \
    marionette check crouch.marionette.ron\n\n\
    Formats: docs/skeleton-format.md, docs/file-formats.md")]
pub struct CheckArgs {
    /// Skeleton, problem, document and (with --skeleton) pose files; the kind is read from the
    /// file: `Skeleton(...)`, `Problem(...)`, `Document(...)` or `Pose(...)`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The skeleton that pose files are checked against.
    #[arg(long, value_name = "S")]
    skeleton: Option<PathBuf>,
}

/// Checks every file; prints `ok FILE: ...` for each good one and the errors of the others.
pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let skeleton = args
        .skeleton
        .as_deref()
        .map(super::load_skeleton)
        .transpose()?;
    let mut failed = false;
    for file in &args.files {
        match check_file(file, skeleton.as_ref()) {
            Ok(line) => outln!("ok {}: {line}", file.display()),
            Err(message) => {
                failed = true;
                for line in message.lines() {
                    eprintln!("{line}");
                }
            }
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// What `check` says of the file at `path`, opened once by what it holds ([`open`]); a problem
/// file's text is read by the IK crate.
fn check_file(path: &Path, skeleton: Option<&Skeleton>) -> Result<String, String> {
    let name = path.display().to_string();
    let opened = open(path, CaptureOptions::default()).map_err(|e| e.to_string())?;
    match opened {
        Opened::Pose(file) => {
            let Some(skeleton) = skeleton else {
                return Err(format!(
                    "{name}: this is a pose file; give the skeleton it belongs to with --skeleton"
                ));
            };
            let pose = Pose::from_file(skeleton, &file)
                .map_err(|defects| PoseError::Invalid {
                    file: name.clone(),
                    defects,
                })
                .map_err(|e| e.to_string())?;
            let moved = skeleton
                .dofs()
                .iter()
                .zip(&pose.q[marionette_skeleton::ROOT_STATE_LEN..])
                .filter(|(d, v)| d.rest != **v)
                .count();
            Ok(format!(
                "pose of \"{}\", {moved} of {} dofs away from rest",
                skeleton.name(),
                skeleton.dof_count()
            ))
        }
        Opened::Document(stage) => {
            let doc = match stage.into_one_figure() {
                Ok(doc) => doc,
                Err(stage) => return Ok(stage_summary(&stage)),
            };
            let keys: usize = doc.sequences.iter().map(|s| s.keys.len()).sum();
            Ok(format!(
                "document on \"{}\", {} locks, {} sequences ({keys} keys)",
                doc.skeleton.name(),
                doc.locks.len(),
                doc.sequences.len()
            ))
        }
        Opened::Skeleton(s) => Ok(skeleton_summary(&s)),
        Opened::Character(c) => {
            let s = c
                .import("figure", "figure.glb")
                .map_err(|e| e.to_string())?;
            let humanoid = match &c.humanoid {
                Ok(_) => "its humanoid bones found".to_owned(),
                Err(why) => format!("no humanoid map ({why})"),
            };
            Ok(format!(
                "character: {}; {humanoid}",
                skeleton_summary(&s.skeleton)
            ))
        }
        Opened::Problem(text) => {
            let problem =
                marionette_ik::Problem::from_ron_str(&text, path).map_err(|e| e.to_string())?;
            Ok(format!(
                "problem on \"{}\", {} goals, {} state entries move",
                problem.skeleton.name(),
                problem.goals.len(),
                problem.chain.len()
            ))
        }
        Opened::Capture(c) => Ok(format!(
            "capture of {} joints, {} frames at {:.1} fps",
            c.imported.skeleton.joints().len(),
            c.frames,
            c.imported.sequence.fps
        )),
    }
}

/// What `check` says of a skeleton.
fn skeleton_summary(s: &Skeleton) -> String {
    format!(
        "{} joints, {} dofs, {} sites",
        s.joints().len(),
        s.dof_count(),
        s.sites().len()
    )
}

/// What `check` says of a stage: its figures (and their skeletons), props, links and sequences.
fn stage_summary(stage: &marionette_document::Stage) -> String {
    let figures: Vec<String> = stage
        .figures
        .iter()
        .map(|f| format!("{} on \"{}\"", f.name, f.document.skeleton.name()))
        .collect();
    let locks: usize = stage.figures.iter().map(|f| f.document.locks.len()).sum();
    format!(
        "stage of {} figures ({}), {} props, {locks} locks, {} links, {} sequences",
        stage.figures.len(),
        figures.join(", "),
        stage.props.len(),
        stage.links.len(),
        stage.sequence_names().len()
    )
}
