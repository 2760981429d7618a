//! `marionette bake DOC --sequence NAME --out FRAMES.json [--json] [--tolerance T] [--threads N]`:
//! every frame of a document's sequence from its first key to its last, each re-solved against
//! the locks enabled on it, written as docs/file-formats.md's baked frames.
//!
//! Exit status: 0 when every active lock is within the tolerance on every frame, 3 when not (the
//! frames are still written), 1 for bad input (nothing written).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use marionette_document::DocumentFile;
use marionette_motion::frames_file::{frames_text, json_number};
use marionette_motion::{BakeSettings, Baker, bake_with_threads, lock_summary};
use serde_json::{Value, json};

use crate::output::outln;

/// Exit status when some lock is off by more than the tolerance on some frame.
const NOT_HELD: u8 = 3;

/// Frames from which a bake on a terminal shows a progress bar.
const PROGRESS_FROM_FRAMES: i64 = 2_000;

/// Arguments of `marionette bake`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette bake walk.marionette.ron --sequence walk --out walk.frames.json\n  \
    marionette bake walk.marionette.ron --sequence walk --out walk.frames.json --json --threads 1")]
pub struct BakeArgs {
    /// The Document file.
    document: PathBuf,
    /// The sequence to bake, by name.
    #[arg(long)]
    sequence: String,
    /// Where the baked frames go (JSON).
    #[arg(long, value_name = "FRAMES.json")]
    out: PathBuf,
    /// Print a JSON summary on standard output instead of text.
    #[arg(long)]
    json: bool,
    /// The largest lock error accepted on any frame (metres or radians).
    #[arg(long, default_value_t = 1e-4, value_parser = super::positive)]
    tolerance: f64,
    /// Threads baking frames (0: one per core). The frames are the same whatever the number.
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

/// Loads, bakes, writes and prints.
pub fn run(args: &BakeArgs) -> Result<ExitCode, String> {
    let start = Instant::now();
    let doc = DocumentFile::load(&args.document).map_err(|e| e.to_string())?;
    let sequence = super::find_sequence(&doc, &args.sequence, &args.document)?;
    let baker = Baker::new(&doc.skeleton, sequence, &doc.locks, BakeSettings::default());
    let (first, last) = baker.range();
    let bar =
        (std::io::stderr().is_terminal() && last - first >= PROGRESS_FROM_FRAMES).then(|| {
            let bar = indicatif::ProgressBar::new((last - first + 1) as u64);
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
    let progress = || {
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    };
    let frames = bake_with_threads(&baker, args.threads, &progress)
        .map_err(|e| format!("cannot start {} baking threads: {e}", args.threads))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let text = frames_text(
        &doc.skeleton,
        &doc.locks,
        &sequence.name,
        sequence.fps,
        &frames,
    );
    marionette_skeleton::ron_io::write_atomically(&args.out, &text)
        .map_err(|e| format!("{}: cannot write the frames: {e}", args.out.display()))?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    let locks = lock_summary(&frames, doc.locks.len());
    let held = locks.iter().all(|&(_, _, max)| max <= args.tolerance);
    if args.json {
        let locks: Vec<Value> = locks
            .iter()
            .map(|&(i, n, max)| {
                json!({"name": doc.locks[i].name, "frames": n, "max_error": json_number(max)})
            })
            .collect();
        outln!(
            "{}",
            json!({"sequence": sequence.name, "frames": frames.len(), "micros": micros,
                   "locks": locks, "held": held})
        );
    } else {
        outln!(
            "{}: {} frames ({first}–{last}) baked in {:.1} ms into {}",
            sequence.name,
            frames.len(),
            micros / 1e3,
            args.out.display()
        );
        for &(i, n, max) in &locks {
            let verdict = if max <= args.tolerance {
                "held"
            } else {
                "NOT HELD"
            };
            outln!(
                "  {:<24} {n:>6} frames  largest error {max:.3e}  {verdict}",
                doc.locks[i].name
            );
        }
        if !held {
            outln!(
                "some lock is off by more than {:e} on some frame",
                args.tolerance
            );
        }
    }
    Ok(if held {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_HELD)
    })
}
