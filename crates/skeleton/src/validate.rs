//! The per-joint rules of `docs/skeleton-format.md` and the conversion of a valid definition into
//! program units.

use nalgebra::Vector3;

use crate::error::{Defect, DofRef};
use crate::format::{BodyDef, DofDef, JointDef};
use crate::model::{AxisKind, Dof, DofKind, JointId, Shape};

/// A hinge whose limits span this many degrees or more has no limits.
const FULL_TURN_DEG: f64 = 360.0;

/// Pushes every defect of one joint definition.
pub(crate) fn validate_def(joint: &str, def: &JointDef, defects: &mut Vec<Defect>) {
    let non_finite = |defects: &mut Vec<Defect>, field: String| {
        defects.push(Defect::NonFinite {
            owner: format!("joint \"{joint}\""),
            field,
        })
    };
    if def.offset.iter().any(|v| !v.is_finite()) {
        non_finite(defects, "offset".into());
    } else {
        beyond_range(
            &format!("joint \"{joint}\""),
            "offset",
            &def.offset,
            defects,
        );
    }
    if def.orientation.iter().any(|v| !v.is_finite()) {
        non_finite(defects, "orientation".into());
    }
    if !def.mass.is_finite() {
        non_finite(defects, "mass".into());
    }
    if def
        .mass_center
        .is_some_and(|c| c.iter().any(|v| !v.is_finite()))
    {
        non_finite(defects, "mass_center".into());
    }
    if !def.stiffness.is_finite() {
        non_finite(defects, "stiffness".into());
    }
    for (field, values) in [("rest", &def.rest), ("preferred", &def.preferred)] {
        for (k, v) in values.iter().enumerate() {
            if !v.is_finite() {
                non_finite(defects, format!("{field} value {}", k + 1));
            }
        }
    }
    for (k, dof) in def.dofs.iter().enumerate() {
        let (axis, min, max) = dof_parts(dof);
        let dof_ref = DofRef { index: k };
        if axis.iter().any(|v| !v.is_finite()) {
            non_finite(defects, format!("{dof_ref} axis"));
        } else if axis == [0.0; 3] {
            defects.push(Defect::ZeroAxis {
                joint: joint.to_owned(),
                dof: dof_ref,
            });
        }
        if !min.is_finite() {
            non_finite(defects, format!("{dof_ref} min"));
        }
        if !max.is_finite() {
            non_finite(defects, format!("{dof_ref} max"));
        }
        if matches!(dof, DofDef::Slide(..)) {
            let owner = format!("joint \"{joint}\"");
            beyond_range(&owner, &format!("{dof_ref} min"), &[min], defects);
            beyond_range(&owner, &format!("{dof_ref} max"), &[max], defects);
        }
        if min > max {
            defects.push(Defect::MinAboveMax {
                joint: joint.to_owned(),
                dof: dof_ref,
                min,
                max,
            });
        } else {
            for (field, values) in [("rest", &def.rest), ("preferred", &def.preferred)] {
                if let Some(&value) = values.get(k)
                    && value.is_finite()
                    && !(min <= value && value <= max)
                {
                    defects.push(Defect::ValueOutOfLimits {
                        joint: joint.to_owned(),
                        field,
                        dof: dof_ref,
                        value,
                        min,
                        max,
                    });
                }
            }
        }
    }
    for (field, values) in [("rest", &def.rest), ("preferred", &def.preferred)] {
        if !values.is_empty() && values.len() != def.dofs.len() {
            defects.push(Defect::ValueCount {
                joint: joint.to_owned(),
                field,
                expected: def.dofs.len(),
                found: values.len(),
            });
        }
    }
    if def.mass < 0.0 {
        defects.push(Defect::NegativeMass {
            joint: joint.to_owned(),
            mass: def.mass,
        });
    }
    if def.stiffness.is_finite() && !(def.stiffness > 0.0 && def.stiffness <= 1.0) {
        defects.push(Defect::StiffnessOutOfRange {
            joint: joint.to_owned(),
            stiffness: def.stiffness,
        });
    }
    if let Some(body) = &def.object {
        validate_body(joint, body, defects);
    }
}

