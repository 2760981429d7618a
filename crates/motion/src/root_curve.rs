//! The root translation between keys (docs/file-formats.md, Document): straight lines, a uniform
//! Catmull-Rom spline with the end keys repeated, or a Kochanek–Bartels spline (Kochanek &
//! Bartels 1984, "Interpolating splines with local tension, continuity, and bias control").
//!
//! Each segment between keys i and i+1 is a cubic Hermite curve in u ∈ [0, 1] from pᵢ to pᵢ₊₁
//! with an outgoing tangent at pᵢ and an incoming one at pᵢ₊₁, so every curve passes through
//! every key. Kochanek–Bartels tangents at pᵢ, with t, c, b its tension, continuity and bias:
//!
//! - outgoing dᵢ = (1−t)(1+b)(1+c)/2 (pᵢ − pᵢ₋₁) + (1−t)(1−b)(1−c)/2 (pᵢ₊₁ − pᵢ)
//! - incoming dᵢ = (1−t)(1+b)(1−c)/2 (pᵢ − pᵢ₋₁) + (1−t)(1−b)(1+c)/2 (pᵢ₊₁ − pᵢ)
//!
//! t = c = b = 0 gives Catmull-Rom's (pᵢ₊₁ − pᵢ₋₁)/2 both ways. At the ends the end key is
//! repeated (p₋₁ = p₀, pₙ = pₙ₋₁).

use marionette_document::RootInterpolation;
use nalgebra::Vector3;

/// The root translation's curve through the keys.
#[derive(Debug, Clone, PartialEq)]
pub struct RootCurve {
    points: Vec<Vector3<f64>>,
    /// Per key, (incoming, outgoing) tangents; empty for linear interpolation.
    tangents: Vec<(Vector3<f64>, Vector3<f64>)>,
}

impl RootCurve {
    /// The curve of `kind` through `points` (one per key, in key order).
    pub fn new(kind: RootInterpolation, points: Vec<Vector3<f64>>) -> RootCurve {
        let (t, c, b) = match kind {
            RootInterpolation::Linear => {
                return RootCurve {
                    points,
                    tangents: Vec::new(),
                };
            }
            RootInterpolation::CatmullRom => (0.0, 0.0, 0.0),
            RootInterpolation::KochanekBartels {
                tension,
                continuity,
                bias,
            } => (tension, continuity, bias),
        };
        let n = points.len();
        let tangents = (0..n)
            .map(|i| {
                let before = points[i] - points[i.saturating_sub(1)];
                let after = points[(i + 1).min(n - 1)] - points[i];
                let incoming = before * ((1.0 - t) * (1.0 + b) * (1.0 - c) / 2.0)
                    + after * ((1.0 - t) * (1.0 - b) * (1.0 + c) / 2.0);
                let outgoing = before * ((1.0 - t) * (1.0 + b) * (1.0 + c) / 2.0)
                    + after * ((1.0 - t) * (1.0 - b) * (1.0 - c) / 2.0);
                (incoming, outgoing)
            })
            .collect();
        RootCurve { points, tangents }
    }

    /// The tangents (per unit of u) of the segment from key `i` to key `i + 1`: leaving key
    /// `i` and arriving at key `i + 1` (the chord both ways for straight lines).
    pub fn span_tangents(&self, i: usize) -> (Vector3<f64>, Vector3<f64>) {
        if self.tangents.is_empty() {
            let chord = self.points[i + 1] - self.points[i];
            return (chord, chord);
        }
        (self.tangents[i].1, self.tangents[i + 1].0)
    }

    /// The point at `u` ∈ [0, 1] of the segment from key `i` to key `i + 1`.
    pub fn at(&self, i: usize, u: f64) -> Vector3<f64> {
        let (p0, p1) = (self.points[i], self.points[i + 1]);
        if self.tangents.is_empty() {
            return p0 + (p1 - p0) * u;
        }
        let (m0, m1) = (self.tangents[i].1, self.tangents[i + 1].0);
        let (u2, u3) = (u * u, u * u * u);
        p0 * (2.0 * u3 - 3.0 * u2 + 1.0)
            + m0 * (u3 - 2.0 * u2 + u)
            + p1 * (-2.0 * u3 + 3.0 * u2)
            + m1 * (u3 - u2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kinds() -> [RootInterpolation; 3] {
        [
            RootInterpolation::Linear,
            RootInterpolation::CatmullRom,
            RootInterpolation::KochanekBartels {
                tension: 0.3,
                continuity: -0.5,
                bias: 0.7,
            },
        ]
    }

    proptest! {
        #[test]
        fn every_curve_passes_through_every_key(
            points in proptest::collection::vec([-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64], 2..8),
            tension in -1.0..1.0f64, continuity in -1.0..1.0f64, bias in -1.0..1.0f64,
        ) {
            let points: Vec<Vector3<f64>> = points.into_iter().map(Vector3::from).collect();
            let mut all = kinds().to_vec();
            all.push(RootInterpolation::KochanekBartels { tension, continuity, bias });
            for kind in all {
                let curve = RootCurve::new(kind, points.clone());
                for i in 0..points.len() - 1 {
                    prop_assert!((curve.at(i, 0.0) - points[i]).norm() < 1e-12);
                    prop_assert!((curve.at(i, 1.0) - points[i + 1]).norm() < 1e-12);
                }
            }
        }

        #[test]
        fn catmull_rom_is_kochanek_bartels_at_zero_and_smooth_through_keys(
            points in proptest::collection::vec([-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64], 3..8),
        ) {
            let points: Vec<Vector3<f64>> = points.into_iter().map(Vector3::from).collect();
            let cr = RootCurve::new(RootInterpolation::CatmullRom, points.clone());
            let kb = RootCurve::new(RootInterpolation::KochanekBartels { tension: 0.0, continuity: 0.0, bias: 0.0 }, points.clone());
            let h = 1e-6;
            for i in 0..points.len() - 1 {
                prop_assert!((cr.at(i, 0.37) - kb.at(i, 0.37)).norm() < 1e-12);
            }
            // C¹ at interior keys: the velocity leaving key i equals the one arriving.
            for i in 1..points.len() - 1 {
                let arriving = (cr.at(i - 1, 1.0) - cr.at(i - 1, 1.0 - h)) / h;
                let leaving = (cr.at(i, h) - cr.at(i, 0.0)) / h;
                prop_assert!((arriving - leaving).norm() < 1e-4, "{arriving} vs {leaving}");
            }
        }
    }

    #[test]
    fn linear_is_a_straight_line() {
        let curve = RootCurve::new(
            RootInterpolation::Linear,
            vec![Vector3::zeros(), Vector3::new(1.0, -2.0, 4.0)],
        );
        assert_eq!(curve.at(0, 0.25), Vector3::new(0.25, -0.5, 1.0));
    }
}
