//! Writes the bake benchmark's crouch cycle as a Document file, to time the whole
//! `marionette bake` command on it:
//!
//! ```text
//! cargo run --release -p marionette-bench --example crouch_document -- 10000 /tmp/crouches.marionette.ron
//! time target/release/marionette bake /tmp/crouches.marionette.ron --sequence crouches --out /tmp/frames.json
//! ```

use std::path::PathBuf;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: crouch_document FRAMES OUT.ron";
    let frames: i64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .filter(|&f| f >= 2)
        .ok_or(usage)?;
    let out = PathBuf::from(args.next().ok_or(usage)?);
    let skeleton = marionette_bench::skeletons_dir()
        .join("humanoid.ron")
        .canonicalize()
        .map_err(|e| e.to_string())?;
    marionette_bench::bake::crouch_cycle_document(frames, &skeleton)
        .save(&out)
        .map_err(|e| e.to_string())?;
    println!("{}", out.display());
    Ok(())
}