/// Pushes a defect for the first of `values` (finite ones) beyond ±[`crate::MAX_COORDINATE`].
pub(crate) fn beyond_range(owner: &str, field: &str, values: &[f64], defects: &mut Vec<Defect>) {
    if let Some(&value) = values
        .iter()
        .find(|v| v.is_finite() && !crate::coordinate_in_range(**v))
    {
        defects.push(Defect::BeyondRange {
            owner: owner.to_owned(),
            field: field.to_owned(),
            value,
        });
    }
}

fn validate_body(joint: &str, body: &BodyDef, defects: &mut Vec<Defect>) {
    let mut bad = |what: String| {
        defects.push(Defect::BadBody {
            joint: joint.to_owned(),
            what,
        })
    };
    let mut positive = |name: &str, v: f64| {
        if !v.is_finite() {
            bad(format!("{name} is not a finite number"));
        } else if !crate::coordinate_in_range(v) {
            bad(format!("{name} {v} is beyond ±1000000 m"));
        } else if v <= 0.0 {
            bad(format!("{name} {v} is not positive"));
        }
    };
    let at = match body {
        BodyDef::Capsule {
            radius,
            length,
            at,
            axis,
        } => {
            positive("radius", *radius);
            positive("length", *length);
            if let Some(a) = axis {
                if a.iter().any(|v| !v.is_finite()) {
                    bad("axis is not a finite vector".into());
                } else if *a == [0.0; 3] {
                    bad("axis is the zero vector".into());
                }
            }
            at
        }
        BodyDef::Box { size, at } => {
            for (name, v) in ["size x", "size y", "size z"].iter().zip(size) {
                positive(name, *v);
            }
            at
        }
        BodyDef::Sphere { radius, at } => {
            positive("radius", *radius);
            at
        }
        BodyDef::Mesh { path, at } => {
            if path.trim().is_empty() {
                bad("mesh path is empty".into());
            }
            at
        }
    };
    if at.iter().any(|v| !crate::coordinate_in_range(*v)) {
        bad("at is not a finite point within ±1000000 m".into());
    }
}

fn dof_parts(dof: &DofDef) -> ([f64; 3], f64, f64) {
    match *dof {
        DofDef::Hinge(axis, min, max) | DofDef::Slide(axis, min, max) => (axis.vector(), min, max),
    }
}

/// A valid DOF definition in program units; `rest` and `preferred` are in file units
/// (`preferred: None` takes the default bend hint, [`default_preferred`]).
pub(crate) fn dof_from_def(
    joint: JointId,
    index_in_joint: usize,
    def: &DofDef,
    rest: f64,
    preferred: Option<f64>,
) -> Dof {
    let (kind, axis_def, min, max) = match *def {
        DofDef::Hinge(a, lo, hi) => (DofKind::Hinge, a, lo, hi),
        DofDef::Slide(a, lo, hi) => (DofKind::Slide, a, lo, hi),
    };
    let axis = Vector3::from(axis_def.vector()).normalize();
    let axis_kind = [
        (Vector3::x(), AxisKind::X),
        (Vector3::y(), AxisKind::Y),
        (Vector3::z(), AxisKind::Z),
        (-Vector3::x(), AxisKind::NegX),
        (-Vector3::y(), AxisKind::NegY),
        (-Vector3::z(), AxisKind::NegZ),
    ]
    .into_iter()
    .find(|(v, _)| *v == axis)
    .map_or(AxisKind::General, |(_, kind)| kind);
    let unlimited = kind == DofKind::Hinge && max - min >= FULL_TURN_DEG;
    let to_units = |v: f64| match kind {
        DofKind::Hinge => v.to_radians(),
        DofKind::Slide => v,
    };
    Dof {
        joint,
        index_in_joint,
        kind,
        axis,
        axis_kind,
        min: to_units(min),
        max: to_units(max),
        unlimited,
        rest: to_units(rest),
        preferred: to_units(preferred.unwrap_or_else(|| default_preferred(min, max, rest))),
    }
}

