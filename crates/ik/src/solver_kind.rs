//! [`SolverKind`]: every solver by its command-line name, built with its default settings or
//! with [`SolverOptions`]. The solvers are in [`crate::solvers`] (one per file) and
//! [`crate::analytic`] (Tolani's limb); this module is the one place that knows them all.

use std::fmt;
use std::str::FromStr;

use crate::analytic::{AnalyticLimb, SwivelPolicy};
use crate::solver::Solver;
use crate::solvers::{
    ccd, dls, extended, jacobian_transpose, lagrange, nlp, priority, pseudo_inverse, sdls,
};

/// Every solver Marionette has, by its command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Jacobian transpose (`jt`).
    JacobianTranspose,
    /// Pseudo-inverse by SVD (`pinv`).
    PseudoInverse,
    /// Damped least squares (`dls`).
    DampedLeastSquares,
    /// Selectively damped least squares (`sdls`).
    SelectivelyDamped,
    /// Cyclic coordinate descent (`ccd`).
    CyclicCoordinateDescent,
    /// Welman's constraint maintenance with Lagrange multipliers (`lagrange`).
    ConstraintMaintenance,
    /// Task-priority pseudo-inverse (`priority`).
    TaskPriority,
    /// Bounded nonlinear least squares, L-BFGS-B style (`nlp`).
    BoundedLeastSquares,
    /// Šoch & Lórencz's extended Jacobian for planar chains (`extended`).
    ExtendedJacobian,
    /// Tolani, Goswami & Badler's analytic limb solver (`analytic`).
    AnalyticLimb,
}

impl SolverKind {
    /// Every solver, in the order the documentation lists them.
    pub const ALL: [SolverKind; 10] = [
        SolverKind::JacobianTranspose,
        SolverKind::PseudoInverse,
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::CyclicCoordinateDescent,
        SolverKind::ConstraintMaintenance,
        SolverKind::TaskPriority,
        SolverKind::BoundedLeastSquares,
        SolverKind::ExtendedJacobian,
        SolverKind::AnalyticLimb,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::JacobianTranspose => "jt",
            SolverKind::PseudoInverse => "pinv",
            SolverKind::DampedLeastSquares => "dls",
            SolverKind::SelectivelyDamped => "sdls",
            SolverKind::CyclicCoordinateDescent => "ccd",
            SolverKind::ConstraintMaintenance => "lagrange",
            SolverKind::TaskPriority => "priority",
            SolverKind::BoundedLeastSquares => "nlp",
            SolverKind::ExtendedJacobian => "extended",
            SolverKind::AnalyticLimb => "analytic",
        }
    }

    /// A solver of this kind with its default settings.
    pub fn build(self) -> Box<dyn Solver> {
        match self {
            SolverKind::JacobianTranspose => {
                Box::new(jacobian_transpose::JacobianTranspose::default())
            }
            SolverKind::PseudoInverse => Box::new(pseudo_inverse::PseudoInverse::default()),
            SolverKind::DampedLeastSquares => Box::new(dls::DampedLeastSquares::default()),
            SolverKind::SelectivelyDamped => {
                Box::new(sdls::SelectivelyDampedLeastSquares::default())
            }
            SolverKind::CyclicCoordinateDescent => {
                Box::new(ccd::CyclicCoordinateDescent::default())
            }
            SolverKind::ConstraintMaintenance => {
                Box::new(lagrange::ConstraintMaintenance::default())
            }
            SolverKind::TaskPriority => Box::new(priority::TaskPriority::default()),
            SolverKind::BoundedLeastSquares => Box::new(nlp::BoundedLeastSquares::default()),
            SolverKind::ExtendedJacobian => Box::new(extended::ExtendedJacobian::default()),
            SolverKind::AnalyticLimb => Box::new(AnalyticLimb::default()),
        }
    }
}

/// Settings a caller may give a solver beyond its defaults; each applies to some solvers only.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SolverOptions {
    /// A fixed damping λ (metres) instead of the adaptive one: `dls`.
    pub damping: Option<f64>,
    /// A desired swivel angle (radians), met as nearly as the limits allow: `analytic`.
    pub swivel: Option<f64>,
}

impl SolverKind {
    /// A solver of this kind with `options` applied, or why an option does not apply to it.
    pub fn build_with(self, options: &SolverOptions) -> Result<Box<dyn Solver>, String> {
        if let Some(lambda) = options.damping {
            if self != SolverKind::DampedLeastSquares {
                return Err(format!(
                    "a damping applies to the dls solver, not to {self}"
                ));
            }
            if !(lambda.is_finite() && lambda >= 0.0) {
                return Err(format!("damping {lambda} is not a number ≥ 0"));
            }
            let mut dls = dls::DampedLeastSquares::default();
            dls.damping = dls::Damping::Fixed(lambda);
            return Ok(Box::new(dls));
        }
        if let Some(angle) = options.swivel {
            if self != SolverKind::AnalyticLimb {
                return Err(format!(
                    "a swivel angle applies to the analytic solver, not to {self}"
                ));
            }
            let mut limb = AnalyticLimb::default();
            limb.swivel.angle = angle;
            limb.policy = SwivelPolicy::Nearest;
            return Ok(Box::new(limb));
        }
        Ok(self.build())
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A solver name that is not one of [`SolverKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown solver \"{0}\" (known: {names})", names = known_names())]
pub struct UnknownSolver(pub String);

/// Every solver's name, comma separated.
fn known_names() -> String {
    SolverKind::ALL.map(SolverKind::name).join(", ")
}

impl FromStr for SolverKind {
    type Err = UnknownSolver;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SolverKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownSolver(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_lists_every_solver() {
        let err = "magic".parse::<SolverKind>().expect_err("unknown");
        assert_eq!(
            err.to_string(),
            "unknown solver \"magic\" (known: jt, pinv, dls, sdls, ccd, lagrange, priority, nlp, extended, analytic)"
        );
        for kind in SolverKind::ALL {
            assert_eq!(kind.name().parse::<SolverKind>(), Ok(kind));
        }
    }
}
