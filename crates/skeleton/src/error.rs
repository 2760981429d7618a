//! Errors of the skeleton loader. Every error names the file; every semantic one also names the
//! joint, group or site at fault (`docs/skeleton-format.md`, "Errors a loader must report").

use std::fmt;

use thiserror::Error;

/// Why a file (skeleton, pose, and later problem files) could not be loaded or saved. `D` is the
/// format's own list of semantic defects, so every format reports in the same three shapes.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError<D: fmt::Display + fmt::Debug> {
    /// The file could not be read or written.
    #[error("{file}: {source}")]
    Io {
        /// The file at fault.
        file: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// RON syntax or type error, with the line and column RON reports.
    #[error("{file}:{line}:{col}: {message}")]
    Syntax {
        /// The file at fault.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// RON's message.
        message: String,
    },
    /// The file parses but breaks the format's rules; every defect found is listed.
    #[error("{}", DefectList { file, defects })]
    Invalid {
        /// The file at fault.
        file: String,
        /// Each rule broken, in file order (never empty).
        defects: Vec<D>,
    },
}

/// Why a skeleton file could not be loaded or saved.
pub type SkeletonError = FileError<Defect>;

impl<D: fmt::Display + fmt::Debug> FileError<D> {
    /// The defects of an [`FileError::Invalid`] error; empty for the other kinds.
    pub fn defects(&self) -> &[D] {
        match self {
            FileError::Invalid { defects, .. } => defects,
            _ => &[],
        }
    }

    /// The file at fault.
    pub fn file(&self) -> &str {
        match self {
            FileError::Io { file, .. }
            | FileError::Syntax { file, .. }
            | FileError::Invalid { file, .. } => file,
        }
    }

    /// One line per problem, each starting with the file name (what `marionette check` prints).
    pub fn lines(&self) -> Vec<String> {
        self.to_string().lines().map(str::to_owned).collect()
    }

    /// Reads and parses a RON file into `T`; semantic checks are the caller's.
    pub fn read_ron<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<T, Self> {
        let file = crate::ron_io::display_path(path);
        let text = crate::ron_io::read_text(path).map_err(|source| FileError::Io {
            file: file.clone(),
            source,
        })?;
        Self::parse_ron(&text, &file)
    }

    /// Parses RON text into `T`; `file` names it in errors.
    pub fn parse_ron<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, Self> {
        crate::ron_io::parse(text).map_err(|e| FileError::Syntax {
            file: file.to_owned(),
            line: e.line,
            col: e.col,
            message: e.message,
        })
    }

    /// Writes text atomically to `path`.
    pub fn write_text(
        path: &std::path::Path,
        text: Result<String, ron::Error>,
    ) -> Result<(), Self> {
        let file = crate::ron_io::display_path(path);
        let text = text.map_err(|e| FileError::Io {
            file: file.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        crate::ron_io::write_atomically(path, &text)
            .map_err(|source| FileError::Io { file, source })
    }
}

/// Formats a defect list as one `FILE: defect` line per defect.
pub(crate) struct DefectList<'a, T> {
    pub(crate) file: &'a str,
    pub(crate) defects: &'a [T],
}

impl<T: fmt::Display> fmt::Display for DefectList<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.defects.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}: {d}", self.file)?;
        }
        Ok(())
    }
}

/// Which DOF of a joint, for messages: `DOF 2 (Hinge)` with a 1-based index as people count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DofRef {
    /// 0-based index in the joint's `dofs` list.
    pub index: usize,
}

impl fmt::Display for DofRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DOF {}", self.index + 1)
    }
}

