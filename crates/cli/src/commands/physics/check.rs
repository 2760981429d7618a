//! `marionette physics check FILE [--sequence NAME] [--figure NAME] [--scale S] [--take NAME]
//! [--mass KG] [--female] [--json]`: a take's physics, on a capture (BVH or an FBX take, read at
//! `--scale`, else at a guessed scale that makes the figure a person's height, said) or a
//! document's sequence (baked, locks held). Per frame the centre of mass and its supports; per
//! span with no support its fitted g, residual, horizontal acceleration and angular momentum
//! spread, ballistic or supported; the quiet frames' balance. A document's locks that hold a
//! point in the world (a foot on the floor, a hand on a prop) support it where they hold. Exit status: 0 nothing flagged, 3
//! a span or a pose flagged, 1 bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use marionette_document::Stage;
use marionette_editing::physics_check::CheckTake;
use marionette_interchange::capture::{CaptureOptions, CaptureScale};
use marionette_interchange::open::{Opened, open};
use marionette_physics::check::Report;
use marionette_physics::flight::SpanKind;
use marionette_physics::{MassModel, MassSource};

use crate::output::outln;

/// Exit status when a span or a pose is flagged.
const FLAGGED: u8 = 3;

/// Arguments of `marionette physics check`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette physics check 01_01.bvh --scale 0.05644\n  \
    marionette physics check 01_01.bvh --json\n  \
    marionette physics check jump.marionette.ron --sequence jump")]
pub struct CheckArgs {
    /// A capture (BVH, or an FBX file's take) or a document.
    file: PathBuf,
    /// A document's sequence to check (baked, locks held).
    #[arg(long, value_name = "NAME")]
    sequence: Option<String>,
    /// On a stage: the figure.
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    /// A capture's lengths are multiplied by this (metres per unit); guessed when not given.
    #[arg(long, value_parser = crate::commands::positive)]
    scale: Option<f64>,
    /// FBX: the take to read (the file's first when not given).
    #[arg(long, value_name = "NAME")]
    take: Option<String>,
    #[command(flatten)]
    body: super::body::BodyArgs,
    /// Print JSON (docs/file-formats.md, *Physics check*) instead of a summary.
    #[arg(long)]
    json: bool,
}

/// Reads the take, checks it and prints the report.
pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let take = read(args)?;
    let settings = args.body.given().then(|| args.body.settings(take.body));
    let checked = take
        .check(settings)
        .map_err(|e| format!("{}: {e}", args.file.display()))?;
    if args.json {
        outln!("{}", take.json(&checked));
    } else {
        crate::output::emit(&summary(&args.file, &checked.model, &checked.report, &take));
    }
    Ok(if checked.report.flagged() {
        ExitCode::from(FLAGGED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The take in `args.file`, opened once: a document's sequence baked, or a capture read.
fn read(args: &CheckArgs) -> Result<CheckTake, String> {
    let file = args.file.display();
    let options = CaptureOptions {
        scale: args.scale.map_or(CaptureScale::Guess, CaptureScale::Times),
        every: 1,
        take: args.take.as_deref(),
    };
    let capture = match open(&args.file, options).map_err(|e| e.to_string())? {
        Opened::Document(stage) => return read_document(args, &stage),
        Opened::Capture(capture) => capture,
        other => {
            return Err(format!(
                "{file}: this is {}, not a capture or a document",
                other.kind().describe()
            ));
        }
    };
    if args.sequence.is_some() || args.figure.is_some() {
        return Err(format!(
            "{file}: --sequence and --figure are for documents; this is a capture"
        ));
    }
    Ok(CheckTake::of_capture(&capture, args.scale.is_some()))
}

/// A document's sequence, baked with its locks held.
fn read_document(args: &CheckArgs, stage: &Stage) -> Result<CheckTake, String> {
    let path: &Path = &args.file;
    if args.scale.is_some() || args.take.is_some() {
        return Err(format!(
            "{}: --scale and --take are for captures; a document is in metres",
            path.display()
        ));
    }
    let index = crate::commands::figure_of(stage, args.figure.as_deref(), path)?;
    let Some(wanted) = &args.sequence else {
        return Err(format!(
            "{}: say which sequence to check with --sequence NAME",
            path.display()
        ));
    };
    CheckTake::of_document(stage, index, wanted).map_err(|e| format!("{}: {e}", path.display()))
}

/// What `physics check` prints without `--json`.
fn summary(file: &Path, model: &MassModel, report: &Report, take: &CheckTake) -> String {
    let frames = report.supports.len();
    let mut out = format!(
        "{}: {frames} frames at {} fps, {:.1} kg ({})\n",
        file.display(),
        take.fps,
        model.total,
        model.source.key()
    );
    if let MassSource::Skeleton(why) = &model.source {
        out += &format!("  no humanoid roles ({why}): the skeleton's own masses\n");
    }
    if let Some((scale, why)) = &take.scale {
        out += &format!("  read at {scale} m a unit ({why})\n");
    }
    for c in &take.carried {
        if let Some((from, to)) = c.held_span() {
            out += &format!(
                "  carries {} ({} kg) on frames {from}–{to}: counted in the centre of mass\n",
                c.name, c.carried.mass
            );
        }
    }
    for s in &report.spans {
        out += &format!(
            "  frames {}–{} ({:.3} s): {}, g {:.2} m/s², residual {:.1} mm, across {:.2} m/s², \
             momentum wanders {:.0} %\n",
            s.from,
            s.to,
            (s.to - s.from + 1) as f64 / take.fps,
            s.kind.key(),
            s.g,
            s.residual_m * 1000.0,
            s.horizontal_accel,
            s.momentum_spread * 100.0
        );
    }
    let ballistic = report
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Ballistic)
        .count();
    out += &format!(
        "  {} spans with no support: {ballistic} ballistic, {} supported by something unseen\n",
        report.spans.len(),
        report.spans.len() - ballistic
    );
    let b = &report.balance;
    out += &format!(
        "  balance: {} of {} quiet frames with the centre of mass over the support, median \
         margin {:.1} cm\n",
        b.inside,
        b.quiet_frames,
        b.median_margin_m * 100.0
    );
    if let Some((factor, g)) = report.unit_hint {
        let scale = take.scale.as_ref().map_or(factor, |s| s.0 * factor);
        out += &format!(
            "  every flight falls at about {g:.2} m/s²: a wrong unit? read at {scale:.5} m a \
             unit they would fall at 9.81\n"
        );
    }
    let flagged = report.flagged_spans().count();
    let poses = report.flagged_poses().count();
    if flagged + poses > 0 {
        out += &format!("  flagged: {flagged} spans, {poses} quiet frames off balance\n");
    }
    out
}
