//! A motion capture file read once, the same way for every front end: `marionette import` and
//! `retarget`, the editor's Import BVH and Retarget a capture, the replays and the fuzzer all
//! call [`read_capture`]. It reads the file (at most [`MAX_DATA_BYTES`]), parses it ([`bvh`];
//! an FBX file's take is first read as BVH, [`crate::fbx::capture`]),
//! chooses the scale ([`CaptureScale`]: given, or guessed from the figure's height) and makes
//! the skeleton and the sequence ([`crate::bvh::import`]). Every error names the file.

use std::path::{Path, PathBuf};

use marionette_skeleton::ron_io::{MAX_DATA_BYTES, read_bytes};

use crate::bvh;
use crate::bvh::import::{ImportError, Imported, import};
use crate::bvh::parse::BvhError;

/// The height a guessed scale makes a capture's figure on its first frame (metres, lowest to
/// highest joint): an adult's ([`CaptureScale::Guess`]).
pub const PERSON_HEIGHT: f64 = 1.70;

/// Units captures are written in, metres each: millimetres, centimetres, inches, CMU's
/// (1/0.45 inch, the cgspeed BVH files), decimetres, feet, metres. A guess within
/// [`UNIT_TOLERANCE`] of one of them is taken to be it.
pub const KNOWN_UNITS: [(f64, &str); 7] = [
    (0.001, "millimetres"),
    (0.01, "centimetres"),
    (0.0254, "inches"),
    (0.0254 / 0.45, "CMU's units (1/0.45 inch)"),
    (0.1, "decimetres"),
    (0.3048, "feet"),
    (1.0, "metres"),
];

/// How far (as a ratio) a guessed scale may be from a known unit to be taken as it: a person
/// is 1.70 m ± 25 %.
pub const UNIT_TOLERANCE: f64 = 1.25;

/// How a capture's lengths become metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CaptureScale {
    /// Multiplied by this (> 0): `--scale`; 1 for a capture in metres, 0.01 in centimetres.
    Times(f64),
    /// The scale that makes the figure on its first frame a person's height
    /// ([`PERSON_HEIGHT`]), taken as the nearest of the [`KNOWN_UNITS`] when within
    /// [`UNIT_TOLERANCE`] of it ([`guess_scale`]; the editor's import, where no one is asked,
    /// and the physics check without `--scale`).
    Guess,
}

/// A capture read: its skeleton and sequence, and how they were made.
#[derive(Debug, Clone)]
pub struct Capture {
    /// The file.
    pub path: PathBuf,
    /// The file's stem: the sequence's name and the skeleton's.
    pub name: String,
    /// The skeleton, its file and the sequence (one key per frame, or every n-th).
    pub imported: Imported,
    /// The scale applied to the capture's lengths.
    pub scale: f64,
    /// The frames of motion the file declares (and holds).
    pub frames: usize,
    /// Rows of motion after the declared frames, ignored.
    pub extra_rows: usize,
    /// For an FBX file: every take's name, and the one read.
    pub takes: Option<(Vec<String>, String)>,
}

/// Why a capture could not be read; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a BVH capture (the line at fault).
    #[error("{file}: {source}")]
    Parse {
        /// The file.
        file: String,
        /// What is wrong, and where.
        source: BvhError,
    },
    /// The FBX file could not be read, or holds no take to read.
    #[error(transparent)]
    Fbx(#[from] crate::fbx::FbxError),
    /// The capture does not make a skeleton and a sequence.
    #[error("{file}: {source}")]
    Import {
        /// The file.
        file: String,
        /// What is wrong.
        source: ImportError,
    },
}

/// Reads the capture at `path`: lengths scaled as `scale` says, a key every `every` frames (and
/// on the last). An FBX file's first take is read ([`read_take`]).
pub fn read_capture(
    path: &Path,
    scale: CaptureScale,
    every: usize,
) -> Result<Capture, CaptureError> {
    read_take(path, scale, every, None)
}

/// [`read_capture`], reading the take named `take` of an FBX file (the first when `None`; a BVH
/// file has one, and `take` is refused for it). An FBX file's lengths are in metres already: a
/// guessed scale is 1.
pub fn read_take(
    path: &Path,
    scale: CaptureScale,
    every: usize,
    take: Option<&str>,
) -> Result<Capture, CaptureError> {
    let bytes =
        read_bytes(path, MAX_DATA_BYTES, "a capture").map_err(|source| CaptureError::Read {
            file: path.display().to_string(),
            source,
        })?;
    capture_of_bytes(path, &bytes, CaptureOptions { scale, every, take })
}

