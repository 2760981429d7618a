//! The physics check of a take ([`check`]): per frame the centre of mass and its supports, the
//! spans with none fitted ([`crate::flight`]), the quiet frames' balance ([`crate::balance`]),
//! what is flagged, and when every flight agrees on a g far from 9.81, the scale that would
//! make it 9.81 (a wrong unit, not a wrong jump).

use crate::balance::{Balance, balance};
use crate::flight::{G, Span, SpanKind, spans};
use crate::supports::{SupportRule, supports};
use crate::track::Track;

/// A ballistic span is flagged when its g is further than this fraction from [`G`].
pub const G_FLAG: f64 = 0.10;

/// A ballistic span is flagged when the centre of mass accelerates across by more than this
/// (m/s²).
pub const HORIZONTAL_FLAG: f64 = 0.5;

/// Spans whose g agree within this fraction of their median are taken as one unit's error.
pub const UNIT_AGREEMENT: f64 = 0.15;

/// What the check found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Per frame, the supporting points (world).
    pub supports: Vec<Vec<nalgebra::Vector3<f64>>>,
    /// The spans with no support, fitted.
    pub spans: Vec<Span>,
    /// The quiet frames' balance.
    pub balance: Balance,
    /// The scale that would make the flights fall at 9.81 m/s², when every span with no support
    /// agrees on a g far from it: (the factor to multiply the scale read by, their median g).
    pub unit_hint: Option<(f64, f64)>,
}

impl Report {
    /// The ballistic spans flagged: g further than [`G_FLAG`] from 9.81, or the centre of mass
    /// accelerating across by more than [`HORIZONTAL_FLAG`].
    pub fn flagged_spans(&self) -> impl Iterator<Item = &Span> {
        self.spans.iter().filter(|s| {
            s.kind == SpanKind::Ballistic
                && ((s.g - G).abs() > G_FLAG * G || s.horizontal_accel > HORIZONTAL_FLAG)
        })
    }

    /// The quiet frames whose centre of mass is outside the support polygon.
    pub fn flagged_poses(&self) -> impl Iterator<Item = &(usize, f64)> {
        self.balance.frames.iter().filter(|(_, m)| *m < 0.0)
    }

    /// Whether anything is flagged.
    pub fn flagged(&self) -> bool {
        self.flagged_spans().next().is_some() || self.flagged_poses().next().is_some()
    }
}

/// The check of `track` with supports found by `rule`, and the points `held` per frame (a
/// document's locks; empty for a capture).
pub fn check(track: &Track, rule: &SupportRule, held: &[Vec<nalgebra::Vector3<f64>>]) -> Report {
    let supports = supports(track, rule, held);
    let spans = spans(track, &supports);
    let balance = balance(track, &supports);
    let unit_hint = unit_hint(&spans);
    Report {
        supports,
        spans,
        balance,
        unit_hint,
    }
}

/// The factor that would bring the spans' g to 9.81, when there are at least two, none is
/// ballistic, and they agree within [`UNIT_AGREEMENT`] of their median.
fn unit_hint(spans: &[Span]) -> Option<(f64, f64)> {
    if spans.len() < 2 || spans.iter().any(|s| s.kind == SpanKind::Ballistic) {
        return None;
    }
    let mut g: Vec<f64> = spans.iter().map(|s| s.g).collect();
    g.sort_by(f64::total_cmp);
    let median = g[g.len() / 2];
    let agree = median > 0.0
        && g.iter()
            .all(|x| (x - median).abs() <= UNIT_AGREEMENT * median);
    agree.then_some((G / median, median))
}
