//! `marionette.Baked`: a bake handed to Python. The values, the root, the lock errors and the
//! props' places are arrays made with the bake; every joint's and site's world position and the
//! centre of mass are computed (forward kinematics of every frame, on every core, without the
//! interpreter's lock) when first read, then kept.

use std::sync::{Arc, OnceLock};

use marionette_motion::BakedFrame;
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Isometry3, Point3};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// What a bake gives before it is handed to Python.
#[derive(Clone)]
pub struct Bake {
    pub skeleton: Skeleton,
    pub figure: String,
    pub lock_names: Vec<String>,
    pub placement: Isometry3<f64>,
    pub fps: f64,
    pub frames: Vec<BakedFrame>,
    pub props: Vec<(String, Vec<Isometry3<f64>>)>,
}

/// A baked sequence of one figure: every frame's values and world positions (metres, +Y up,
/// placed where the figure stands on its stage).
#[pyclass(name = "Baked", module = "marionette", frozen)]
pub struct Baked {
    /// The sequence's name.
    #[pyo3(get)]
    sequence: String,
    /// The figure's name.
    #[pyo3(get)]
    figure: String,
    /// Frames per second.
    #[pyo3(get)]
    fps: f64,
    /// The frame numbers (a numpy array of int64).
    #[pyo3(get)]
    frames: Py<PyArray1<i64>>,
    /// The joints' names, in hierarchy order (the second axis of `joints_world`).
    #[pyo3(get)]
    joint_names: Vec<String>,
    /// Every joint's values per frame, in degrees (metres for slides): name → frames × DOFs.
    #[pyo3(get)]
    values: Py<PyDict>,
    /// The root's translation per frame: frames × 3.
    #[pyo3(get)]
    root: Py<PyArray2<f64>>,
    /// Every lock's error per frame (metres or radians; NaN where it is not active):
    /// name → array of frames.
    #[pyo3(get)]
    lock_errors: Py<PyDict>,
    /// On a stage, every prop's place per frame: name → {"position": frames × 3,
    /// "rotation": frames × 4 (x, y, z, w)}; empty for a one-figure document.
    #[pyo3(get)]
    props: Py<PyDict>,
    /// The bake, for the world positions.
    bake: Arc<Bake>,
    /// The world positions, once read.
    world: OnceLock<World>,
}

/// The world positions as handed to Python.
struct World {
    joints: Py<PyArray3<f64>>,
    sites: Py<PyDict>,
    com: Py<PyArray2<f64>>,
}

/// What the bake hands over with it: every frame's values, root and lock errors.
pub struct Flat {
    root: Vec<f64>,
    values: Vec<Vec<f64>>,
    errors: Vec<Vec<f64>>,
}

impl Flat {
    /// One pass over `b`'s frames.
    pub fn of(b: &Bake) -> Flat {
        let s = &b.skeleton;
        let n = b.frames.len();
        let mut flat = Flat {
            root: Vec::with_capacity(n * 3),
            values: s
                .joint_ids()
                .map(|j| Vec::with_capacity(n * s.joint(j).dofs.len()))
                .collect(),
            errors: vec![vec![f64::NAN; n]; b.lock_names.len()],
        };
        for (k, frame) in b.frames.iter().enumerate() {
            flat.root.extend(&frame.q[..3]);
            for j in s.joint_ids() {
                for d in s.joint_dofs(j) {
                    let dof = s.dof(d);
                    flat.values[j.index()].push(dof.to_file_units(frame.q[d.state_index()]));
                }
            }
            for &(lock, e) in &frame.lock_errors {
                flat.errors[lock][k] = e;
            }
        }
        flat
    }
}

/// World positions of a run of frames: joints (frames × joints × 3), sites (per site, frames ×
/// 3) and the centre of mass (frames × 3), flat.
struct Positions {
    joints: Vec<f64>,
    sites: Vec<Vec<f64>>,
    com: Vec<f64>,
}

fn positions_of_run(b: &Bake, frames: &[BakedFrame]) -> Positions {
    let s = &b.skeleton;
    let mut fk = Fk::new(s);
    let place = |p| -> [f64; 3] { (b.placement * Point3::from(p)).coords.into() };
    let n = frames.len();
    let mut out = Positions {
        joints: Vec::with_capacity(n * s.joints().len() * 3),
        sites: vec![Vec::with_capacity(n * 3); s.sites().len()],
        com: Vec::with_capacity(n * 3),
    };
    for frame in frames {
        fk.update(s, &frame.q);
        for j in s.joint_ids() {
            out.joints.extend(place(fk.joint_position(j)));
        }
        for site in s.site_ids() {
            out.sites[site.index()].extend(place(fk.site_position(site)));
        }
        out.com.extend(place(fk.center_of_mass()));
    }
    out
}

