//! How good a pose is for a system of goals, as the solver judges it: for a method that honours
//! priorities, the largest error of each priority level, highest level first, compared
//! lexicographically (a lower level never buys a higher one's error); for the others, which weigh
//! every goal alike, one level: the sum of the squared weighted goal errors. An error within
//! tolerance counts as met (zero). The driver keeps the best pose of a solve by it, and a stall
//! escape must beat it.

use crate::system::System;

/// The merit of one evaluated pose.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Merit {
    /// Compare level by level (else one level: the weighted sum of squares).
    by_priority: bool,
    /// Per level (highest priority first), or the one sum; 0 where every goal is within
    /// tolerance.
    levels: Vec<f64>,
}

impl Merit {
    /// An empty merit that measures by priority levels or by the weighted sum of squares.
    pub fn new(by_priority: bool) -> Merit {
        Merit {
            by_priority,
            levels: Vec::new(),
        }
    }

    /// The merit, measured the way `like` measures, of the pose `system` was last evaluated at.
    pub fn of(system: &System<'_>, tolerance: f64, like: &Merit) -> Merit {
        let mut merit = Merit::new(like.by_priority);
        merit.measure(system, tolerance);
        merit
    }

    /// Measures the pose `system` was last evaluated at into `self` (no allocation once sized).
    pub fn measure(&mut self, system: &System<'_>, tolerance: f64) {
        self.levels.clear();
        let goals = system.goals();
        let errors = system.goal_errors();
        let unmet = |e: f64| {
            if e.is_nan() {
                f64::INFINITY
            } else if e <= tolerance {
                0.0
            } else {
                e
            }
        };
        if !self.by_priority {
            let sum = goals
                .iter()
                .zip(errors)
                .map(|(g, &e)| g.weight * unmet(e).powi(2))
                .sum();
            self.levels.push(sum);
            return;
        }
        let mut level = goals.iter().map(|g| g.priority).min();
        while let Some(p) = level {
            let worst = goals
                .iter()
                .zip(errors)
                .filter(|(g, _)| g.priority == p)
                .map(|(_, &e)| unmet(e))
                .fold(0.0, f64::max);
            self.levels.push(worst);
            level = goals.iter().map(|g| g.priority).filter(|&q| q > p).min();
        }
    }

    /// True when every goal is met.
    pub fn met(&self) -> bool {
        self.levels.iter().all(|&e| e == 0.0)
    }

    /// Strictly better than `other`: lower at the first level where they differ, by more than
    /// the fraction `margin` of `other`'s value there.
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

    /// At least halves the first level where it beats `other`, or meets every goal (what a
    /// restart must achieve to be worth a jump).
    pub fn halves(&self, other: &Merit) -> bool {
        self.met() || self.beats(other, 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merit(levels: &[f64]) -> Merit {
        Merit {
            by_priority: true,
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
