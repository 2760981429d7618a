//! `marionette import FILE.bvh [--scale S] [--every N] --skeleton-out S.ron --doc-out D.ron`:
//! a motion-capture file as a skeleton and a document with one sequence named after the file.
//! Exit status: 0 written, 1 bad input (a message with the line at fault; nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use marionette_interchange::bvh::import::import;
use marionette_interchange::bvh::parse::parse;

use crate::output::outln;

/// Arguments of `marionette import`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette import 01_01.bvh --scale 0.01 --skeleton-out cmu.ron --doc-out 01_01.marionette.ron\n  \
    marionette import take.bvh --every 4 --skeleton-out take.skeleton.ron --doc-out take.marionette.ron")]
pub struct ImportArgs {
    /// The BVH file.
    file: PathBuf,
    /// Lengths are multiplied by this (0.01 for a capture in centimetres).
    #[arg(long, default_value_t = 1.0, value_parser = super::positive)]
    scale: f64,
    /// Key every N-th frame (and the last).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    every: u32,
    /// Where the skeleton goes.
    #[arg(long, value_name = "S.ron")]
    skeleton_out: PathBuf,
    /// Where the document goes (it names the skeleton by a path relative to itself).
    #[arg(long, value_name = "D.ron")]
    doc_out: PathBuf,
}

/// Reads, converts, writes both files or neither.
pub fn run(args: &ImportArgs) -> Result<ExitCode, String> {
    let file = args.file.display();
    let text = std::fs::read(&args.file).map_err(|e| format!("{file}: {e}"))?;
    let text = String::from_utf8_lossy(&text);
    let parsed = parse(&text).map_err(|e| format!("{file}: {e}"))?;
    if parsed.extra_rows > 0 {
        eprintln!(
            "{file}: {} rows of motion after the {} that Frames: declares were ignored",
            parsed.extra_rows,
            parsed.bvh.frames.len()
        );
    }
    let name = args
        .file
        .file_stem()
        .map_or_else(|| "take".to_owned(), |s| s.to_string_lossy().into_owned());
    let imported = import(&parsed.bvh, args.scale, args.every as usize, &name)
        .map_err(|e| format!("{file}: {e}"))?;
    let skeleton_text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| format!("{file}: cannot write the skeleton: {e}"))?;
    let doc = imported.document(args.skeleton_out.clone());
    let doc_text = doc
        .to_ron_string(&args.doc_out)
        .map_err(|e| format!("{file}: cannot write the document: {e}"))?;
    marionette_skeleton::ron_io::write_atomically(&args.skeleton_out, &skeleton_text)
        .map_err(|e| format!("{}: cannot write: {e}", args.skeleton_out.display()))?;
    marionette_skeleton::ron_io::write_atomically(&args.doc_out, &doc_text)
        .map_err(|e| format!("{}: cannot write: {e}", args.doc_out.display()))?;
    outln!(
        "{file}: {} joints, {} frames at {:.1} fps ({} keys) → {} and {}",
        imported.skeleton.joints().len(),
        parsed.bvh.frames.len(),
        imported.sequence.fps,
        imported.sequence.keys.len(),
        args.skeleton_out.display(),
        args.doc_out.display()
    );
    Ok(ExitCode::SUCCESS)
}
