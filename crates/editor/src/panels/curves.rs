//! The curve editor (Sequence ▸ Curves, issue 34): the selected joints' DOF values over the
//! shown sequence (degrees for hinges, millimetres for slides; the root translation's x, y, z
//! when the root joint is selected), each as interpolated (dashed) and as baked with the locks
//! (solid), so the locks' effect shows as the gap between the two; each key holding the joint as
//! a point. Drag a point up or down to change the key's value, sideways to move that joint's key
//! to another frame (a key holding other joints too: only this joint's part moves); dragging a
//! selected point drags every selected point with it. A selected point shows its handles
//! (hollow: the spans' own tangents; filled: free); drag a handle's end to make them free
//! (the other side turns to stay in line; Alt: it stays as it is). Ctrl+click on a curve keys
//! that DOF alone there, on the curve. Scroll to zoom, drag the background to pan, F (over the
//! plot: the selected points, or every curve when none is) or *Frame all* to see every curve
//! again.
//! *Tween* keys the selected joints at the current frame, the blend's share of the way from
//! each one's key before to its key after. A click on a point selects it (Shift+click: more);
//! *Smooth* moves each selected point a quarter of the way to its neighbours' mean, *Blend to before* /
//! *Blend to after* the blend's share of the way to the key before or after (one undo step). A
//! right-click on a point opens its key's tangents: Auto, Linear, Step, Flat (the span out of
//! the key, for every joint the key holds, as its marker's menu on the ruler sets it), and
//! *Auto handles* for that curve's free handles. The
//! curves are made again only when the document, the bake or the selection changes
//! ([`CurveTracks`]).

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Plot, PlotPoint, VLine};
use marionette_editing::curve_edits::shown_scale;
use marionette_editing::{Document, Edit};
use marionette_skeleton::{JointId, ROOT_STATE_LEN};

pub use super::curve_points::{Curve, PointHandles};
use super::curve_points::{
    Grab, MenuCurve, Reshape, curve_near, draw_curve, handle_dropped, handle_near, point_near,
    reshaped, selection_bounds, tangent_menu,
};
use super::output::PanelOutput;
use crate::EditorSet;
use crate::derived::BakedStrip;
use crate::resources::{Display, OpenDocument};
use crate::selection::Selection;

/// The curves of the selected joints over the shown sequence.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct CurveTracks {
    /// What they were made from: the document, its motion revision, the sequence, the joints.
    source: Option<(u64, u64, usize, Vec<JointId>)>,
    /// The curves.
    pub curves: Vec<Curve>,
}

/// The curve editor's own state: what is dragged and the tween's blend.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct CurvesUi {
    /// What is dragged.
    grab: Option<Grab>,
    /// Whether a point was under the pointer on the last frame (the plot does not pan then).
    over_point: bool,
    /// The points selected: (state index, key frame).
    selected: Vec<(usize, i64)>,
    /// The tangent menu of the key at this frame, open where the right-click was, on the
    /// point of this curve (its name, state index, whether its handles are free).
    tangents: Option<(i64, egui::Pos2, MenuCurve)>,
    /// The tween's blend (0 … 1).
    pub blend: f64,
}

impl Default for CurvesUi {
    fn default() -> Self {
        CurvesUi {
            grab: None,
            over_point: false,
            selected: Vec::new(),
            tangents: None,
            blend: 0.5,
        }
    }
}

/// Makes the curves while the curve editor is shown.
pub struct CurvesPlugin;

impl Plugin for CurvesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<CurveTracks>()
            .init_resource::<CurvesUi>()
            .add_systems(
                Update,
                curve_tracks
                    .run_if(|display: Res<Display>| display.curves)
                    .in_set(EditorSet::Chart),
            );
    }
}

