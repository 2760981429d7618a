//! A limb's joint limits as pseudo-angle ranges ([`marionette_skeleton::angles`]), made once per
//! limb.

pub use marionette_skeleton::angles::{AngleRange, pseudo_angle};

/// A limb's seven joint limits in column order (`None`: unlimited) with their pseudo-angle
/// ranges: the ranges cost a sine and cosine per bound, so they are made once per limb, not per
/// solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimbLimits {
    /// (min, max) in radians per column.
    pub bounds: [Option<(f64, f64)>; 7],
    /// The same as pseudo-angle ranges.
    pub ranges: [AngleRange; 7],
}

impl LimbLimits {
    /// The limits `bounds` describe.
    pub fn new(bounds: [Option<(f64, f64)>; 7]) -> LimbLimits {
        LimbLimits {
            bounds,
            ranges: bounds.map(AngleRange::new),
        }
    }

    /// The limits of the DOFs at these state columns of `skeleton`.
    pub fn of(skeleton: &marionette_skeleton::Skeleton, columns: &[usize; 7]) -> LimbLimits {
        let dofs = skeleton.dofs();
        LimbLimits::new(columns.map(|c| {
            let d = &dofs[c - marionette_skeleton::ROOT_STATE_LEN];
            (!d.unlimited).then_some((d.min, d.max))
        }))
    }

    /// True when no DOF is limited.
    pub fn unlimited(&self) -> bool {
        self.bounds.iter().all(Option::is_none)
    }
}

impl Default for LimbLimits {
    /// No limits.
    fn default() -> Self {
        LimbLimits::new([None; 7])
    }
}
