//! The curve editor's curves and points ([`super::curves`]): a curve, which key point the pointer is on, the edits a
//! point dragged makes, Smooth and Blend on the selected points, and a key's tangent menu.

use bevy_egui::egui;
use egui_plot::PlotPoint;
use marionette_document::KeyInterpolation;
use marionette_editing::Edit;
use marionette_skeleton::{JointId, ROOT_STATE_LEN};

use super::PanelOutput;

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

/// The edits a point dragged from key `frame` of `curve` to `to` (plot units) makes: the
/// joint's key moved (when the frame changed), then its value set.
pub(super) fn dropped(curve: &Curve, frame: i64, to: [f64; 2]) -> Vec<Edit> {
    let at = to[0].round() as i64;
    let mut edits = Vec::new();
    if at != frame && curve.state >= ROOT_STATE_LEN {
        edits.push(Edit::MoveJointKey {
            joint: curve.joint,
            from: frame,
            to: at,
        });
    }
    let at = if curve.state >= ROOT_STATE_LEN {
        at
    } else {
        frame
    };
    edits.push(Edit::SetKeyValues(vec![(
        at,
        curve.state,
        to[1] / curve.scale,
    )]));
    edits
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

/// The tangent menu of the key at `frame`, open at `at`; false once a choice is made or it is
/// closed.
pub(super) fn tangent_menu(
    ctx: &egui::Context,
    frame: i64,
    at: egui::Pos2,
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
                if ui.button("Close").clicked() {
                    open = false;
                }
            });
        });
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_dropped_sideways_moves_the_joints_key_then_sets_its_value() {
        let curve = Curve {
            name: "left elbow 1".into(),
            joint: marionette_skeleton::builtin::humanoid()
                .joint_by_name("left elbow")
                .expect("elbow"),
            state: 20,
            scale: 180.0 / std::f64::consts::PI,
            lines: [Vec::new(), Vec::new()],
            keys: vec![[10.0, 30.0]],
        };
        let edits = dropped(&curve, 10, [12.4, 45.0]);
        assert!(
            matches!(edits[0], Edit::MoveJointKey { joint, from: 10, to: 12 } if joint == curve.joint),
            "{edits:?}"
        );
        let Edit::SetKeyValues(ref values) = edits[1] else {
            panic!("{edits:?}");
        };
        let [(frame, state, value)] = values[..] else {
            panic!("{values:?}");
        };
        assert_eq!((frame, state), (12, 20));
        assert!((value - 45f64.to_radians()).abs() < 1e-12);
        // Up and down only: the value alone.
        assert_eq!(dropped(&curve, 10, [10.2, 45.0]).len(), 1);
    }

    #[test]
    fn smooth_and_blend_move_the_selected_points_toward_their_neighbours() {
        let curve = Curve {
            name: "left elbow 1".into(),
            joint: marionette_skeleton::builtin::humanoid()
                .joint_by_name("left elbow")
                .expect("elbow"),
            state: 20,
            scale: 1.0,
            lines: [Vec::new(), Vec::new()],
            keys: vec![[0.0, 0.0], [10.0, 1.0], [20.0, 0.5]],
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
