//! `marionette import FILE --skeleton-out S.ron --doc-out D.ron`, chosen by the file's content
//! ([`FileKind`]):
//! a BVH motion capture (`[--scale S] [--every N]`), or an FBX file with no skin (an animation:
//! its take `[--take NAME]`, the first by default), as a skeleton and a document with one
//! sequence named after the file; or a rigged glTF or FBX character (`.glb`, `.gltf`, `.vrm`,
//! `.fbx` with a skin) as a skeleton that names the file as its skin and a document at its rest
//! pose, with what was recognised printed. Exit status: 0 written, 1 bad input (a message naming the line or node at
//! fault; nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use marionette_document::DocumentFile;
use marionette_editing::weighed_character::{import_weighed, weigh_capture};
use marionette_editing::{Document, Edit};
use marionette_interchange::capture::{Capture, CaptureOptions, CaptureScale, read_take};
use marionette_interchange::character::{Character, CharacterImport};
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::{OpenError, Opened, open};

use crate::output::outln;

/// Arguments of `marionette import`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette import 01_01.bvh --scale 0.01 --skeleton-out cmu.ron --doc-out 01_01.marionette.ron\n  \
    marionette import take.bvh --every 4 --skeleton-out take.skeleton.ron --doc-out take.marionette.ron\n  \
    marionette import hero.glb --skeleton-out hero.skeleton.ron --doc-out hero.marionette.ron\n  \
    marionette import hero.fbx --skeleton-out hero.skeleton.ron --doc-out hero.marionette.ron\n  \
    marionette import dance.fbx --take Take_002 --skeleton-out dance.skeleton.ron --doc-out dance.ron")]
pub struct ImportArgs {
    /// The BVH capture, the rigged glTF character (.glb, .gltf, .vrm), or the FBX file (a
    /// character when it has a skin, else an animation).
    file: PathBuf,
    /// FBX animation: the take (animation stack) to read; the file's first when not given.
    #[arg(long, value_name = "NAME")]
    take: Option<String>,
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

/// Reads (once, through [`open`]), converts, writes both files or neither.
pub fn run(args: &ImportArgs) -> Result<ExitCode, String> {
    let file = args.file.display();
    let options = CaptureOptions {
        scale: CaptureScale::Times(args.scale.unwrap_or(1.0)),
        every: args.every.unwrap_or(1) as usize,
        take: args.take.as_deref(),
    };
    let not_an_import = |kind: FileKind| {
        format!(
            "{file}: this is {}, not a capture (BVH, FBX animation) or a rigged character",
            kind.describe()
        )
    };
    match open(&args.file, options) {
        Ok(Opened::Character(character)) => {
            if args.scale.is_some() || args.every.is_some() || args.take.is_some() {
                return Err(format!(
                    "{file}: --scale, --every and --take are for captures; this is a rigged \
                     character"
                ));
            }
            import_character(args, *character)
        }
        Ok(Opened::Capture(capture)) => import_capture(args, *capture),
        Ok(other) => Err(not_an_import(other.kind())),
        // Anything that is not told apart as something else is read as a capture, whose parser
        // says where it goes wrong.
        Err(OpenError::NotOpened {
            kind: FileKind::Other,
            ..
        }) => {
            let capture = read_take(&args.file, options.scale, options.every, options.take)
                .map_err(|e| e.to_string())?;
            import_capture(args, capture)
        }
        Err(OpenError::NotOpened { kind, .. }) => Err(not_an_import(kind)),
        Err(e) => Err(e.to_string()),
    }
}

/// A capture (BVH, or an FBX take): its skeleton and a document with one sequence.
fn import_capture(args: &ImportArgs, mut capture: Capture) -> Result<ExitCode, String> {
    let file = args.file.display();
    if let Some((takes, take)) = &capture.takes {
        outln!(
            "{file}: take \"{take}\" of {}",
            marionette_interchange::fbx::capture::quoted(takes)
        );
    }
    if capture.extra_rows > 0 {
        eprintln!(
            "{file}: {} rows of motion after the {} that Frames: declares were ignored",
            capture.extra_rows, capture.frames
        );
    }
    let masses = weigh_capture(&mut capture);
    let imported = &capture.imported;
    let skeleton_text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| format!("{file}: cannot write the skeleton: {e}"))?;
    // A new document on the capture's skeleton at its first frame, its take added as the
    // editor adds a sequence.
    let first = imported.sequence.keys[0].pose.clone();
    let mut doc = Document::from_file(DocumentFile::new(
        args.skeleton_out.clone(),
        imported.skeleton.clone(),
        first,
    ));
    super::apply(
        &mut doc,
        Edit::AddSequence(Box::new(imported.sequence.clone())),
    )
    .map_err(|e| format!("{file}: cannot write the document: {e}"))?;
    write_both(args, &skeleton_text, &mut doc)?;
    outln!(
        "{file}: {} joints, {} frames at {:.1} fps ({} keys) → {} and {}",
        imported.skeleton.joints().len(),
        capture.frames,
        imported.sequence.fps,
        imported.sequence.keys.len(),
        args.skeleton_out.display(),
        args.doc_out.display()
    );
    outln!("  {masses}");
    Ok(ExitCode::SUCCESS)
}

/// Writes the skeleton, then saves the document (the editor's Save); the document's text is
/// made first, so that nothing is written when it cannot be.
fn write_both(args: &ImportArgs, skeleton_text: &str, doc: &mut Document) -> Result<(), String> {
    doc.text_for(&args.doc_out)
        .map_err(|e| format!("{}: cannot write the document: {e}", args.file.display()))?;
    marionette_skeleton::ron_io::write_atomically(&args.skeleton_out, skeleton_text)
        .map_err(|e| format!("{}: cannot write: {e}", args.skeleton_out.display()))?;
    super::save(doc, &args.doc_out)
}

/// A rigged glTF character: its skeleton (naming the file as its skin, by a path relative to
/// the skeleton file) and a document at its rest pose; what was recognised is printed.
fn import_character(args: &ImportArgs, character: Character) -> Result<ExitCode, String> {
    let (
        CharacterImport {
            character,
            imported,
            ..
        },
        weighed,
    ) = import_weighed(character, &args.file, &args.skeleton_out).map_err(|e| e.to_string())?;
    let skeleton_text = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| format!("{}: cannot write the skeleton: {e}", args.file.display()))?;
    // A new document on the skeleton at its rest pose (its skin the character just read).
    let character = std::sync::Arc::new(character);
    let mut doc = Document::with_character(
        imported.skeleton.clone(),
        Some(args.skeleton_out.clone()),
        Some(character.clone()),
    );
    write_both(args, &skeleton_text, &mut doc)?;
    outln!("{}:", args.file.display());
    for line in character.report() {
        outln!("  {line}");
    }
    outln!("  {weighed}");
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
