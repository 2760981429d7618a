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
use marionette_editing::physics_carried::{CarriedProp, carried_props};
use marionette_editing::physics_view::held_points;
use marionette_interchange::capture::{CaptureOptions, CaptureScale, KNOWN_UNITS};
use marionette_interchange::open::{Opened, open};
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_physics::check::{Report, check};
use marionette_physics::flight::SpanKind;
use marionette_physics::supports::SupportRule;
use marionette_physics::track::Track;
use marionette_physics::{MassModel, MassSource};
use marionette_skeleton::Skeleton;
use nalgebra::Vector3;
use serde_json::{Value, json};

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

/// A take to check: the figure, its poses, its fps, and how a capture's scale was chosen.
struct Take {
    skeleton: Skeleton,
    poses: Vec<Vec<f64>>,
    fps: f64,
    /// The scale read at and why (for a capture).
    scale: Option<(f64, String)>,
    /// Per frame, the points a document's locks hold in the world (empty for a capture).
    held: Vec<Vec<Vector3<f64>>>,
    /// The body a document gives its figure.
    body: Option<marionette_document::Body>,
    /// The props a stage figure grips in the sequence (empty for a capture).
    carried: Vec<CarriedProp>,
}

/// Reads the take, checks it and prints the report.
pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let take = read(args)?;
    let model = args.body.model(&take.skeleton, &args.file, take.body)?;
    let loads: Vec<_> = take.carried.iter().map(|c| c.carried.clone()).collect();
    let track = Track::of(
        &take.skeleton,
        &model,
        take.poses.iter().map(Vec::as_slice),
        take.fps,
    )
    .carrying(model.total, &loads);
    let report = check(&track, &rule_for(&take), &take.held);
    if args.json {
        outln!("{}", to_json(&track, &model, &report, &take));
    } else {
        crate::output::emit(&summary(&args.file, &model, &report, &take));
    }
    Ok(if report.flagged() {
        ExitCode::from(FLAGGED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The support rule for `take`: a document's floor is at 0; a capture's is found from its feet.
fn rule_for(take: &Take) -> SupportRule {
    match take.scale {
        None => marionette_editing::physics_view::document_rule(),
        Some(_) => SupportRule::default(),
    }
}

/// The take in `args.file`, opened once: a document's sequence baked, or a capture read.
fn read(args: &CheckArgs) -> Result<Take, String> {
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
    let why = match args.scale {
        Some(_) => "given".to_owned(),
        None if capture.takes.is_some() => "an FBX file's own metres".to_owned(),
        None => {
            let unit = KNOWN_UNITS
                .iter()
                .find(|(u, _)| *u == capture.scale)
                .map_or("a person's height", |(_, name)| name);
            format!("guessed: {unit}")
        }
    };
    let sequence = &capture.imported.sequence;
    Ok(Take {
        poses: sequence.keys.iter().map(|k| k.pose.q.clone()).collect(),
        fps: sequence.fps,
        skeleton: capture.imported.skeleton.clone(),
        scale: Some((capture.scale, why)),
        held: Vec::new(),
        body: None,
        carried: Vec::new(),
    })
}

/// A document's sequence, baked with its locks held.
fn read_document(args: &CheckArgs, stage: &Stage) -> Result<Take, String> {
    let path: &Path = &args.file;
    if args.scale.is_some() || args.take.is_some() {
        return Err(format!(
            "{}: --scale and --take are for captures; a document is in metres",
            path.display()
        ));
    }
    let index = crate::commands::figure_of(stage, args.figure.as_deref(), path)?;
    let doc = &stage.figures[index].document;
    let Some(wanted) = &args.sequence else {
        return Err(format!(
            "{}: say which sequence to check with --sequence NAME",
            path.display()
        ));
    };
    let sequence = crate::commands::find_sequence(&doc.sequences, wanted, path)?;
    let baker = Baker::new(&doc.skeleton, sequence, &doc.locks, BakeSettings::default());
    let frames = bake_with_threads(&baker, 0, &|| {})
        .map_err(|e| format!("cannot start the baking threads: {e}"))?;
    let first = frames.first().map_or(0, |f| f.frame);
    let poses: Vec<Vec<f64>> = frames.into_iter().map(|f| f.q).collect();
    let held = held_points(&doc.skeleton, &doc.locks, first, &poses);
    let carried = carried_props(stage, index, &sequence.name, (first, poses.len()))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Take {
        skeleton: doc.skeleton.clone(),
        poses,
        fps: sequence.fps,
        scale: None,
        held,
        body: doc.body,
        carried,
    })
}

/// The JSON of `physics check --json` (docs/file-formats.md).
fn to_json(track: &Track, model: &MassModel, report: &Report, take: &Take) -> Value {
    let point = |v: &nalgebra::Vector3<f64>| json!([v.x, v.y, v.z]);
    let spans: Vec<Value> = report
        .spans
        .iter()
        .map(|s| {
            json!({
                "from": s.from, "to": s.to, "kind": s.kind.key(), "g": s.g,
                "residual_m": s.residual_m, "horizontal_accel": s.horizontal_accel,
                "momentum_spread": s.momentum_spread,
            })
        })
        .collect();
    let balance = &report.balance;
    let height = marionette_physics::rest::at_rest(&take.skeleton, model).height;
    json!({
        "fps": track.fps,
        "frames": track.len(),
        "mass_kg": model.total,
        "mass_model": model.source.key(),
        "height_m": height,
        "com": track.com.iter().map(point).collect::<Vec<_>>(),
        "support": report.supports.iter().map(Vec::len).collect::<Vec<_>>(),
        "spans": spans,
        "balance": {
            "quiet_frames": balance.quiet_frames,
            "inside": balance.inside,
            "median_margin_m": balance.median_margin_m,
            "frames": balance.frames.iter()
                .map(|(f, m)| json!({"frame": f, "margin_m": m}))
                .collect::<Vec<_>>(),
        },
        "scale": take.scale.as_ref().map(|s| s.0),
        "carried": take.carried.iter().filter_map(|c| {
            let (from, to) = c.held_span()?;
            Some(json!({"prop": c.name, "mass_kg": c.carried.mass, "from": from, "to": to,
                "frames": c.carried.held.iter().filter(|&&h| h).count()}))
        }).collect::<Vec<_>>(),
        "unit_hint": report.unit_hint.map(|(factor, g)| json!({
            "scale": take.scale.as_ref().map_or(factor, |s| s.0 * factor), "median_g": g,
        })),
    })
}

/// What `physics check` prints without `--json`.
fn summary(file: &Path, model: &MassModel, report: &Report, take: &Take) -> String {
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
