//! `marionette cleanup DOC --sequence NAME --doc-out OUT.ron [--figure NAME] [--sites auto|A,B]
//! [--json]`: a sequence's foot contacts found and held by locks that ease in and out, so the
//! bake keeps planted feet where they stand ([`marionette_motion::cleanup`]), through the edit
//! the editor's Find foot contacts applies; DOC is a document of either version (on a stage, the
//! figure `--figure` names, else its first). Prints, per contact, its
//! frames and how far the foot slid before and after, and the largest step a foot takes where a
//! lock takes or lets it go. Exit status: 0 written and every contact held (≤ 2 mm), 3 written
//! but some contact could not be held (named, with how far it slides), 1 bad input (nothing
//! written).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use marionette_editing::foot_contacts::FootSearch;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Applied, Document, Edit, EditError};
use marionette_motion::cleanup::{Cleaned, HELD_WITHIN};

use crate::output::outln;

/// Exit status when some contact could not be held.
pub const NOT_HELD: u8 = 3;

/// Arguments of `marionette cleanup`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette cleanup walk.marionette.ron --sequence 01_01 --doc-out walk-clean.marionette.ron\n  \
    marionette cleanup take.marionette.ron --sequence take --sites \"left heel,right heel\" --doc-out out.ron --json\n  \
    marionette cleanup duet.marionette.ron --figure B --sequence sway --doc-out duet-clean.ron")]
pub struct CleanupArgs {
    /// The Document file.
    document: PathBuf,
    /// The sequence whose feet are cleaned, by name.
    #[arg(long)]
    sequence: String,
    /// On a stage: the figure whose feet are cleaned (the stage's first when not given).
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    /// Where the document with the contact locks goes.
    #[arg(long, value_name = "OUT.ron")]
    doc_out: PathBuf,
    /// The foot points: `auto` (each foot's heel and toes, from the humanoid map) or names of
    /// sites or joints separated by commas.
    #[arg(long, default_value = "auto", value_name = "auto|A,B")]
    sites: String,
    /// Print a JSON report on standard output instead of text.
    #[arg(long)]
    json: bool,
}

/// The contacts of sequence `index`'s foot points (`sites`: `auto` or names separated by
/// commas) found and locked in `doc`, through the edit the editor's Find foot contacts applies:
/// the feet's earlier contact locks replaced by the cleanup's.
pub fn clean(doc: &mut Document, index: usize, sites: &str) -> Result<Cleaned, String> {
    let points = if sites.trim() == "auto" {
        Vec::new()
    } else {
        let names: Vec<String> = sites
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect();
        if names.is_empty() {
            return Err(format!("--sites \"{sites}\" names no site or joint"));
        }
        names
    };
    let search = FootSearch {
        sequence: Some(index),
        points,
    };
    match super::apply(doc, Edit::FindFootContacts(search)) {
        Ok(Applied::Cleaned(cleaned, _)) => Ok(*cleaned),
        Ok(other) => Err(format!("the cleanup reported {other:?}")),
        Err(EditError::FootContacts(why)) => Err(why),
        Err(e) => Err(e.to_string()),
    }
}

