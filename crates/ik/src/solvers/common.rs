//! Pieces several solvers share: Buss's error clamping and the cap on one update's joint change.

use std::ops::Range;

use nalgebra::DVector;

pub use crate::linalg::clamp_largest;

/// True when the goals' priorities are still `layout`, so a solver's priority-dependent
/// workspaces can be kept.
pub fn priority_layout_matches(system: &crate::system::System<'_>, layout: &[u32]) -> bool {
    system
        .goals()
        .iter()
        .map(|g| g.priority)
        .eq(layout.iter().copied())
}

/// Buss's ClampMag (2009, §2, "setting target positions closer"): each goal's error block is
/// shortened to at most its clamp length, so far targets pull at a bounded distance.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ErrorClamp {
    /// Base clamp length D_max (metres; about half a typical link).
    pub max_distance: f64,
    /// Add the growth of each goal's error since the previous step to its clamp (Buss's tracking
    /// code does this so a moving target is not held back by the clamp).
    pub adaptive: bool,
    previous: Vec<f64>,
}

impl ErrorClamp {
    /// A fixed clamp of `max_distance`.
    pub fn new(max_distance: f64) -> ErrorClamp {
        ErrorClamp {
            max_distance,
            adaptive: false,
            previous: Vec::new(),
        }
    }

    /// A clamp of `max_distance` plus each goal's error growth since the last step.
    pub fn adaptive(max_distance: f64) -> ErrorClamp {
        ErrorClamp {
            adaptive: true,
            ..ErrorClamp::new(max_distance)
        }
    }

    /// Copies `e` into `out`, clamping each goal block.
    pub fn apply(&mut self, e: &DVector<f64>, rows: &[Range<usize>], out: &mut DVector<f64>) {
        out.copy_from(e);
        if self.previous.len() != rows.len() {
            self.previous.clear();
            self.previous.resize(rows.len(), f64::INFINITY);
        }
        for (g, r) in rows.iter().enumerate() {
            let norm = e.rows_range(r.clone()).norm();
            let mut limit = self.max_distance;
            if self.adaptive && self.previous[g].is_finite() {
                limit += (norm - self.previous[g]).max(0.0);
            }
            self.previous[g] = norm;
            if norm > limit {
                let scale = limit / norm;
                out.rows_range_mut(r.clone()).scale_mut(scale);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_largest_keeps_direction() {
        let mut v = DVector::from_vec(vec![0.5, -2.0, 1.0]);
        clamp_largest(&mut v, 1.0);
        assert_eq!(v.as_slice(), &[0.25, -1.0, 0.5]);
    }

    #[test]
    fn error_clamp_shortens_each_block() {
        let e = DVector::from_vec(vec![3.0, 4.0, 0.0, 0.1, 0.0, 0.0]);
        let mut out = DVector::zeros(6);
        ErrorClamp::new(1.0).apply(&e, &[0..3, 3..6], &mut out);
        assert!((out.rows(0, 3).norm() - 1.0).abs() < 1e-15);
        assert_eq!(out[3], 0.1);
    }
}
