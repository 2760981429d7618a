//! The swivel angles φ at which a limb solution respects every joint limit (Tolani et al. 2000,
//! §3.2.4), with the interval ends in closed form.
//!
//! The goal triangle turns about the shoulder–wrist axis n as φ changes, so R1(φ) = R(n,φ)·R1(0)
//! and R2(φ) = Cᵀ R1(φ)ᵀ G. Every quantity that fixes a joint angle is therefore x·R(n,±φ)·m for
//! constant vectors x, m: a cos φ + b sin φ + c. For a shoulder triple (a₁, a₂, a₃) with
//! b = a₁ × a₂ and u = R1·a₃ (derived in `euler.rs`): u·a₁ = cos(θ₂ − ψ) and
//! θ₁ = atan2(σ u·a₂, −σ u·b), σ = ±1 by family, so θ₂ = θ_lim exactly where u·a₁ = cos(θ_lim − ψ),
//! and θ₁ = θ_lim (or θ_lim + π) exactly where u·(a₂ cos θ_lim + b sin θ_lim) = 0; θ₃ is the same
//! for R1ᵀa₁ and the reversed triple, and the wrist the same for R2. Each is an equation
//! A cos φ + B sin φ = C with at most two roots. Between consecutive roots no angle crosses a
//! limit, so one exact solve at the middle of each arc classifies the whole arc.

use std::f64::consts::{PI, TAU};

use nalgebra::{Matrix3, Vector3};

/// An arc of swivel angles [start, end], start ≤ end, within [−π, π + 2π) (an arc that wraps
/// through ±π ends past π).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arc {
    /// Lower end (radians).
    pub start: f64,
    /// Upper end (radians).
    pub end: f64,
}

impl Arc {
    /// Its length.
    pub fn width(&self) -> f64 {
        self.end - self.start
    }

    /// Its middle, wrapped into (−π, π].
    pub fn middle(&self) -> f64 {
        crate::system::wrap_angle(0.5 * (self.start + self.end))
    }

    /// True when φ lies in the arc (taking the wrap into account).
    pub fn contains(&self, phi: f64) -> bool {
        let p = crate::system::wrap_angle(phi);
        (self.start..=self.end).contains(&p) || (self.start..=self.end).contains(&(p + TAU))
    }
}

/// Roots φ in (−π, π] of x·R(n, sign·φ)·m = c.
pub fn trig_roots(
    x: &Vector3<f64>,
    n: &Vector3<f64>,
    m: &Vector3<f64>,
    sign: f64,
    c: f64,
    out: &mut Vec<f64>,
) {
    // x·R(n,φ)m = cos φ (x·m − (x·n)(n·m)) + sin φ x·(n × m) + (x·n)(n·m)
    let a = x.dot(m) - x.dot(n) * n.dot(m);
    let b = sign * x.dot(&n.cross(m));
    let rhs = c - x.dot(n) * n.dot(m);
    let r = a.hypot(b);
    if r < 1e-14 {
        return;
    }
    let k = rhs / r;
    if k.abs() > 1.0 {
        return;
    }
    let base = b.atan2(a);
    let spread = k.acos();
    for phi in [base + spread, base - spread] {
        out.push(crate::system::wrap_angle(phi));
    }
}

/// Boundary candidates of one axis triple whose first axis sees u(φ) = R(n, s·φ)·m_u (for θ₁, θ₂)
/// and whose last axis sees v(φ) = R(n, s_v·φ)·m_v in the frame of x_v (for θ₃).
pub struct TripleBoundaries<'a> {
    /// The triple's axes.
    pub axes: &'a [Vector3<f64>; 3],
    /// Limits of its three DOFs, (min, max) in radians; `None` for an unlimited one.
    pub limits: [Option<(f64, f64)>; 3],
    /// The rotation axis of φ.
    pub n: Vector3<f64>,
    /// u = P·R(n, u_sign·φ)·u_m: P maps the φ frame to the triple's frame.
    pub u_frame: Matrix3<f64>,
    /// See `u_frame`.
    pub u_m: Vector3<f64>,
    /// See `u_frame`.
    pub u_sign: f64,
    /// v = Q·R(n, v_sign·φ)·v_m.
    pub v_frame: Matrix3<f64>,
    /// See `v_frame`.
    pub v_m: Vector3<f64>,
    /// See `v_frame`.
    pub v_sign: f64,
}

