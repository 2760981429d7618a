//! The Document file of docs/file-formats.md, version 1: the skeleton it uses (a path relative to the
//! document), the current pose, the locks and the sequences. Loading checks everything and names
//! the file and the culprit (a newer version, a missing skeleton, a lock naming a missing site or
//! joint, a duplicate name, a bad key); saving is atomic ([`ron_io::write_atomically`]: a temporary
//! file beside the target, flushed and synced, renamed over it).

use std::path::{Component, Path, PathBuf};

use marionette_ik::problem::GoalDef;
use marionette_skeleton::{FileError, Pose, PoseDefect, PoseFile, Skeleton, SkeletonError, ron_io};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::curve_name::curve_name;
use crate::key_file::{HandleDef, OnlyDef, handle_def, key_handles, keyed_parts};
use crate::lock::Lock;
use crate::sequence::{Key, KeyInterpolation, RootInterpolation, RotationInterpolation, Sequence};

/// The version of a one-figure document, which this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The version of a stage document (several figures and props, [`crate::stage::file`]).
pub const STAGE_VERSION: u32 = 2;

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Lock", deny_unknown_fields)]
pub(crate) struct LockDef {
    name: String,
    goal: GoalDef,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    enabled: bool,
    #[serde(default)]
    frames: Option<(i64, i64)>,
    #[serde(default, skip_serializing_if = "is_zero")]
    blend: i64,
    #[serde(default)]
    base: Option<String>,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Key", deny_unknown_fields)]
pub(crate) struct KeyDef {
    frame: i64,
    pose: PoseFile,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    only: Option<OnlyDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    interpolation: Option<KeyInterpolation>,
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    ease: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    handles: Vec<HandleDef>,
}

fn is_zero_f64(v: &f64) -> bool {
    *v == 0.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Sequence", deny_unknown_fields)]
pub(crate) struct SequenceDef {
    name: String,
    fps: f64,
    #[serde(default)]
    rotation: RotationInterpolation,
    #[serde(default)]
    root: RootInterpolation,
    #[serde(default = "yes")]
    hold_locks: bool,
    keys: Vec<KeyDef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "LibraryPose", deny_unknown_fields)]
pub(crate) struct LibraryPoseDef {
    name: String,
    pose: PoseFile,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Document", deny_unknown_fields)]
pub(crate) struct DocumentDef {
    pub(crate) version: u32,
    pub(crate) skeleton: String,
    #[serde(default)]
    pub(crate) pose: Option<PoseFile>,
    #[serde(default)]
    pub(crate) locks: Vec<LockDef>,
    #[serde(default)]
    pub(crate) sequences: Vec<SequenceDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) library: Vec<LibraryPoseDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) body: Option<crate::body::Body>,
}

use crate::version_probe::VersionProbe;

/// One way a document does not fit the format or its skeleton.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum DocumentDefect {
    /// Written by a newer Marionette.
    #[error(
        "version {found} is newer than this Marionette reads (version {supported}); open it with a newer Marionette"
    )]
    NewerVersion {
        /// The file's version.
        found: u32,
        /// What this build reads.
        supported: u32,
    },
    /// A stage (version 2: several figures or props) where one figure's document was expected.
    #[error(
        "this is a stage document (version 2: several figures or props); only a one-figure \
         document (version 1) can be read here"
    )]
    Stage,
    /// No version, or version 0.
    #[error("the document has no valid version (version: 1 is required)")]
    NoVersion,
    /// The pose does not fit the skeleton.
    #[error("pose: {0}")]
    Pose(PoseDefect),
    /// A lock's goal, base or values are wrong.
    #[error("lock \"{lock}\": {what}")]
    Lock {
        /// The lock's name.
        lock: String,
        /// What is wrong.
        what: String,
    },
    /// Two locks share a name.
    #[error("lock \"{lock}\" appears more than once; lock names must be unique")]
    DuplicateLock {
        /// The name.
        lock: String,
    },
    /// A sequence's keys or values are wrong.
    #[error("sequence \"{sequence}\": {what}")]
    Sequence {
        /// The sequence's name.
        sequence: String,
        /// What is wrong.
        what: String,
    },
    /// Two sequences share a name.
    #[error("sequence \"{sequence}\" appears more than once; sequence names must be unique")]
    DuplicateSequence {
        /// The name.
        sequence: String,
    },
    /// The body's mass is not a mass.
    #[error("body: {0}")]
    Body(String),
    /// A pose of the library does not fit the skeleton, or its name is empty or taken.
    #[error("library pose \"{pose}\": {what}")]
    LibraryPose {
        /// The pose's name.
        pose: String,
        /// What is wrong.
        what: String,
    },
}

