//! `marionette physics fix DOC --sequence NAME --span A..B [--ballistic] [--apex H] [--figure
//! NAME] [--mass KG] [--female] --out OUT`: the physical ghost of a span of a document's
//! sequence, accepted: over the frames A..B (the first and last with no support) the root moves
//! so the centre of mass flies the parabola under g from take-off (frame A − 1) to landing (frame
//! B + 1) ([`marionette_physics::fix::ballistic`]); with `--apex H` the flight first lasts the
//! time a rise of H metres needs, and later keys (and the frames of later locks) move with it. The span is written as keys on
//! each of its frames, framed by keys holding the poses the sequence had at A − 1 and B + 1, by
//! one edit (`ReplaceFrames`), and the document saved to OUT. Exit status: 0 written, 1 bad
//! input (nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use marionette_document::{Clip, Key};
use marionette_editing::physics_view::PhysicsView;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit};
use marionette_motion::interpolate::Interpolator;
use marionette_physics::MassSource;
use marionette_physics::fix::ballistic;
use marionette_skeleton::Pose;

use crate::output::outln;

/// Arguments of `marionette physics fix`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette physics fix jump.marionette.ron --sequence jump --span 12..27 --ballistic --out fixed.ron\n  \
    marionette physics fix jump.marionette.ron --sequence jump --span 12..27 --apex 0.4 --out higher.ron")]
pub struct FixArgs {
    /// The document.
    file: PathBuf,
    /// The sequence.
    #[arg(long, value_name = "NAME")]
    sequence: String,
    /// The frames with no support to fix, first..last (as `physics check` reports them).
    #[arg(long, value_name = "A..B", value_parser = span)]
    span: (i64, i64),
    /// Make the centre of mass fly a parabola under g over the span.
    #[arg(long)]
    ballistic: bool,
    /// The flight rises this many metres above the take-off (and lasts as long as that needs);
    /// implies --ballistic.
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    apex: Option<f64>,
    /// On a stage: the figure.
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    #[command(flatten)]
    body: super::body::BodyArgs,
    /// Where the fixed document goes.
    #[arg(long, value_name = "OUT.ron")]
    out: PathBuf,
}

/// `A..B` with A ≤ B.
fn span(text: &str) -> Result<(i64, i64), String> {
    let parse = |t: &str| t.trim().parse::<i64>().ok();
    match text.split_once("..").map(|(a, b)| (parse(a), parse(b))) {
        Some((Some(a), Some(b))) if a <= b => Ok((a, b)),
        _ => Err(format!(
            "\"{text}\" is not a span of frames A..B with A ≤ B"
        )),
    }
}

/// Fixes the span and writes the document.
pub fn run(args: &FixArgs) -> Result<ExitCode, String> {
    let file = args.file.display();
    if !args.ballistic && args.apex.is_none() {
        return Err("say what to fix: --ballistic or --apex H".to_owned());
    }
    let mut doc = Document::open_document(&args.file).map_err(|e| e.to_string())?;
    if let Some(figure) = &args.figure {
        let select = Edit::Stage(StageEdit::SelectFigure(figure.clone()));
        crate::commands::apply(&mut doc, select).map_err(|e| format!("{file}: {e}"))?;
    }
    let index = crate::commands::sequence_index(doc.sequences(), &args.sequence, &args.file)?;
    crate::commands::apply(&mut doc, Edit::SelectSequence(Some(index)))
        .map_err(|e| format!("{file}: {e}"))?;
    let skeleton = doc.skeleton().clone();
    let sequence = doc.sequences()[index].clone();
    let model = args.body.model(&skeleton, &args.file)?;
    if let MassSource::Skeleton(why) = &model.source {
        return Err(format!(
            "{file}: a ballistic fix needs the figure's humanoid roles to weigh it; it has none \
             ({why})"
        ));
    }
    let frames = doc.bake_sequence(index);
    let first = frames.first().map_or(0, |f| f.frame);
    let (a, b) = args.span;
    let (from, to) = (a - first, b - first);
    if from < 1 || to + 1 >= frames.len() as i64 {
        return Err(format!(
            "{file}: frames {a}..{b} are not a span inside \"{}\" with a frame before and after \
             it (its frames are {first}..{})",
            args.sequence,
            first + frames.len() as i64 - 1
        ));
    }
    let (from, to) = (from as usize, to as usize);
    let poses: Vec<Vec<f64>> = frames.into_iter().map(|f| f.q).collect();
    // The supports as the editor's overlays and `physics check` find them.
    let view = PhysicsView::of_take(&skeleton, doc.locks(), first, &poses, sequence.fps)
        .map_err(|e| format!("{file}: {e}"))?;
    if let Some(f) = (from..=to).find(|&f| !view.supports[f].is_empty()) {
        return Err(format!(
            "{file}: frames {a}..{b} are not a flight: frame {} is supported ({} points)",
            f as i64 + first,
            view.supports[f].len()
        ));
    }
    let fixed = ballistic(
        &skeleton,
        &model,
        &poses,
        sequence.fps,
        (from, to),
        args.apex,
    )
    .map_err(|e| format!("{file}: {e}"))?;
    // The span's frames as keys, between keys holding the sequence's own poses either side.
    let interpolator = Interpolator::new(&skeleton, &sequence);
    let either_side = |frame: i64| {
        let mut q = Vec::new();
        interpolator.pose_at(&skeleton, frame, &mut q);
        Pose { q }
    };
    let length = fixed.poses.len() as i64 + 2;
    let mut keys = vec![Key::new(0, either_side(a - 1))];
    for (k, q) in fixed.poses.into_iter().enumerate() {
        keys.push(Key::new(k as i64 + 1, Pose { q }));
    }
    keys.push(Key::new(length - 1, either_side(b + 1)));
    let replace = Edit::ReplaceFrames {
        first: a - 1,
        last: b + 1,
        clip: Clip { length, keys },
    };
    crate::commands::apply(&mut doc, replace).map_err(|e| format!("{file}: {e}"))?;
    // Locks on frames after the span move with the keys (a landing's feet).
    let shift = length - (b - a + 3);
    for edit in moved_locks(doc.locks(), b, shift) {
        crate::commands::apply(&mut doc, edit).map_err(|e| format!("{file}: {e}"))?;
    }
    crate::commands::save(&mut doc, &args.out)?;
    outln!(
        "{file}: \"{}\" frames {a}..{b} fixed ballistic ({} frames in the air{}) → {}",
        args.sequence,
        length - 2,
        if args.apex.is_some() {
            format!(", was {}", b - a + 1)
        } else {
            String::new()
        },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The edits that move the frames of the locks after frame `last` by `shift` (a lock reaching
/// past it from before keeps its start and moves its end).
fn moved_locks(locks: &[marionette_document::Lock], last: i64, shift: i64) -> Vec<Edit> {
    if shift == 0 {
        return Vec::new();
    }
    locks
        .iter()
        .enumerate()
        .filter_map(|(i, lock)| {
            let (start, end) = lock.frames()?;
            let moved = if start > last {
                (start + shift, end + shift)
            } else if end > last {
                (start, end + shift)
            } else {
                return None;
            };
            Some(Edit::SetLockFrames(i, Some(moved)))
        })
        .collect()
}
