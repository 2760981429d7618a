//! A stage file's cues resolved against its figures and props (docs/file-formats.md, Stage,
//! "Cues"): each prop's track of keys, the grips and releases, and the span they run over.

use super::format::{CueDef, HoldDef, TrackDef};
use super::lookup::{Lookup, frames_problem, place_problem};
use super::{Cue, Hold, PropKey, PropPlace, PropTrack, Stage};
use crate::sequence::MAX_SPAN;

/// Cue `c` resolved on `stage`, reporting each of its defects to `bad`; `None` when the cue as a
/// whole is refused. `earlier` are the cues resolved before it.
pub(super) fn resolve_cue(
    c: &CueDef,
    stage: &Stage,
    lookup: &Lookup,
    earlier: &[Cue],
    bad: &mut dyn FnMut(String),
) -> Option<Cue> {
    if !stage.sequence_names().contains(&c.sequence.as_str()) {
        bad("no figure has a sequence of that name".into());
        return None;
    }
    if earlier.iter().any(|k| k.sequence == c.sequence) {
        bad("the sequence has more than one cue".into());
        return None;
    }
    let mut cue = Cue {
        sequence: c.sequence.clone(),
        tracks: Vec::new(),
        holds: Vec::new(),
    };
    for t in &c.tracks {
        match resolve_track(t, lookup, &cue.tracks) {
            Ok(track) => cue.tracks.push(track),
            Err(e) => bad(e),
        }
    }
    for h in &c.holds {
        match resolve_hold(h, lookup) {
            Ok(hold) => cue.holds.push(hold),
            Err(e) => bad(e),
        }
    }
    for p in 0..stage.props.len() {
        if let Some(problem) = holds_problem(&cue.holds, p, &stage.props[p].name) {
            bad(problem);
        }
    }
    cue.holds.sort_by_key(|h| h.frame());
    if let Some(problem) = span_problem(&cue, stage) {
        bad(problem);
        return None;
    }
    Some(cue)
}

/// Track `t` resolved, or what is wrong with it; `earlier` are the cue's tracks before it.
fn resolve_track(
    t: &TrackDef,
    lookup: &Lookup,
    earlier: &[PropTrack],
) -> Result<PropTrack, String> {
    let prop = lookup.prop(&t.prop)?;
    if earlier.iter().any(|k| k.prop == prop) {
        return Err(format!("prop \"{}\" has more than one track", t.prop));
    }
    let problem = if t.keys.is_empty() {
        Some("has no keys".to_owned())
    } else if t.keys.windows(2).any(|w| w[0].frame >= w[1].frame) {
        Some("key frames are not strictly increasing".to_owned())
    } else {
        t.keys.iter().find_map(|k| {
            frames_problem((k.frame, k.frame))
                .or_else(|| place_problem(&k.at, &k.rotation))
                .map(|p| format!("key at frame {}: {p}", k.frame))
        })
    };
    if let Some(problem) = problem {
        return Err(format!("track of prop \"{}\": {problem}", t.prop));
    }
    Ok(PropTrack {
        prop,
        keys: t
            .keys
            .iter()
            .map(|k| PropKey {
                frame: k.frame,
                place: PropPlace {
                    at: k.at,
                    rotation: k.rotation,
                },
            })
            .collect(),
    })
}

/// A grip or release resolved, or what is wrong with it.
fn resolve_hold(h: &HoldDef, lookup: &Lookup) -> Result<Hold, String> {
    let hold = match h {
        HoldDef::Grip {
            prop,
            figure,
            site,
            frame,
        } => Hold::Grip {
            prop: lookup.prop(prop)?,
            by: lookup.site(figure, site)?,
            frame: *frame,
        },
        HoldDef::Release { prop, frame } => Hold::Release {
            prop: lookup.prop(prop)?,
            frame: *frame,
        },
    };
    match frames_problem((hold.frame(), hold.frame())) {
        Some(problem) => Err(problem),
        None => Ok(hold),
    }
}

/// What is wrong with the grips and releases of prop `p` (named `name`) among `holds`, in the
/// order written: frames not increasing, a release before any grip, or two releases in a row.
fn holds_problem(holds: &[Hold], p: usize, name: &str) -> Option<String> {
    let holds: Vec<&Hold> = holds.iter().filter(|h| h.prop() == p).collect();
    if holds.windows(2).any(|w| w[0].frame() >= w[1].frame()) {
        Some(format!(
            "the grips and releases of prop \"{name}\" are not in strictly increasing frames"
        ))
    } else if let Some(Hold::Release { frame, .. }) = holds.first() {
        Some(format!(
            "prop \"{name}\" is released at frame {frame} before anyone grips it"
        ))
    } else {
        holds
            .windows(2)
            .find(|w| matches!((w[0], w[1]), (Hold::Release { .. }, Hold::Release { .. })))
            .map(|w| {
                format!(
                    "prop \"{name}\" is released at frame {} while nobody holds it",
                    w[1].frame()
                )
            })
    }
}

/// Whether the cue's keys, grips and releases with the first and last keys of the figures'
/// sequences of its name run longer than one sequence may span: a stage's sequence runs from
/// its earliest key, grip or release to its latest.
fn span_problem(cue: &Cue, stage: &Stage) -> Option<String> {
    let cue_frames = cue
        .tracks
        .iter()
        .flat_map(|t| t.keys.iter().map(|k| k.frame))
        .chain(cue.holds.iter().map(|h| h.frame()));
    let key_frames = stage
        .figures
        .iter()
        .filter_map(|f| f.document.sequences.iter().find(|s| s.name == cue.sequence))
        .flat_map(|s| {
            s.keys
                .first()
                .into_iter()
                .chain(s.keys.last())
                .map(|k| k.frame)
        });
    let all: Vec<i64> = cue_frames.chain(key_frames).collect();
    let (first, last) = (all.iter().min()?, all.iter().max()?);
    (last.abs_diff(*first) > MAX_SPAN as u64).then(|| {
        format!(
            "its keys, grips and releases run from frame {first} to {last}, more than the \
             {MAX_SPAN} frames a sequence may span"
        )
    })
}
