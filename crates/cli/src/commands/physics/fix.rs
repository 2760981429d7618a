//! `marionette physics fix DOC --sequence NAME --span A..B [--ballistic] [--momentum] [--mark
//! F]… [--apex H] [--figure NAME] [--mass KG] [--female] --out OUT`: the physical ghost of a
//! span of a document's sequence ([`marionette_editing::physics_ghost`]), accepted: over the
//! frames A..B (the first and last with no support) the root turns so the angular momentum
//! about the centre of mass stays constant (`--momentum`, fitted to the keyed orientations at
//! the marked frames) and moves so the centre of mass flies the parabola under g from take-off
//! (frame A − 1) to landing (frame B + 1) (`--ballistic`); with `--apex H` the flight first
//! lasts the time a rise of H metres needs, and later keys (and the frames of later locks)
//! move with it. The span is written as keys on each of its frames, framed by keys holding the
//! poses the sequence had at A − 1 and B + 1, by one edit (`AcceptGhost`), and the document
//! saved to OUT. With `--standing` instead, the frames A..B stand: on each whose centre of
//! mass is not 2 cm inside its support polygon, it is brought there, the supporting points and
//! the locks held. Exit status: 0 written, 1 bad input (nothing written).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use marionette_editing::physics_ghost::{GhostFix, GhostRequest};
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit};

use crate::output::outln;

/// Arguments of `marionette physics fix`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette physics fix jump.marionette.ron --sequence jump --span 12..27 --ballistic --out fixed.ron\n  \
    marionette physics fix jump.marionette.ron --sequence jump --span 12..27 --ballistic --momentum --out fixed.ron\n  \
    marionette physics fix jump.marionette.ron --sequence jump --span 12..27 --apex 0.4 --out higher.ron\n  \
    marionette physics fix lean.marionette.ron --sequence lean --span 0..30 --standing --out steady.ron")]
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
    /// Hold the angular momentum about the centre of mass over the span (the root turns).
    #[arg(long)]
    momentum: bool,
    /// A frame of the span whose keyed root orientation the momentum is fitted to (up to four).
    #[arg(long, value_name = "FRAME", allow_negative_numbers = true)]
    mark: Vec<i64>,
    /// The flight rises this many metres above the take-off (and lasts as long as that needs);
    /// implies --ballistic.
    #[arg(long, value_name = "H", allow_negative_numbers = true)]
    apex: Option<f64>,
    /// The span's frames stand: bring the centre of mass over the support polygon (2 cm
    /// inside) where it is not, the supporting points and locks held.
    #[arg(long)]
    standing: bool,
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
    let flight = args.ballistic || args.momentum || args.apex.is_some();
    if flight == args.standing {
        return Err(if flight {
            "--standing balances frames that stand; --ballistic, --momentum and --apex fix a \
             flight: one or the other"
        } else {
            "say what to fix: --ballistic, --momentum or --apex H (a flight), or --standing"
        }
        .to_owned());
    }
    let mut doc = Document::open_document(&args.file).map_err(|e| e.to_string())?;
    if let Some(figure) = &args.figure {
        let select = Edit::Stage(StageEdit::SelectFigure(figure.clone()));
        crate::commands::apply(&mut doc, select).map_err(|e| format!("{file}: {e}"))?;
    }
    let index = crate::commands::sequence_index(doc.sequences(), &args.sequence, &args.file)?;
    crate::commands::apply(&mut doc, Edit::SelectSequence(Some(index)))
        .map_err(|e| format!("{file}: {e}"))?;
    let (a, b) = args.span;
    let request = GhostRequest {
        from: a,
        to: b,
        fix: if args.standing {
            GhostFix::Standing
        } else {
            GhostFix::Flight {
                ballistic: args.ballistic,
                momentum: args.momentum,
                apex: args.apex,
                marks: args.mark.clone(),
            }
        },
        body: args.body.settings(doc.body()),
    };
    let ghost = doc
        .physics_ghost(request)
        .map_err(|e| format!("{file}: \"{}\": {e}", args.sequence))?;
    let said = ghost.said();
    crate::commands::apply(&mut doc, Edit::AcceptGhost(Box::new(ghost)))
        .map_err(|e| format!("{file}: {e}"))?;
    crate::commands::save(&mut doc, &args.out)?;
    outln!(
        "{file}: \"{}\": {said} → {}",
        args.sequence,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
