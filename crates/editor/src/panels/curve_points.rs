//! The curve editor's curves and points ([`super::curves`]): a curve, which key point or
//! handle the pointer is on, what is dragged and how it is drawn, the handles a handle
//! dragged sets, Smooth and Blend on the
//! selected points, and a key's tangent menu.

use bevy_egui::egui;
use egui_plot::{Line, LineStyle, MarkerShape, PlotBounds, PlotPoint, PlotPoints, Points};
use marionette_document::KeyInterpolation;
use marionette_editing::Edit;
use marionette_skeleton::{JointId, ROOT_STATE_LEN};

use super::output::PanelOutput;

/// One curve: a state value of the shown sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Its name ("right elbow 1", "root y").
    pub name: String,
    /// The joint it belongs to (the root joint for the root's coordinates).
    pub joint: JointId,
    /// The state index.
    pub state: usize,
    /// Degrees per radian for a hinge, millimetres per metre otherwise.
    pub scale: f64,
    /// (frame, value shown) as interpolated, then as baked.
    pub lines: [Vec<[f64; 2]>; 2],
    /// (frame, value shown) of each key holding it.
    pub keys: Vec<[f64; 2]>,
    /// Each key's handles, in the same order (none on the root's coordinates).
    pub handles: Vec<PointHandles>,
}

/// A key point's handles on its curve, offsets from the point in the plot's units (frames,
/// degrees or millimetres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointHandles {
    /// Into the key.
    pub before: [f64; 2],
    /// Out of the key.
    pub after: [f64; 2],
    /// Whether they are free (else the spans' own tangents).
    pub free: bool,
}

/// The handle end nearest `pointer` within 8 px among those shown (the `selected` points'
/// (state index, key frame), and every free one): (curve, key frame, whether it is the handle out of the key).
pub(super) fn handle_near(
    curves: &[Curve],
    selected: &[(usize, i64)],
    pointer: egui::Pos2,
    to_screen: impl Fn(PlotPoint) -> egui::Pos2,
) -> Option<(usize, i64, bool)> {
    let mut best: Option<(usize, i64, bool, f32)> = None;
    for (c, curve) in curves.iter().enumerate() {
        for (k, h) in curve.keys.iter().zip(&curve.handles) {
            if !h.free && !selected.contains(&(curve.state, k[0] as i64)) {
                continue;
            }
            for (after, off) in [(false, h.before), (true, h.after)] {
                if off == [0.0, 0.0] {
                    continue;
                }
                let at = to_screen(PlotPoint::new(k[0] + off[0], k[1] + off[1]));
                let d = at.distance(pointer);
                if d <= 8.0 && best.is_none_or(|b| d < b.3) {
                    best = Some((c, k[0] as i64, after, d));
                }
            }
        }
    }
    best.map(|(c, f, after, _)| (c, f, after))
}

/// The edit a handle of `curve`'s key at `frame` dropped at `to` (plot units) makes: that side
/// where it was dropped (kept on its side of the key), the other side turned to stay in line
/// with it (its length kept), or left as it is when `broken` (Alt held).
pub(super) fn handle_dropped(
    curve: &Curve,
    frame: i64,
    after: bool,
    to: [f64; 2],
    broken: bool,
) -> Option<Edit> {
    let i = curve.keys.iter().position(|k| k[0] as i64 == frame)?;
    let (point, h) = (curve.keys[i], curve.handles.get(i)?);
    let mut moved = [to[0] - point[0], to[1] - point[1]];
    moved[0] = if after {
        moved[0].max(0.0)
    } else {
        moved[0].min(0.0)
    };
    let other = if after { h.before } else { h.after };
    let other = if broken {
        other
    } else {
        let (len, dir) = (other[0].hypot(other[1]), moved[0].hypot(moved[1]));
        if dir > 0.0 {
            [-moved[0] / dir * len, -moved[1] / dir * len]
        } else {
            other
        }
    };
    let (before, after) = if after {
        (other, moved)
    } else {
        (moved, other)
    };
    let state_units = |[f, v]: [f64; 2]| [f, v / curve.scale];
    Some(Edit::SetHandles(vec![(
        frame,
        curve.state,
        Some((state_units(before), state_units(after))),
    )]))
}