impl TripleBoundaries<'_> {
    /// Appends every φ at which one of the triple's angles may cross one of its limits.
    pub fn collect(&self, out: &mut Vec<f64>) {
        let [a1, a2, a3] = *self.axes;
        let b = a1.cross(&a2);
        let psi = a3.dot(&b).atan2(a3.dot(&a1));
        // x·u = x·P R m = (Pᵀx)·R m
        let pu = self.u_frame.transpose();
        let pv = self.v_frame.transpose();
        if let Some((lo, hi)) = self.limits[1] {
            for lim in [lo, hi] {
                trig_roots(
                    &(pu * a1),
                    &self.n,
                    &self.u_m,
                    self.u_sign,
                    (lim - psi).cos(),
                    out,
                );
            }
        }
        if let Some((lo, hi)) = self.limits[0] {
            for lim in [lo, hi] {
                let x = a2 * lim.cos() + b * lim.sin();
                trig_roots(&(pu * x), &self.n, &self.u_m, self.u_sign, 0.0, out);
            }
        }
        if let Some((lo, hi)) = self.limits[2] {
            // The reversed triple (a₃, a₂, a₁) with angle −θ₃ and b' = a₃ × a₂.
            let b_rev = a3.cross(&a2);
            for lim in [lo, hi] {
                let x = a2 * (-lim).cos() + b_rev * (-lim).sin();
                trig_roots(&(pv * x), &self.n, &self.v_m, self.v_sign, 0.0, out);
            }
        }
    }
}

/// The arcs of (−π, π] between sorted boundary candidates for which `valid(φ)` holds at the
/// middle, merged where they touch, the last joined to the first across ±π.
pub fn arcs_between(
    boundaries: &mut Vec<f64>,
    arcs: &mut Vec<Arc>,
    mut valid: impl FnMut(f64) -> bool,
) {
    arcs_between_masks(boundaries, std::slice::from_mut(arcs), |phi| {
        u32::from(valid(phi))
    });
}

/// [`arcs_between`] for several conditions at once: bit k of `valid(φ)` says whether φ is valid
/// for condition k, whose arcs go to `arcs[k]`. One evaluation per arc serves every condition.
pub fn arcs_between_masks(
    boundaries: &mut Vec<f64>,
    arcs: &mut [Vec<Arc>],
    mut valid: impl FnMut(f64) -> u32,
) {
    boundaries.sort_by(f64::total_cmp);
    boundaries.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
    for list in arcs.iter_mut() {
        list.clear();
    }
    if boundaries.is_empty() {
        let mask = valid(0.0);
        for (k, list) in arcs.iter_mut().enumerate() {
            if mask & (1 << k) != 0 {
                list.push(Arc {
                    start: -PI,
                    end: PI,
                });
            }
        }
        return;
    }
    let n = boundaries.len();
    for i in 0..n {
        let start = boundaries[i];
        let end = if i + 1 < n {
            boundaries[i + 1]
        } else {
            boundaries[0] + TAU
        };
        if end - start < 1e-12 {
            continue;
        }
        let mask = valid(crate::system::wrap_angle(0.5 * (start + end)));
        for (k, list) in arcs.iter_mut().enumerate() {
            if mask & (1 << k) == 0 {
                continue;
            }
            match list.last_mut() {
                Some(last) if (last.end - start).abs() < 1e-12 => last.end = end,
                _ => list.push(Arc { start, end }),
            }
        }
    }
    for list in arcs.iter_mut() {
        // Join an arc ending at the first boundary + 2π with one starting at the first boundary.
        if list.len() > 1 {
            let first = list[0];
            if let Some(last) = list.last_mut()
                && (last.end - (first.start + TAU)).abs() < 1e-12
            {
                last.end = first.end + TAU;
                list.remove(0);
            }
        }
        if list.len() == 1 && list[0].width() >= TAU - 1e-12 {
            list[0] = Arc {
                start: -PI,
                end: PI,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, Unit};

    #[test]
    fn trig_roots_solve_the_equation() {
        let x = Vector3::new(0.3, -0.5, 0.8);
        let n = Vector3::new(1.0, 2.0, -0.5).normalize();
        let m = Vector3::new(-0.2, 0.9, 0.4);
        let mut roots = Vec::new();
        trig_roots(&x, &n, &m, 1.0, 0.1, &mut roots);
        assert_eq!(roots.len(), 2);
        for phi in roots {
            let value = x.dot(&(Rotation3::from_axis_angle(&Unit::new_unchecked(n), phi) * m));
            assert!((value - 0.1).abs() < 1e-12);
        }
    }

    #[test]
    fn arcs_merge_across_the_wrap() {
        let mut b = vec![-2.0, 0.5, 2.5];
        // Valid outside (−2, 0.5): the arc from 0.5 through 2.5 and ±π to −2 is one arc.
        let mut arcs = Vec::new();
        arcs_between(&mut b, &mut arcs, |phi| !(-2.0..0.5).contains(&phi));
        assert_eq!(arcs.len(), 1, "{arcs:?}");
        assert!((arcs[0].start - 0.5).abs() < 1e-12 && (arcs[0].end - (-2.0 + TAU)).abs() < 1e-12);
        assert!(arcs[0].contains(3.0) && arcs[0].contains(-2.5) && !arcs[0].contains(0.0));
    }
}
