//! What the commands do with a file once read, for the readers whose files go further: a
//! document is baked (as `marionette bake`) and exported in every format (as `marionette
//! export`, the sequences and the pose); a capture is imported (as `marionette import` and the
//! editor's Import BVH) and retargeted onto the built-in humanoid (as `marionette retarget`); a
//! character is imported and exported posed. Bakes are cut to [`BAKED_FRAMES`] frames so that a
//! valid long sequence does not make a slow input; the range arithmetic runs on every frame
//! number all the same.

use std::path::Path;

use marionette_document::{DocumentFile, Sequence, Stage, StageFile};
use marionette_interchange::capture::Capture;
use marionette_interchange::character::Character;
use marionette_interchange::export::{ExportFormat, OnStage, Sources, export_bytes};
use marionette_interchange::retarget::retarget_imported;
use marionette_motion::frames_file::frames_text;
use marionette_motion::stage::frames_file::props_json;
use marionette_motion::stage::{StageBake, StageBaker, write_stage_frames};
use marionette_motion::{BakeSettings, BakedFrame, Baker, bake_with_threads};
use marionette_skeleton::{Fk, Pose, Skeleton, builtin};

use crate::outputs::check_export;

/// A sequence spanning at most this many frames is baked whole, as `marionette bake` bakes it;
/// a longer one has its first this many frames baked one by one.
pub const BAKED_FRAMES: i64 = 12;

/// A document: read, written back, each sequence (up to two) baked and exported, the pose
/// exported.
pub fn document(path: &Path, stage: Stage) -> Result<(), String> {
    let file = StageFile { stage };
    file.to_ron_string(path).map_err(|e| e.to_string())?;
    let doc = &match file.stage.into_one_figure() {
        Ok(doc) => doc,
        Err(stage) => return self::stage(&stage),
    };
    for sequence in doc.sequences.iter().take(2) {
        let frames = bake(doc, sequence)?;
        frames_text(
            &doc.skeleton,
            &doc.locks,
            &sequence.name,
            sequence.fps,
            &frames,
        );
        export_all(doc, &sequence.name, sequence.fps, &frames, None)?;
    }
    let pose = BakedFrame {
        frame: 0,
        q: doc.pose.q.clone(),
        lock_errors: Vec::new(),
    };
    export_all(doc, "pose", 24.0, &[pose], None)
}

/// A stage: each sequence (up to two) baked as `marionette bake` bakes it (cut to
/// [`BAKED_FRAMES`] frames) and written, and every figure exported as BVH and JSON as
/// `marionette export --figure` exports it.
fn stage(stage: &Stage) -> Result<(), String> {
    for name in stage.sequence_names().into_iter().take(2) {
        let baker = StageBaker::new(stage, name, BakeSettings::default())?;
        let (first, last) = baker.range();
        let mut scratch = baker.scratch();
        let frames: Vec<_> = (first..=last.min(first + BAKED_FRAMES - 1))
            .map(|f| baker.frame(f, &mut scratch))
            .collect();
        let props = baker.props(&frames);
        let bake = StageBake { frames, props };
        let mut out = Vec::new();
        write_stage_frames(&mut out, stage, name, baker.fps(), &bake).map_err(|e| e.to_string())?;
        let props: Vec<_> = (0..bake.frames.len())
            .map(|k| props_json(stage, &bake, k))
            .collect();
        for (f, figure) in stage.figures.iter().enumerate() {
            let frames: Vec<BakedFrame> = bake
                .frames
                .iter()
                .map(|frame| frame.figures[f].clone())
                .collect();
            let on_stage = OnStage {
                placement: figure.placement.isometry(),
                props: &props,
            };
            export_all(&figure.document, name, baker.fps(), &frames, Some(on_stage))?;
        }
    }
    Ok(())
}

/// The sequence's frames, locks held: the whole of a short one, the first of a long one.
fn bake(doc: &DocumentFile, sequence: &Sequence) -> Result<Vec<BakedFrame>, String> {
    let baker = Baker::new(&doc.skeleton, sequence, &doc.locks, BakeSettings::default());
    let (first, last) = baker.range();
    if last - first < BAKED_FRAMES {
        return bake_with_threads(&baker, 1, &|| {}).map_err(|e| e.to_string());
    }
    let mut fk = Fk::new(&doc.skeleton);
    Ok((first..first + BAKED_FRAMES)
        .map(|f| baker.frame(f, &mut fk))
        .collect())
}

/// Every export format of `frames`; each file written is checked.
fn export_all(
    doc: &DocumentFile,
    name: &str,
    fps: f64,
    frames: &[BakedFrame],
    stage: Option<OnStage<'_>>,
) -> Result<(), String> {
    let formats: &[ExportFormat] = match stage {
        // A stage's figure: BVH and JSON (a stage is not written as glb).
        Some(_) => &[ExportFormat::Bvh, ExportFormat::Json],
        None => &[ExportFormat::Bvh, ExportFormat::Glb, ExportFormat::Json],
    };
    for &format in formats {
        let sources = Sources {
            assets: None,
            skeleton_file: Some(&doc.skeleton_path),
            character: None,
            stage,
        };
        let (bytes, _) = export_bytes(
            format,
            &doc.skeleton,
            &doc.locks,
            name,
            fps,
            frames,
            sources,
        )?;
        check_export(format, &bytes, &doc.skeleton, frames.len(), 0);
    }
    Ok(())
}

/// A capture: imported as the editor imports it (the scale guessed) with its skeleton and
/// document written as `marionette import` writes them, then retargeted onto the humanoid.
pub fn capture(capture: &Capture, work: &Path) -> Result<(), String> {
    let imported = &capture.imported;
    marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .map_err(|e| e.to_string())?;
    let doc = imported.document(work.join("input.skeleton.ron"));
    doc.to_ron_string(&work.join("input.marionette.ron"))
        .map_err(|e| e.to_string())?;
    let target = builtin::humanoid();
    let rest = builtin::standing(&target).q;
    let result = retarget_imported(imported, (&target, &rest), &[], &capture.name)
        .map_err(|e| e.to_string())?;
    let defects = result.sequence.defects();
    assert!(
        defects.is_empty(),
        "the retargeted sequence is invalid: {defects:?}"
    );
    Ok(())
}

/// A character: imported as `marionette import` imports it, then exported at its rest pose.
pub fn character(character: Character, path: &Path, work: &Path) -> Result<(), String> {
    let skeleton_out = work.join("input.skeleton.ron");
    let (import, _) =
        marionette_editing::weighed_character::import_weighed(character, path, &skeleton_out)
            .map_err(|e| e.to_string())?;
    let _ = import.character.report();
    let skeleton: &Skeleton = &import.imported.skeleton;
    let rest = Pose::rest(skeleton).q;
    let bytes = marionette_interchange::character::export::character_glb(
        &import.character,
        skeleton,
        &[rest],
        24.0,
        "pose",
    )
    .map_err(|e| e.to_string())?;
    let copied = import.character.file.json["accessors"]
        .as_array()
        .map_or(0, Vec::len);
    check_export(ExportFormat::Glb, &bytes, skeleton, 1, copied);
    Ok(())
}