/// Why a document could not be loaded or saved.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DocumentError {
    /// The document file itself.
    #[error(transparent)]
    File(#[from] FileError<DocumentDefect>),
    /// The skeleton it names.
    #[error("{document}: skeleton \"{path}\": {source}")]
    Skeleton {
        /// The document.
        document: String,
        /// The skeleton path as written in the document.
        path: String,
        /// Why the skeleton could not be loaded.
        source: SkeletonError,
    },
}

impl DocumentError {
    /// One line per problem, each naming the file (what `marionette check` prints).
    pub fn lines(&self) -> Vec<String> {
        self.to_string().lines().map(str::to_owned).collect()
    }
}

/// A loaded document: everything resolved against its skeleton.
#[derive(Debug, Clone)]
pub struct DocumentFile {
    /// Where the skeleton file is (as found from the document's folder).
    pub skeleton_path: PathBuf,
    /// The skeleton.
    pub skeleton: Skeleton,
    /// The current pose.
    pub pose: Pose,
    /// The locks, in file order.
    pub locks: Vec<Lock>,
    /// The sequences, in file order.
    pub sequences: Vec<Sequence>,
    /// The pose library, in file order.
    pub library: Vec<LibraryPose>,
    /// The figure's body (mass, de Leva's column); none: 75 kg, male.
    pub body: Option<crate::body::Body>,
}

/// A named pose kept in the document's pose library.
#[derive(Debug, Clone, PartialEq)]
pub struct LibraryPose {
    /// Unique in the library, not empty.
    pub name: String,
    /// The pose.
    pub pose: Pose,
}

pub(crate) fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `to` relative to the folder `from`, with `/` separators (as the format writes paths); `to`
/// itself where no relative path exists (another drive).
pub fn relative_path(from: &Path, to: &Path) -> String {
    let (Ok(from), Ok(to)) = (std::path::absolute(from), std::path::absolute(to)) else {
        return to.display().to_string();
    };
    fn norm(p: &Path) -> Vec<Component<'_>> {
        p.components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect()
    }
    let (a, b) = (norm(&from), norm(&to));
    if a.first() != b.first() {
        return to.display().to_string();
    }
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

impl DocumentFile {
    /// A new document on the skeleton file at `skeleton_path`, at `pose`, without locks or
    /// sequences.
    pub fn new(skeleton_path: PathBuf, skeleton: Skeleton, pose: Pose) -> DocumentFile {
        DocumentFile {
            skeleton_path,
            skeleton,
            pose,
            locks: Vec::new(),
            sequences: Vec::new(),
            library: Vec::new(),
            body: None,
        }
    }

    /// Loads a document and the skeleton it names.
    pub fn load(path: impl AsRef<Path>) -> Result<DocumentFile, DocumentError> {
        let path = path.as_ref();
        let file = ron_io::display_path(path);
        let text = ron_io::read_text(path).map_err(|source| FileError::Io {
            file: file.clone(),
            source,
        })?;
        DocumentFile::from_ron_str(&text, path)
    }

    /// Parses a document's text; `path` is where it lives (for the skeleton path and errors).
    pub fn from_ron_str(text: &str, path: &Path) -> Result<DocumentFile, DocumentError> {
        let file = ron_io::display_path(path);
        let invalid = |defects: Vec<DocumentDefect>| {
            DocumentError::File(FileError::Invalid {
                file: file.clone(),
                defects,
            })
        };
        // The version decides first (a stage file, a newer file, a file without one); it is
        // read from the whole parse when the text parses, else from a probe of the version
        // alone (parsing a long take twice doubled the time to open it).
        let version_defect = |version: u32| match version {
            STAGE_VERSION => Some(DocumentDefect::Stage),
            v if v > STAGE_VERSION => Some(DocumentDefect::NewerVersion {
                found: v,
                supported: STAGE_VERSION,
            }),
            0 => Some(DocumentDefect::NoVersion),
            _ => None,
        };
        let def = match FileError::<DocumentDefect>::parse_ron::<DocumentDef>(text, &file) {
            Ok(def) => {
                if let Some(defect) = version_defect(def.version) {
                    return Err(invalid(vec![defect]));
                }
                def
            }
            Err(e) => {
                let probe = VersionProbe::version_of(text).ok();
                if let Some(defect) = probe.and_then(version_defect) {
                    return Err(invalid(vec![defect]));
                }
                return Err(e.into());
            }
        };
        let skeleton_path = folder(path).join(&def.skeleton);
        let skeleton =
            Skeleton::load(&skeleton_path).map_err(|source| DocumentError::Skeleton {
                document: file.clone(),
                path: def.skeleton.clone(),
                source,
            })?;
        let (document, defects) = resolve(def, skeleton_path, skeleton);
        if defects.is_empty() {
            Ok(document)
        } else {
            Err(invalid(defects))
        }
    }

