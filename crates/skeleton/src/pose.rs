//! Poses: the state vector q in program units, and the Pose file of `docs/file-formats.md`.
//!
//! A [`Pose`] is a plain `Vec<f64>` (root translation, then every DOF in hierarchy order), cheap to
//! copy, compare, undo and interpolate. The file lists joints by name in degrees (metres for
//! slides); unknown joints, wrong counts, non-finite values and values outside limits are errors
//! naming the joint, never silently clamped.

use std::path::Path;

use nalgebra::Vector3;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::error::{DofRef, FileError};
use crate::model::{JointId, ROOT_STATE_LEN, Skeleton};
use crate::ordered_map::OrderedMap;
use crate::ron_io;

/// Values this close outside a limit (in file units) are rounding noise from the degree/radian
/// conversion of a value that was at the limit; they are accepted and set to the limit.
const LIMIT_SLACK: f64 = 1e-9;

/// The Pose file: `Pose(root: (x, y, z), joints: {"name": [values...]})`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Pose", deny_unknown_fields)]
pub struct PoseFile {
    /// Root translation in metres.
    #[serde(default)]
    pub root: [f64; 3],
    /// Values per joint in file units, in the joint's DOF order; unlisted joints keep rest values.
    #[serde(default)]
    pub joints: OrderedMap<Vec<f64>>,
}

/// Why a pose file could not be loaded or saved.
pub type PoseError = FileError<PoseDefect>;

/// One way a pose does not fit its skeleton.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum PoseDefect {
    /// The skeleton has no joint of that name.
    #[error("joint \"{joint}\" is not in skeleton \"{skeleton}\"")]
    UnknownJoint {
        /// The name in the file.
        joint: String,
        /// The skeleton's name.
        skeleton: String,
    },
    /// The joint is listed twice.
    #[error("joint \"{joint}\" is listed more than once")]
    DuplicateJoint {
        /// The repeated name.
        joint: String,
    },
    /// Not one value per DOF.
    #[error("joint \"{joint}\" has {found} values but {expected} DOFs")]
    WrongLength {
        /// The joint.
        joint: String,
        /// Its number of DOFs.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A value is NaN or infinite.
    #[error("{owner}: value {index} is not a finite number")]
    NonFinite {
        /// `joint "x"` or `root`.
        owner: String,
        /// 1-based position of the value.
        index: usize,
    },
    /// A root coordinate beyond ±[`crate::MAX_COORDINATE`].
    #[error(
        "root: value {index} ({value} m) is beyond ±1000000 m, the largest coordinate a file may give"
    )]
    RootBeyondRange {
        /// 1-based position of the value.
        index: usize,
        /// The value given.
        value: f64,
    },
    /// A value lies outside its DOF's limits.
    #[error("joint \"{joint}\": {dof} value {value} is outside its limits [{min}, {max}]")]
    OutOfLimits {
        /// The joint.
        joint: String,
        /// Which DOF.
        dof: DofRef,
        /// The value in file units.
        value: f64,
        /// Lower limit in file units.
        min: f64,
        /// Upper limit in file units.
        max: f64,
    },
}

/// A state vector: root translation (3) then every DOF (radians, metres) in hierarchy order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pose {
    /// The state vector q.
    pub q: Vec<f64>,
}

impl Pose {
    /// The rest pose: root at the origin, every DOF at its rest value.
    pub fn rest(skeleton: &Skeleton) -> Pose {
        let mut q = vec![0.0; skeleton.state_len()];
        for (k, dof) in skeleton.dofs().iter().enumerate() {
            q[ROOT_STATE_LEN + k] = dof.rest;
        }
        Pose { q }
    }

    /// Root translation.
    pub fn root(&self) -> Vector3<f64> {
        Vector3::new(self.q[0], self.q[1], self.q[2])
    }

    /// The values of one joint's DOFs (program units).
    pub fn joint_values(&self, skeleton: &Skeleton, joint: JointId) -> &[f64] {
        let r = &skeleton.joint(joint).dofs;
        &self.q[ROOT_STATE_LEN + r.start..ROOT_STATE_LEN + r.end]
    }

    /// True when every DOF value lies within its limits.
    pub fn within_limits(&self, skeleton: &Skeleton) -> bool {
        skeleton
            .dofs()
            .iter()
            .zip(&self.q[ROOT_STATE_LEN..])
            .all(|(d, &v)| d.within_limits(v))
    }

