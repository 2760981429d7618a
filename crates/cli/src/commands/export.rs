//! `marionette export DOC [--sequence NAME] --format bvh|glb|json --out FILE`: a document's
//! sequence, baked with its locks held (or, without `--sequence`, its pose), for other tools;
//! `marionette export POSE.ron --skeleton S.ron --format bvh|glb|json --out FILE` writes one pose
//! as one frame. A character's glb is the character's own file, posed. A stage's glb holds every
//! figure and prop ([`marionette_interchange::stage::glb`]); its BVH and JSON one figure
//! (`--figure NAME`). Exit status: 0 written, 1 bad input (nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use marionette_document::Stage;
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::export::{ExportFormat, Sources, assets_folder, export_bytes};
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_interchange::stage::document_export::{DocumentExportError, export_document};
use marionette_interchange::stage::export::{StageExport, export_stage};
use marionette_motion::BakedFrame;
use marionette_skeleton::{Pose, PoseError, Skeleton};

use crate::output::outln;

/// What to write (the command line's names for [`ExportFormat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Biovision hierarchy: the skeleton and one row of channels per frame.
    Bvh,
    /// glTF 2.0 binary: the joints as nodes, a skinned mesh of the bodies, one animation.
    Glb,
    /// The baked frames with every site's and joint's world position.
    Json,
}

impl From<Format> for ExportFormat {
    fn from(f: Format) -> ExportFormat {
        match f {
            Format::Bvh => ExportFormat::Bvh,
            Format::Glb => ExportFormat::Glb,
            Format::Json => ExportFormat::Json,
        }
    }
}

/// Arguments of `marionette export`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette export crouch.marionette.ron --sequence crouch --format bvh --out crouch.bvh\n  \
    marionette export crouch.marionette.ron --sequence crouch --format glb --out crouch.glb\n  \
    marionette export crouch.marionette.ron --sequence crouch --format json --out crouch.json\n  \
    marionette export hero.marionette.ron --format glb --out hero-posed.glb\n  \
    marionette export pose.ron --skeleton skeletons/humanoid.ron --format bvh --out pose.bvh")]
pub struct ExportArgs {
    /// A Document file, or a pose file (with --skeleton) for a one-frame export.
    input: PathBuf,
    /// The sequence to export (documents; without it, the document's pose).
    #[arg(long)]
    sequence: Option<String>,
    /// The skeleton of a pose file.
    #[arg(long)]
    skeleton: Option<PathBuf>,
    /// The file format.
    #[arg(long, value_enum)]
    format: Format,
    /// Where mesh bodies are read from for glb (default: `assets/` beside the skeleton's
    /// folder, else `./assets`).
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,
    /// Where to write.
    #[arg(long)]
    out: PathBuf,
    /// The figure of a stage to export (BVH and JSON: one figure per file, placed on the
    /// stage; JSON frames also carry every prop).
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
}

/// Loads, bakes, writes.
pub fn run(args: &ExportArgs) -> Result<ExitCode, String> {
    let opened = match open(&args.input, CaptureOptions::default()) {
        Ok(Opened::Document(stage)) => Ok(*stage),
        Ok(Opened::Pose(file)) => Err(Some(file)),
        // RON whose start names no kind is read as a pose, as the reader says.
        Err(OpenError::NotOpened {
            kind: FileKind::Other,
            ..
        }) => Err(None),
        Ok(other) => {
            return Err(format!(
                "{}: this is {}, not a document or a pose",
                args.input.display(),
                other.kind().describe()
            ));
        }
        Err(e) => return Err(e.to_string()),
    };
    let pose_file = match opened {
        Ok(stage) if stage.is_one_figure() => {
            // The one figure is named after its skeleton.
            let one = &stage.figures[0].document.skeleton;
            if let Some(figure) = &args.figure
                && figure != one.name()
            {
                return Err(format!(
                    "{}: no figure \"{figure}\" (the document's one figure is \"{}\")",
                    args.input.display(),
                    one.name()
                ));
            }
            return export_one_figure(args, &stage);
        }
        Ok(stage) => return export_stage_figure(args, &stage),
        Err(pose_file) => pose_file,
    };
    let Some(skeleton_path) = &args.skeleton else {
        return Err(format!(
            "{}: not a document; a pose file needs --skeleton FILE",
            args.input.display()
        ));
    };
    let skeleton = Skeleton::load(skeleton_path).map_err(|e| e.to_string())?;
    let pose = match pose_file {
        Some(file) => Pose::from_file(&skeleton, &file).map_err(|defects| {
            PoseError::Invalid {
                file: args.input.display().to_string(),
                defects,
            }
            .to_string()
        })?,
        None => super::load_pose(&skeleton, Some(&args.input))?,
    };
    let frame = BakedFrame {
        frame: 0,
        q: pose.q,
        lock_errors: Vec::new(),
    };
    let export = (skeleton, Vec::new(), stem(&args.input), 24.0, vec![frame]);
    write(args, export, Some(skeleton_path))
}

