//! Writes input INDEX of a run seeded with SEED for READER to standard output, e.g. to look at
//! a finding again: `cargo run -p marionette-fuzz --example regenerate -- gltf 1 16712 > x.glb`.

use std::io::Write;

use clap::ValueEnum;
use marionette_fuzz::{Reader, input, repository};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [reader, seed, index] = args.as_slice() else {
        return Err("usage: regenerate READER SEED INDEX".into());
    };
    let reader = Reader::from_str(reader, true)?;
    let seed: u64 = seed.parse().map_err(|e| format!("SEED: {e}"))?;
    let index: u64 = index.parse().map_err(|e| format!("INDEX: {e}"))?;
    let bytes = input(&reader.seeds(&repository())?, seed, index);
    std::io::stdout()
        .write_all(&bytes)
        .map_err(|e| e.to_string())
}