    /// Loads a pose file for `skeleton`.
    pub fn load(skeleton: &Skeleton, path: impl AsRef<Path>) -> Result<Pose, PoseError> {
        let path = path.as_ref();
        let parsed: PoseFile = PoseError::read_ron(path)?;
        Pose::from_file(skeleton, &parsed).map_err(|defects| PoseError::Invalid {
            file: ron_io::display_path(path),
            defects,
        })
    }

    /// Parses pose text for `skeleton`; `file` names it in errors.
    pub fn from_ron_str(skeleton: &Skeleton, text: &str, file: &str) -> Result<Pose, PoseError> {
        let parsed: PoseFile = PoseError::parse_ron(text, file)?;
        Pose::from_file(skeleton, &parsed).map_err(|defects| PoseError::Invalid {
            file: file.to_owned(),
            defects,
        })
    }

    /// Checks a parsed pose file against `skeleton` and converts it to program units.
    pub fn from_file(skeleton: &Skeleton, parsed: &PoseFile) -> Result<Pose, Vec<PoseDefect>> {
        let mut pose = Pose::rest(skeleton);
        let mut defects = Vec::new();
        for (i, v) in parsed.root.iter().enumerate() {
            if crate::coordinate_in_range(*v) {
                pose.q[i] = *v;
            } else if v.is_finite() {
                defects.push(PoseDefect::RootBeyondRange {
                    index: i + 1,
                    value: *v,
                });
            } else {
                defects.push(PoseDefect::NonFinite {
                    owner: "root".to_owned(),
                    index: i + 1,
                });
            }
        }
        for dup in parsed.joints.duplicate_keys() {
            defects.push(PoseDefect::DuplicateJoint {
                joint: dup.to_owned(),
            });
        }
        for (name, values) in parsed.joints.iter() {
            let Some(joint) = skeleton.joint_by_name(name) else {
                defects.push(PoseDefect::UnknownJoint {
                    joint: name.to_owned(),
                    skeleton: skeleton.name().to_owned(),
                });
                continue;
            };
            let dofs = skeleton.joint(joint).dofs.clone();
            if values.len() != dofs.len() {
                defects.push(PoseDefect::WrongLength {
                    joint: name.to_owned(),
                    expected: dofs.len(),
                    found: values.len(),
                });
                continue;
            }
            for (k, (&value, d)) in values.iter().zip(dofs).enumerate() {
                let dof = &skeleton.dofs()[d];
                if !value.is_finite() {
                    defects.push(PoseDefect::NonFinite {
                        owner: format!("joint \"{name}\""),
                        index: k + 1,
                    });
                    continue;
                }
                let (min, max) = (dof.to_file_units(dof.min), dof.to_file_units(dof.max));
                let within =
                    dof.unlimited || (min - LIMIT_SLACK..=max + LIMIT_SLACK).contains(&value);
                if !within {
                    defects.push(PoseDefect::OutOfLimits {
                        joint: name.to_owned(),
                        dof: DofRef { index: k },
                        value,
                        min,
                        max,
                    });
                    continue;
                }
                pose.q[ROOT_STATE_LEN + d] = dof.clamp(dof.from_file_units(value));
            }
        }
        if defects.is_empty() {
            Ok(pose)
        } else {
            Err(defects)
        }
    }

    /// Every joint's name and values in file units (degrees, metres for slides) as files write
    /// them ([`crate::Dof::to_written_units`]), in hierarchy order; joints without DOFs get no
    /// values.
    pub fn file_values(&self, skeleton: &Skeleton) -> Vec<(String, Vec<f64>)> {
        skeleton
            .joint_ids()
            .map(|j| {
                let values = skeleton
                    .joint_dofs(j)
                    .zip(self.joint_values(skeleton, j))
                    .map(|(d, &v)| skeleton.dof(d).to_written_units(v))
                    .collect();
                (skeleton.joint(j).name.clone(), values)
            })
            .collect()
    }

    /// The pose as a file structure listing every joint that has DOFs, in hierarchy order.
    pub fn to_file(&self, skeleton: &Skeleton) -> PoseFile {
        let mut joints = self.file_values(skeleton);
        joints.retain(|(_, values)| !values.is_empty());
        PoseFile {
            root: [self.q[0], self.q[1], self.q[2]],
            joints: OrderedMap(joints),
        }
    }

    /// The pose as RON text.
    pub fn to_ron_string(&self, skeleton: &Skeleton) -> Result<String, ron::Error> {
        ron_io::to_pretty("Pose", &self.to_file(skeleton))
    }

    /// Saves the pose atomically.
    pub fn save(&self, skeleton: &Skeleton, path: impl AsRef<Path>) -> Result<(), PoseError> {
        PoseError::write_text(path.as_ref(), self.to_ron_string(skeleton))
    }
}