/// A version-1 document: its sequence baked with its locks (or its pose), written by the one
/// document export ([`export_document`]).
fn export_one_figure(args: &ExportArgs, stage: &Stage) -> Result<ExitCode, String> {
    let input = args.input.display();
    let pose_name = stem(&args.input);
    let export = StageExport {
        stage,
        sequence: args.sequence.as_deref(),
        figure: None,
        format: args.format.into(),
        folder: std::path::Path::new("."),
        assets: args.assets.as_deref(),
        pose_name: &pose_name,
    };
    let written = export_document(export, &|| {}).map_err(|e| match e {
        DocumentExportError::NotFound(why) => format!("{input}: {why}"),
        DocumentExportError::Write(why) => format!("{input}: cannot write the export: {why}"),
    })?;
    for w in &written.warnings {
        eprintln!("{input}: {w}");
    }
    marionette_skeleton::ron_io::write_bytes_atomically(&args.out, &written.bytes)
        .map_err(|e| format!("{}: cannot write: {e}", args.out.display()))?;
    outln!(
        "{input}: {} frames of \"{}\" written to {}",
        written.frames,
        written.name,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A file's name without its extension ("pose" for none).
fn stem(path: &std::path::Path) -> String {
    path.file_stem()
        .map_or_else(|| "pose".to_owned(), |s| s.to_string_lossy().into_owned())
}

/// What an export writes: the skeleton, its locks, the name, the fps and the frames.
type Export = (
    Skeleton,
    Vec<marionette_document::Lock>,
    String,
    f64,
    Vec<BakedFrame>,
);

/// A stage: the whole of it as one glb, or one figure (`--figure NAME`) as BVH or JSON placed
/// on the stage; its pose, or its frames of the sequence baked with the whole stage (links and
/// props included).
fn export_stage_figure(args: &ExportArgs, stage: &Stage) -> Result<ExitCode, String> {
    let input = args.input.display();
    let figure = match &args.figure {
        Some(wanted) => Some(super::figure_of(stage, Some(wanted), &args.input)?),
        None => None,
    };
    if args.format != Format::Glb && figure.is_none() {
        return Err(format!(
            "{input}: a stage holds several figures; say which to export with --figure NAME \
             (figures: {})",
            stage.figure_list()
        ));
    }
    let folder = args
        .input
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let pose_name = stem(&args.input);
    let export = StageExport {
        stage,
        sequence: args.sequence.as_deref(),
        figure,
        format: args.format.into(),
        folder,
        assets: args.assets.as_deref(),
        pose_name: &pose_name,
    };
    let written = export_stage(export, &|| {})
        .map_err(|e| format!("{input}: cannot write the export: {e}"))?;
    for w in &written.warnings {
        eprintln!("{input}: {w}");
    }
    marionette_skeleton::ron_io::write_bytes_atomically(&args.out, &written.bytes)
        .map_err(|e| format!("{}: cannot write: {e}", args.out.display()))?;
    let what = match figure {
        Some(f) => format!("figure \"{}\"", stage.figures[f].name),
        None => format!(
            "{} figures, {} props",
            stage.figures.len(),
            stage.props.len()
        ),
    };
    outln!(
        "{input}: {} frames of \"{}\" ({what}) written to {}",
        written.frames,
        written.name,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the export.
fn write(
    args: &ExportArgs,
    (skeleton, locks, name, fps, frames): Export,
    skeleton_file: Option<&std::path::Path>,
) -> Result<ExitCode, String> {
    let assets = assets_folder(args.assets.as_deref(), skeleton_file);
    let sources = Sources {
        assets: assets.as_deref(),
        skeleton_file,
        character: None,
        stage: None,
    };
    let (bytes, warnings) = export_bytes(
        args.format.into(),
        &skeleton,
        &locks,
        &name,
        fps,
        &frames,
        sources,
    )
    .map_err(|e| format!("{}: cannot write the export: {e}", args.input.display()))?;
    for w in warnings {
        eprintln!("{}: {w}", args.input.display());
    }
    marionette_skeleton::ron_io::write_bytes_atomically(&args.out, &bytes)
        .map_err(|e| format!("{}: cannot write: {e}", args.out.display()))?;
    outln!(
        "{}: {} frames of \"{name}\" written to {}",
        args.input.display(),
        frames.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