/// The key point nearest `pointer` (window pixels) within 8 px: (curve, key frame).
pub(super) fn point_near(
    curves: &[Curve],
    pointer: egui::Pos2,
    to_screen: impl Fn(PlotPoint) -> egui::Pos2,
) -> Option<(usize, i64)> {
    curves
        .iter()
        .enumerate()
        .flat_map(|(c, curve)| curve.keys.iter().map(move |k| (c, *k)))
        .map(|(c, k)| {
            (
                c,
                k[0] as i64,
                to_screen(PlotPoint::new(k[0], k[1])).distance(pointer),
            )
        })
        .filter(|&(_, _, d)| d <= 8.0)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(c, f, _)| (c, f))
}

/// The plot's bounds that frame the `selected` points (state index, key frame) of `curves`
/// and their handles, with a margin; `None` when none is selected.
pub(super) fn selection_bounds(curves: &[Curve], selected: &[(usize, i64)]) -> Option<PlotBounds> {
    let mut ends: Vec<[f64; 2]> = Vec::new();
    for curve in curves {
        for (i, k) in curve.keys.iter().enumerate() {
            if !selected.contains(&(curve.state, k[0] as i64)) {
                continue;
            }
            ends.push(*k);
            if let Some(h) = curve.handles.get(i) {
                ends.push([k[0] + h.before[0], k[1] + h.before[1]]);
                ends.push([k[0] + h.after[0], k[1] + h.after[1]]);
            }
        }
    }
    let first = *ends.first()?;
    let (mut min, mut max) = (first, first);
    for e in &ends {
        for a in 0..2 {
            min[a] = min[a].min(e[a]);
            max[a] = max[a].max(e[a]);
        }
    }
    // At least 4 frames and 10 units (degrees or millimetres) across, plus a tenth each side.
    let pad = |lo: f64, hi: f64, least: f64| {
        let half = ((hi - lo).max(least)) * 0.6;
        let mid = 0.5 * (lo + hi);
        (mid - half, mid + half)
    };
    let (x0, x1) = pad(min[0], max[0], 4.0);
    let (y0, y1) = pad(min[1], max[1], 10.0);
    Some(PlotBounds::from_min_max([x0, y0], [x1, y1]))
}

/// How a selected point's value changes: toward its neighbours' mean, or toward one neighbour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Reshape {
    /// (previous + 2 × value + next) / 4, a missing neighbour counted as the value.
    Smooth,
    /// `blend` of the way to the key before (`false`) or after (`true`).
    Blend(bool, f64),
}

/// The edit reshaping the `selected` points (state index, key frame) of `curves`.
pub(super) fn reshaped(curves: &[Curve], selected: &[(usize, i64)], how: Reshape) -> Option<Edit> {
    let mut values = Vec::new();
    for curve in curves {
        for (i, k) in curve.keys.iter().enumerate() {
            if !selected.contains(&(curve.state, k[0] as i64)) {
                continue;
            }
            let before = i.checked_sub(1).map_or(k[1], |j| curve.keys[j][1]);
            let after = curve.keys.get(i + 1).map_or(k[1], |n| n[1]);
            let value = match how {
                Reshape::Smooth => (before + 2.0 * k[1] + after) / 4.0,
                Reshape::Blend(next, blend) => {
                    let to = if next { after } else { before };
                    k[1] + blend * (to - k[1])
                }
            };
            values.push((k[0] as i64, curve.state, value / curve.scale));
        }
    }
    (!values.is_empty()).then_some(Edit::SetKeyValues(values))
}

/// A key's tangents as the curve editor names them: the span out of the key (every joint the
/// key holds) as `Edit::SetKeyInterpolation` sets it. Auto: squad (C¹ through the keys);
/// Linear: along the shorter arc; Step: held until the next key; Flat: linear eased fully in and
/// out (the curve flat at both keys); Sequence: as the sequence says.
const TANGENTS: [(&str, Option<KeyInterpolation>, f64); 5] = [
    ("Auto (smooth)", Some(KeyInterpolation::Smooth), 0.0),
    ("Linear", Some(KeyInterpolation::Linear), 0.0),
    ("Step", Some(KeyInterpolation::Step), 0.0),
    ("Flat (eased)", Some(KeyInterpolation::Linear), 1.0),
    ("As the sequence", None, 0.0),
];

/// The curve a tangent menu was opened on: its name, its state index, and whether its key
/// there has free handles.
pub(super) type MenuCurve = (String, usize, bool);

