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
use marionette_document::Stage;
use marionette_motion::frames_file::{frames_text, json_number};
use marionette_motion::stage::{StageBaker, StageSummary, write_stage_frames};
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
    let stage = super::open_stage(&args.document)?;
    let doc = match stage.into_one_figure() {
        Ok(doc) => doc,
        Err(stage) => return run_stage(args, &stage, start),
    };
    let sequence = super::find_sequence(&doc.sequences, &args.sequence, &args.document)?;
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

/// A stage's sequence: every figure, prop and link (docs/file-formats.md, "Baked frames of a
/// stage").
fn run_stage(args: &BakeArgs, stage: &Stage, start: Instant) -> Result<ExitCode, String> {
    let baker = StageBaker::new(stage, &args.sequence, BakeSettings::default())
        .map_err(|e| format!("{}: {e}", args.document.display()))?;
    let (first, last) = baker.range();
    let bake = baker
        .bake_with_threads(args.threads, &|| {})
        .map_err(|e| format!("cannot start {} baking threads: {e}", args.threads))?;
    let mut text = Vec::new();
    write_stage_frames(&mut text, stage, baker.sequence(), baker.fps(), &bake)
        .map_err(|e| format!("cannot write the frames: {e}"))?;
    marionette_skeleton::ron_io::write_bytes_atomically(&args.out, &text)
        .map_err(|e| format!("{}: cannot write the frames: {e}", args.out.display()))?;
    let micros = start.elapsed().as_secs_f64() * 1e6;
    let summary = StageSummary::of(stage, &bake);
    let held = summary.held(args.tolerance);
    let lock_name = |f: usize, l: usize| {
        let figure = &stage.figures[f];
        (figure.name.clone(), figure.document.locks[l].name.clone())
    };
    if args.json {
        let locks: Vec<Value> = summary
            .locks
            .iter()
            .map(|&(f, l, n, max)| {
                let (figure, name) = lock_name(f, l);
                json!({"figure": figure, "name": name, "frames": n, "max_error": json_number(max)})
            })
            .collect();
        let links: Vec<Value> = summary
            .links
            .iter()
            .map(|&(l, n, max)| {
                json!({"name": stage.links[l].name, "frames": n, "max_error": json_number(max)})
            })
            .collect();
        outln!(
            "{}",
            json!({"sequence": baker.sequence(), "frames": bake.frames.len(), "micros": micros,
                   "figures": stage.figures.len(), "props": stage.props.len(),
                   "locks": locks, "links": links, "held": held})
        );
    } else {
        outln!(
            "{}: {} frames ({first}–{last}) of {} figures and {} props baked in {:.1} ms into {}",
            baker.sequence(),
            bake.frames.len(),
            stage.figures.len(),
            stage.props.len(),
            micros / 1e3,
            args.out.display()
        );
        let verdict = |max: f64| {
            if max <= args.tolerance {
                "held"
            } else {
                "NOT HELD"
            }
        };
        for &(f, l, n, max) in &summary.locks {
            let (figure, name) = lock_name(f, l);
            outln!(
                "  {:<24} {n:>6} frames  largest error {max:.3e}  {}",
                format!("{figure}: {name}"),
                verdict(max)
            );
        }
        for &(l, n, max) in &summary.links {
            outln!(
                "  {:<24} {n:>6} frames  largest error {max:.3e}  {}",
                format!("link {}", stage.links[l].name),
                verdict(max)
            );
        }
        if !held {
            outln!(
                "some lock or link is off by more than {:e} on some frame",
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