    /// The document as RON text, to be saved at `path` (the skeleton's path is written
    /// relative to it). Refused when it could not be opened again: a sequence beyond the limits
    /// ([`Sequence::defects`]), a root beyond the largest coordinate, or text larger than a
    /// document may be read ([`marionette_skeleton::ron_io::MAX_FILE_BYTES`]).
    pub fn to_ron_string(&self, path: &Path) -> Result<String, ron::Error> {
        write_pretty(&self.to_def(path)?)
    }

    /// The file's definition, paths written relative to `path`'s folder; refused as
    /// [`DocumentFile::to_ron_string`] says.
    pub(crate) fn to_def(&self, path: &Path) -> Result<DocumentDef, ron::Error> {
        let s = &self.skeleton;
        // What could not be opened again is not written (a sequence made by an import or a
        // retarget beyond the limits, say).
        for seq in &self.sequences {
            if let Some(defect) = seq.defects().into_iter().next() {
                return Err(ron::Error::Message(format!(
                    "sequence \"{}\": {defect}",
                    seq.name
                )));
            }
        }
        if let Some(v) = self
            .pose
            .q
            .iter()
            .take(3)
            .find(|v| !marionette_skeleton::coordinate_in_range(**v))
        {
            return Err(ron::Error::Message(format!(
                "the pose's root {v} is beyond ±{} m",
                marionette_skeleton::MAX_COORDINATE
            )));
        }
        let def = DocumentDef {
            version: FORMAT_VERSION,
            skeleton: relative_path(folder(path), &self.skeleton_path),
            pose: Some(self.pose.to_file(s)),
            locks: self
                .locks
                .iter()
                .filter_map(|lock| {
                    Some(LockDef {
                        name: lock.name.clone(),
                        goal: GoalDef::from_goal(s, lock.goal())?,
                        enabled: lock.enabled,
                        frames: lock.frames(),
                        blend: lock.blend(),
                        base: lock.base().map(|b| s.joint(b).name.clone()),
                    })
                })
                .collect(),
            sequences: self
                .sequences
                .iter()
                .map(|seq| SequenceDef {
                    name: seq.name.clone(),
                    fps: seq.fps,
                    rotation: seq.rotation,
                    root: seq.root,
                    hold_locks: seq.hold_locks,
                    keys: seq
                        .keys
                        .iter()
                        .map(|k| KeyDef {
                            frame: k.frame,
                            pose: k.pose.to_file(s),
                            only: k.only.as_ref().map(|o| OnlyDef {
                                joints: o.joints.iter().map(|&j| s.joint(j).name.clone()).collect(),
                                dofs: o
                                    .dofs
                                    .iter()
                                    .map(|&d| curve_name(s, d.state_index()))
                                    .collect(),
                                root: o.root,
                            }),
                            interpolation: k.interpolation,
                            ease: k.ease,
                            handles: k.handles.iter().map(|h| handle_def(s, h)).collect(),
                        })
                        .collect(),
                })
                .collect(),
            library: self
                .library
                .iter()
                .map(|p| LibraryPoseDef {
                    name: p.name.clone(),
                    pose: p.pose.to_file(s),
                })
                .collect(),
            body: self.body,
        };
        Ok(def)
    }

    /// Saves the document atomically at `path`: a kill at any moment leaves the old file or
    /// the new one, never a mix.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), DocumentError> {
        let path = path.as_ref();
        FileError::<DocumentDefect>::write_text(path, self.to_ron_string(path))?;
        Ok(())
    }
}

/// A document's definition as RON text, as every document is written (struct names, four-space
/// indents); refused when larger than a document may be read.
pub(crate) fn write_pretty<T: Serialize>(def: &T) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("    ")
        .separate_tuple_members(false)
        .compact_arrays(true);
    let body = ron::Options::default().to_string_pretty(def, config)?;
    let limit = marionette_skeleton::ron_io::MAX_FILE_BYTES;
    if body.len() as u64 >= limit {
        return Err(ron::Error::Message(format!(
            "the document would be {} MiB, and documents are read up to {} MiB (a capture \
             imported with fewer keys, e.g. --every 2, or a shorter sequence, fits)",
            body.len() >> 20,
            limit >> 20
        )));
    }
    Ok(format!("{body}\n"))
}

