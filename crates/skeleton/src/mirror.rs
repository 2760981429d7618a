//! Reflection of a joint definition through the x = 0 plane (`docs/skeleton-format.md`, `mirror`).
//!
//! With M = diag(−1, 1, 1): a point or a slide direction maps to M·v = (−x, y, z); a rotation R maps
//! to M·R·M, which for a hinge about (ax, ay, az) is the same angle about (ax, −ay, −az), and for
//! the orientation Rx(rx)·Ry(ry)·Rz(rz) is Rx(rx)·Ry(−ry)·Rz(−rz). Limits stay as they are.

use crate::format::{AxisDef, BodyDef, DofDef, JointDef};

/// Negation that never yields −0.0, so mirrored files print `0.0`, not `-0.0`.
fn neg(v: f64) -> f64 {
    0.0 - v
}

fn mirror_point(p: [f64; 3]) -> [f64; 3] {
    [neg(p[0]), p[1], p[2]]
}

fn mirror_hinge_axis(axis: AxisDef) -> AxisDef {
    match axis {
        AxisDef::X => AxisDef::X,
        AxisDef::Y => AxisDef::Axis(0.0, -1.0, 0.0),
        AxisDef::Z => AxisDef::Axis(0.0, 0.0, -1.0),
        AxisDef::Axis(x, y, z) => AxisDef::Axis(x, neg(y), neg(z)),
    }
}

fn mirror_slide_axis(axis: AxisDef) -> AxisDef {
    match axis {
        AxisDef::X => AxisDef::Axis(-1.0, 0.0, 0.0),
        AxisDef::Y => AxisDef::Y,
        AxisDef::Z => AxisDef::Z,
        AxisDef::Axis(x, y, z) => AxisDef::Axis(neg(x), y, z),
    }
}

fn mirror_body(body: &BodyDef) -> BodyDef {
    match body {
        BodyDef::Capsule {
            radius,
            length,
            at,
            axis,
        } => BodyDef::Capsule {
            radius: *radius,
            length: *length,
            at: mirror_point(*at),
            axis: axis.map(mirror_point),
        },
        BodyDef::Box { size, at } => BodyDef::Box {
            size: *size,
            at: mirror_point(*at),
        },
        BodyDef::Sphere { radius, at } => BodyDef::Sphere {
            radius: *radius,
            at: mirror_point(*at),
        },
        BodyDef::Mesh { path, at } => BodyDef::Mesh {
            path: path.clone(),
            at: mirror_point(*at),
        },
    }
}

/// The definition reflected through x = 0; the result has no `mirror` of its own.
pub fn mirror_def(def: &JointDef) -> JointDef {
    let [rx, ry, rz] = def.orientation;
    JointDef {
        offset: mirror_point(def.offset),
        orientation: [rx, neg(ry), neg(rz)],
        dofs: def
            .dofs
            .iter()
            .map(|d| match *d {
                DofDef::Hinge(a, lo, hi) => DofDef::Hinge(mirror_hinge_axis(a), lo, hi),
                DofDef::Slide(a, lo, hi) => DofDef::Slide(mirror_slide_axis(a), lo, hi),
            })
            .collect(),
        object: def.object.as_ref().map(mirror_body),
        mass: def.mass,
        mass_center: def.mass_center.map(mirror_point),
        stiffness: def.stiffness,
        rest: def.rest.clone(),
        preferred: def.preferred.clone(),
        mirror: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rotation::orientation_from_degrees as orientation_matrix;
    use nalgebra::Matrix3;

    #[test]
    fn mirrored_orientation_is_the_reflected_rotation() {
        let m = Matrix3::from_diagonal(&nalgebra::Vector3::new(-1.0, 1.0, 1.0));
        let def = JointDef {
            orientation: [20.0, -35.0, 50.0],
            ..JointDef::default()
        };
        let reflected = m * orientation_matrix(def.orientation) * m;
        let mirrored = orientation_matrix(mirror_def(&def).orientation);
        assert!((reflected - mirrored).abs().max() < 1e-12);
    }

    #[test]
    fn hinge_and_slide_axes_follow_the_format_page() {
        let def = JointDef {
            dofs: vec![
                DofDef::Hinge(AxisDef::Y, -10.0, 30.0),
                DofDef::Slide(AxisDef::X, 0.0, 0.1),
                DofDef::Hinge(AxisDef::Axis(1.0, 2.0, 3.0), -5.0, 5.0),
            ],
            ..JointDef::default()
        };
        let m = mirror_def(&def);
        assert_eq!(
            m.dofs[0],
            DofDef::Hinge(AxisDef::Axis(0.0, -1.0, 0.0), -10.0, 30.0)
        );
        assert_eq!(
            m.dofs[1],
            DofDef::Slide(AxisDef::Axis(-1.0, 0.0, 0.0), 0.0, 0.1)
        );
        assert_eq!(
            m.dofs[2],
            DofDef::Hinge(AxisDef::Axis(1.0, -2.0, -3.0), -5.0, 5.0)
        );
    }
}