/// The curves of `joints` (the root's coordinates first when the root joint is one of them).
fn curves_of(
    document: &Document,
    index: usize,
    joints: &[JointId],
    baked: &[Vec<f64>],
) -> Vec<Curve> {
    let s = document.skeleton();
    let seq = &document.sequences()[index];
    // One interpolator for the dashed lines and every curve's handles.
    let interpolator = marionette_motion::Interpolator::new(s, seq);
    let (from, to) = interpolator.range();
    let interpolated: Vec<Vec<f64>> = (from..=to)
        .map(|f| {
            let mut q = Vec::new();
            interpolator.pose_at(s, f, &mut q);
            q
        })
        .collect();
    let first = seq.keys.first().map_or(0, |k| k.frame);
    let mut states: Vec<(JointId, usize)> = Vec::new();
    for &j in joints {
        if s.joint(j).parent.is_none() {
            states.extend((0..ROOT_STATE_LEN).map(|i| (j, i)));
        }
        states.extend(s.joint_dofs(j).map(|d| (j, d.state_index())));
    }
    states
        .into_iter()
        .map(|(joint, state)| {
            let scale = shown_scale(s, state);
            let line = |poses: &[Vec<f64>]| -> Vec<[f64; 2]> {
                poses
                    .iter()
                    .enumerate()
                    .map(|(f, q)| [(first + f as i64) as f64, q[state] * scale])
                    .collect()
            };

            let handles = marionette_motion::curve_handles(s, seq, &interpolator, state)
                .iter()
                .map(|h| PointHandles {
                    before: [h.before[0], h.before[1] * scale],
                    after: [h.after[0], h.after[1] * scale],
                    free: h.free,
                })
                .collect();
            Curve {
                name: marionette_document::curve_name(s, state),
                joint,
                state,
                scale,
                lines: [line(&interpolated), line(baked)],
                keys: seq
                    .keys
                    .iter()
                    .filter(|k| k.holds_state(s, state))
                    .map(|k| [k.frame as f64, k.pose.q[state] * scale])
                    .collect(),
                handles,
            }
        })
        .collect()
}

/// Makes the curves again when the document's motion, the bake or the selection changed.
fn curve_tracks(
    document: Res<OpenDocument>,
    strip: Res<BakedStrip>,
    selection: Res<Selection>,
    mut tracks: ResMut<CurveTracks>,
) {
    let joints = selection.joints(&document);
    let Some(index) = document.current_sequence().filter(|_| !joints.is_empty()) else {
        if tracks.source.is_some() {
            *tracks = CurveTracks::default();
        }
        return;
    };
    let source = (
        document.id(),
        document.history().motion_revision(),
        index,
        joints.clone(),
    );
    if tracks.source.as_ref() == Some(&source) || strip.poses.is_empty() {
        return;
    }
    *tracks = CurveTracks {
        curves: curves_of(&document, index, &joints, &strip.poses),
        source: Some(source),
    };
}

/// The plot's id (its memory holds where it shows what).
const PLOT_ID: &str = "curve editor plot";

/// A curve's colour.
fn colour(i: usize) -> egui::Color32 {
    const COLOURS: [egui::Color32; 6] = [
        egui::Color32::from_rgb(230, 90, 80),
        egui::Color32::from_rgb(90, 190, 90),
        egui::Color32::from_rgb(80, 140, 230),
        egui::Color32::from_rgb(230, 180, 60),
        egui::Color32::from_rgb(190, 110, 220),
        egui::Color32::from_rgb(70, 200, 200),
    ];
    COLOURS[i % COLOURS.len()]
}