/// How a capture is read: at which scale, keying every how many frames, which take of an FBX
/// file (its first when `None`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaptureOptions<'a> {
    /// The capture's lengths are multiplied by this (or it is guessed).
    pub scale: CaptureScale,
    /// Key every N-th frame (and the last).
    pub every: usize,
    /// An FBX file's take, by name.
    pub take: Option<&'a str>,
}

impl Default for CaptureOptions<'_> {
    /// At the file's own scale, every frame, an FBX file's first take.
    fn default() -> Self {
        CaptureOptions {
            scale: CaptureScale::Times(1.0),
            every: 1,
            take: None,
        }
    }
}

/// [`read_take`] of a file already read (`bytes`, from `path`).
pub(crate) fn capture_of_bytes(
    path: &Path,
    bytes: &[u8],
    options: CaptureOptions,
) -> Result<Capture, CaptureError> {
    let file = path.display().to_string();
    if crate::fbx::looks_like_fbx(bytes) {
        let read = crate::fbx::capture::fbx_capture(bytes, &file, options.take)?;
        return capture_of_fbx(path, read, options);
    }
    if let Some(take) = options.take {
        return Err(CaptureError::Fbx(crate::fbx::FbxError {
            file,
            why: format!("a BVH file has no takes to choose from (\"{take}\" asked for)"),
        }));
    }
    let parsed = bvh::parse::parse(&String::from_utf8_lossy(bytes))
        .map_err(|source| CaptureError::Parse { file, source })?;
    capture_of(path, parsed, None, options)
}

/// The capture of an FBX file's take already read (`read`, from `path`).
pub(crate) fn capture_of_fbx(
    path: &Path,
    read: crate::fbx::capture::FbxCapture,
    options: CaptureOptions,
) -> Result<Capture, CaptureError> {
    let parsed = bvh::parse::Parsed {
        bvh: read.bvh,
        extra_rows: 0,
    };
    capture_of(path, parsed, Some((read.takes, read.take)), options)
}

