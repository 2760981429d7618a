//! `marionette import FILE --skeleton-out S.ron --doc-out D.ron`, chosen by the file's content:
//! a BVH motion capture (`[--scale S] [--every N]`) as a skeleton and a document with one
//! sequence named after the file; or a rigged glTF character (`.glb`, `.gltf`, `.vrm`) as a
//! skeleton that names the file as its skin and a document at its rest pose, with what was
//! recognised printed. Exit status: 0 written, 1 bad input (a message naming the line or node at
//! fault; nothing written).

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
    marionette import take.bvh --every 4 --skeleton-out take.skeleton.ron --doc-out take.marionette.ron\n  \
    marionette import hero.glb --skeleton-out hero.skeleton.ron --doc-out hero.marionette.ron")]
pub struct ImportArgs {
    /// The BVH capture, or the rigged glTF character (.glb, .gltf, .vrm).
    file: PathBuf,
    /// BVH: lengths are multiplied by this (0.01 for a capture in centimetres).
    #[arg(long, value_parser = super::positive)]
    scale: Option<f64>,
    /// BVH: key every N-th frame (and the last).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    every: Option<u32>,
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
    let bytes = marionette_skeleton::ron_io::read_bytes(
        &args.file,
        marionette_skeleton::ron_io::MAX_DATA_BYTES,
        "a capture or a character",
    )
    .map_err(|e| format!("{file}: {e}"))?;
    if marionette_interchange::gltf_file::looks_like_gltf(&bytes) {
        if args.scale.is_some() || args.every.is_some() {
            return Err(format!(
                "{file}: --scale and --every are for BVH captures; this is a glTF character"
            ));
        }
        return character(args, &bytes);
    }
    let text = String::from_utf8_lossy(&bytes);
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
    let imported = import(
        &parsed.bvh,
        args.scale.unwrap_or(1.0),
        args.every.unwrap_or(1) as usize,
        &name,
    )
    .map_err(|e| format!("{file}: {e}"))?;
    let skeleton_text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| format!("{file}: cannot write the skeleton: {e}"))?;
    let doc = imported.document(args.skeleton_out.clone());
    let doc_text = doc
        .to_ron_string(&args.doc_out)
        .map_err(|e| format!("{file}: cannot write the document: {e}"))?;
    write_both(args, &skeleton_text, &doc_text)?;
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

/// Writes the skeleton, then the document.
fn write_both(args: &ImportArgs, skeleton_text: &str, doc_text: &str) -> Result<(), String> {
    marionette_skeleton::ron_io::write_atomically(&args.skeleton_out, skeleton_text)
        .map_err(|e| format!("{}: cannot write: {e}", args.skeleton_out.display()))?;
    marionette_skeleton::ron_io::write_atomically(&args.doc_out, doc_text)
        .map_err(|e| format!("{}: cannot write: {e}", args.doc_out.display()))
}

/// A rigged glTF character: its skeleton (naming the file as its skin, by a path relative to
/// the skeleton file) and a document at its rest pose; what was recognised is printed.
fn character(args: &ImportArgs, bytes: &[u8]) -> Result<ExitCode, String> {
    use marionette_interchange::character::Character;
    use marionette_interchange::gltf_file::GltfFile;
    let gltf = GltfFile::from_bytes(bytes, &args.file).map_err(|e| e.to_string())?;
    let character = Character::from_file(gltf).map_err(|e| e.to_string())?;
    let name = args.file.file_stem().map_or_else(
        || "character".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let folder = match args.skeleton_out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let skin = marionette_document::relative_path(folder, &args.file);
    let imported = character.import(&name, &skin).map_err(|e| e.to_string())?;
    let skeleton_text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| format!("{}: cannot write the skeleton: {e}", args.file.display()))?;
    let rest = marionette_skeleton::Pose::rest(&imported.skeleton);
    let doc = marionette_document::DocumentFile::new(
        args.skeleton_out.clone(),
        imported.skeleton.clone(),
        rest,
    );
    let doc_text = doc
        .to_ron_string(&args.doc_out)
        .map_err(|e| format!("{}: cannot write the document: {e}", args.file.display()))?;
    write_both(args, &skeleton_text, &doc_text)?;
    outln!("{}:", args.file.display());
    for line in character.report() {
        outln!("  {line}");
    }
    outln!(
        "→ {} ({} joints, {} DOFs, {} sites) and {}",
        args.skeleton_out.display(),
        imported.skeleton.joints().len(),
        imported.skeleton.dofs().len(),
        imported.skeleton.sites().len(),
        args.doc_out.display()
    );
    Ok(ExitCode::SUCCESS)
}
