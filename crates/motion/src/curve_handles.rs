//! The handles the curve editor draws on each key of a curve: the key's free handles, or the
//! tangents its spans leave and arrive with, as [`crate::channel`] and [`crate::interpolate`]
//! make them.

use marionette_document::{KeyInterpolation, Sequence};
use marionette_skeleton::{ROOT_STATE_LEN, Skeleton};

use crate::channel::{Channel, by_squad};
use crate::interpolate::Interpolator;

/// A key's handles on one curve as the curve is drawn: its frame, its value, and the
/// handles into and out of it, (frames, value) from its point, free or the span's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveHandles {
    /// The key's frame.
    pub frame: i64,
    /// The curve's value at the key (radians or metres).
    pub value: f64,
    /// Into the key: (frames ≤ 0, value).
    pub before: [f64; 2],
    /// Out of the key: (frames ≥ 0, value).
    pub after: [f64; 2],
    /// Whether they are the key's free handles (else the spans' own tangents).
    pub free: bool,
}

/// The handles of every key holding curve `state` of `sequence` (a DOF, or a coordinate of the
/// root translation), as the curve goes when it goes on its own ([`Channel`], or the root's
/// coordinate along its root curve): a key's free handles, else the tangents of the spans
/// on each side (as each span's interpolation says; a third of the span long; flat at the
/// ends and around `Step` spans). `interpolator` is the sequence's (the root's tangents are
/// read from it), made once for all its curves.
pub fn curve_handles(
    skeleton: &Skeleton,
    sequence: &Sequence,
    interpolator: &Interpolator,
    state: usize,
) -> Vec<CurveHandles> {
    let dof = skeleton.dof_at_state(state);
    if dof.is_none() && state >= ROOT_STATE_LEN {
        return Vec::new();
    }
    let keys: Vec<usize> = (0..sequence.keys.len())
        .filter(|&i| sequence.keys[i].holds_state(skeleton, state))
        .collect();
    if keys.is_empty() {
        return Vec::new();
    }
    let kind = |i: usize| sequence.keys[keys[i]].interpolation;
    // Per span, its tangents (per unit of u) leaving its first key and arriving at its last.
    let tangents: Vec<(f64, f64)> = match dof {
        Some(d) => {
            let c = Channel::new(skeleton, sequence, d, 0, &keys);
            (0..keys.len() - 1)
                .map(|i| c.span_tangents(i, by_squad(kind(i), sequence.rotation)))
                .collect()
        }
        None => (0..keys.len() - 1)
            .map(|i| {
                let (ta, tb) = interpolator.root_span_tangents(i, kind(i));
                (ta[state], tb[state])
            })
            .collect(),
    };
    let span = |i: usize| {
        let frames = (sequence.keys[keys[i + 1]].frame - sequence.keys[keys[i]].frame) as f64;
        if kind(i) == Some(KeyInterpolation::Step) {
            (frames, 0.0, 0.0)
        } else {
            (frames, tangents[i].0, tangents[i].1)
        }
    };
    let n = keys.len();
    (0..n)
        .map(|i| {
            let key = &sequence.keys[keys[i]];
            let free = key.handles_of(state).map(|h| (h.before, h.after));
            let before = match (free, i) {
                (Some(h), _) => h.0,
                (None, 0) => [0.0, 0.0],
                (None, _) => {
                    let (f, _, mb) = span(i - 1);
                    [-f / 3.0, -mb / 3.0]
                }
            };
            let after = match free {
                Some(h) => h.1,
                None if i + 1 == n => [0.0, 0.0],
                None => {
                    let (f, ma, _) = span(i);
                    [f / 3.0, ma / 3.0]
                }
            };
            CurveHandles {
                frame: key.frame,
                value: key.pose.q[state],
                before,
                after,
                free: free.is_some(),
            }
        })
        .collect()
}
