//! Angles and joint limits: [`wrap_angle`], and limit tests on angles given by their sine and
//! cosine (any common positive factor), without `atan2`: classifying a swivel arc (Tolani
//! §3.2.4) asks up to eighteen "is this angle within its limits?" questions per arc and never
//! needs the angles themselves.
//!
//! The pseudo-angle P(y, x) is y / (|x| + |y|) for x ≥ 0, 2 − that for x < 0 ≤ y and −2 − that for
//! x, y < 0: a strictly increasing function of atan2(y, x) on (−π, π] (−π itself, y = −0 with
//! x < 0, is taken as π, as [`wrap_angle`] does), so comparing pseudo-angles
//! compares angles.

use std::f64::consts::PI;

/// The pseudo-angle of the direction (x, y): increasing with atan2(y, x) wrapped into (−π, π],
/// from −2 (exclusive) to 2 (at π). 0 for the zero vector.
pub fn pseudo_angle(y: f64, x: f64) -> f64 {
    let sum = x.abs() + y.abs();
    if sum == 0.0 {
        return 0.0;
    }
    let p = y / sum;
    if x >= 0.0 {
        p
    } else if y >= 0.0 {
        2.0 - p
    } else {
        -2.0 - p
    }
}

/// A joint's limits [lo, hi] as bounds on pseudo-angles, for angles wrapped into (−π, π].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AngleRange {
    lo: f64,
    hi: f64,
}

impl AngleRange {
    /// The range of `limits` (radians; `None` for an unlimited DOF).
    pub fn new(limits: Option<(f64, f64)>) -> AngleRange {
        let Some((lo, hi)) = limits else {
            return AngleRange {
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
            };
        };
        let bound = |a: f64| {
            if a <= -PI {
                f64::NEG_INFINITY
            } else if a >= PI {
                f64::INFINITY
            } else {
                let (sin, cos) = a.sin_cos();
                pseudo_angle(sin, cos)
            }
        };
        AngleRange {
            lo: bound(lo),
            hi: bound(hi),
        }
    }

    /// Whether the angle atan2(y, x), wrapped into (−π, π], lies within the limits (up to the
    /// rounding of the limits' sines and cosines).
    pub fn contains(&self, y: f64, x: f64) -> bool {
        let p = pseudo_angle(y, x);
        self.lo <= p && p <= self.hi
    }
}

/// An angle wrapped into (−π, π].
pub fn wrap_angle(a: f64) -> f64 {
    use std::f64::consts::TAU;
    if a > -PI && a <= PI {
        return a;
    }
    let w = a.rem_euclid(TAU);
    if w > PI { w - TAU } else { w }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pseudo_angles_order_as_angles(a in -PI..PI, b in -PI..PI, r in 0.01..100.0f64) {
            let (pa, pb) = (pseudo_angle(r * a.sin(), r * a.cos()), pseudo_angle(b.sin(), b.cos()));
            if (a - b).abs() > 1e-12 {
                prop_assert_eq!(a < b, pa < pb, "{} {} → {} {}", a, b, pa, pb);
            }
        }

        #[test]
        fn contains_agrees_with_comparing_angles(
            angle in -PI..=PI,
            lo in -4.0..4.0f64,
            width in 0.0..7.0f64,
        ) {
            let hi = lo + width;
            let range = AngleRange::new(Some((lo, hi)));
            if (angle - lo).abs() > 1e-12 && (angle - hi).abs() > 1e-12 {
                prop_assert_eq!(range.contains(angle.sin(), angle.cos()), lo <= angle && angle <= hi);
            }
        }
    }

    #[test]
    fn pi_and_its_negative_zero_twin_are_pi() {
        assert_eq!(pseudo_angle(0.0, -1.0), 2.0);
        assert_eq!(pseudo_angle(-0.0, -1.0), 2.0);
        let up_to_pi = AngleRange::new(Some((0.0, PI)));
        assert!(up_to_pi.contains(-0.0, -3.0));
        assert!(!AngleRange::new(Some((-PI, 3.0))).contains(-0.0, -1.0));
        assert!(AngleRange::new(None).contains(0.0, 0.0));
    }
}
