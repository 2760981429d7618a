//! `marionette.Goal`: a goal of any kind the files know, held as written in a problem file or a
//! lock (docs/file-formats.md: targets in metres, orientations in degrees) and resolved against
//! a skeleton when solved, so a name the skeleton lacks or a NaN target is refused as the
//! command refuses it. `marionette.goals` names each kind as the files do (`Position`,
//! `Orientation`, `Pose`, `Aim`, `Plane`, `Line`, `Point`, `Coincide`, `CenterOfMass`).

use marionette_ik::problem::{AxisName, GoalDef, ProblemDefect};
use pyo3::prelude::*;

use crate::errors::{error, limit_error};

/// One goal (what a solve or a lock holds), as the files write it.
#[pyclass(name = "Goal", module = "marionette", frozen)]
#[derive(Debug, Clone)]
pub struct PyGoal {
    pub(crate) def: GoalDef,
}

/// The axes a string like "xz" names (any order, each at most once).
fn axes(text: &str) -> PyResult<Vec<AxisName>> {
    let mut out = Vec::new();
    for c in text.chars() {
        let axis = match c.to_ascii_lowercase() {
            'x' => AxisName::X,
            'y' => AxisName::Y,
            'z' => AxisName::Z,
            _ => {
                return Err(error(format!("axes \"{text}\": '{c}' is not x, y or z")));
            }
        };
        if out.contains(&axis) {
            return Err(error(format!("axes \"{text}\": '{c}' is named twice")));
        }
        out.push(axis);
    }
    if out.is_empty() {
        return Err(error("axes \"\": name at least one of x, y and z"));
    }
    Ok(out)
}

/// The exception a goal's defects raise: `LimitError` for values (NaN, a weight not above 0),
/// `Error` for names.
pub fn goal_defect_error(defects: &[ProblemDefect]) -> PyErr {
    let text: Vec<String> = defects.iter().map(ToString::to_string).collect();
    let text = text.join("\n");
    if defects
        .iter()
        .any(|d| matches!(d, ProblemDefect::BadValue { .. }))
    {
        limit_error(text)
    } else {
        error(text)
    }
}

#[pymethods]
impl PyGoal {
    /// A site at a point (metres).
    #[staticmethod]
    #[pyo3(signature = (site, target, weight = 1.0, priority = 0))]
    fn position(site: String, target: [f64; 3], weight: f64, priority: u32) -> PyGoal {
        PyGoal {
            def: GoalDef::Position {
                site,
                target,
                weight,
                priority,
            },
        }
    }

    /// A joint's frame turned to `target` (Euler angles in degrees, as the files write them);
    /// `axes` limits it to some of the frame's axes ("xyz" all).
    #[staticmethod]
    #[pyo3(signature = (joint, target, axes = "xyz", weight = 1.0, priority = 0))]
    fn orientation(
        joint: String,
        target: [f64; 3],
        axes: &str,
        weight: f64,
        priority: u32,
    ) -> PyResult<PyGoal> {
        Ok(PyGoal {
            def: GoalDef::Orientation {
                joint,
                target,
                axes: self::axes(axes)?,
                weight,
                priority,
            },
        })
    }

    /// A site's whole pose: its point at `target` (metres) and its joint's frame at `rotation`
    /// (degrees), as a foot planted on the floor.
    #[staticmethod]
    #[pyo3(signature = (site, target, rotation, weight = 1.0, priority = 0))]
    fn pose(
        site: String,
        target: [f64; 3],
        rotation: [f64; 3],
        weight: f64,
        priority: u32,
    ) -> PyGoal {
        PyGoal {
            def: GoalDef::Pose {
                site,
                target,
                rotation,
                weight,
                priority,
            },
        }
    }

    /// A site's `axis` (in its joint's frame) pointed at a point `at` (metres).
    #[staticmethod]
    #[pyo3(signature = (site, axis, at, weight = 1.0, priority = 0))]
    fn aim(site: String, axis: [f64; 3], at: [f64; 3], weight: f64, priority: u32) -> PyGoal {
        PyGoal {
            def: GoalDef::Aim {
                site,
                axis,
                at,
                weight,
                priority,
            },
        }
    }

    /// A site on a plane (through `point`, with `normal`).
    #[staticmethod]
    #[pyo3(signature = (site, point, normal, weight = 1.0, priority = 0))]
    fn plane(
        site: String,
        point: [f64; 3],
        normal: [f64; 3],
        weight: f64,
        priority: u32,
    ) -> PyGoal {
        PyGoal {
            def: GoalDef::Plane {
                site,
                point,
                normal,
                weight,
                priority,
            },
        }
    }

    /// A site on a line (through `point`, along `direction`).
    #[staticmethod]
    #[pyo3(signature = (site, point, direction, weight = 1.0, priority = 0))]
    fn line(
        site: String,
        point: [f64; 3],
        direction: [f64; 3],
        weight: f64,
        priority: u32,
    ) -> PyGoal {
        PyGoal {
            def: GoalDef::Line {
                site,
                point,
                direction,
                weight,
                priority,
            },
        }
    }

    /// A point fixed to a joint (`offset` in its frame) at `target`; with `normal`, only on the
    /// plane through `target` with that normal.
    #[staticmethod]
    #[pyo3(signature = (joint, target, offset = [0.0; 3], normal = None, weight = 1.0, priority = 0))]
    fn point(
        joint: String,
        target: [f64; 3],
        offset: [f64; 3],
        normal: Option<[f64; 3]>,
        weight: f64,
        priority: u32,
    ) -> PyGoal {
        PyGoal {
            def: GoalDef::Point {
                joint,
                offset,
                target,
                normal,
                weight,
                priority,
            },
        }
    }

    /// Two sites of the figure at one point (a hand on the other knee).
    #[staticmethod]
    #[pyo3(signature = (a, b, weight = 1.0, priority = 0))]
    fn coincide(a: String, b: String, weight: f64, priority: u32) -> PyGoal {
        PyGoal {
            def: GoalDef::Coincide {
                a,
                b,
                weight,
                priority,
            },
        }
    }

    /// The centre of mass at `target` (metres), on the axes named ("xz": over a point of the
    /// floor, at any height).
    #[staticmethod]
    #[pyo3(signature = (target, axes = "xyz", weight = 1.0, priority = 0))]
    fn center_of_mass(
        target: [f64; 3],
        axes: &str,
        weight: f64,
        priority: u32,
    ) -> PyResult<PyGoal> {
        Ok(PyGoal {
            def: GoalDef::CenterOfMass {
                target,
                axes: self::axes(axes)?,
                weight,
                priority,
            },
        })
    }

    /// The goal's kind, as the files name it ("Position", "CenterOfMass", …).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.def {
            GoalDef::Position { .. } => "Position",
            GoalDef::Orientation { .. } => "Orientation",
            GoalDef::Aim { .. } => "Aim",
            GoalDef::Plane { .. } => "Plane",
            GoalDef::Line { .. } => "Line",
            GoalDef::Point { .. } => "Point",
            GoalDef::Pose { .. } => "Pose",
            GoalDef::Coincide { .. } => "Coincide",
            GoalDef::CenterOfMass { .. } => "CenterOfMass",
        }
    }

    /// The goal as a problem file writes it (RON).
    fn __repr__(&self) -> String {
        ron::to_string(&self.def).unwrap_or_else(|e| format!("<goal: {e}>"))
    }
}