/// Prints the cleanup's report, as text or JSON.
pub fn report(cleaned: &Cleaned, sequence: &str, micros: f64, json: bool) {
    let mm = |m: f64| (m * 1e4).round() / 10.0;
    if json {
        outln!("{}", cleaned.report_json(sequence, micros));
        return;
    }
    let t = &cleaned.thresholds;
    outln!(
        "{sequence}: {} frames, {} contacts found (in contact under {:.1} cm above the lowest and {:.2} m/s; locks ease in and out over {} to {} frames)",
        cleaned.frames,
        cleaned.contacts.len(),
        t.low * 100.0,
        t.slow,
        t.blend,
        t.longest_blend
    );
    for c in &cleaned.contacts {
        let verdict = match (&c.gave_way_to, &c.let_go, c.held()) {
            (Some(other), _, _) => format!("  NOT LOCKED (the foot cannot hold it with {other})"),
            (None, Some(l), false) => format!("  LET GO from frame {} (for {})", l.from, l.point),
            (None, _, false) => "  NOT HELD".to_owned(),
            (None, _, true) => String::new(),
        };
        let lowered = if c.lowered > 0.0 {
            format!("  (hips lowered up to {:.1} mm)", mm(c.lowered))
        } else {
            String::new()
        };
        outln!(
            "  {:<32} slide {:>6.1} mm → {:>5.1} mm{lowered}{verdict}",
            c.lock,
            mm(c.slide_before),
            mm(c.slide_after),
        );
    }
    for s in &cleaned.steps {
        outln!(
            "  {}: largest step where a lock takes or lets go {:.1} mm, at most {:+.1} mm over the same step before (frame {}); its largest step before {:.1} mm",
            s.point,
            mm(s.largest_at_edges),
            mm(s.largest_extra_at_edges),
            s.largest_extra_frame,
            mm(s.largest_before)
        );
    }
    outln!(
        "  hips: raised up to {:.1} mm where a foot was below the floor, lowered up to {:.1} mm where a leg could not reach its plant; largest change between two frames {:.1} mm",
        mm(cleaned.most_raised()),
        mm(cleaned.most_lowered()),
        mm(cleaned.steepest_pelvis_step()),
    );
    outln!(
        "  floor: {} floor locks keep the feet up on it; feet below it after: {:.1} mm at most",
        cleaned.floor_locks,
        mm(cleaned.below_floor)
    );
    let not_held: Vec<_> = cleaned.not_held().collect();
    if !not_held.is_empty() {
        outln!(
            "{} contacts could not be held within {} mm, each with its reason:",
            not_held.len(),
            HELD_WITHIN * 1e3
        );
        for c in not_held {
            let limits = match (&c.gave_way_to, &c.let_go, c.at_limits.is_empty()) {
                (Some(other), _, _) => {
                    format!(" (not locked: the foot cannot hold it with {other})")
                }
                (None, Some(l), _) => format!(
                    " (let go from frame {}: held with the foot's other plant, its {} went {:.1} mm below the floor)",
                    l.from,
                    l.point,
                    mm(l.depth)
                ),
                (None, None, false) => format!(" ({} at a limit)", c.at_limits.join(", ")),
                (None, None, true) => match c.beyond_reach {
                    Some(b) if b > -0.005 => {
                        format!(" (out of reach by {:.1} mm)", b.max(0.0) * 1e3)
                    }
                    _ => String::new(),
                },
            };
            outln!("  {}: slides {:.1} mm{limits}", c.lock, mm(c.slide_after));
        }
    }
    if cleaned.replaced > 0 {
        outln!("  ({} earlier contact locks replaced)", cleaned.replaced);
    }
}

/// The exit status for a cleanup written.
pub fn status(cleaned: &Cleaned) -> ExitCode {
    if cleaned.not_held().next().is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(NOT_HELD)
    }
}

/// Loads, cleans, writes and prints.
pub fn run(args: &CleanupArgs) -> Result<ExitCode, String> {
    let start = Instant::now();
    let mut doc = Document::open_document(&args.document).map_err(|e| e.to_string())?;
    if let Some(figure) = &args.figure {
        let select = Edit::Stage(StageEdit::SelectFigure(figure.clone()));
        super::apply(&mut doc, select).map_err(|e| format!("{}: {e}", args.document.display()))?;
    }
    let index = super::sequence_index(doc.sequences(), &args.sequence, &args.document)?;
    let file = args.document.display();
    let cleaned = clean(&mut doc, index, &args.sites).map_err(|e| format!("{file}: {e}"))?;
    super::save(&mut doc, &args.doc_out)?;
    report(
        &cleaned,
        &args.sequence,
        start.elapsed().as_secs_f64() * 1e6,
        args.json,
    );
    if !args.json {
        outln!("→ {}", args.doc_out.display());
    }
    Ok(status(&cleaned))
}
