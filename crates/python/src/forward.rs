//! `marionette.Frame`: forward kinematics of one pose handed over whole, every joint's world
//! position as one joints × 3 numpy array (rows in `joint_names` order), every site's, and the
//! centre of mass.

use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Isometry3, Point3, Vector3};
use numpy::{PyArray1, PyArray2, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One pose's world positions (metres, +Y up).
#[pyclass(name = "Frame", module = "marionette", frozen, get_all)]
pub struct Frame {
    /// Every joint's world position: a joints × 3 numpy array, rows in `joint_names` order.
    joints: Py<PyArray2<f64>>,
    /// The joints' names, in hierarchy order.
    joint_names: Vec<String>,
    /// Every site's world position: name → numpy array of 3.
    sites: Py<PyDict>,
    /// The centre of mass: a numpy array of 3.
    com: Py<PyArray1<f64>>,
}

/// `p` placed by `placement`.
fn placed(placement: &Isometry3<f64>, p: Vector3<f64>) -> [f64; 3] {
    (placement * Point3::from(p)).coords.into()
}

impl Frame {
    /// The frame of `fk` (updated for the pose) on `skeleton`, every point placed by
    /// `placement` (where the figure stands on its stage).
    pub fn of(
        py: Python<'_>,
        skeleton: &Skeleton,
        fk: &Fk,
        placement: &Isometry3<f64>,
    ) -> PyResult<Frame> {
        let flat: Vec<f64> = skeleton
            .joint_ids()
            .flat_map(|j| placed(placement, fk.joint_position(j)))
            .collect();
        let joints = flat
            .to_pyarray(py)
            .reshape([skeleton.joints().len(), 3])?
            .unbind();
        let sites = PyDict::new(py);
        for s in skeleton.site_ids() {
            let at = placed(placement, fk.site_position(s));
            sites.set_item(&skeleton.site(s).name, at.to_pyarray(py))?;
        }
        Ok(Frame {
            joints,
            joint_names: skeleton.joints().iter().map(|j| j.name.clone()).collect(),
            sites: sites.unbind(),
            com: placed(placement, fk.center_of_mass())
                .to_pyarray(py)
                .unbind(),
        })
    }
}

#[pymethods]
impl Frame {
    /// The world position of one joint, by name (a numpy array of 3).
    fn joint<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let k = self
            .joint_names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| crate::errors::error(format!("no joint \"{name}\" in the frame")))?;
        let all = self.joints.bind(py).readonly();
        let row = all.as_array().row(k).to_vec();
        Ok(row.to_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!("Frame({} joints)", self.joint_names.len())
    }
}
