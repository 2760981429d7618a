//! Spans with no support ([`Span`]): the centre of mass's height fitted by least squares with a
//! parabola (its g), its residual, the centre of mass's mean horizontal acceleration (the same
//! fit of x and z) and how much the angular momentum about it wanders. A span whose g is within
//! [`BALLISTIC_TOLERANCE`] of [`G`] is ballistic (a flight); otherwise something the take does
//! not show holds the figure (a hang from a bar), and it is called supported.

use nalgebra::{Matrix3, Vector3};

use crate::track::Track;

/// Standard gravity, m/s².
pub const G: f64 = 9.81;

/// A span is ballistic when its fitted g is within this fraction of [`G`].
pub const BALLISTIC_TOLERANCE: f64 = 0.25;

/// Spans shorter than this (seconds) are not fitted: a foot changing over, not a flight.
pub const SHORTEST_SPAN: f64 = 0.05;

/// What holds the figure over a span with no support found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// Nothing: it flies.
    Ballistic,
    /// Something the take does not show (its fitted g is far from 9.81).
    Supported,
}

impl SpanKind {
    /// "ballistic" or "supported".
    pub fn key(self) -> &'static str {
        match self {
            SpanKind::Ballistic => "ballistic",
            SpanKind::Supported => "supported",
        }
    }
}

/// A span of frames with no support.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// Its first frame with no support.
    pub from: usize,
    /// Its last.
    pub to: usize,
    /// Ballistic or supported.
    pub kind: SpanKind,
    /// The fitted g (m/s², down positive).
    pub g: f64,
    /// The fit's root-mean-square residual (metres).
    pub residual_m: f64,
    /// The centre of mass's mean horizontal acceleration (m/s²).
    pub horizontal_accel: f64,
    /// The angular momentum's largest deviation from its mean over the span, as a fraction of
    /// its mean length.
    pub momentum_spread: f64,
}

/// Every span of at least [`SHORTEST_SPAN`] with no support, fitted.
pub fn spans<T>(track: &Track, supports: &[Vec<T>]) -> Vec<Span> {
    let shortest = (SHORTEST_SPAN * track.fps).ceil().max(3.0) as usize;
    let mut out = Vec::new();
    let mut f = 0;
    while f < supports.len() {
        if !supports[f].is_empty() {
            f += 1;
            continue;
        }
        let from = f;
        while f < supports.len() && supports[f].is_empty() {
            f += 1;
        }
        if f - from >= shortest {
            out.push(fit(track, from, f - 1));
        }
    }
    out
}

/// The span `from..=to` fitted.
pub fn fit(track: &Track, from: usize, to: usize) -> Span {
    let times: Vec<f64> = (from..=to).map(|f| (f - from) as f64 / track.fps).collect();
    let column = |axis: usize| -> Vec<f64> { (from..=to).map(|f| track.com[f][axis]).collect() };
    let (height, height_residual) = parabola(&times, &column(1));
    let (x, _) = parabola(&times, &column(0));
    let (z, _) = parabola(&times, &column(2));
    let g = -2.0 * height[2];
    let kind = if (g - G).abs() <= BALLISTIC_TOLERANCE * G {
        SpanKind::Ballistic
    } else {
        SpanKind::Supported
    };
    Span {
        from,
        to,
        kind,
        g,
        residual_m: height_residual,
        horizontal_accel: 2.0 * x[2].hypot(z[2]),
        momentum_spread: spread(&track.momentum[from..=to]),
    }
}

/// The least-squares parabola c0 + c1·t + c2·t² through `(t, y)` and its root-mean-square
/// residual (times centred on their mean for a well-conditioned fit).
pub fn parabola(t: &[f64], y: &[f64]) -> ([f64; 3], f64) {
    let n = t.len() as f64;
    let mean = t.iter().sum::<f64>() / n;
    let mut normal = Matrix3::zeros();
    let mut right = Vector3::zeros();
    for (&ti, &yi) in t.iter().zip(y) {
        let s = ti - mean;
        let row = Vector3::new(1.0, s, s * s);
        normal += row * row.transpose();
        right += row * yi;
    }
    let c = normal
        .lu()
        .solve(&right)
        .unwrap_or_else(|| Vector3::new(y.iter().sum::<f64>() / n, 0.0, 0.0));
    let residual = (t
        .iter()
        .zip(y)
        .map(|(&ti, &yi)| {
            let s = ti - mean;
            (c[0] + c[1] * s + c[2] * s * s - yi).powi(2)
        })
        .sum::<f64>()
        / n)
        .sqrt();
    // Back to t from the span's start: c0 + c1 (t − m) + c2 (t − m)².
    let coefficients = [
        c[0] - c[1] * mean + c[2] * mean * mean,
        c[1] - 2.0 * c[2] * mean,
        c[2],
    ];
    (coefficients, residual)
}

/// The largest deviation of `values` from their mean, as a fraction of their mean length (0
/// when they are all zero).
pub fn spread(values: &[Vector3<f64>]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<Vector3<f64>>() / n;
    let length = values.iter().map(|v| v.norm()).sum::<f64>() / n;
    if length <= 0.0 {
        return 0.0;
    }
    values.iter().map(|v| (v - mean).norm()).fold(0.0, f64::max) / length
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parabola_is_fitted_exactly() {
        let t: Vec<f64> = (0..40).map(|k| f64::from(k) / 120.0).collect();
        let y: Vec<f64> = t.iter().map(|t| 1.0 + 2.0 * t - 0.5 * G * t * t).collect();
        let (c, residual) = parabola(&t, &y);
        assert!(
            (c[0] - 1.0).abs() < 1e-9 && (c[1] - 2.0).abs() < 1e-9,
            "{c:?}"
        );
        assert!((-2.0 * c[2] - G).abs() < 1e-9, "{c:?}");
        assert!(residual < 1e-12);
    }
}
