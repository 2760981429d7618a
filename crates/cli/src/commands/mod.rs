//! One module per subcommand; each exposes `XArgs` (clap) and `run(&XArgs)`.
//!
//! `run` returns the exit code on success and the error text (one or more lines, each naming the
//! file at fault) on bad input, which `main` prints to standard error with exit status 1.

pub mod bench;
pub mod check;
pub mod demo;
pub mod fk;
pub mod solve;

use std::path::Path;

use marionette_skeleton::{Pose, Skeleton};

/// Loads a skeleton, turning the error into the text `main` prints.
pub fn load_skeleton(path: &Path) -> Result<Skeleton, String> {
    Skeleton::load(path).map_err(|e| e.to_string())
}

/// Loads a pose for `skeleton`, or the rest pose when no file is given.
pub fn load_pose(skeleton: &Skeleton, path: Option<&Path>) -> Result<Pose, String> {
    match path {
        Some(p) => Pose::load(skeleton, p).map_err(|e| e.to_string()),
        None => Ok(Pose::rest(skeleton)),
    }
}