/// The tangent menu of the key at `frame`, open at `at` on the point of curve `on`; false once
/// a choice is made or it is closed.
pub(super) fn tangent_menu(
    ctx: &egui::Context,
    frame: i64,
    at: egui::Pos2,
    on: &MenuCurve,
    out: &mut PanelOutput,
) -> bool {
    let mut open = true;
    egui::Area::new(egui::Id::new("curve tangents"))
        .fixed_pos(at)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(format!("Key {frame}: the span after it"));
                for (label, interpolation, ease) in TANGENTS {
                    if ui.button(label).clicked() {
                        out.edits.push(Edit::SetKeyInterpolation {
                            frame,
                            interpolation,
                            ease,
                        });
                        open = false;
                    }
                }
                if let (name, state, true) = on {
                    ui.separator();
                    if ui
                        .button(format!("Auto handles ({name})"))
                        .on_hover_text("Drop this key's free handles on this curve: its spans' own tangents again")
                        .clicked()
                    {
                        out.edits.push(Edit::SetHandles(vec![(frame, *state, None)]));
                        open = false;
                    }
                }
                if ui.button("Close").clicked() {
                    open = false;
                }
            });
        });
    open
}

/// What is being dragged in the curve editor.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Grab {
    /// Points, (state index, key frame) each, dragged together from `from` (the pressed
    /// point, plot units) to `to`.
    Points {
        points: Vec<(usize, i64)>,
        from: [f64; 2],
        to: [f64; 2],
    },
    /// The end of a handle of curve `curve`'s key at `frame` (the one out of it when
    /// `after`), now at `to`.
    Handle {
        curve: usize,
        frame: i64,
        after: bool,
        to: [f64; 2],
    },
}

impl Grab {
    /// Where the point `(state, frame)` at `k` shows while this drag goes on.
    pub(super) fn shown(&self, state: usize, k: [f64; 2]) -> [f64; 2] {
        match self {
            Grab::Points { points, from, to } if points.contains(&(state, k[0] as i64)) => {
                let frames = if state >= ROOT_STATE_LEN {
                    (to[0] - from[0]).round()
                } else {
                    0.0
                };
                [k[0] + frames, k[1] + to[1] - from[1]]
            }
            _ => k,
        }
    }
}

/// Draws `curve` in colour `c`: as interpolated (dashed) and baked (solid), its key points
/// (where `grab` shows them while dragged), the `selected` ones ringed; their handles and every
/// free one.
pub(super) fn draw_curve(
    plot: &mut egui_plot::PlotUi<'_>,
    curve: &Curve,
    c: egui::Color32,
    grab: Option<&Grab>,
    selected: &[(usize, i64)],
) {
    plot.line(
        Line::new(curve.name.clone(), PlotPoints::from(curve.lines[0].clone()))
            .color(c.gamma_multiply(0.6))
            .style(LineStyle::dashed_loose()),
    );
    plot.line(Line::new(curve.name.clone(), PlotPoints::from(curve.lines[1].clone())).color(c));
    let shown = |k: &[f64; 2]| grab.map_or(*k, |g| g.shown(curve.state, *k));
    let keys: Vec<[f64; 2]> = curve.keys.iter().map(shown).collect();
    plot.points(
        Points::new(curve.name.clone(), PlotPoints::from(keys))
            .color(c)
            .radius(4.0),
    );
    for (i, k) in curve.keys.iter().enumerate() {
        let chosen = selected.contains(&(curve.state, k[0] as i64));
        let p = shown(k);
        if chosen {
            plot.points(
                Points::new(curve.name.clone(), PlotPoints::from(vec![p]))
                    .color(egui::Color32::WHITE)
                    .radius(6.0)
                    .filled(false),
            );
        }
        let Some(h) = curve.handles.get(i).filter(|h| chosen || h.free) else {
            continue;
        };
        let (mut before, mut after) = (h.before, h.after);
        if let Some(Grab::Handle {
            curve: _,
            frame,
            after: side,
            to,
        }) = grab
            && *frame as f64 == k[0]
            && curve.handles.len() == curve.keys.len()
        {
            let moved = [to[0] - p[0], to[1] - p[1]];
            if *side { after = moved } else { before = moved }
        }
        let ends = [
            [p[0] + before[0], p[1] + before[1]],
            [p[0] + after[0], p[1] + after[1]],
        ];
        plot.line(
            Line::new(
                curve.name.clone(),
                PlotPoints::from(vec![ends[0], p, ends[1]]),
            )
            .color(c.gamma_multiply(0.8)),
        );
        plot.points(
            Points::new(curve.name.clone(), PlotPoints::from(ends.to_vec()))
                .color(c)
                .shape(MarkerShape::Square)
                .radius(3.5)
                .filled(h.free),
        );
    }
}

