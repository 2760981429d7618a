//! `marionette retarget CAPTURE.bvh --onto TARGET [--figure NAME] --doc-out OUT.ron [--scale S]
//! [--every N] [--map MAP.ron] [--clean-feet]`: a capture's motion put onto another figure (a
//! skeleton file, a document: its skeleton at its pose, or the figure of a stage `--figure`
//! names), as a document on the target's skeleton with one sequence. The humanoid map found on
//! both figures (over which `--map MAP.ron` maps bones by hand) is printed, with what the
//! target's limits kept from the capture. Exit status: 0 written, 3 written but (with
//! `--clean-feet`) some foot contact could not be held, 1 bad input (nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use marionette_document::DocumentFile;
use marionette_editing::{Document, Edit};
use marionette_interchange::capture::{CaptureScale, read_take};
use marionette_interchange::retarget::placement::stand_where_the_figure_stands;
use marionette_interchange::retarget::{MapOverride, RetargetMap, retarget_imported};
use marionette_skeleton::Skeleton;

use crate::output::outln;

/// Arguments of `marionette retarget`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette retarget 01_01.bvh --onto skeletons/humanoid.ron --doc-out walk.marionette.ron\n  \
    marionette retarget take.bvh --onto hero.marionette.ron --every 2 --doc-out hero-take.ron\n  \
    marionette retarget take.bvh --onto hero.skeleton.ron --map hero-map.ron --doc-out hero-take.ron\n  \
    marionette retarget take.bvh --onto hero.marionette.ron --where-it-stands --doc-out hero-take.ron\n  \
    marionette retarget take.bvh --onto duet.marionette.ron --figure B --doc-out b-take.ron")]
pub struct RetargetArgs {
    /// The capture: a BVH file, or an FBX file's take.
    capture: PathBuf,
    /// FBX: the take (animation stack) to read; the file's first when not given.
    #[arg(long, value_name = "NAME")]
    take: Option<String>,
    /// The figure it goes onto: a skeleton file, or a document (its skeleton, from its pose).
    #[arg(long, value_name = "TARGET")]
    onto: PathBuf,
    /// TARGET a stage: the figure it goes onto (needed when the stage holds several); the new
    /// document is on that figure's skeleton, from its pose.
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    /// Where the document goes.
    #[arg(long, value_name = "OUT.ron")]
    doc_out: PathBuf,
    /// The capture's lengths are multiplied by this (its root motion is scaled to the target
    /// by the ratio of hip heights whatever it is).
    #[arg(long, value_parser = super::positive, default_value_t = 1.0)]
    scale: f64,
    /// Key every N-th frame of the capture (and the last).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..), default_value_t = 1)]
    every: u32,
    /// Bones mapped by hand, over the map found (docs/file-formats.md, *Retarget*).
    #[arg(long, value_name = "MAP.ron")]
    map: Option<PathBuf>,
    /// Then find the feet's contacts and lock them, as `marionette cleanup --sites auto` does
    /// (exit status 3 when some contact could not be held; the document is still written).
    #[arg(long)]
    clean_feet: bool,
    /// Start the take where the figure stands in TARGET's pose, facing where it faces (turned
    /// about the vertical and moved across the floor), as the editor's retarget does; without
    /// it the take keeps the performer's place in the capture room.
    #[arg(long)]
    where_it_stands: bool,
}

/// The overrides of a map file, every name resolved; every defect named at once.
fn read_map(
    path: &std::path::Path,
    capture: &Skeleton,
    target: &Skeleton,
) -> Result<Vec<MapOverride>, String> {
    RetargetMap::read(path)?
        .resolve(capture, target)
        .map_err(|defects| {
            defects
                .iter()
                .map(|d| format!("{}: {d}", path.display()))
                .collect::<Vec<_>>()
                .join("\n")
        })
}

/// Reads both, retargets, writes the document or nothing.
pub fn run(args: &RetargetArgs) -> Result<ExitCode, String> {
    let file = args.capture.display().to_string();
    let capture = read_take(
        &args.capture,
        CaptureScale::Times(args.scale),
        args.every as usize,
        args.take.as_deref(),
    )
    .map_err(|e| e.to_string())?;
    if let Some((takes, take)) = &capture.takes
        && takes.len() > 1
    {
        outln!(
            "{file}: take \"{take}\" of {}",
            marionette_interchange::fbx::capture::quoted(takes)
        );
    }
    let (captured, name) = (&capture.imported, &capture.name);
    let onto = super::load_figure(&args.onto, None, args.figure.as_deref())?;
    let (target, target_pose, skeleton_path) = (onto.skeleton, onto.pose, onto.skeleton_path);
    let overrides = match &args.map {
        Some(path) => read_map(path, &captured.skeleton, &target)?,
        None => Vec::new(),
    };
    let mut result = retarget_imported(captured, (&target, &target_pose.q), &overrides, name)
        .map_err(|e| format!("{file} onto {}: {e}", args.onto.display()))?;
    let placed = if args.where_it_stands {
        Some(
            stand_where_the_figure_stands(&target, &target_pose.q, &mut result.sequence)
                .map_err(|e| format!("{file} onto {}: {e}", args.onto.display()))?,
        )
    } else {
        None
    };
    let keys = result.sequence.keys.len();
    // A new document on the target, changed by edits as the editor changes it.
    let mut doc = Document::from_file(DocumentFile::new(
        skeleton_path,
        target.clone(),
        target_pose,
    ));
    let onto = |e: String| format!("{file} onto {}: {e}", args.onto.display());
    super::apply(&mut doc, Edit::AddSequence(Box::new(result.sequence)))
        .map_err(|e| onto(e.to_string()))?;
    let index = doc.sequences().len() - 1;
    let sequence = doc.sequences()[index].name.clone();
    let began = std::time::Instant::now();
    let cleaned = args
        .clean_feet
        .then(|| super::cleanup::clean(&mut doc, index, "auto"))
        .transpose()
        .map_err(onto)?
        .map(|c| (c, began.elapsed().as_secs_f64() * 1e6));
    super::save(&mut doc, &args.doc_out)?;
    outln!("{file} onto {}:", target.name());
    if let Some((turn, moved)) = placed {
        outln!(
            "  starts where the figure stands: the capture's place {moved:.2} m away, turned {:.0}°",
            turn.to_degrees()
        );
    }
    for m in &result.map {
        outln!(
            "  {:<14} {:<16} → {}",
            m.bone.vrm_name(),
            captured.skeleton.joint(m.capture).name,
            target.joint(m.target).name
        );
    }
    for (bone, frames, most) in &result.limited {
        outln!(
            "  {}: held by the target's limits on {frames} frames (up to {most:.1}°)",
            bone.vrm_name()
        );
    }
    outln!(
        "  root motion × {:.3} (the ratio of hip heights)\n→ {} ({keys} keys)",
        result.hip_ratio,
        args.doc_out.display()
    );
    match cleaned {
        Some((cleaned, micros)) => {
            super::cleanup::report(&cleaned, &sequence, micros, false);
            Ok(super::cleanup::status(&cleaned))
        }
        None => Ok(ExitCode::SUCCESS),
    }
}
