//! `marionette check FILE... [--skeleton S]`: validates skeleton, problem, document and pose
//! files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::output::outln;
use marionette_interchange::file_kind::FileKind;
use marionette_skeleton::{Pose, Skeleton, ron_io};

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

fn check_file(path: &Path, skeleton: Option<&Skeleton>) -> Result<String, String> {
    let name = path.display().to_string();
    let text = ron_io::read_text(path).map_err(|e| format!("{name}: {e}"))?;
    match FileKind::of_head(text.as_bytes()) {
        FileKind::Pose => {
            let Some(skeleton) = skeleton else {
                return Err(format!(
                    "{name}: this is a pose file; give the skeleton it belongs to with --skeleton"
                ));
            };
            let pose = Pose::from_ron_str(skeleton, &text, &name).map_err(|e| e.to_string())?;
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
        FileKind::Document => {
            let stage = marionette_document::StageFile::load(path)
                .map_err(|e| e.to_string())?
                .stage;
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
        FileKind::Problem => {
            let problem = marionette_ik::Problem::load(path).map_err(|e| e.to_string())?;
            Ok(format!(
                "problem on \"{}\", {} goals, {} state entries move",
                problem.skeleton.name(),
                problem.goals.len(),
                problem.chain.len()
            ))
        }
        _ => {
            let s = Skeleton::from_ron_str(&text, &name).map_err(|e| e.to_string())?;
            Ok(format!(
                "{} joints, {} dofs, {} sites",
                s.joints().len(),
                s.dof_count(),
                s.sites().len()
            ))
        }
    }
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
