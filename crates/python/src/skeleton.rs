//! `marionette.Skeleton` (a skeleton file, read once and shared), its joints, DOFs and sites as
//! plain records in file units (degrees for hinges, metres for slides), and
//! `marionette.open_character` (a rigged glTF, VRM or FBX character imported as the command's
//! `import` does, masses by humanoid role).

use std::path::PathBuf;
use std::sync::Arc;

use marionette_editing::weighed_character::import_weighed;
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::open::{Opened, open};
use marionette_skeleton::{DofKind, Fk, Pose, Skeleton};

use pyo3::prelude::*;

use crate::errors::{error, file_error};
use crate::forward::Frame;
use crate::pose::PyPose;

/// One degree of freedom of a joint, in file units: degrees for a hinge, metres for a slide.
#[pyclass(name = "Dof", module = "marionette", frozen, get_all)]
#[derive(Debug, Clone)]
pub struct PyDof {
    /// The joint it belongs to.
    pub joint: String,
    /// Its place in the joint's list of DOFs (0 first).
    pub index: usize,
    /// "hinge" (turns about its axis) or "slide" (moves along it).
    pub kind: &'static str,
    /// Its unit axis in the joint's frame.
    pub axis: [f64; 3],
    /// The lower limit (degrees or metres).
    pub min: f64,
    /// The upper limit (degrees or metres).
    pub max: f64,
    /// A hinge that turns all the way round: it has no limits.
    pub unlimited: bool,
    /// The rest value (degrees or metres).
    pub rest: f64,
}

#[pymethods]
impl PyDof {
    fn __repr__(&self) -> String {
        format!(
            "Dof(joint={:?}, index={}, kind={:?}, min={}, max={}, rest={})",
            self.joint, self.index, self.kind, self.min, self.max, self.rest
        )
    }
}

/// One joint: its name, its parent's, its DOFs and its mass.
#[pyclass(name = "Joint", module = "marionette", frozen, get_all)]
#[derive(Debug, Clone)]
pub struct PyJoint {
    /// Its name (unique in the skeleton).
    pub name: String,
    /// Its parent's name; None for the root.
    pub parent: Option<String>,
    /// Its degrees of freedom, in order.
    pub dofs: Vec<PyDof>,
    /// Its mass (kg).
    pub mass: f64,
    /// Its offset from its parent (metres, in the parent's frame).
    pub offset: [f64; 3],
}

#[pymethods]
impl PyJoint {
    fn __repr__(&self) -> String {
        format!(
            "Joint(name={:?}, parent={:?}, dofs={})",
            self.name,
            self.parent,
            self.dofs.len()
        )
    }
}

/// A site: a named point fixed to a joint (a hand, a heel), what goals and locks hold.
#[pyclass(name = "Site", module = "marionette", frozen, get_all)]
#[derive(Debug, Clone)]
pub struct PySite {
    /// Its name.
    pub name: String,
    /// The joint it is fixed to.
    pub joint: String,
    /// Its offset in that joint's frame (metres).
    pub offset: [f64; 3],
}

#[pymethods]
impl PySite {
    fn __repr__(&self) -> String {
        format!("Site(name={:?}, joint={:?})", self.name, self.joint)
    }
}

/// An articulated skeleton, as its RON file describes it (docs/skeleton-format.md).
#[pyclass(name = "Skeleton", module = "marionette", frozen)]
#[derive(Debug, Clone)]
pub struct PySkeleton {
    pub(crate) inner: Arc<Skeleton>,
    pub(crate) path: Option<PathBuf>,
}

impl PySkeleton {
    /// A skeleton read from `path` (or made in memory: `None`).
    pub fn new(skeleton: Skeleton, path: Option<PathBuf>) -> PySkeleton {
        PySkeleton {
            inner: Arc::new(skeleton),
            path,
        }
    }

    /// Whether `pose` was made for this skeleton (the same one, or one equal to it).
    pub fn owns(&self, pose: &PyPose) -> bool {
        Arc::ptr_eq(&self.inner, &pose.skeleton) || *self.inner == *pose.skeleton
    }

    fn dof_record(&self, d: marionette_skeleton::DofId) -> PyDof {
        let s = &self.inner;
        let dof = s.dof(d);
        PyDof {
            joint: s.joint(dof.joint).name.clone(),
            index: dof.index_in_joint,
            kind: match dof.kind {
                DofKind::Hinge => "hinge",
                DofKind::Slide => "slide",
            },
            axis: dof.axis.into(),
            min: dof.to_file_units(dof.min),
            max: dof.to_file_units(dof.max),
            unlimited: dof.unlimited,
            rest: dof.to_written_units(dof.rest),
        }
    }
}

