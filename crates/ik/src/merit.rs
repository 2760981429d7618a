//! How good a pose is for a system of goals with priorities: the largest error of each priority
//! level, highest level first, compared lexicographically (a lower level never buys a higher
//! one's error), an error within tolerance counting as met. With one level it is the largest
//! goal error. The driver keeps the best pose of a solve by it, and a stall escape must beat it.

use crate::system::System;

/// The per-level largest errors of one evaluated pose.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Merit {
    /// Largest error per priority level, highest priority first; 0 where within tolerance.
    levels: Vec<f64>,
}

impl Merit {
    /// The merit of the pose `system` was last evaluated at (no allocation once sized).
    pub fn of(system: &System<'_>, tolerance: f64) -> Merit {
        let mut merit = Merit::default();
        merit.measure(system, tolerance);
        merit
    }

    /// Measures the pose `system` was last evaluated at into `self`.
    pub fn measure(&mut self, system: &System<'_>, tolerance: f64) {
        self.levels.clear();
        let goals = system.goals();
        let mut level = goals.iter().map(|g| g.priority).min();
        while let Some(p) = level {
            let worst = goals
                .iter()
                .zip(system.goal_errors())
                .filter(|(g, _)| g.priority == p)
                .map(|(_, &e)| if e.is_nan() { f64::INFINITY } else { e })
                .fold(0.0, f64::max);
            self.levels
                .push(if worst <= tolerance { 0.0 } else { worst });
            level = goals.iter().map(|g| g.priority).filter(|&q| q > p).min();
        }
    }

    /// True when every goal is met.
    pub fn met(&self) -> bool {
        self.levels.iter().all(|&e| e == 0.0)
    }

    /// Strictly better than `other`: lower at the first level where they differ, by more than
    /// the fraction `margin` of `other`'s error there.
    pub fn beats(&self, other: &Merit, margin: f64) -> bool {
        for (a, b) in self.levels.iter().zip(&other.levels) {
            if a < b {
                return *a < b * (1.0 - margin) || *a == 0.0;
            }
            if a > b {
                return false;
            }
        }
        false
    }

    /// At least halves the error of the first level where it beats `other`, or meets every goal
    /// (what a restart must achieve to be worth a jump).
    pub fn halves(&self, other: &Merit) -> bool {
        self.met() || self.beats(other, 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merit(levels: &[f64]) -> Merit {
        Merit {
            levels: levels.to_vec(),
        }
    }

    #[test]
    fn a_higher_level_decides_before_a_lower_one() {
        assert!(merit(&[0.0, 5.0]).beats(&merit(&[0.1, 0.0]), 0.0));
        assert!(!merit(&[0.1, 0.0]).beats(&merit(&[0.0, 5.0]), 0.0));
        assert!(merit(&[0.0, 1.0]).beats(&merit(&[0.0, 2.0]), 0.0));
        assert!(!merit(&[0.0, 2.0]).beats(&merit(&[0.0, 2.0]), 0.0));
        assert!(merit(&[0.0, 0.9]).halves(&merit(&[0.0, 2.0])));
        assert!(!merit(&[0.0, 1.5]).halves(&merit(&[0.0, 2.0])));
        assert!(merit(&[0.0, 0.0]).halves(&merit(&[0.0, 2.0])));
    }
}