/// Of a hinge's range, the fraction a default bend hint lies inside a limit the rest value sits
/// at; at most [`HINT_MAX_DEG`].
const HINT_FRACTION: f64 = 0.25;
/// The largest default bend, degrees (for hinges; slides take the fraction alone).
const HINT_MAX_DEG: f64 = 30.0;

/// The default bend hint of a DOF (file units): its rest value, except where the rest value sits
/// at a limit (a straight elbow or knee at 0 of 0..150°), which moves a quarter of the range
/// (30° at most) inside it, so a limb straight at rest knows which way it bends.
pub(crate) fn default_preferred(min: f64, max: f64, rest: f64) -> f64 {
    let range = max - min;
    if range >= FULL_TURN_DEG || range <= 0.0 {
        return rest;
    }
    let inward = (HINT_FRACTION * range).min(HINT_MAX_DEG);
    if rest <= min {
        min + inward
    } else if rest >= max {
        max - inward
    } else {
        rest
    }
}

/// The body placed in the joint frame. `first_child_offset` orients a capsule without an axis.
pub(crate) fn shape_from_def(body: &BodyDef, first_child_offset: Option<[f64; 3]>) -> Shape {
    match body {
        BodyDef::Capsule {
            radius,
            length,
            at,
            axis,
        } => {
            let dir = match axis {
                Some(a) => Vector3::from(*a).normalize(),
                None => first_child_offset
                    .map(Vector3::from)
                    .and_then(|o| o.try_normalize(0.0))
                    .unwrap_or_else(|| -Vector3::y()),
            };
            let start = Vector3::from(*at);
            Shape::Capsule {
                radius: *radius,
                start,
                end: start + dir * *length,
            }
        }
        BodyDef::Box { size, at } => Shape::Box {
            half_extents: Vector3::from(*size) * 0.5,
            center: Vector3::from(*at),
        },
        BodyDef::Sphere { radius, at } => Shape::Sphere {
            radius: *radius,
            center: Vector3::from(*at),
        },
        BodyDef::Mesh { path, at } => Shape::Mesh {
            path: path.clone(),
            origin: Vector3::from(*at),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rest_value_at_a_limit_gets_a_hint_inside_the_range() {
        // A straight elbow or knee (0 of 0..150°): 30° of flexion, the cap.
        assert_eq!(default_preferred(0.0, 150.0, 0.0), 30.0);
        // At the upper limit of a small range: a quarter of the range inwards.
        assert_eq!(default_preferred(-40.0, 20.0, 20.0), 5.0);
        // Slides take a quarter of their travel.
        assert_eq!(default_preferred(0.0, 0.1, 0.0), 0.025);
        // Inside the range, or unlimited: the rest value.
        assert_eq!(default_preferred(-90.0, 20.0, 0.0), 0.0);
        assert_eq!(default_preferred(-180.0, 180.0, 180.0), 180.0);
        // A range of one value: nowhere else to go.
        assert_eq!(default_preferred(10.0, 10.0, 10.0), 10.0);
    }

    #[test]
    fn a_stated_hint_wins_over_the_default() {
        let hinge = DofDef::Hinge(crate::format::AxisDef::X, 0.0, 150.0);
        let default = dof_from_def(JointId(0), 0, &hinge, 0.0, None);
        assert!((default.preferred - 30f64.to_radians()).abs() < 1e-15);
        let stated = dof_from_def(JointId(0), 0, &hinge, 0.0, Some(90.0));
        assert!((stated.preferred - 90f64.to_radians()).abs() < 1e-15);
    }
}