/// The row above the plot: Frame all (whether it was clicked), the blend and Tween, and the
/// reshaping of the selected points.
fn toolbar(
    ui: &mut egui::Ui,
    curves: &[Curve],
    joints: &[JointId],
    state: &mut CurvesUi,
    out: &mut PanelOutput,
) -> bool {
    ui.horizontal(|ui| {
        let frame_all = ui
            .button("Frame all")
            .on_hover_text("Every curve (F over the plot with no point selected)")
            .clicked();
        ui.separator();
        ui.add(egui::Slider::new(&mut state.blend, 0.0..=1.0).text("blend"));
        if ui
            .button("Tween")
            .on_hover_text("A key at the current frame on the selected joints, the blend's share of the way from each one's key before to its key after")
            .clicked()
        {
            out.edits.push(Edit::Tween { joints: joints.to_vec(), blend: state.blend });
        }
        ui.separator();
        let any = !state.selected.is_empty();
        for (label, how, tip) in [
            ("Smooth", Reshape::Smooth, "Each selected point a quarter of the way to its neighbours' mean"),
            ("Blend to before", Reshape::Blend(false, state.blend), "Each selected point the blend's share of the way to the key before"),
            ("Blend to after", Reshape::Blend(true, state.blend), "Each selected point the blend's share of the way to the key after"),
        ] {
            if ui.add_enabled(any, egui::Button::new(label)).on_hover_text(tip).clicked()
                && let Some(edit) = reshaped(curves, &state.selected, how)
            {
                out.edits.push(edit);
            }
        }
        frame_all
    })
    .inner
}

/// A click on the plot: Ctrl on a curve keys that DOF there; on a point selects it (Shift adds
/// or removes it); elsewhere goes to the frame under the pointer.
fn clicked(
    curves: &[Curve],
    near: Option<(usize, i64)>,
    on_curve: Option<(usize, i64, f64)>,
    at: Option<PlotPoint>,
    modifiers: egui::Modifiers,
    state: &mut CurvesUi,
    out: &mut PanelOutput,
) {
    match (near, on_curve) {
        (None, Some((c, f, value))) if modifiers.command => {
            let curve = &curves[c];
            out.edits
                .push(Edit::KeyDofs(vec![(f, curve.state, value / curve.scale)]));
        }
        (Some((c, f)), _) => {
            let point = (curves[c].state, f);
            if !modifiers.shift {
                state.selected.clear();
            }
            if let Some(i) = state.selected.iter().position(|p| *p == point) {
                state.selected.remove(i);
            } else {
                state.selected.push(point);
            }
        }
        (None, _) => {
            if let Some(at) = at {
                out.edits.push(Edit::GoToFrame(at.x.round() as i64));
            }
        }
    }
}

