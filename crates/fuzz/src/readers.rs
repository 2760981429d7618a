//! The readers fuzzed, each run as its command runs it: the input written to a file in a work
//! folder and read with the same library call the command makes, then what the commands do
//! next with what they read ([`crate::paths`]). An `Err` is the reader refusing the input, which
//! is what it should do with most of them; a panic is caught by the caller.

use std::path::{Path, PathBuf};

use marionette_document::StageFile;
use marionette_editing::Script;
use marionette_ik::Problem;
use marionette_interchange::bvh::write::to_bvh;
use marionette_interchange::capture::{CaptureOptions, CaptureScale, read_take};
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_skeleton::{Fk, Pose, PoseError, Skeleton, builtin};

use crate::paths;

/// A file format Marionette reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Reader {
    /// Skeleton files (`marionette check`, the editor's --skeleton).
    Skeleton,
    /// Pose files (`marionette check --skeleton`, `fk --pose`, the editor's Open pose).
    Pose,
    /// Problem files (`marionette solve`).
    Problem,
    /// Document files (`marionette bake`, `export`, the editor's Open): baked, exported as
    /// BVH, glTF and JSON.
    Document,
    /// Replay scripts (`marionette-editor --replay`).
    Replay,
    /// BVH captures (`marionette import`, `retarget`, the editor's Import BVH and Retarget):
    /// imported and retargeted onto the humanoid.
    Bvh,
    /// glTF characters, JSON and binary (`marionette import`, `export`, the editor's Import
    /// character).
    Gltf,
    /// FBX files (`marionette import`, `export`, `retarget`, the editor's Import character and
    /// Retarget a capture): read by ufbx, imported and exported as a glTF character, and read
    /// as a capture (its first take) and retargeted.
    Fbx,
}

impl Reader {
    /// Every reader.
    pub const ALL: [Reader; 8] = [
        Reader::Skeleton,
        Reader::Pose,
        Reader::Problem,
        Reader::Document,
        Reader::Replay,
        Reader::Bvh,
        Reader::Gltf,
        Reader::Fbx,
    ];

    /// The reader's name (as the command line and the regression folders spell it).
    pub fn name(self) -> &'static str {
        match self {
            Reader::Skeleton => "skeleton",
            Reader::Pose => "pose",
            Reader::Problem => "problem",
            Reader::Document => "document",
            Reader::Replay => "replay",
            Reader::Bvh => "bvh",
            Reader::Gltf => "gltf",
            Reader::Fbx => "fbx",
        }
    }

    /// The valid files its inputs are made from, read from the repository at `repo`.
    pub fn seeds(self, repo: &Path) -> Result<Vec<Vec<u8>>, String> {
        let read = |p: PathBuf| std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()));
        // The files of `folder` whose names start with `prefix` and end with `suffix`, in order.
        let in_folder =
            |folder: &str, prefix: &str, suffix: &str| -> Result<Vec<Vec<u8>>, String> {
                let dir = repo.join(folder);
                let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
                    .map_err(|e| format!("{}: {e}", dir.display()))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.file_name().is_some_and(|n| {
                            let n = n.to_string_lossy();
                            n.starts_with(prefix) && n.ends_with(suffix)
                        })
                    })
                    .collect();
                paths.sort();
                paths.into_iter().map(read).collect()
            };
        let seeds = "crates/fuzz/seeds";
        let characters = "crates/interchange/tests/data/characters";
        Ok(match self {
            Reader::Skeleton => in_folder("skeletons", "", ".ron")?,
            Reader::Pose => in_folder(seeds, "pose-", ".ron")?,
            Reader::Problem => in_folder(seeds, "problem-", ".ron")?,
            Reader::Document => in_folder(seeds, "document-", ".ron")?,
            Reader::Replay => in_folder("scripts", "", "-replay.ron")?,
            Reader::Bvh => bvh_seeds(),
            Reader::Gltf => vec![
                read(repo.join(characters).join("RiggedSimple.gltf"))?,
                read(repo.join(characters).join("RiggedFigure.gltf"))?,
                read(repo.join(characters).join("authored/rigify_tpose.glb"))?,
                read(repo.join(characters).join("authored/vroid_tpose.vrm"))?,
            ],
            Reader::Fbx => vec![
                read(repo.join(characters).join("authored/mixamo_apose.fbx"))?,
                read(repo.join(characters).join("authored/rigify_tpose_zup.fbx"))?,
                read(
                    repo.join(characters)
                        .join("authored/mixamo_apose_animation.fbx"),
                )?,
            ],
        })
    }

    /// The file name an input is written to in the work folder.
    fn file_name(self) -> &'static str {
        match self {
            Reader::Bvh => "input.bvh",
            Reader::Gltf => "input.glb",
            Reader::Fbx => "input.fbx",
            _ => "input.ron",
        }
    }

    /// Reads a file whose start names no kind as this reader's kind.
    fn read_unnamed(self, path: &Path, work: &Path) -> Result<(), String> {
        let opened = match self {
            Reader::Skeleton => {
                Opened::Skeleton(Box::new(Skeleton::load(path).map_err(|e| e.to_string())?))
            }
            Reader::Pose => Opened::Pose(PoseError::read_ron(path).map_err(|e| e.to_string())?),
            Reader::Document => Opened::Document(Box::new(
                StageFile::load(path).map_err(|e| e.to_string())?.stage,
            )),
            Reader::Bvh => Opened::Capture(Box::new(
                read_take(path, CaptureScale::Guess, 1, None).map_err(|e| e.to_string())?,
            )),
            _ => return Err("not a file of this reader's kind".into()),
        };
        carry_along(opened, path, work)
    }

    /// Reads `input` as the commands do, in `work` (made by [`prepare_work_folder`]), and
    /// carries it along the whole path its commands take: a document baked and exported in
    /// every format, a capture imported and retargeted, a character imported and exported.
    /// What an export writes is checked ([`crate::outputs`]); an export no other tool could
    /// read panics, which the caller counts as a failure.
    pub fn run(self, input: &[u8], work: &Path) -> Result<(), String> {
        let path = work.join(self.file_name());
        std::fs::write(&path, input).map_err(|e| format!("cannot write the input: {e}"))?;
        let text = || marionette_skeleton::ron_io::read_text(&path).map_err(|e| e.to_string());
        match self {
            Reader::Problem => Problem::load(&path).map(drop).map_err(|e| e.to_string()),
            Reader::Replay => Script::parse(&text()?, "input.ron")
                .map(drop)
                .map_err(|e| e.to_string()),
            // Every other file is opened as every front end opens it: read once, taken by what
            // it holds.
            _ => {
                let options = CaptureOptions {
                    scale: CaptureScale::Guess,
                    ..CaptureOptions::default()
                };
                match open(&path, options) {
                    Ok(opened) => carry_along(opened, &path, work),
                    // A file whose start names no kind: read as this reader's kind (as
                    // `marionette import` reads it as a capture), so that each parser still
                    // meets every mutated text.
                    Err(OpenError::NotOpened {
                        kind: FileKind::Other,
                        ..
                    }) => self.read_unnamed(&path, work),
                    Err(e) => Err(e.to_string()),
                }
            }
        }
    }
}

