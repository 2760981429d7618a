//! `marionette.FigurePose`: a skeleton's state (the root's translation, then every DOF), read and set
//! per joint in file units (degrees for hinges, metres for slides) and checked as pose files
//! are ([`Pose::from_file`]): a value outside a joint's limits raises `LimitError` naming it.

use std::path::PathBuf;
use std::sync::Arc;

use marionette_skeleton::ordered_map::OrderedMap;
use marionette_skeleton::{Pose, PoseDefect, PoseFile, Skeleton};
use numpy::{PyArray1, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{error, file_error, limit_error};

/// A pose of one skeleton. `pose["left knee"]` reads a joint's values and
/// `pose["left knee"] = [45.0]` sets them (degrees; metres for slides); `pose.root` is the root's
/// translation (metres).
#[pyclass(name = "FigurePose", module = "marionette")]
#[derive(Debug, Clone)]
pub struct PyPose {
    pub(crate) skeleton: Arc<Skeleton>,
    pub(crate) q: Vec<f64>,
}

impl PyPose {
    /// The pose `q` (program units) of `skeleton`.
    pub fn new(skeleton: Arc<Skeleton>, q: Vec<f64>) -> PyPose {
        PyPose { skeleton, q }
    }

    fn joint(&self, name: &str) -> PyResult<marionette_skeleton::JointId> {
        self.skeleton.joint_by_name(name).ok_or_else(|| {
            error(format!(
                "joint \"{name}\" is not in skeleton \"{}\"",
                self.skeleton.name()
            ))
        })
    }
}

/// The exception a pose defect raises: `LimitError` for values, `Error` for names and lengths.
pub fn pose_defect_error(defects: &[PoseDefect]) -> PyErr {
    let text: Vec<String> = defects.iter().map(ToString::to_string).collect();
    let text = text.join("\n");
    let is_value = defects.iter().any(|d| {
        matches!(
            d,
            PoseDefect::OutOfLimits { .. }
                | PoseDefect::NonFinite { .. }
                | PoseDefect::RootBeyondRange { .. }
        )
    });
    if is_value {
        limit_error(text)
    } else {
        error(text)
    }
}

#[pymethods]
impl PyPose {
    /// Writes the pose as a pose file (RON), atomically. Raises FileError when it cannot.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        Pose { q: self.q.clone() }
            .save(&self.skeleton, &path)
            .map_err(|e| file_error(e.to_string()))
    }

    /// The skeleton's name.
    #[getter]
    fn skeleton_name(&self) -> String {
        self.skeleton.name().to_owned()
    }

    /// The root's translation (metres), [x, y, z].
    #[getter]
    fn get_root(&self) -> [f64; 3] {
        [self.q[0], self.q[1], self.q[2]]
    }

    #[setter]
    fn set_root(&mut self, root: [f64; 3]) -> PyResult<()> {
        let file = PoseFile {
            root,
            joints: OrderedMap::default(),
        };
        Pose::from_file(&self.skeleton, &file).map_err(|d| pose_defect_error(&d))?;
        self.q[..3].copy_from_slice(&root);
        Ok(())
    }

    /// The joint's values in file units (degrees; metres for slides), one per DOF.
    fn __getitem__(&self, joint: &str) -> PyResult<Vec<f64>> {
        let j = self.joint(joint)?;
        let s = &self.skeleton;
        let r = s.joint(j).dofs.clone();
        Ok(s.joint_dofs(j)
            .zip(&self.q[3 + r.start..3 + r.end])
            .map(|(d, &v)| s.dof(d).to_written_units(v))
            .collect())
    }

    /// Sets the joint's values (file units, one per DOF). Raises LimitError (a value outside
    /// the joint's limits, or not finite) or Error (an unknown joint, the wrong number of
    /// values), the pose unchanged.
    fn __setitem__(&mut self, joint: &str, values: Vec<f64>) -> PyResult<()> {
        let j = self.joint(joint)?;
        let file = PoseFile {
            root: [0.0; 3],
            joints: OrderedMap(vec![(joint.to_owned(), values)]),
        };
        let set = Pose::from_file(&self.skeleton, &file).map_err(|d| pose_defect_error(&d))?;
        let r = self.skeleton.joint(j).dofs.clone();
        let at = 3 + r.start..3 + r.end;
        self.q[at.clone()].copy_from_slice(&set.q[at]);
        Ok(())
    }

    fn __contains__(&self, joint: &str) -> bool {
        self.skeleton.joint_by_name(joint).is_some()
    }

    /// The names of the joints that have DOFs, in hierarchy order.
    fn keys(&self) -> Vec<String> {
        let s = &self.skeleton;
        s.joint_ids()
            .filter(|&j| !s.joint(j).dofs.is_empty())
            .map(|j| s.joint(j).name.clone())
            .collect()
    }

    /// Every joint with DOFs and its values (file units), as a pose file lists them.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, values) in (Pose { q: self.q.clone() }).file_values(&self.skeleton) {
            if !values.is_empty() {
                dict.set_item(name, values)?;
            }
        }
        Ok(dict)
    }

    /// The state vector: the root's translation then every DOF in program units (radians,
    /// metres), as a numpy array (a copy).
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.q.to_pyarray(py)
    }

    /// An independent copy.
    fn copy(&self) -> PyPose {
        self.clone()
    }

    /// Whether every DOF lies within its limits.
    fn within_limits(&self) -> bool {
        Pose { q: self.q.clone() }.within_limits(&self.skeleton)
    }

    fn __eq__(&self, other: &PyPose) -> bool {
        self.q == other.q && *self.skeleton == *other.skeleton
    }

    fn __repr__(&self) -> String {
        format!(
            "FigurePose(skeleton {:?}, root {:?})",
            self.skeleton.name(),
            &self.q[..3]
        )
    }
}