/// Resolves names and checks values; every defect found is listed.
pub(crate) fn resolve(
    def: DocumentDef,
    skeleton_path: PathBuf,
    skeleton: Skeleton,
) -> (DocumentFile, Vec<DocumentDefect>) {
    let mut defects = Vec::new();
    if def.version == 0 {
        defects.push(DocumentDefect::NoVersion);
    }
    let pose = match &def.pose {
        None => Pose::rest(&skeleton),
        Some(p) => Pose::from_file(&skeleton, p).unwrap_or_else(|ds| {
            defects.extend(ds.into_iter().map(DocumentDefect::Pose));
            Pose::rest(&skeleton)
        }),
    };
    let mut locks: Vec<Lock> = Vec::with_capacity(def.locks.len());
    for (index, l) in def.locks.iter().enumerate() {
        let lock_defect = |what: String| DocumentDefect::Lock {
            lock: l.name.clone(),
            what,
        };
        // A repeated name is reported once, at its second appearance.
        let earlier = def.locks[..index]
            .iter()
            .filter(|k| k.name == l.name)
            .count();
        if earlier > 0 {
            if earlier == 1 {
                defects.push(DocumentDefect::DuplicateLock {
                    lock: l.name.clone(),
                });
            }
            continue;
        }
        let goal = match l.goal.resolve(&skeleton, 0) {
            Ok(goal) => goal,
            Err(ds) => {
                defects.extend(ds.iter().map(|d| {
                    // The goal is the lock's only one: drop the problem file's "goal 0".
                    let text = d.to_string();
                    lock_defect(
                        text.strip_prefix("goal 0 ")
                            .map_or(text.clone(), |rest| format!("goal {rest}")),
                    )
                }));
                continue;
            }
        };
        let base = match &l.base {
            None => None,
            Some(name) => match skeleton.joint_by_name(name) {
                Some(j) => Some(j),
                None => {
                    defects.push(lock_defect(format!(
                        "base joint \"{name}\" is not in skeleton \"{}\"",
                        skeleton.name()
                    )));
                    continue;
                }
            },
        };
        let made = Lock::new(&skeleton, l.name.clone(), goal, base).and_then(|mut lock| {
            lock.enabled = l.enabled;
            lock.set_frames(l.frames)?;
            lock.set_blend(l.blend)?;
            Ok(lock)
        });
        match made {
            Ok(lock) => locks.push(lock),
            Err(e) => {
                let text = e.to_string();
                let prefix = format!("lock \"{}\": ", l.name);
                defects.push(lock_defect(
                    text.strip_prefix(&prefix).unwrap_or(&text).to_owned(),
                ));
            }
        }
    }
    let mut sequences: Vec<Sequence> = Vec::with_capacity(def.sequences.len());
    for s in def.sequences {
        if sequences.iter().any(|k| k.name == s.name) {
            defects.push(DocumentDefect::DuplicateSequence { sequence: s.name });
            continue;
        }
        let mut keys = Vec::with_capacity(s.keys.len());
        let mut bad = Vec::new();
        for k in &s.keys {
            let parts = match &k.only {
                None => Ok(None),
                Some(o) => keyed_parts(&skeleton, o).map(Some),
            };
            let handles = parts.and_then(|only| {
                let handles = key_handles(&skeleton, &k.handles, only.as_ref())?;
                Ok((only, handles))
            });
            let (only, handles) = match handles {
                Ok(h) => h,
                Err(e) => {
                    bad.push(format!("key at frame {}: {e}", k.frame));
                    continue;
                }
            };
            match Pose::from_file(&skeleton, &k.pose) {
                Ok(pose) => keys.push(Key {
                    only,
                    interpolation: k.interpolation,
                    ease: k.ease,
                    handles,
                    ..Key::new(k.frame, pose)
                }),
                Err(ds) => bad.extend(
                    ds.into_iter()
                        .map(|d| format!("key at frame {}: {d}", k.frame)),
                ),
            }
        }
        let sequence = Sequence {
            name: s.name,
            fps: s.fps,
            rotation: s.rotation,
            root: s.root,
            hold_locks: s.hold_locks,
            keys,
        };
        if bad.is_empty() {
            bad = sequence.defects();
        }
        if bad.is_empty() {
            sequences.push(sequence);
        } else {
            defects.extend(bad.into_iter().map(|what| DocumentDefect::Sequence {
                sequence: sequence.name.clone(),
                what,
            }));
        }
    }
    let mut library: Vec<LibraryPose> = Vec::with_capacity(def.library.len());
    for p in def.library {
        let defect = |what: String| DocumentDefect::LibraryPose {
            pose: p.name.clone(),
            what,
        };
        if p.name.trim().is_empty() {
            defects.push(defect("the name is empty".into()));
        } else if library.iter().any(|k| k.name == p.name) {
            defects.push(defect("the name appears more than once".into()));
        } else {
            match Pose::from_file(&skeleton, &p.pose) {
                Ok(pose) => library.push(LibraryPose { name: p.name, pose }),
                Err(ds) => defects.extend(ds.iter().map(|d| defect(d.to_string()))),
            }
        }
    }
    if let Some(what) = def.body.and_then(|b| b.defect()) {
        defects.push(DocumentDefect::Body(what));
    }
    (
        DocumentFile {
            skeleton_path,
            skeleton,
            pose,
            library,
            locks,
            sequences,
            body: def.body,
        },
        defects,
    )
}
