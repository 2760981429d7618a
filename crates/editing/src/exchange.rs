//! Files for other tools from the editor: the shown sequence (baked, locks held) or the current
//! pose exported as BVH, glTF or JSON (of a stage: the whole stage as glb, the edited figure
//! placed on it as BVH or JSON, through the command line's own [`marionette_interchange::stage::export`]), and a BVH capture or a glTF character imported as a new
//! document, through the readers every front end shares ([`marionette_interchange`]). Failures
//! are errors that change nothing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marionette_interchange::capture::{Capture, CaptureOptions, CaptureScale};
use marionette_interchange::character::{Character, CharacterImport};
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_motion::{BakeSettings, BakedFrame, Baker, bake_with_threads};

use crate::document::Document;
use crate::pose_read::ReadPose;

pub use marionette_interchange::export::ExportFormat;

/// What an export wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// Frames written.
    pub frames: usize,
    /// The sequence's name, or "pose".
    pub what: String,
    /// What was written otherwise than asked (a mesh body that could not be read).
    pub warnings: Vec<String>,
}

/// What an import made.
#[derive(Debug)]
pub struct ImportedCapture {
    /// The new document (unsaved; its skeleton written beside the capture).
    pub document: Document,
    /// The skeleton file written.
    pub skeleton_path: PathBuf,
    /// The scale applied to the capture's lengths.
    pub scale: f64,
    /// Rows after the declared frame count, ignored.
    pub extra_rows: usize,
}

/// A file opened by what it holds ([`Document::open_work`]).
#[derive(Debug)]
pub enum OpenedWork {
    /// A Document file, opened.
    Document(Document),
    /// A new document on a skeleton file.
    Skeleton(Document),
    /// A character imported as a new document, with what was recognised, line by line.
    Character(ImportedCharacterDocument, Vec<String>),
    /// A capture imported as a new document.
    Capture(ImportedCapture),
    /// A pose file, read: for the open document ([`crate::Edit::OpenPose`]).
    Pose(ReadPose),
}

/// A character imported as a new document.
#[derive(Debug)]
pub struct ImportedCharacterDocument {
    /// The new document (unsaved; its skeleton written beside the character file).
    pub document: Document,
    /// The skeleton file written.
    pub skeleton_path: PathBuf,
}

/// Everything an export needs, owned, so it can run on a thread of its own while the editor
/// keeps drawing.
#[derive(Debug, Clone)]
pub struct ExportJob {
    skeleton: marionette_skeleton::Skeleton,
    sequence: Option<marionette_document::Sequence>,
    locks: Vec<marionette_document::Lock>,
    pose: Vec<f64>,
    /// The format.
    pub format: ExportFormat,
    /// Where it goes.
    pub path: PathBuf,
    assets: Option<PathBuf>,
    /// The skeleton's file (a character's skin is found beside it).
    skeleton_file: Option<PathBuf>,
    /// The character the skeleton's skin names, as the document read it.
    character: Option<Arc<Character>>,
    /// For a stage: the whole of it, the edited figure's index and the document's folder
    /// (a glb holds every figure and prop; BVH and JSON the edited figure, placed on it).
    stage: Option<(marionette_document::Stage, usize, PathBuf)>,
}

impl ExportJob {
    /// Frames the export writes.
    pub fn frames(&self) -> usize {
        self.sequence.as_ref().map_or(1, |s| {
            (s.keys[s.keys.len() - 1].frame - s.keys[0].frame + 1) as usize
        })
    }

    /// Bakes (calling `progress` after each frame) and writes the file.
    pub fn run(&self, progress: &(dyn Fn() + Sync)) -> Result<Exported, String> {
        if let Some((stage, figure, folder)) = &self.stage {
            use marionette_interchange::stage::export::{StageExport, export_stage};
            let export = StageExport {
                stage,
                sequence: self.sequence.as_ref().map(|s| s.name.as_str()),
                figure: (self.format != ExportFormat::Glb).then_some(*figure),
                format: self.format,
                folder,
                assets: self.assets.as_deref(),
                pose_name: "pose",
            };
            let written = export_stage(export, progress)?;
            marionette_skeleton::ron_io::write_bytes_atomically(&self.path, &written.bytes)
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
            return Ok(Exported {
                frames: written.frames,
                what: written.name,
                warnings: written.warnings,
            });
        }
        let (what, fps, frames) = match &self.sequence {
            Some(seq) => {
                let baker = Baker::new(&self.skeleton, seq, &self.locks, BakeSettings::default());
                let frames = bake_with_threads(&baker, 0, progress).map_err(|e| e.to_string())?;
                (seq.name.clone(), seq.fps, frames)
            }
            None => {
                let frame = BakedFrame {
                    frame: 0,
                    q: self.pose.clone(),
                    lock_errors: Vec::new(),
                };
                progress();
                ("pose".to_owned(), 24.0, vec![frame])
            }
        };
        let sources = marionette_interchange::export::Sources {
            assets: self.assets.as_deref(),
            skeleton_file: self.skeleton_file.as_deref(),
            character: self.character.as_deref(),
            stage: None,
        };
        let (bytes, warnings) = marionette_interchange::export::export_bytes(
            self.format,
            &self.skeleton,
            &self.locks,
            &what,
            fps,
            &frames,
            sources,
        )?;
        marionette_skeleton::ron_io::write_bytes_atomically(&self.path, &bytes)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(Exported {
            frames: frames.len(),
            what,
            warnings,
        })
    }
}