/// BVH seeds made by our own writer: the stick figure and the humanoid, a few frames each, with
/// every joint turned.
fn bvh_seeds() -> Vec<Vec<u8>> {
    [builtin::stickman(), builtin::humanoid()]
        .iter()
        .map(|s| {
            let rest = Pose::rest(s).q;
            let frames: Vec<Vec<f64>> = (0..4)
                .map(|k| {
                    rest.iter()
                        .enumerate()
                        .map(|(i, v)| if i < 3 { *v } else { v + 0.05 * k as f64 })
                        .collect()
                })
                .collect();
            to_bvh(s, &frames, 30.0).to_text().into_bytes()
        })
        .collect()
}

/// Makes the folder inputs are read in: the shipped skeletons (which the problem and document
/// seeds name) and the stick figure's pose (which a problem seed starts from).
pub fn prepare_work_folder(repo: &Path, work: &Path) -> Result<(), String> {
    let skeletons = work.join("skeletons");
    std::fs::create_dir_all(&skeletons).map_err(|e| format!("{}: {e}", skeletons.display()))?;
    for entry in std::fs::read_dir(repo.join("skeletons")).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        std::fs::copy(entry.path(), skeletons.join(entry.file_name()))
            .map_err(|e| e.to_string())?;
    }
    std::fs::copy(
        repo.join("crates/fuzz/seeds/pose-pose.ron"),
        work.join("pose.ron"),
    )
    .map_err(|e| e.to_string())?;
    Ok(())
}

/// What the commands do with a file opened: a skeleton's pose computed and written back, a
/// pose fitted to the stick figure, a document baked and exported, a capture imported and
/// retargeted, a character imported and exported, a problem read with the files it names.
fn carry_along(opened: Opened, path: &Path, work: &Path) -> Result<(), String> {
    match opened {
        Opened::Skeleton(s) => {
            let mut fk = Fk::new(&s);
            fk.update(&s, &Pose::rest(&s).q);
            s.to_ron_string().map(drop).map_err(|e| e.to_string())
        }
        Opened::Pose(file) => {
            let s = builtin::stickman();
            let pose = Pose::from_file(&s, &file).map_err(|defects| format!("{defects:?}"))?;
            Fk::new(&s).update(&s, &pose.q);
            Ok(())
        }
        Opened::Document(stage) => paths::document(path, *stage),
        Opened::Capture(capture) => paths::capture(&capture, work),
        Opened::Character(character) => paths::character(*character, path, work),
        Opened::Problem(text) => Problem::from_ron_str(&text, path)
            .map(drop)
            .map_err(|e| e.to_string()),
    }
}
