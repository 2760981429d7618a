//! One DOF interpolated on its own, as a curve of its value over frames (a single hinge, a
//! slide, or one hinge of a joint whose DOFs are keyed apart or given free handles); a span
//! with free handles (on a DOF or a root coordinate) as a Bézier curve.
//!
//! Between two of its keys (frames fₐ < f_b, values vₐ, v_b) the value is a cubic: linear for
//! `Slerp` and `Linear` spans (the angle is what slerp gives about one axis), and for `Squad`
//! spans Shoemake's quadrangle in angle, vₐ + u (v_b − vₐ) + 2u(1−u)(c(u) − line(u)) with inner
//! values cᵢ = vᵢ − ((vᵢ₊₁ − vᵢ) + (vᵢ₋₁ − vᵢ))/4 — the cubic Hermite curve whose tangents (per
//! span) are mₐ = (v_b − vₐ) + 2(cₐ − vₐ) and m_b = (v_b − vₐ) − 2(c_b − v_b).
//!
//! A key with free handles on the DOF replaces the tangent on its side: the span is then the
//! cubic Bézier curve in (frame, value) through P₀ = (fₐ, vₐ), P₁ = P₀ + the first key's
//! `after` handle (or (Δf/3, mₐ/3) when it has none), P₂ = P₃ + the second key's `before`
//! handle (or (−Δf/3, −m_b/3)), P₃ = (f_b, v_b), each handle's frames clamped into the span so
//! that frame(t) never decreases; the value at a frame is the curve's at the t whose frame it
//! is. Such a span is not eased (its handles set its timing). Without free handles the
//! arithmetic is exactly the one used before handles existed. The handles the curve editor
//! draws are made in [`crate::curve_handles`].

use marionette_document::{FreeHandles, KeyInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::{DofId, Skeleton};

/// A DOF's curve through the keys of one timing.
#[derive(Debug, Clone)]
pub(crate) struct Channel {
    /// Its state index.
    pub state: usize,
    /// The index of the timing it goes through.
    pub timing: usize,
    /// Its value at each key of the timing (unwrapped the shorter way for an unlimited hinge).
    pub values: Vec<f64>,
    /// Squad's inner values.
    pub inner: Vec<f64>,
    /// Per key of the timing, its free handles (before, after); empty when no key has any.
    pub handles: Vec<Option<([f64; 2], [f64; 2])>>,
}

impl Channel {
    /// The curve of DOF `dof` of `skeleton` through the keys `keys` (sequence key indices,
    /// the timing `timing`) of `sequence`.
    pub fn new(
        skeleton: &Skeleton,
        sequence: &Sequence,
        dof: DofId,
        timing: usize,
        keys: &[usize],
    ) -> Channel {
        let state = dof.state_index();
        let unlimited = skeleton.dof(dof).unlimited;
        let mut values: Vec<f64> = Vec::with_capacity(keys.len());
        for &i in keys {
            let v = sequence.keys[i].pose.q[state];
            let v = match values.last() {
                Some(&prev) if unlimited => {
                    prev + marionette_skeleton::angles::wrap_angle(v - prev)
                }
                _ => v,
            };
            values.push(v);
        }
        let inner = inner_values(&values);
        let handles: Vec<Option<([f64; 2], [f64; 2])>> = keys
            .iter()
            .map(|&i| {
                sequence.keys[i]
                    .handles_of(state)
                    .map(|h: &FreeHandles| (h.before, h.after))
            })
            .collect();
        let handles = if handles.iter().any(Option::is_some) {
            handles
        } else {
            Vec::new()
        };
        Channel {
            state,
            timing,
            values,
            inner,
            handles,
        }
    }

    /// Whether the span from the timing's `at`-th key to the next has a free handle at
    /// either end.
    pub fn free(&self, at: usize) -> bool {
        !self.handles.is_empty()
            && (self.handles[at].is_some() || self.handles.get(at + 1).is_some_and(Option::is_some))
    }

    /// The value in the span from the timing's `at`-th key to the next, at eased time `u`
    /// (by squad when `squad`), or, with free handles, at `frame` of the span's frames
    /// `(fa, fb)`.
    pub fn value(&self, at: usize, u: f64, squad: bool, frame: i64, (fa, fb): (i64, i64)) -> f64 {
        let (values, inner) = (&self.values, &self.inner);
        if self.free(at) {
            let ends = Ends {
                values: (values[at], values[at + 1]),
                tangents: self.span_tangents(at, squad),
                after: self.handles[at].map(|h| h.1),
                before: self.handles[at + 1].map(|h| h.0),
            };
            return ends.value(frame, (fa, fb));
        }
        let line = values[at] + u * (values[at + 1] - values[at]);
        if squad {
            let inner_line = inner[at] + u * (inner[at + 1] - inner[at]);
            line + (inner_line - line) * (2.0 * u * (1.0 - u))
        } else {
            line
        }
    }
}

impl Channel {
    /// The tangents (per unit of u) of the span from the timing's `at`-th key to the next,
    /// leaving the first and arriving at the last: squad's in angle when `squad`, else the
    /// chord.
    pub fn span_tangents(&self, at: usize, squad: bool) -> (f64, f64) {
        let (va, vb) = (self.values[at], self.values[at + 1]);
        if squad {
            (
                (vb - va) + 2.0 * (self.inner[at] - va),
                (vb - va) - 2.0 * (self.inner[at + 1] - vb),
            )
        } else {
            (vb - va, vb - va)
        }
    }
}

/// Whether a span whose key says `kind` goes by squad in a sequence whose rotations go by
/// `rotation`.
pub(crate) fn by_squad(kind: Option<KeyInterpolation>, rotation: RotationInterpolation) -> bool {
    match kind {
        Some(KeyInterpolation::Linear) => false,
        Some(KeyInterpolation::Smooth) => true,
        _ => rotation == RotationInterpolation::Squad,
    }
}

/// A span of one curve with a free handle at one end or both: its end values, its own tangents
/// (per unit of the span's time u) where a key has no free handle, and the free handles.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ends {
    /// The values at the span's first and last key.
    pub values: (f64, f64),
    /// The tangents leaving the first key and arriving at the last, per unit of u.
    pub tangents: (f64, f64),
    /// The first key's handle out of it, when free.
    pub after: Option<[f64; 2]>,
    /// The last key's handle into it, when free.
    pub before: Option<[f64; 2]>,
}