#[pymethods]
impl PySkeleton {
    /// Reads a skeleton file (RON). Raises FileError naming the file and every defect.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<PySkeleton> {
        let skeleton = Skeleton::load(&path).map_err(|e| file_error(e.to_string()))?;
        Ok(PySkeleton::new(skeleton, Some(path)))
    }

    /// The skeleton's name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_owned()
    }

    /// The file it was read from, if any.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.path.clone()
    }

    /// Every joint, root first, in hierarchy order.
    #[getter]
    fn joints(&self) -> Vec<PyJoint> {
        let s = &self.inner;
        s.joint_ids()
            .map(|j| {
                let joint = s.joint(j);
                PyJoint {
                    name: joint.name.clone(),
                    parent: joint.parent.map(|p| s.joint(p).name.clone()),
                    dofs: s.joint_dofs(j).map(|d| self.dof_record(d)).collect(),
                    mass: joint.mass,
                    offset: joint.offset.into(),
                }
            })
            .collect()
    }

    /// Every joint's name, in hierarchy order (the rows of `Frame.joints`).
    #[getter]
    fn joint_names(&self) -> Vec<String> {
        self.inner.joints().iter().map(|j| j.name.clone()).collect()
    }

    /// Every DOF, in hierarchy order (the order of a pose's values after the root).
    #[getter]
    fn dofs(&self) -> Vec<PyDof> {
        let s = &self.inner;
        s.joint_ids()
            .flat_map(|j| s.joint_dofs(j))
            .map(|d| self.dof_record(d))
            .collect()
    }

    /// Every site, in file order.
    #[getter]
    fn sites(&self) -> Vec<PySite> {
        let s = &self.inner;
        s.sites()
            .iter()
            .map(|site| PySite {
                name: site.name.clone(),
                joint: s.joint(site.joint).name.clone(),
                offset: site.offset.into(),
            })
            .collect()
    }

    /// Every site's name, in file order.
    #[getter]
    fn site_names(&self) -> Vec<String> {
        self.inner.sites().iter().map(|s| s.name.clone()).collect()
    }

    /// The total mass (kg).
    #[getter]
    fn mass(&self) -> f64 {
        self.inner.total_mass()
    }

    /// The rest pose: the root at the origin, every DOF at its rest value.
    fn rest_pose(&self) -> PyPose {
        PyPose::new(self.inner.clone(), Pose::rest(&self.inner).q)
    }

    /// Forward kinematics of `pose`: every joint's and site's world position (metres) and the
    /// centre of mass.
    fn forward(&self, py: Python<'_>, pose: &PyPose) -> PyResult<Frame> {
        if !self.owns(pose) {
            return Err(error(format!(
                "the pose is of skeleton \"{}\", not \"{}\"",
                pose.skeleton.name(),
                self.inner.name()
            )));
        }
        let mut fk = Fk::new(&self.inner);
        fk.update(&self.inner, &pose.q);
        Frame::of(py, &self.inner, &fk, &nalgebra::Isometry3::identity())
    }

    fn __repr__(&self) -> String {
        format!(
            "Skeleton({:?}: {} joints, {} dofs, {} sites)",
            self.inner.name(),
            self.inner.joints().len(),
            self.inner.dof_count(),
            self.inner.sites().len()
        )
    }
}

/// Reading a pose needs its skeleton: here, so that poses need not know skeletons' files.
#[pymethods]
impl PyPose {
    /// Reads a pose file (RON) of `skeleton`. Raises FileError naming the file and every defect.
    #[staticmethod]
    fn load(skeleton: &PySkeleton, path: PathBuf) -> PyResult<PyPose> {
        let pose = Pose::load(&skeleton.inner, &path).map_err(|e| file_error(e.to_string()))?;
        Ok(PyPose::new(skeleton.inner.clone(), pose.q))
    }
}

/// A rigged character (glTF, VRM or FBX) imported as `marionette import` imports it.
#[pyclass(name = "Character", module = "marionette", frozen)]
pub struct PyCharacter {
    /// The imported skeleton.
    #[pyo3(get)]
    skeleton: PySkeleton,
    /// The character's file.
    #[pyo3(get)]
    path: PathBuf,
    /// How its joints were weighed, as the import says it.
    #[pyo3(get)]
    masses: &'static str,
}

#[pymethods]
impl PyCharacter {
    fn __repr__(&self) -> String {
        format!(
            "Character({:?}, skeleton {:?})",
            self.path.display().to_string(),
            self.skeleton.inner.name()
        )
    }
}

/// Opens a rigged character (.glb, .gltf, .vrm or .fbx with a skin): its skeleton, weighed by
/// de Leva's segments when its bones have humanoid roles. Raises FileError naming the file.
#[pyfunction]
pub fn open_character(py: Python<'_>, path: PathBuf) -> PyResult<PyCharacter> {
    let shown = path.display().to_string();
    let read = py.detach(|| {
        let character = match open(&path, CaptureOptions::default()) {
            Ok(Opened::Character(c)) => *c,
            Ok(other) => {
                return Err(format!(
                    "{shown}: this is {}, not a rigged character",
                    other.kind().describe()
                ));
            }
            Err(e) => return Err(e.to_string()),
        };
        let beside = path.with_extension("skeleton.ron");
        let (import, masses) =
            import_weighed(character, &path, &beside).map_err(|e| format!("{shown}: {e}"))?;
        Ok((import.imported.skeleton, masses))
    });
    let (skeleton, masses) = read.map_err(file_error)?;
    Ok(PyCharacter {
        skeleton: PySkeleton::new(skeleton, None),
        path,
        masses,
    })
}