/// One broken rule of the skeleton format.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Defect {
    /// `version` is not one this program reads.
    #[error("unsupported format version {found} (this program reads version {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: i64,
        /// The version this program reads.
        supported: u32,
    },
    /// The hierarchy's top node is a group.
    #[error("the hierarchy must start with a Joint (the root), not Group \"{group}\"")]
    RootIsGroup {
        /// The group at the top.
        group: String,
    },
    /// More joints than a skeleton may have.
    #[error(
        "joint \"{joint}\" is one more than the {} joints a skeleton may have",
        crate::format::MAX_JOINTS
    )]
    TooManyJoints {
        /// The first joint past the limit.
        joint: String,
    },
    /// The hierarchy nests deeper than a skeleton file can be read back.
    #[error(
        "joint \"{joint}\" is nested {depth} joints and groups deep; at most {} (so the file reads back)",
        crate::format::MAX_DEPTH
    )]
    TooDeep {
        /// The first joint past the limit.
        joint: String,
        /// Its depth.
        depth: usize,
    },
    /// A name is empty.
    #[error("a {kind} has an empty name")]
    EmptyName {
        /// "joint", "group" or "site".
        kind: &'static str,
    },
    /// A joint name occurs twice in the hierarchy.
    #[error("joint \"{joint}\" appears more than once in the hierarchy")]
    DuplicateJoint {
        /// The repeated name.
        joint: String,
    },
    /// A group name occurs twice.
    #[error("group \"{group}\" appears more than once in the hierarchy")]
    DuplicateGroup {
        /// The repeated name.
        group: String,
    },
    /// Two definitions for one joint (two entries, or two mirrors producing it).
    #[error("joint \"{joint}\" is defined more than once{how}")]
    DuplicateDefinition {
        /// The joint defined twice.
        joint: String,
        /// How the second definition arises (empty, or " (by the mirror of \"x\")").
        how: String,
    },
    /// A site name occurs twice.
    #[error("site \"{site}\" is defined more than once")]
    DuplicateSite {
        /// The repeated name.
        site: String,
    },
    /// A joint in the hierarchy has no definition and no mirror produces one.
    #[error(
        "joint \"{joint}\" is in the hierarchy but has no definition (and no mirror defines it)"
    )]
    MissingDefinition {
        /// The undefined joint.
        joint: String,
    },
    /// A definition names a joint that is not in the hierarchy.
    #[error("joint \"{joint}\" has a definition but is not in the hierarchy")]
    UnknownJoint {
        /// The stray definition's name.
        joint: String,
    },
    /// A `mirror` names a joint that is not in the hierarchy.
    #[error("joint \"{joint}\": mirror names \"{mirror}\", which is not in the hierarchy")]
    UnknownMirror {
        /// The joint whose definition carries the mirror.
        joint: String,
        /// The name it mirrors to.
        mirror: String,
    },
    /// The skin names a node for a joint that is not in the hierarchy.
    #[error("skin: node {node} is given for joint \"{joint}\", which is not in the hierarchy")]
    SkinOnUnknownJoint {
        /// The joint named.
        joint: String,
        /// The node index.
        node: u32,
    },
    /// The skin gives a joint two nodes, or two joints one node.
    #[error("skin: {what} is given twice")]
    SkinDuplicate {
        /// `joint "x"` or `node 3`.
        what: String,
    },
    /// The skin names no file.
    #[error("skin: the file name is empty")]
    SkinWithoutFile,
    /// A site is attached to a joint that is not in the hierarchy.
    #[error("site \"{site}\" is on joint \"{joint}\", which is not in the hierarchy")]
    SiteOnUnknownJoint {
        /// The site.
        site: String,
        /// The joint it names.
        joint: String,
    },
    /// A number is NaN or infinite.
    #[error("{owner}: {field} is not a finite number")]
    NonFinite {
        /// `joint "x"` or `site "y"`.
        owner: String,
        /// Which field, e.g. `offset`, `DOF 2 min`.
        field: String,
    },
    /// A length or coordinate beyond ±[`crate::MAX_COORDINATE`].
    #[error(
        "{owner}: {field} {value} is beyond ±1000000 m, the largest coordinate a file may give"
    )]
    BeyondRange {
        /// `joint "x"` or `site "y"`.
        owner: String,
        /// Which field, e.g. `offset`, `DOF 2 max`.
        field: String,
        /// The value given.
        value: f64,
    },
    /// A DOF's lower limit exceeds its upper limit.
    #[error("joint \"{joint}\": {dof} has min {min} > max {max}")]
    MinAboveMax {
        /// The joint.
        joint: String,
        /// Which DOF.
        dof: DofRef,
        /// Lower limit as written.
        min: f64,
        /// Upper limit as written.
        max: f64,
    },
    /// A DOF axis is the zero vector.
    #[error("joint \"{joint}\": {dof} has a zero axis")]
    ZeroAxis {
        /// The joint.
        joint: String,
        /// Which DOF.
        dof: DofRef,
    },
    /// `rest` or `preferred` has the wrong number of values.
    #[error("joint \"{joint}\": {field} has {found} values but the joint has {expected} DOFs")]
    ValueCount {
        /// The joint.
        joint: String,
        /// `rest` or `preferred`.
        field: &'static str,
        /// Number of DOFs.
        expected: usize,
        /// Number of values given.
        found: usize,
    },
    /// A `rest` or `preferred` value lies outside its DOF's limits.
    #[error(
        "joint \"{joint}\": {field} value {value} of {dof} is outside its limits [{min}, {max}]"
    )]
    ValueOutOfLimits {
        /// The joint.
        joint: String,
        /// `rest` or `preferred`.
        field: &'static str,
        /// Which DOF.
        dof: DofRef,
        /// The value as written.
        value: f64,
        /// Lower limit.
        min: f64,
        /// Upper limit.
        max: f64,
    },
    /// Negative mass.
    #[error("joint \"{joint}\": mass {mass} is negative")]
    NegativeMass {
        /// The joint.
        joint: String,
        /// The mass as written.
        mass: f64,
    },
    /// Stiffness outside (0, 1].
    #[error("joint \"{joint}\": stiffness {stiffness} is outside (0, 1]")]
    StiffnessOutOfRange {
        /// The joint.
        joint: String,
        /// The stiffness as written.
        stiffness: f64,
    },
    /// A body dimension is zero or negative, or a capsule axis is zero.
    #[error("joint \"{joint}\": object {what}")]
    BadBody {
        /// The joint.
        joint: String,
        /// What is wrong, e.g. `radius -0.1 is not positive`.
        what: String,
    },
}