/// The curve whose interpolated line passes within 8 px of `pointer`: (curve, frame, its value
/// there in plot units).
pub(super) fn curve_near(
    curves: &[Curve],
    pointer: egui::Pos2,
    to_screen: impl Fn(egui_plot::PlotPoint) -> egui::Pos2,
) -> Option<(usize, i64, f64)> {
    curves
        .iter()
        .enumerate()
        .flat_map(|(c, curve)| curve.lines[0].iter().map(move |p| (c, *p)))
        .map(|(c, p)| {
            (
                c,
                p,
                to_screen(egui_plot::PlotPoint::new(p[0], p[1])).distance(pointer),
            )
        })
        .filter(|&(_, _, d)| d <= 8.0)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(c, p, _)| (c, p[0] as i64, p[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The humanoid's left elbow curve (state 20), scale 1, with no keys.
    fn elbow_curve() -> Curve {
        Curve {
            name: "left elbow 1".into(),
            joint: marionette_skeleton::builtin::humanoid()
                .joint_by_name("left elbow")
                .expect("elbow"),
            state: 20,
            scale: 1.0,
            lines: [Vec::new(), Vec::new()],
            keys: Vec::new(),
            handles: Vec::new(),
        }
    }

    #[test]
    fn a_handle_dropped_turns_the_other_in_line_unless_broken() {
        let curve = Curve {
            scale: 2.0,
            keys: vec![[10.0, 30.0]],
            handles: vec![PointHandles {
                before: [-3.0, 0.0],
                after: [3.0, 0.0],
                free: false,
            }],
            ..elbow_curve()
        };
        let handles = |edit: Option<Edit>| match edit {
            Some(Edit::SetHandles(v)) => v,
            other => panic!("{other:?}"),
        };
        // The handle out of the key dropped 4 frames on, 4 up: the one into it turns to stay
        // in line, its length (3) kept; values in state units (plot / scale).
        let v = handles(handle_dropped(&curve, 10, true, [14.0, 34.0], false));
        let [(10, 20, Some((before, after)))] = v[..] else {
            panic!("{v:?}");
        };
        assert_eq!(after, [4.0, 2.0]);
        let r = 3.0 / 2f64.sqrt();
        assert!((before[0] + r).abs() < 1e-12 && (before[1] + r / 2.0).abs() < 1e-12);
        // Broken (Alt): the other stays; dragged past the key, a handle stops at it.
        let v = handles(handle_dropped(&curve, 10, false, [12.0, 26.0], true));
        assert_eq!(v, [(10, 20, Some(([0.0, -2.0], [3.0, 0.0])))]);
        assert!(handle_dropped(&curve, 11, true, [14.0, 34.0], false).is_none());
    }

    #[test]
    fn smooth_and_blend_move_the_selected_points_toward_their_neighbours() {
        let curve = Curve {
            keys: vec![[0.0, 0.0], [10.0, 1.0], [20.0, 0.5]],
            ..elbow_curve()
        };
        let curves = [curve];
        let values = |how| match reshaped(&curves, &[(20, 10)], how) {
            Some(Edit::SetKeyValues(v)) => v,
            other => panic!("{other:?}"),
        };
        assert_eq!(values(Reshape::Smooth), [(10, 20, 0.625)]);
        assert_eq!(values(Reshape::Blend(false, 0.5)), [(10, 20, 0.5)]);
        assert_eq!(values(Reshape::Blend(true, 0.5)), [(10, 20, 0.75)]);
        // The first key's missing neighbour counts as itself.
        match reshaped(&curves, &[(20, 0)], Reshape::Smooth) {
            Some(Edit::SetKeyValues(v)) => assert_eq!(v, [(0, 20, 0.25)]),
            other => panic!("{other:?}"),
        }
        assert!(reshaped(&curves, &[], Reshape::Smooth).is_none());
    }
}
