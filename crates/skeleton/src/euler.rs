//! Angles of a rotation about three given axes: R = R(a₁,θ₁)·R(a₂,θ₂)·R(a₃,θ₃), with each axis
//! in the frame moved by the rotations before it (the skeleton format's DOF convention), for
//! axes with a₁ ⊥ a₂ and a₂ ⊥ a₃ (Davenport's condition; Z-Y-Z, X-Z-Y and every human shoulder,
//! hip, wrist and ankle of our skeletons). This is the "Euler angles of R1/R2 in the chain's own
//! DOF order" step of Tolani, Goswami & Badler (2000, §3.2.3), and the read-back of a joint's
//! DOF values from an interpolated rotation (`crate::joint_rotation`).
//!
//! Since R(a₁)ᵀa₁ = a₁ and R(a₃)a₃ = a₃, a₁ᵀ R a₃ = a₁ᵀ R(a₂,θ₂) a₃ = cos θ₂ (a₁·a₃) +
//! sin θ₂ a₁·(a₂×a₃), so θ₂ = λ ± acos(a₁ᵀRa₃) with λ = atan2(a₁·(a₂×a₃), a₁·a₃): the two
//! families. θ₁ then turns R(a₂,θ₂)a₃ onto Ra₃ about a₁, and θ₃ is what remains about a₃.

use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

use crate::angles::AngleRange;

/// Three unit axes with a₁ ⊥ a₂ and a₂ ⊥ a₃.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisTriple {
    /// The axes, in DOF order.
    pub axes: [Vector3<f64>; 3],
    /// b = a₁ × a₂.
    b: Vector3<f64>,
    /// b' = a₃ × a₂ (the reversed triple's b).
    b_rev: Vector3<f64>,
    /// ψ: the angle of a₃ in the (a₁, b) plane.
    psi: f64,
    /// (sin ψ, cos ψ) = (a₃·b, a₃·a₁).
    psi_sin_cos: (f64, f64),
}

/// Why three axes cannot be decomposed this way.
pub const NOT_PERPENDICULAR: &str = "consecutive axes are not perpendicular";

impl AxisTriple {
    /// The triple, if consecutive axes are perpendicular (to 1e-9).
    pub fn new(axes: [Vector3<f64>; 3]) -> Result<AxisTriple, &'static str> {
        let axes = axes.map(|a| a.normalize());
        if axes[0].dot(&axes[1]).abs() > 1e-9 || axes[1].dot(&axes[2]).abs() > 1e-9 {
            return Err(NOT_PERPENDICULAR);
        }
        let b = axes[0].cross(&axes[1]);
        Ok(AxisTriple {
            axes,
            b,
            b_rev: axes[2].cross(&axes[1]),
            psi: axes[2].dot(&b).atan2(axes[2].dot(&axes[0])),
            psi_sin_cos: (axes[2].dot(&b), axes[2].dot(&axes[0])),
        })
    }

    /// R(a₁,θ₁)·R(a₂,θ₂)·R(a₃,θ₃).
    pub fn compose(&self, angles: [f64; 3]) -> Matrix3<f64> {
        let r =
            |i: usize| Rotation3::from_axis_angle(&Unit::new_unchecked(self.axes[i]), angles[i]);
        (r(0) * r(1) * r(2)).into_inner()
    }

    /// R(a₁,θ₁)·R(a₂,θ₂)·R(a₃,θ₃)·v, one Rodrigues rotation of the vector at a time (cheaper than
    /// [`AxisTriple::compose`] when only a vector is needed).
    pub fn rotate(&self, angles: [f64; 3], v: &Vector3<f64>) -> Vector3<f64> {
        (0..3).rev().fold(*v, |v, i| {
            let (a, (sin, cos)) = (&self.axes[i], angles[i].sin_cos());
            v * cos + a.cross(&v) * sin + a * (a.dot(&v) * (1.0 - cos))
        })
    }

    /// Both families of angles giving `r` (`family` 0 or 1 picks the sign of the acos).
    ///
    /// With b = a₁ × a₂ and ψ the angle of a₃ in the (a₁, b) plane, u = R a₃ has u·a₁ = cos(θ₂ − ψ),
    /// u·a₂ = S sin θ₁ and u·b = −S cos θ₁ with S = sin(θ₂ − ψ), whose sign σ is fixed by the
    /// family; the reversed triple gives θ₃ from v = Rᵀ a₁ the same way. So no rotation matrix is
    /// built. At a gimbal lock (S ≈ 0) θ₁ is set to 0 and θ₃ takes the whole rotation.
    pub fn decompose(&self, r: &Matrix3<f64>, family: usize) -> [f64; 3] {
        let sigma = if family == 0 { 1.0 } else { -1.0 };
        if let Some(angles) =
            self.from_vectors(&(r * self.axes[2]), &(r.transpose() * self.axes[0]), sigma)
        {
            return angles;
        }
        let [_, a2, a3] = self.axes;
        let k = (r * a3).dot(&self.axes[0]).clamp(-1.0, 1.0);
        let theta2 = self.psi + sigma * k.acos();
        // Gimbal lock: a₁ and R a₃ are (anti)parallel; θ₁ = 0 and θ₃ takes the rest.
        let m = Rotation3::from_axis_angle(&Unit::new_unchecked(a2), theta2).inverse()
            * Rotation3::from_matrix_unchecked(*r);
        let theta3 = angle_about(&a3, &a2, &(m * a2));
        [0.0, wrap(theta2), wrap(theta3)]
    }
}