impl Ends {
    /// The value at `frame` of the span over frames `(fa, fb)`: the Bézier curve through the
    /// ends and their handles (a missing one a third of the span along its tangent), at the
    /// t whose frame is `frame`.
    pub fn value(&self, frame: i64, (fa, fb): (i64, i64)) -> f64 {
        let (va, vb) = self.values;
        let span = (fb - fa) as f64;
        let after = self.after.unwrap_or([span / 3.0, self.tangents.0 / 3.0]);
        let before = self.before.unwrap_or([-span / 3.0, -self.tangents.1 / 3.0]);
        let x1 = after[0].clamp(0.0, span) / span;
        let x2 = 1.0 + before[0].clamp(-span, 0.0) / span;
        let t = bezier_time(x1, x2, (frame - fa) as f64 / span);
        bezier(va, va + after[1], vb + before[1], vb, t)
    }
}

/// Squad's inner points for angles about one axis: cᵢ = aᵢ − ((aᵢ₊₁ − aᵢ) + (aᵢ₋₁ − aᵢ))/4,
/// the end values repeated.
pub(crate) fn inner_values(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    (0..n)
        .map(|i| {
            let (before, after) = (values[i.saturating_sub(1)], values[(i + 1).min(n - 1)]);
            values[i] - ((after - values[i]) + (before - values[i])) / 4.0
        })
        .collect()
}

/// The cubic Bézier curve with control values `p0 … p3` at `t`.
pub(crate) fn bezier(p0: f64, p1: f64, p2: f64, p3: f64, t: f64) -> f64 {
    let s = 1.0 - t;
    s * s * s * p0 + 3.0 * s * s * t * p1 + 3.0 * s * t * t * p2 + t * t * t * p3
}

/// The t in [0, 1] at which the Bézier curve with control times 0, `x1`, `x2`, 1 (each in
/// [0, 1], so the time never decreases) reaches time `x` (in [0, 1]): Newton's steps kept
/// inside a shrinking bracket, to 1e-14.
pub(crate) fn bezier_time(x1: f64, x2: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let mut t = x;
    for _ in 0..64 {
        let f = bezier(0.0, x1, x2, 1.0, t) - x;
        if f.abs() < 1e-14 {
            break;
        }
        if f > 0.0 {
            hi = t;
        } else {
            lo = t;
        }
        let s = 1.0 - t;
        let slope = 3.0 * (s * s * x1 + 2.0 * s * t * (x2 - x1) + t * t * (1.0 - x2));
        let next = t - f / slope;
        t = if slope > 1e-12 && next > lo && next < hi {
            next
        } else {
            0.5 * (lo + hi)
        };
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bezier_time_is_found_for_any_handles_inside_the_span() {
        for &(x1, x2) in &[
            (1.0 / 3.0, 2.0 / 3.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (0.9, 0.05),
            (0.0, 0.0),
        ] {
            for i in 0..=100 {
                let x = i as f64 / 100.0;
                let t = bezier_time(x1, x2, x);
                assert!((0.0..=1.0).contains(&t));
                assert!(
                    (bezier(0.0, x1, x2, 1.0, t) - x).abs() < 1e-12,
                    "{x1} {x2} {x}"
                );
            }
        }
        // Handles at thirds: time is linear, t = x.
        assert!((bezier_time(1.0 / 3.0, 2.0 / 3.0, 0.3) - 0.3).abs() < 1e-14);
    }
}
