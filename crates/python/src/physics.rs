//! The physics assistant from Python: the check of a document's sequence or a capture (the
//! object `marionette physics check --json` prints, made by the same code,
//! [`CheckTake`]) and the fix of a span (the physical ghost accepted by the editor's
//! `AcceptGhost` edit, as `marionette physics fix` does).

use marionette_editing::Edit;
use marionette_editing::physics_check::CheckTake;
use marionette_editing::physics_ghost::{GhostFix, GhostRequest};
use marionette_editing::physics_view::mass_settings;
use marionette_physics::{MassSettings, Sex};
use pyo3::prelude::*;

use crate::bake::figure_index;
use crate::capture::{PyCapture, json_to_python};
use crate::document::{PyDocument, shown_file};
use crate::errors::{error, finite, limit_error};

/// The body a check or a fix weighs: `mass` (kg) and de Leva's column, when either is given;
/// else `None` (the figure's own body).
fn body(mass: Option<f64>, female: bool) -> PyResult<Option<MassSettings>> {
    if let Some(kg) = mass
        && finite(kg, "mass")? <= 0.0
    {
        return Err(limit_error(format!("mass {kg} kg is not above 0")));
    }
    Ok((mass.is_some() || female).then(|| MassSettings {
        total_kg: mass.unwrap_or(75.0),
        sex: if female { Sex::Female } else { Sex::Male },
    }))
}

/// Checks `take` (without the interpreter's lock) and hands its JSON over.
fn check_take(
    py: Python<'_>,
    take: Result<CheckTake, String>,
    settings: Option<MassSettings>,
    file: &str,
) -> PyResult<Py<PyAny>> {
    let json = py
        .detach(|| {
            let take = take?;
            let checked = take.check(settings)?;
            Ok::<_, String>(take.json(&checked))
        })
        .map_err(|e| error(format!("{file}: {e}")))?;
    json_to_python(py, &json)
}

#[pymethods]
impl PyCapture {
    /// The physics assistant's check of the take (`marionette physics check --json`): the
    /// centre of mass per frame, the supports, the spans with no support and the balance.
    #[pyo3(signature = (mass = None, female = false))]
    fn physics_check(
        &self,
        py: Python<'_>,
        mass: Option<f64>,
        female: bool,
    ) -> PyResult<Py<PyAny>> {
        let settings = body(mass, female)?;
        let take = Ok(CheckTake::of_capture(&self.inner, self.scale_given));
        check_take(py, take, settings, &self.inner.path.display().to_string())
    }
}

#[pymethods]
impl PyDocument {
    /// The edited figure's body as the physics assistant weighs it: (mass in kg, "male" or
    /// "female"); None when the document gives none (75 kg, male).
    #[getter]
    fn body(&self) -> Option<(f64, &'static str)> {
        self.doc().body().map(|b| {
            let sex = match b.sex {
                marionette_document::BodySex::Female => "female",
                marionette_document::BodySex::Male => "male",
            };
            (b.mass, sex)
        })
    }

    /// Sets the edited figure's body: its total mass (kg) and de Leva's column.
    #[pyo3(signature = (mass, female = false))]
    fn set_body(&self, mass: f64, female: bool) -> PyResult<()> {
        let body = marionette_document::Body {
            mass,
            sex: if female {
                marionette_document::BodySex::Female
            } else {
                marionette_document::BodySex::Male
            },
        };
        self.apply(Edit::SetBody(Some(body))).map(|_| ())
    }

    /// The physics assistant's check of `sequence` of `figure` (default: the edited one), baked
    /// with its locks held: what `marionette physics check --json` prints, as a dict.
    #[pyo3(signature = (sequence, figure = None, mass = None, female = false))]
    fn physics_check(
        &self,
        py: Python<'_>,
        sequence: &str,
        figure: Option<&str>,
        mass: Option<f64>,
        female: bool,
    ) -> PyResult<Py<PyAny>> {
        let settings = body(mass, female)?;
        let stage = self.doc().to_stage();
        let file = shown_file(&self.doc());
        let index = figure_index(self, &stage, figure)?;
        let take = py.detach(|| CheckTake::of_document(&stage, index, sequence));
        check_take(py, take, settings, &file)
    }

    /// Fixes the span `span` = (first, last) of `sequence` (the frames with no support, as the
    /// check reports them) as `marionette physics fix` does: `ballistic` (the centre of mass
    /// flies the parabola under g), `momentum` (the angular momentum held; fitted at `marks`),
    /// `apex` (the flight rises this many metres), or `standing` (every frame brought over its
    /// support). The ghost is accepted by one edit; returns what it did, in words.
    #[pyo3(signature = (sequence, span, *, ballistic = false, momentum = false,
                        marks = Vec::new(), apex = None, standing = false, mass = None,
                        female = false))]
    #[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
    fn physics_fix(
        &self,
        py: Python<'_>,
        sequence: &str,
        span: (i64, i64),
        ballistic: bool,
        momentum: bool,
        marks: Vec<i64>,
        apex: Option<f64>,
        standing: bool,
        mass: Option<f64>,
        female: bool,
    ) -> PyResult<String> {
        let flight = ballistic || momentum || apex.is_some();
        if flight == standing {
            return Err(error(
                "say what to fix: ballistic, momentum or apex (a flight), or standing; not both",
            ));
        }
        if span.0 > span.1 {
            return Err(error(format!(
                "span {span:?}: the first frame is after the last"
            )));
        }
        if let Some(h) = apex {
            finite(h, "apex")?;
        }
        let settings = body(mass, female)?;
        let index = self.sequence_index_of(sequence)?;
        self.apply(Edit::SelectSequence(Some(index)))?;
        let file = shown_file(&self.doc());
        let request = GhostRequest {
            from: span.0,
            to: span.1,
            fix: if standing {
                GhostFix::Standing
            } else {
                GhostFix::Flight {
                    ballistic,
                    momentum,
                    apex,
                    marks,
                }
            },
            body: settings.unwrap_or_else(|| mass_settings(self.doc().body())),
        };
        let ghost = {
            // Locked inside the work without the interpreter's lock (see `cleanup`).
            py.detach(|| self.doc().physics_ghost(request))
                .map_err(|e| error(format!("{file}: \"{sequence}\": {e}")))?
        };
        let said = ghost.said();
        self.apply(Edit::AcceptGhost(Box::new(ghost)))?;
        Ok(said)
    }
}