impl AxisTriple {
    /// The angles of family σ = ±1 from u = R a₃ and v = Rᵀ a₁ alone, or `None` at a gimbal lock
    /// (|sin(θ₂ − ψ)| ≤ 1e-9): θ₂ = ψ + σ acos(u·a₁), θ₁ = atan2(σ u·a₂, −σ u·b),
    /// θ₃ = −atan2(−σ v·a₂, σ v·b').
    pub fn from_vectors(&self, u: &Vector3<f64>, v: &Vector3<f64>, sigma: f64) -> Option<[f64; 3]> {
        let a2 = self.axes[1];
        let (sin, cos) = self.spread(u)?;
        let spread = sin.atan2(cos);
        let theta1 = (sigma * u.dot(&a2)).atan2(-sigma * u.dot(&self.b));
        let theta3 = -(-sigma * v.dot(&a2)).atan2(sigma * v.dot(&self.b_rev));
        Some([wrap(theta1), wrap(self.psi + sigma * spread), wrap(theta3)])
    }
}

impl AxisTriple {
    /// (sin, cos) of the spread acos(u·a₁) = |θ₂ − ψ|, or `None` at a gimbal lock
    /// (sin ≤ 1e-9).
    fn spread(&self, u: &Vector3<f64>) -> Option<(f64, f64)> {
        let (sin, cos) = sin_cos_of_acos(u.dot(&self.axes[0]));
        (sin > 1e-9).then_some((sin, cos))
    }

    /// Whether the angles of family σ that [`AxisTriple::from_vectors`] gives for u and v lie
    /// within `ranges`, without computing them: each angle is known by its sine and cosine
    /// (θ₂ = ψ + σ·spread by the angle-sum formulas) and compared as a pseudo-angle
    /// ([`super::ranges`]). `None` at a gimbal lock, as there.
    pub fn within(
        &self,
        u: &Vector3<f64>,
        v: &Vector3<f64>,
        sigma: f64,
        ranges: &[AngleRange],
    ) -> Option<bool> {
        let a2 = self.axes[1];
        let (sin, cos) = self.spread(u)?;
        let (sin_psi, cos_psi) = self.psi_sin_cos;
        let sin = sigma * sin;
        Some(
            ranges[1].contains(sin_psi * cos + cos_psi * sin, cos_psi * cos - sin_psi * sin)
                && ranges[0].contains(sigma * u.dot(&a2), -sigma * u.dot(&self.b))
                // θ₃ = −atan2(y, x) = atan2(−y, x), both wrapped to π at ±π.
                && ranges[2].contains(sigma * v.dot(&a2), sigma * v.dot(&self.b_rev)),
        )
    }
}

/// (sin, cos) of acos(c), with c clamped to [−1, 1]: (√((1 − c)(1 + c)), c), accurate near ±1
/// (1 − c is exact there). `atan2` of the pair is acos(c) at the price of one `atan2`, cheaper
/// than the C library's `acos`, and the sine comes free.
pub fn sin_cos_of_acos(c: f64) -> (f64, f64) {
    let c = c.clamp(-1.0, 1.0);
    (((1.0 - c) * (1.0 + c)).sqrt(), c)
}

/// The rotation about unit `axis` by the angle whose cosine and sine are given (Rodrigues:
/// cos·I + sin·\[a\]× + (1 − cos)·a aᵀ).
pub fn axis_rotation(axis: &Vector3<f64>, cos: f64, sin: f64) -> Matrix3<f64> {
    let a = axis * sin;
    Matrix3::from_diagonal_element(cos)
        + Matrix3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
        + axis * axis.transpose() * (1.0 - cos)
}

/// The angle turning `from` towards `to` about unit `axis` (0 when either lies along the axis).
pub fn angle_about(axis: &Vector3<f64>, from: &Vector3<f64>, to: &Vector3<f64>) -> f64 {
    let f = from - axis * axis.dot(from);
    let t = to - axis * axis.dot(to);
    if f.norm_squared() < 1e-24 || t.norm_squared() < 1e-24 {
        return 0.0;
    }
    axis.dot(&f.cross(&t)).atan2(f.dot(&t))
}

