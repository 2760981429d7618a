//! A mutation fuzzer for every file Marionette reads: skeleton, pose, problem, document and
//! replay files, BVH captures and glTF characters (JSON with data URIs, and binaries).
//!
//! `cargo fuzz` (libFuzzer) needs a nightly compiler and this project builds on stable 1.95, so
//! the fuzzer is our own: inputs are mutations of the repository's valid files
//! ([`mutate`]), each read through the same library calls as the commands ([`readers`]) in a
//! worker process whose address space is bounded (`prlimit`), so a panic is caught and kept, an
//! abort (an allocation too large, a stack overflow) or a hang is found by the driver, which
//! regenerates the input from its index (every input is a pure function of the run's seed and
//! its index) and keeps it. The inputs that once failed are kept in `crates/fuzz/regressions/`
//! and read again by this crate's tests; a short run is a test too (CI), a long run is
//! `cargo run --release -p marionette-fuzz -- --inputs 1000000`; any input is written again by
//! `cargo run -p marionette-fuzz --example regenerate -- READER SEED INDEX`.

pub mod mutate;
pub mod outputs;
pub mod paths;
pub mod readers;

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::time::{Duration, Instant};

pub use readers::{Reader, prepare_work_folder};

/// The longest an input may take to be read or refused.
pub const TIME_LIMIT: Duration = Duration::from_secs(1);

/// What became of one input.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Read (the input happened to be valid).
    Read,
    /// Refused with a message.
    Refused(String),
    /// The reader panicked (with the panic's message): a bug.
    Panicked(String),
    /// Refused with an empty message: a bug (the user would not know why).
    Silent,
}

impl Outcome {
    /// Whether the outcome is a bug.
    pub fn is_failure(&self) -> bool {
        matches!(self, Outcome::Panicked(_) | Outcome::Silent)
    }
}

/// Input `index` of a run seeded with `seed`, for a reader whose seed files are `seeds`.
pub fn input(seeds: &[Vec<u8>], seed: u64, index: u64) -> Vec<u8> {
    let mut rng = mutate::Rng::new(seed, index);
    let base = &seeds[rng.below(seeds.len())];
    mutate::mutate(&mut rng, base, seeds)
}

/// Reads `input` with `reader` in `work`, catching a panic; returns the outcome and how long it
/// took.
pub fn run_input(reader: Reader, input: &[u8], work: &Path) -> (Outcome, Duration) {
    let start = Instant::now();
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| reader.run(input, work)));
    let outcome = match result {
        Ok(Ok(())) => Outcome::Read,
        Ok(Err(message)) if message.trim().is_empty() => Outcome::Silent,
        Ok(Err(message)) => Outcome::Refused(message),
        Err(payload) => Outcome::Panicked(
            payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into()),
        ),
    };
    (outcome, start.elapsed())
}

/// The repository this crate is in.
pub fn repository() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
