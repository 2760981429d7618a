//! One solver per file, all behind [`crate::Solver`]; [`crate::SolverKind`]
//! ([`crate::solver_kind`]) names them for the command line, problem files and the editor.

pub mod ccd;
pub mod common;
pub mod dls;
pub mod extended;
pub mod jacobian_transpose;
pub mod lagrange;
pub mod nlp;
pub mod priority;
pub mod pseudo_inverse;
pub mod sdls;