/// An angle in (−π, π].
pub fn wrap(a: f64) -> f64 {
    crate::angles::wrap_angle(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn triples() -> Vec<AxisTriple> {
        let (x, y, z) = (Vector3::x(), Vector3::y(), Vector3::z());
        [
            [z, y, z],
            [x, z, y],
            [-x, -z, y],
            [y, z, x],
            [x, y, x],
            [y, x, -y],
        ]
        .into_iter()
        .map(|a| AxisTriple::new(a).expect("perpendicular"))
        .collect()
    }

    proptest! {
        #[test]
        fn both_families_recompose_the_rotation(angles in [-3.1..3.1f64, -3.1..3.1f64, -3.1..3.1f64]) {
            for t in triples() {
                let r = t.compose(angles);
                for family in 0..2 {
                    let back = t.compose(t.decompose(&r, family));
                    prop_assert!((back - r).abs().max() < 1e-9, "{:?} family {family}", t.axes);
                }
            }
        }

        #[test]
        fn rotating_a_vector_is_applying_the_composed_rotation(angles in [-3.1..3.1f64, -3.1..3.1f64, -3.1..3.1f64], v in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64]) {
            let v = Vector3::from(v);
            for t in triples() {
                prop_assert!((t.rotate(angles, &v) - t.compose(angles) * v).norm() < 1e-14);
            }
        }
    }

    proptest! {
        #[test]
        fn axis_rotation_is_the_rotation_by_that_angle(angle in -3.2..3.2f64, axis in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64]) {
            let Some(axis) = Vector3::from(axis).try_normalize(1e-3) else { return Ok(()) };
            let expected = Rotation3::from_axis_angle(&Unit::new_unchecked(axis), angle).into_inner();
            prop_assert!((axis_rotation(&axis, angle.cos(), angle.sin()) - expected).abs().max() < 1e-15);
        }

        #[test]
        fn atan2_of_sin_cos_of_acos_is_acos(c in -1.5..1.5f64) {
            let (sin, cos) = sin_cos_of_acos(c);
            let expected = c.clamp(-1.0, 1.0).acos();
            prop_assert!((sin.atan2(cos) - expected).abs() <= 4.0 * f64::EPSILON * expected.max(1.0));
            prop_assert!((sin - expected.sin()).abs() <= 4.0 * f64::EPSILON);
        }
    }

    proptest! {
        #[test]
        fn within_agrees_with_the_angles(
            angles in [-3.1..3.1f64, -3.1..3.1f64, -3.1..3.1f64],
            lo in [-3.2..3.2f64, -3.2..3.2f64, -3.2..3.2f64],
            width in [0.0..6.3f64, 0.0..6.3f64, 0.0..6.3f64],
        ) {
            let limits: [Option<(f64, f64)>; 3] = std::array::from_fn(|k| Some((lo[k], lo[k] + width[k])));
            let ranges = limits.map(AngleRange::new);
            for t in triples() {
                let r = t.compose(angles);
                let (u, v) = (r * t.axes[2], r.transpose() * t.axes[0]);
                for sigma in [1.0, -1.0] {
                    let (Some(found), Some(inside)) = (t.from_vectors(&u, &v, sigma), t.within(&u, &v, sigma, &ranges)) else {
                        continue;
                    };
                    let clear = found.iter().zip(&limits).all(|(a, l)| {
                        let (lo, hi) = l.expect("limited");
                        (a - lo).abs() > 1e-9 && (a - hi).abs() > 1e-9
                    });
                    let expected = found.iter().zip(&limits).all(|(a, l)| {
                        let (lo, hi) = l.expect("limited");
                        lo <= *a && *a <= hi
                    });
                    if clear {
                        prop_assert_eq!(inside, expected, "{:?} σ {} angles {:?}", t.axes, sigma, found);
                    }
                }
            }
        }
    }

    #[test]
    fn gimbal_lock_still_recomposes() {
        let t = AxisTriple::new([Vector3::z(), Vector3::y(), Vector3::z()]).expect("zyz");
        let r = t.compose([0.4, 0.0, -1.1]);
        for family in 0..2 {
            assert!((t.compose(t.decompose(&r, family)) - r).abs().max() < 1e-9);
        }
    }

    #[test]
    fn non_perpendicular_axes_are_refused() {
        let tilted = Vector3::new(1.0, 1.0, 0.0);
        assert_eq!(
            AxisTriple::new([Vector3::x(), tilted, Vector3::z()]),
            Err(NOT_PERPENDICULAR)
        );
    }
}
