//! A stage's figures, props, links and grips changed from Python, each by the stage edit the
//! editor's Stage list, handles and cue editor apply ([`StageEdit`]).

use std::path::PathBuf;

use marionette_document::{Placement, Prop, PropPlace, PropShape};
use marionette_editing::Edit;
use marionette_editing::UndoStep;
use marionette_editing::stage::StageEdit;
use pyo3::prelude::*;

use crate::document::PyDocument;
use crate::errors::{error, finite, limit_error};

/// Where a figure stands: `at` (x, z on the floor, metres), turned `facing` degrees about +Y.
fn placement(at: [f64; 2], facing: f64) -> PyResult<Placement> {
    finite(at[0], "at")?;
    finite(at[1], "at")?;
    finite(facing, "facing")?;
    Ok(Placement { at, facing })
}

/// The one shape given, or why not.
fn shape(
    size: Option<[f64; 3]>,
    sphere: Option<f64>,
    cylinder: Option<(f64, f64)>,
    mesh: Option<String>,
) -> PyResult<PropShape> {
    let given = [
        size.is_some(),
        sphere.is_some(),
        cylinder.is_some(),
        mesh.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        return Err(error(
            "a prop has one shape: size=(x, y, z) for a box, sphere=radius, \
             cylinder=(radius, length) or mesh=\"file.glb\"",
        ));
    }
    let positive = |v: f64, what: &str| -> PyResult<f64> {
        if finite(v, what)? > 0.0 {
            Ok(v)
        } else {
            Err(limit_error(format!("{what}: {v} is not above 0")))
        }
    };
    Ok(if let Some(s) = size {
        for v in s {
            positive(v, "size")?;
        }
        PropShape::Box { size: s }
    } else if let Some(r) = sphere {
        PropShape::Sphere {
            radius: positive(r, "sphere")?,
        }
    } else if let Some((radius, length)) = cylinder {
        PropShape::Cylinder {
            radius: positive(radius, "cylinder radius")?,
            length: positive(length, "cylinder length")?,
        }
    } else {
        PropShape::Mesh(mesh.unwrap_or_default())
    })
}

/// A prop's place: `at` (metres) and a rotation Rx·Ry·Rz (degrees).
fn prop_place(at: [f64; 3], rotation: [f64; 3]) -> PyResult<PropPlace> {
    for v in at {
        finite(v, "at")?;
    }
    for v in rotation {
        finite(v, "rotation")?;
    }
    Ok(PropPlace { at, rotation })
}

#[pymethods]
impl PyDocument {
    /// Adds a figure named `name` from a skeleton or character file (None: the built-in
    /// humanoid), standing at `at` (x, z) facing `facing` degrees about +Y.
    #[pyo3(signature = (name, file = None, at = [0.0, 0.0], facing = 0.0))]
    fn add_figure(
        &self,
        name: String,
        file: Option<PathBuf>,
        at: [f64; 2],
        facing: f64,
    ) -> PyResult<()> {
        let placement = placement(at, facing)?;
        self.stage_edit(StageEdit::AddFigure {
            name,
            file,
            placement,
        })
    }

    /// Removes a figure (not the one being edited).
    fn remove_figure(&self, name: String) -> PyResult<()> {
        self.stage_edit(StageEdit::RemoveFigure(name))
    }

    /// Renames a figure.
    fn rename_figure(&self, name: String, new_name: String) -> PyResult<()> {
        self.stage_edit(StageEdit::RenameFigure {
            from: name,
            to: new_name,
        })
    }

    /// Moves a figure on the floor: to `at` (x, z), facing `facing` degrees about +Y.
    #[pyo3(signature = (name, at, facing = 0.0))]
    fn place_figure(&self, name: String, at: [f64; 2], facing: f64) -> PyResult<()> {
        let placement = placement(at, facing)?;
        self.stage_edit(StageEdit::PlaceFigure {
            name,
            placement,
            undo: UndoStep::New,
        })
    }

    /// Adds a prop of one shape (`size` for a box, `sphere` radius, `cylinder` (radius,
    /// length) or a `mesh` file relative to the document's folder) at `at`, turned by
    /// `rotation` (degrees), weighing `mass` kg (None: 1 kg).
    #[pyo3(signature = (name, *, size = None, sphere = None, cylinder = None, mesh = None,
                        at = [0.0, 0.0, 0.0], rotation = [0.0, 0.0, 0.0], mass = None))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn add_prop(
        &self,
        name: String,
        size: Option<[f64; 3]>,
        sphere: Option<f64>,
        cylinder: Option<(f64, f64)>,
        mesh: Option<String>,
        at: [f64; 3],
        rotation: [f64; 3],
        mass: Option<f64>,
    ) -> PyResult<()> {
        if let Some(why) = mass.and_then(Prop::mass_problem) {
            return Err(limit_error(format!("prop \"{name}\": {why}")));
        }
        let prop = Prop {
            name,
            shape: shape(size, sphere, cylinder, mesh)?,
            place: prop_place(at, rotation)?,
            mass,
        };
        self.stage_edit(StageEdit::AddProp(prop))
    }

    /// Removes a prop.
    fn remove_prop(&self, name: String) -> PyResult<()> {
        self.stage_edit(StageEdit::RemoveProp(name))
    }

    /// Moves a prop to `at` (metres), turned by `rotation` (degrees).
    #[pyo3(signature = (name, at, rotation = [0.0, 0.0, 0.0]))]
    fn place_prop(&self, name: String, at: [f64; 3], rotation: [f64; 3]) -> PyResult<()> {
        let place = prop_place(at, rotation)?;
        self.stage_edit(StageEdit::PlaceProp {
            name,
            place,
            undo: UndoStep::New,
        })
    }

    /// Locks a site of one figure to a site of another: `a` and `b` are (figure, site).
    #[pyo3(signature = (a, b, turned = false))]
    fn lock_between(&self, a: (String, String), b: (String, String), turned: bool) -> PyResult<()> {
        self.stage_edit(StageEdit::LockBetween { a, b, turned })
    }

    /// Removes a link between figures, or between a figure and a prop, by name.
    fn remove_link(&self, name: String) -> PyResult<()> {
        self.stage_edit(StageEdit::RemoveLink(name))
    }

    /// From `frame` of the shown sequence, `figure`'s `site` grips `prop` (it carries it).
    fn grip(&self, prop: String, figure: String, site: String, frame: i64) -> PyResult<()> {
        self.stage_edit(StageEdit::Grip {
            prop,
            figure,
            site,
            frame,
        })
    }

    /// From `frame` of the shown sequence, `prop` is let go where it is.
    fn release(&self, prop: String, frame: i64) -> PyResult<()> {
        self.stage_edit(StageEdit::Release { prop, frame })
    }

    /// The links' names.
    #[getter]
    fn links(&self) -> Vec<String> {
        self.doc().links().iter().map(|l| l.name.clone()).collect()
    }
}

impl PyDocument {
    fn stage_edit(&self, edit: StageEdit) -> PyResult<()> {
        self.apply(Edit::Stage(edit)).map(|_| ())
    }
}
