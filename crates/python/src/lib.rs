//! Marionette from Python: the `marionette` package's native module (`marionette._marionette`).
//! Skeletons, poses, forward kinematics, goals and every solver; documents opened, changed by
//! the editor's edits and saved; bakes handed over as numpy arrays; exports written by the
//! command's writers; captures read, retargeted and cleaned; the physics assistant's check and
//! fix. Long work (solves, bakes, retargets, cleanups) runs with the interpreter's lock
//! released. See docs/python.md.

mod bake;
mod baked;
mod capture;
mod document;
mod errors;
mod forward;
mod goals;
mod physics;
mod pose;
mod skeleton;
mod solve;
mod stage;

use pyo3::prelude::*;

/// The native module; `marionette/__init__.py` re-exports it.
#[pymodule]
fn _marionette(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("FileError", py.get_type::<errors::FileError>())?;
    m.add("LimitError", py.get_type::<errors::LimitError>())?;
    m.add_class::<skeleton::PySkeleton>()?;
    m.add_class::<skeleton::PyJoint>()?;
    m.add_class::<skeleton::PyDof>()?;
    m.add_class::<skeleton::PySite>()?;
    m.add_class::<skeleton::PyCharacter>()?;
    m.add_function(wrap_pyfunction!(skeleton::open_character, m)?)?;
    m.add_class::<pose::PyPose>()?;
    m.add_class::<forward::Frame>()?;
    m.add_class::<goals::PyGoal>()?;
    m.add_class::<solve::Solution>()?;
    m.add_class::<solve::GoalResult>()?;
    m.add_function(wrap_pyfunction!(solve::py_solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_in_rust, m)?)?;
    m.add_class::<document::PyDocument>()?;
    m.add_class::<baked::Baked>()?;
    m.add_function(wrap_pyfunction!(bake::bake_in_rust, m)?)?;
    m.add_function(wrap_pyfunction!(bake::bake_handover_cost, m)?)?;
    m.add_class::<capture::PyCapture>()?;
    m.add_class::<capture::Retargeted>()?;
    m.add_function(wrap_pyfunction!(capture::read_capture, m)?)?;
    m.add_function(wrap_pyfunction!(capture::retarget, m)?)?;
    m.add_function(wrap_pyfunction!(capture::cleanup, m)?)?;
    Ok(())
}
