//! Shared by this crate's test binaries: the `testing` helpers of the library.
#![allow(unused_imports, reason = "each test binary uses a different part")]

pub use marionette_skeleton::testing::*;
