//! Marionette's inverse kinematics: goals, joint limits and the numeric solvers.
//!
//! Plain data in, plain data out (no Bevy): build a [`System`] from a skeleton, goals and a
//! [`marionette_skeleton::Chain`], pick a solver ([`SolverKind`]), then either [`track`] (one
//! update per editor frame) or [`solve`] (iterate to a tolerance). Every solver keeps poses
//! within joint limits and never writes a non-finite value.
//!
//! ```
//! use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
//! use marionette_skeleton::{Chain, Pose, builtin};
//!
//! let skeleton = builtin::humanoid();
//! let hand = skeleton.site_by_name("right fingertips").unwrap();
//! let shoulder = skeleton.joint_by_name("right shoulder").unwrap();
//! let chain = Chain::between(&skeleton, shoulder, skeleton.site(hand).joint).unwrap();
//! let goal = Goal::new(GoalKind::Position { site: hand, target: [-0.3, 1.2, 0.3].into() });
//! let mut system = System::new(&skeleton, vec![goal], chain);
//! let mut q = Pose::rest(&skeleton).q;
//! let mut solver = SolverKind::DampedLeastSquares.build();
//! let report = solve(solver.as_mut(), &mut system, &mut q, Settings::default());
//! assert!(report.converged, "{report:?}");
//! ```

pub mod analytic;
pub mod diagnosis;
mod escape;
pub mod goal;
pub mod linalg;
mod merit;
pub mod preference;
pub mod problem;
pub mod solver;
pub mod solver_kind;
pub mod solvers;
pub mod system;

pub use diagnosis::Shortfall;
pub use goal::{Goal, GoalKind, TargetShape};
pub use problem::{Problem, ProblemDefect, ProblemError, ProblemFile};
pub use solver::{
    Needs, Reach, Report, Settings, Solver, StepInfo, SwivelReport, solve, solve_into, track,
};
pub use solver_kind::{SolverKind, SolverOptions, UnknownSolver};
pub use system::System;
