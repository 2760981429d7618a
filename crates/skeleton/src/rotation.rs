//! Rotation helpers every crate shares: the skeleton format's orientations in degrees
//! (Rx·Ry·Rz) and their read-back, rotations about a coordinate axis, the nearest rotation to a
//! matrix and a rotation matrix's quaternion. Written once here; the problem files, the
//! character import, the BVH files and glTF read and write call these.

use nalgebra::{Matrix3, Rotation3, Unit, UnitQuaternion, Vector3};

/// Rx(rx)·Ry(ry)·Rz(rz) from degrees: the format's orientation convention, for joint frames
/// and for orientation targets alike.
pub fn orientation_from_degrees(deg: [f64; 3]) -> Matrix3<f64> {
    let [rx, ry, rz] = deg.map(f64::to_radians);
    (Rotation3::from_axis_angle(&Vector3::x_axis(), rx)
        * Rotation3::from_axis_angle(&Vector3::y_axis(), ry)
        * Rotation3::from_axis_angle(&Vector3::z_axis(), rz))
    .into_inner()
}

/// The angles (a, b, c) in degrees with R = Rx(a)·Ry(b)·Rz(c): the inverse of
/// [`orientation_from_degrees`]. At the gimbal singularity (b = ±90°) only a ± c is defined,
/// and a takes the whole turn about the shared axis.
pub fn degrees_from_orientation(r: &Matrix3<f64>) -> [f64; 3] {
    // R[0][2] = sin b, R[0][0] = cos b cos c, R[0][1] = −cos b sin c, R[1][2] = −sin a cos b,
    // R[2][2] = cos a cos b: atan2 throughout, well conditioned near b = ±90° too.
    let cos_b = r[(0, 0)].hypot(r[(0, 1)]);
    let b = r[(0, 2)].atan2(cos_b);
    let (a, c) = if cos_b > 1e-12 {
        ((-r[(1, 2)]).atan2(r[(2, 2)]), (-r[(0, 1)]).atan2(r[(0, 0)]))
    } else {
        (r[(2, 1)].atan2(r[(1, 1)]), 0.0)
    };
    [a, b, c].map(f64::to_degrees)
}

/// The rotation about coordinate axis `axis` (0 = X, 1 = Y, 2 = Z) by `angle` radians.
pub fn coordinate_axis_rotation(axis: usize, angle: f64) -> Matrix3<f64> {
    let mut a = Vector3::zeros();
    a[axis.min(2)] = 1.0;
    Rotation3::from_axis_angle(&Unit::new_unchecked(a), angle).into_inner()
}

/// The rotation nearest to `m` (by the Frobenius norm: U·Vᵀ of its singular value
/// decomposition, with the sign that keeps it a rotation).
pub fn nearest_rotation(m: &Matrix3<f64>) -> Matrix3<f64> {
    let svd = m.svd(true, true);
    let (Some(u), Some(v_t)) = (svd.u, svd.v_t) else {
        return Matrix3::identity();
    };
    let mut r = u * v_t;
    if r.determinant() < 0.0 {
        let mut u = u;
        let mut last = u.column_mut(2);
        last *= -1.0;
        r = u * v_t;
    }
    r
}

/// The unit quaternion of a rotation matrix, read directly (no iteration, unlike
/// `UnitQuaternion::from_matrix`).
pub fn quaternion_of(r: &Matrix3<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(*r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Quaternion;
    use proptest::prelude::*;

    proptest! {
        /// Degrees read back build the same rotation, the gimbal singularity included.
        #[test]
        fn orientations_read_back_as_the_format_builds_them(
            a in -180.0f64..180.0, b in -90.0f64..90.0, c in -180.0f64..180.0,
            pole in 0usize..4,
        ) {
            // Now and then exactly at b = ±90°.
            let b = match pole { 0 => 90.0, 1 => -90.0, _ => b };
            let r = orientation_from_degrees([a, b, c]);
            let back = orientation_from_degrees(degrees_from_orientation(&r));
            prop_assert!((back - r).abs().max() < 1e-9);
        }

        /// A slightly scaled, slightly sheared rotation comes back to the rotation.
        #[test]
        fn the_nearest_rotation_undoes_small_noise(
            a in -3.0f64..3.0, b in -1.5f64..1.5, c in -3.0f64..3.0, noise in -1e-6f64..1e-6,
        ) {
            let r = orientation_from_degrees([a, b, c].map(f64::to_degrees));
            let mut m = r * 1.001;
            m[(0, 1)] += noise;
            let n = nearest_rotation(&m);
            prop_assert!((n.transpose() * n - Matrix3::identity()).abs().max() < 1e-12);
            prop_assert!((n - r).abs().max() < 1e-5);
        }
    }

    #[test]
    fn coordinate_axes_turn_the_right_way() {
        let quarter = std::f64::consts::FRAC_PI_2;
        let y = coordinate_axis_rotation(0, quarter) * Vector3::y();
        assert!((y - Vector3::z()).norm() < 1e-15);
        let z = coordinate_axis_rotation(1, quarter) * Vector3::z();
        assert!((z - Vector3::x()).norm() < 1e-15);
        let x = coordinate_axis_rotation(2, quarter) * Vector3::x();
        assert!((x - Vector3::y()).norm() < 1e-15);
    }

    #[test]
    fn half_turns_and_nearly_half_turns_are_read_without_iterating() {
        let half = Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::PI);
        let q = quaternion_of(half.matrix());
        assert!((q.angle() - std::f64::consts::PI).abs() < 1e-12);
        // The fuzzer's node: a rotation quaternion (x, y, z, w) = (0, -1, 0, 2e-8), which
        // nalgebra's iterative extraction never finished.
        let m = UnitQuaternion::new_normalize(Quaternion::new(2.2e-8, 0.0, -1.0, 0.0))
            .to_rotation_matrix()
            .into_inner();
        let q = quaternion_of(&nearest_rotation(&m));
        assert!(
            (q.to_rotation_matrix().into_inner() - half.matrix())
                .abs()
                .max()
                < 1e-6
        );
    }
}