impl Document {
    /// What exporting the shown sequence (every frame from its first key to its last, locks
    /// held), or the current pose when no sequence is shown, to `path` as `format` takes (mesh
    /// bodies read from `assets`).
    pub fn export_job(
        &self,
        format: ExportFormat,
        path: &Path,
        assets: Option<&Path>,
    ) -> ExportJob {
        ExportJob {
            skeleton: self.skeleton.clone(),
            sequence: self
                .current_sequence()
                .and_then(|i| self.sequences.get(i))
                .cloned(),
            locks: self.locks.clone(),
            pose: self.pose.clone(),
            format,
            path: path.to_path_buf(),
            assets: assets.map(Path::to_path_buf),
            skeleton_file: self.source.clone(),
            character: self.character().cloned(),
            stage: self
                .is_stage()
                .then(|| (self.to_stage(), self.active_figure(), self.folder())),
        }
    }

    /// Opens the file at `path` by what it holds, reading it once ([`open`]): a document, a
    /// skeleton (a new document on it), a rigged character or a capture (imported as a new
    /// document, the skeleton written beside the file), or a pose file (to apply to the open
    /// document). A capture's scale is guessed ([`CaptureScale::Guess`]).
    pub fn open_work(path: &Path) -> Result<OpenedWork, OpenError> {
        let options = CaptureOptions {
            scale: CaptureScale::Guess,
            ..CaptureOptions::default()
        };
        Ok(match open(path, options)? {
            Opened::Document(stage) => {
                let mut document = Document::from_stage(*stage);
                document.file = Some(path.to_path_buf());
                OpenedWork::Document(document)
            }
            Opened::Skeleton(skeleton) => {
                OpenedWork::Skeleton(Document::new(*skeleton, Some(path.to_path_buf())))
            }
            Opened::Character(character) => {
                let (imported, report) = Document::character_document(*character, path)?;
                OpenedWork::Character(imported, report)
            }
            Opened::Capture(capture) => OpenedWork::Capture(Document::capture_document(*capture)?),
            Opened::Pose(file) => OpenedWork::Pose(ReadPose {
                path: path.to_path_buf(),
                file,
            }),
            // The editor does not solve problem files (`marionette solve` does).
            Opened::Problem(_) => {
                return Err(OpenError::NotOpened {
                    file: marionette_skeleton::ron_io::display_path(path),
                    kind: marionette_interchange::file_kind::FileKind::Problem,
                });
            }
        })
    }

    /// A rigged character read from `path` (`.glb`, `.gltf`, `.vrm`, `.fbx`) imported: its
    /// skeleton written beside it (`NAME.skeleton.ron`, naming the file as its skin), a new
    /// unsaved document at its rest pose holding the character; with what was recognised, line
    /// by line.
    pub(crate) fn character_document(
        character: Character,
        path: &Path,
    ) -> Result<(ImportedCharacterDocument, Vec<String>), OpenError> {
        let name = path.file_stem().map_or_else(
            || "character".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let skeleton_path = path.with_file_name(format!("{name}.skeleton.ron"));
        let (
            CharacterImport {
                character,
                imported,
                ..
            },
            weighed,
        ) = crate::weighed_character::import_weighed(character, path, &skeleton_path)?;
        write_skeleton(&skeleton_path, &imported.skeleton_file)?;
        let mut report = character.report();
        report.push(weighed.to_owned());
        let mut document = Document::with_character(
            imported.skeleton,
            Some(skeleton_path.clone()),
            Some(Arc::new(character)),
        );
        document.saved_revision = u64::MAX; // unsaved until saved
        Ok((
            ImportedCharacterDocument {
                document,
                skeleton_path,
            },
            report,
        ))
    }

    /// A capture read imported: its skeleton written beside it (`NAME.skeleton.ron`), a new
    /// unsaved document with one sequence keyed on every frame, shown.
    fn capture_document(mut capture: Capture) -> Result<ImportedCapture, OpenError> {
        crate::weighed_character::weigh_capture(&mut capture);
        let path = capture.path.as_path();
        let skeleton_path = path.with_file_name(format!("{}.skeleton.ron", capture.name));
        write_skeleton(&skeleton_path, &capture.imported.skeleton_file)?;
        let mut document = Document::from_file(capture.imported.document(skeleton_path.clone()));
        document.sequence = Some(0);
        document.frame = 0;
        document.saved_revision = u64::MAX; // unsaved until saved
        Ok(ImportedCapture {
            document,
            skeleton_path,
            scale: capture.scale,
            extra_rows: capture.extra_rows,
        })
    }
}

/// Writes an imported skeleton file at `path`, or says why it could not be (naming the file).
fn write_skeleton(
    path: &Path,
    skeleton: &marionette_skeleton::format::SkeletonFile,
) -> Result<(), OpenError> {
    let failed = |source| OpenError::Read {
        file: path.display().to_string(),
        source,
    };
    let text = marionette_skeleton::ron_io::to_pretty("Skeleton", skeleton)
        .map_err(|e| failed(std::io::Error::other(e.to_string())))?;
    marionette_skeleton::ron_io::write_atomically(path, &text).map_err(failed)
}