/// Every frame's world positions, on every core, each thread taking a run of frames; the runs
/// joined in order.
fn positions(b: &Bake) -> Positions {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let run = b.frames.len().div_ceil(threads).max(1);
    let parts: Vec<Positions> = std::thread::scope(|scope| {
        let workers: Vec<_> = b
            .frames
            .chunks(run)
            .map(|frames| scope.spawn(move || positions_of_run(b, frames)))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .expect("a forward-kinematics thread does not panic")
            })
            .collect()
    });
    let mut all = Positions {
        joints: Vec::new(),
        sites: vec![Vec::new(); b.skeleton.sites().len()],
        com: Vec::new(),
    };
    for part in parts {
        all.joints.extend(part.joints);
        all.com.extend(part.com);
        for (to, from) in all.sites.iter_mut().zip(part.sites) {
            to.extend(from);
        }
    }
    all
}

fn array2<'py>(py: Python<'py>, v: &[f64], cols: usize) -> PyResult<Bound<'py, PyArray2<f64>>> {
    v.to_pyarray(py).reshape([v.len() / cols.max(1), cols])
}

impl Baked {
    /// The bake of `sequence` handed over: its arrays made, the world positions left to the
    /// first read.
    pub fn new(py: Python<'_>, sequence: &str, b: Bake, flat: Flat) -> PyResult<Baked> {
        let s = &b.skeleton;
        let values = PyDict::new(py);
        for j in s.joint_ids() {
            let cols = s.joint(j).dofs.len();
            if cols > 0 {
                values.set_item(&s.joint(j).name, array2(py, &flat.values[j.index()], cols)?)?;
            }
        }
        let errors = PyDict::new(py);
        for (name, e) in b.lock_names.iter().zip(&flat.errors) {
            errors.set_item(name, e.to_pyarray(py))?;
        }
        let props = PyDict::new(py);
        for (name, places) in &b.props {
            let position: Vec<f64> = places
                .iter()
                .flat_map(|p| <[f64; 3]>::from(p.translation.vector))
                .collect();
            let rotation: Vec<f64> = places
                .iter()
                .flat_map(|p| {
                    let r = p.rotation.coords;
                    [r.x, r.y, r.z, r.w]
                })
                .collect();
            let item = PyDict::new(py);
            item.set_item("position", array2(py, &position, 3)?)?;
            item.set_item("rotation", array2(py, &rotation, 4)?)?;
            props.set_item(name, item)?;
        }
        let numbers: Vec<i64> = b.frames.iter().map(|f| f.frame).collect();
        Ok(Baked {
            sequence: sequence.to_owned(),
            figure: b.figure.clone(),
            fps: b.fps,
            frames: numbers.to_pyarray(py).unbind(),
            joint_names: s.joints().iter().map(|j| j.name.clone()).collect(),
            values: values.unbind(),
            root: array2(py, &flat.root, 3)?.unbind(),
            lock_errors: errors.unbind(),
            props: props.unbind(),
            bake: Arc::new(b),
            world: OnceLock::new(),
        })
    }

    /// The world positions, computed on the first read.
    fn world(&self, py: Python<'_>) -> PyResult<&World> {
        if let Some(world) = self.world.get() {
            return Ok(world);
        }
        let bake = &self.bake;
        let p = py.detach(|| positions(bake));
        let s = &bake.skeleton;
        let sites = PyDict::new(py);
        for site in s.site_ids() {
            sites.set_item(&s.site(site).name, array2(py, &p.sites[site.index()], 3)?)?;
        }
        let world = World {
            joints: p
                .joints
                .to_pyarray(py)
                .reshape([bake.frames.len(), s.joints().len(), 3])?
                .unbind(),
            sites: sites.unbind(),
            com: array2(py, &p.com, 3)?.unbind(),
        };
        Ok(self.world.get_or_init(|| world))
    }
}

#[pymethods]
impl Baked {
    /// Every joint's world position: frames × joints × 3 (computed on the first read).
    #[getter]
    fn joints_world(&self, py: Python<'_>) -> PyResult<Py<PyArray3<f64>>> {
        Ok(self.world(py)?.joints.clone_ref(py))
    }

    /// Every site's world position: name → frames × 3 (computed on the first read).
    #[getter]
    fn sites(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        Ok(self.world(py)?.sites.clone_ref(py))
    }

    /// The centre of mass per frame: frames × 3 (computed on the first read).
    #[getter]
    fn com(&self, py: Python<'_>) -> PyResult<Py<PyArray2<f64>>> {
        Ok(self.world(py)?.com.clone_ref(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "Baked({:?} of {:?}: {} frames)",
            self.sequence,
            self.figure,
            self.bake.frames.len()
        )
    }
}