/// The curve editor window.
pub fn curves_window(
    ctx: &egui::Context,
    document: &Document,
    (tracks, joints): (&CurveTracks, Vec<JointId>),
    state: &mut CurvesUi,
    open: &mut bool,
    out: &mut PanelOutput,
) {
    let screen = ctx.content_rect();
    egui::Window::new("Curves")
        .open(open)
        .default_pos(egui::pos2(screen.left() + 320.0, screen.top() + 40.0))
        .default_size([520.0, 320.0])
        .resizable(true)
        .show(ctx, |ui| {
            if document.current_sequence().is_none() || joints.is_empty() {
                ui.label("Show a sequence and select joints to see their curves.");
                return;
            }
            let mut frame_all = toolbar(ui, &tracks.curves, &joints, state, out);
            ui.label("dashed: as interpolated · solid: as baked with the locks · points: keys (drag: value, or sideways: frame; the selected ones together) · handles on the selected points · Ctrl+click a curve: key that DOF");
            let frame = document.frame() as f64;
            // Over the window (its whole area: the plot is not laid out yet).
            let hovered = ui.rect_contains_pointer(ui.max_rect());
            // F over the plot frames the selected points, or every curve when none is.
            let f_pressed = hovered && ui.input(|i| i.key_pressed(egui::Key::F));
            let framed = if f_pressed {
                selection_bounds(&tracks.curves, &state.selected)
            } else {
                None
            };
            frame_all |= f_pressed && framed.is_none();
            let grab = state.grab.clone();
            let mut plot = Plot::new("curves")
                .id(egui::Id::new(PLOT_ID))
                .allow_drag(grab.is_none() && !state.over_point)
                .allow_double_click_reset(true)
                .legend(egui_plot::Legend::default());
            if frame_all {
                plot = plot.reset();
            }
            let response = plot.show(ui, |plot| {
                if let Some(bounds) = framed {
                    plot.set_plot_bounds(bounds);
                }
                for (i, curve) in tracks.curves.iter().enumerate() {
                    draw_curve(plot, curve, colour(i), grab.as_ref(), &state.selected);
                }
                plot.vline(VLine::new("frame", frame).color(egui::Color32::from_rgb(220, 80, 40)));
                let pointer = plot.response().hover_pos();
                let to_screen = |q| plot.screen_from_plot(q);
                let near = pointer.and_then(|p| point_near(&tracks.curves, p, to_screen));
                let handle = pointer.and_then(|p| handle_near(&tracks.curves, &state.selected, p, to_screen));
                let on_curve = pointer.and_then(|p| curve_near(&tracks.curves, p, to_screen));
                // What the button went down on (a drag starts only once the pointer has moved).
                let origin = plot.response().ctx.input(|i| i.pointer.press_origin());
                let pressed = origin.map(|p| {
                    (
                        point_near(&tracks.curves, p, to_screen),
                        handle_near(&tracks.curves, &state.selected, p, to_screen),
                    )
                });
                (near, handle, on_curve, pressed, plot.pointer_coordinate())
            });
            let (near, handle, on_curve, pressed, at) = response.inner;
            state.over_point = near.is_some() || handle.is_some();
            let r = &response.response;
            let modifiers = ui.input(|i| i.modifiers);
            if r.drag_started()
                && let Some((near, handle)) = pressed
            {
                if let Some((curve, frame, after)) = handle {
                    state.grab = at.map(|p| Grab::Handle { curve, frame, after, to: [p.x, p.y] });
                } else if let Some((c, f)) = near
                    && let Some(k) = tracks.curves[c].keys.iter().find(|k| k[0] as i64 == f)
                {
                    let point = (tracks.curves[c].state, f);
                    if !state.selected.contains(&point) {
                        state.selected = vec![point];
                    }
                    state.grab = Some(Grab::Points { points: state.selected.clone(), from: *k, to: *k });
                }
            }
            if let (Some(grab), Some(p)) = (state.grab.as_mut(), at)
                && r.dragged()
            {
                match grab {
                    Grab::Points { to, .. } | Grab::Handle { to, .. } => *to = [p.x, p.y],
                }
            }
            if r.drag_stopped() {
                match state.grab.take() {
                    Some(Grab::Points { points, from, to }) => {
                        let frames = (to[0] - from[0]).round() as i64;
                        if frames != 0 || to[1] != from[1] {
                            out.edits.push(Edit::DragCurvePoints { points: points.clone(), frames, by: to[1] - from[1] });
                            // The points stay selected where they went.
                            state.selected = points
                                .iter()
                                .map(|&(s, f)| (s, if s >= ROOT_STATE_LEN { f + frames } else { f }))
                                .collect();
                        }
                    }
                    Some(Grab::Handle { curve, frame, after, to }) => {
                        if let Some(c) = tracks.curves.get(curve) {
                            out.edits.extend(handle_dropped(c, frame, after, to, modifiers.alt));
                        }
                    }
                    None => {}
                }
            }
            if r.secondary_clicked()
                && let (Some((c, f)), Some(p)) = (near, r.interact_pointer_pos())
            {
                let curve = &tracks.curves[c];
                let free = curve
                    .keys
                    .iter()
                    .zip(&curve.handles)
                    .any(|(k, h)| k[0] as i64 == f && h.free);
                state.tangents = Some((f, p + egui::vec2(4.0, 4.0), (curve.name.clone(), curve.state, free)));
            }
            if r.clicked() {
                clicked(&tracks.curves, near, on_curve, at, modifiers, state, out);
            }
        });
    if let Some((frame, at, on)) = &state.tangents
        && !tangent_menu(ctx, *frame, *at, on, out)
    {
        state.tangents = None;
    }
}

#[cfg(test)]
#[path = "curves_tests.rs"]
mod tests;