/// The capture of a parsed take: scaled (a guessed scale is 1 for an FBX file, whose lengths are
/// in metres already), keyed every `options.every` frames, named after the file.
fn capture_of(
    path: &Path,
    parsed: bvh::parse::Parsed,
    takes: Option<(Vec<String>, String)>,
    options: CaptureOptions,
) -> Result<Capture, CaptureError> {
    let file = path.display().to_string();
    let scale = match (options.scale, &takes) {
        (CaptureScale::Times(s), _) => s,
        (CaptureScale::Guess, Some(_)) => 1.0,
        (CaptureScale::Guess, None) => guessed_scale(&parsed.bvh),
    };
    let name = path.file_stem().map_or_else(
        || "capture".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let imported = import(&parsed.bvh, scale, options.every, &name)
        .map_err(|source| CaptureError::Import { file, source })?;
    Ok(Capture {
        path: path.to_path_buf(),
        name,
        imported,
        scale,
        frames: parsed.bvh.frames.len(),
        extra_rows: parsed.extra_rows,
        takes,
    })
}

/// The scale [`CaptureScale::Guess`] takes for `capture` ([`guess_scale`]).
pub fn guessed_scale(capture: &bvh::Bvh) -> f64 {
    guess_scale(capture).0
}

/// A guessed scale and what it was taken for: the scale that makes the figure on the first
/// frame [`PERSON_HEIGHT`] tall (lowest to highest joint), or the nearest of the
/// [`KNOWN_UNITS`] within [`UNIT_TOLERANCE`] of it ("centimetres", …; "a person's height" when
/// none is). A capture with no frames or no height is taken to be in metres.
pub fn guess_scale(capture: &bvh::Bvh) -> (f64, &'static str) {
    if capture.frames.is_empty() {
        return (1.0, "metres");
    }
    let heights = capture.world_positions(0).into_iter().map(|p| p.y);
    let (low, high) = heights.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    let height = high - low;
    if !height.is_finite() || height <= 0.0 {
        return (1.0, "metres");
    }
    let wanted = PERSON_HEIGHT / height;
    let nearest = KNOWN_UNITS
        .iter()
        .min_by(|a, b| {
            let off = |u: f64| (wanted / u).ln().abs();
            off(a.0).total_cmp(&off(b.0))
        })
        .expect("known units");
    if (wanted / nearest.0).ln().abs() <= UNIT_TOLERANCE.ln() {
        (nearest.0, nearest.1)
    } else {
        (wanted, "a person's height")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMU: &str = "/usr/share/assimp/models/BVH/01_01.bvh";

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        path
    }

    const SMALL: &str = "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n \
        JOINT head\n {\n  OFFSET 0 H 0\n  CHANNELS 1 Xrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\n\
        MOTION\nFrames: 2\nFrame Time: 0.04\n0 1 0 0\n0 1 0 10\n";

    #[test]
    fn a_guess_makes_a_person_in_a_known_unit_and_a_given_scale_is_kept() {
        let dir = tempfile::tempdir().expect("a folder");
        let tall = write(dir.path(), "tall.bvh", &SMALL.replace(" H ", " 150 "));
        let short = write(dir.path(), "short.bvh", &SMALL.replace(" H ", " 1.6 "));
        let doll = write(dir.path(), "doll.bvh", &SMALL.replace(" H ", " 0.5 "));
        let guessed = read_capture(&tall, CaptureScale::Guess, 1).expect("reads");
        assert_eq!(guessed.scale, 0.01);
        assert_eq!(guessed.name, "tall");
        assert_eq!((guessed.frames, guessed.extra_rows), (2, 0));
        assert_eq!(guessed.imported.sequence.keys.len(), 2);
        assert_eq!(
            read_capture(&short, CaptureScale::Guess, 1)
                .expect("reads")
                .scale,
            1.0
        );
        // Of no known unit: made a person's height (0.5 units to its head joint).
        let read = read_capture(&doll, CaptureScale::Guess, 1).expect("reads");
        assert!(
            (read.scale - PERSON_HEIGHT / 0.5).abs() < 1e-12,
            "{}",
            read.scale
        );
        let given = read_capture(&tall, CaptureScale::Times(0.5), 1).expect("reads");
        assert_eq!(given.scale, 0.5);
        let head = given.imported.skeleton.joint_by_name("head").expect("head");
        assert_eq!(given.imported.skeleton.joint(head).offset.y, 75.0);
    }

    #[test]
    fn every_failure_names_the_file() {
        let dir = tempfile::tempdir().expect("a folder");
        let broken = write(dir.path(), "broken.bvh", "HIERARCHY\nROOT hips\n{");
        let missing = dir.path().join("missing.bvh");
        let no_frames = write(
            dir.path(),
            "still.bvh",
            &SMALL
                .replace(" H ", " 1 ")
                .replace("Frames: 2", "Frames: 0")
                .replace("0 1 0 0\n0 1 0 10\n", ""),
        );
        for (path, why) in [
            (&broken, "line"),
            (&missing, "No such file"),
            (&no_frames, "no frames"),
        ] {
            let e = read_capture(path, CaptureScale::Guess, 1).expect_err("refused");
            let text = e.to_string();
            assert!(text.starts_with(&path.display().to_string()), "{text}");
            assert!(text.contains(why), "{text}");
        }
    }

    #[test]
    fn the_cmu_jumps_are_in_cmus_units_and_boxing_in_centimetres() {
        if !Path::new(CMU).exists() {
            panic!(
                "{CMU} is missing: scripts/ensure-system-packages.sh installs assimp-testmodels"
            );
        }
        let capture = read_capture(Path::new(CMU), CaptureScale::Guess, 1).expect("reads");
        // CMU's cgspeed files are in 1/0.45 inch (0.05644 m): a 1.5 m figure to its head.
        assert!((capture.scale - 0.05644).abs() < 1e-5, "{}", capture.scale);
        assert_eq!(capture.frames, capture.imported.sequence.keys.len());
        let boxing = Path::new(CMU).with_file_name("Boxing_Toes.bvh");
        let capture = read_capture(&boxing, CaptureScale::Guess, 1).expect("reads");
        assert_eq!(capture.scale, 0.01);
    }
}
