//! The motion plot (Sequence ▸ Motion plot): for a site of the figure, its height and its
//! speed across the ground over the shown sequence, as interpolated (grey) and as baked with the
//! locks (blue), the frames where a lock holds that site shaded, the current frame marked; below
//! them, after Find foot contacts moved the hips, how far it moved them on each frame; a click on
//! a plot goes to that frame. The tracks are computed when the document, the bake or
//! the site changes ([`MotionTracks`]), not every frame.

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints, Span, VLine};
use marionette_editing::{Document, Edit};
use marionette_ik::GoalKind;
use marionette_motion::contacts::horizontal_speeds;
use marionette_skeleton::{Fk, SiteId};

use super::output::PanelOutput;
use crate::EditorSet;
use crate::derived::BakedStrip;
use crate::resources::{Display, OpenDocument};

/// The site the motion plot follows (by name; `None`: the first heel, else the first site).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct MotionSite(pub Option<String>);

/// The plotted tracks of the motion plot's site over the shown sequence.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct MotionTracks {
    /// What they were computed from: the document, its motion revision, the sequence, the site.
    source: Option<(u64, u64, usize, SiteId)>,
    /// The site's name.
    pub site: String,
    /// (frame, height) as interpolated, then as baked.
    pub height: [Vec<[f64; 2]>; 2],
    /// (frame, speed across the ground, m/s) as interpolated, then as baked.
    pub speed: [Vec<[f64; 2]>; 2],
    /// The frame ranges of the locks on the site (inclusive).
    pub held: Vec<(i64, i64)>,
    /// (frame, how far the last Find foot contacts moved the hips up, mm; negative: down);
    /// empty when it did not move them or its move was undone.
    pub hips: Vec<[f64; 2]>,
}

/// Computes the motion plot's tracks while it is shown.
pub struct MotionPlotPlugin;

impl Plugin for MotionPlotPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<MotionSite>()
            .init_resource::<MotionTracks>()
            .add_systems(
                Update,
                motion_tracks
                    .run_if(|display: Res<Display>| display.motion_plot)
                    .in_set(EditorSet::Chart),
            );
    }
}

/// The site followed: the one named, else the first heel, else the first site.
fn followed(document: &Document, site: &MotionSite) -> Option<SiteId> {
    let s = document.skeleton();
    site.0
        .as_deref()
        .and_then(|n| s.site_by_name(n))
        .or_else(|| s.site_ids().find(|&i| s.site(i).name.contains("heel")))
        .or_else(|| s.site_ids().next())
}

/// Recomputes the tracks when the bake, the site or the document changed.
fn motion_tracks(
    document: Res<OpenDocument>,
    strip: Res<BakedStrip>,
    site: Res<MotionSite>,
    mut tracks: ResMut<MotionTracks>,
) {
    let (Some(index), Some(id)) = (document.current_sequence(), followed(&document, &site)) else {
        if tracks.source.is_some() {
            *tracks = MotionTracks::default();
        }
        return;
    };
    let source = (
        document.id(),
        document.history().motion_revision(),
        index,
        id,
    );
    if tracks.source == Some(source) || strip.poses.is_empty() {
        return;
    }
    let skeleton = document.skeleton();
    let fps = document.sequences()[index].fps;
    let first = strip.errors.first().map_or(0, |e| e.0);
    let mut fk = Fk::new(skeleton);
    let mut path = |poses: &[Vec<f64>]| -> Vec<nalgebra::Vector3<f64>> {
        poses
            .iter()
            .map(|q| {
                fk.update(skeleton, q);
                fk.site_position(id)
            })
            .collect()
    };
    let paths = [
        path(&document.interpolate_sequence(index)),
        path(&strip.poses),
    ];
    let at = |f: usize| (first + f as i64) as f64;
    let site_of = skeleton.site(id);
    let held = document
        .locks()
        .iter()
        .filter(|l| match &l.goal().kind {
            GoalKind::Position { site, .. } | GoalKind::Pose { site, .. } => *site == id,
            GoalKind::Point { joint, offset, .. } => {
                *joint == site_of.joint && (offset - site_of.offset).norm() < 1e-9
            }
            _ => false,
        })
        .filter_map(|l| l.frames())
        .collect();
    let hips: Vec<[f64; 2]> = document.hips_moved().map_or_else(Vec::new, |moved| {
        (0..paths[1].len())
            .map(|f| {
                let at_frame = (first + f as i64 - moved.first).max(0) as usize;
                let change = moved.change.get(at_frame).copied().unwrap_or(0.0);
                [at(f), change * 1e3]
            })
            .collect()
    });
    *tracks = MotionTracks {
        source: Some(source),
        hips,
        site: site_of.name.clone(),
        height: paths
            .clone()
            .map(|p| p.iter().enumerate().map(|(f, v)| [at(f), v.y]).collect()),
        speed: paths.map(|p| {
            horizontal_speeds(&p, fps)
                .into_iter()
                .enumerate()
                .map(|(f, v)| [at(f), v])
                .collect()
        }),
        held,
    };
}

/// A little above the 99th percentile of a plot's values (as baked and as interpolated).
fn upper(series: &[Vec<[f64; 2]>; 2]) -> f64 {
    let mut v: Vec<f64> = series.iter().flatten().map(|p| p[1]).collect();
    v.sort_by(f64::total_cmp);
    let top = v.get(v.len() * 99 / 100).copied().unwrap_or(1.0);
    top + 0.15 * (top - lower(series)).abs().max(1e-3)
}

/// A little below the smallest of a plot's values.
fn lower(series: &[Vec<[f64; 2]>; 2]) -> f64 {
    let low = series
        .iter()
        .flatten()
        .map(|p| p[1])
        .fold(f64::INFINITY, f64::min);
    if low.is_finite() { low - 0.02 } else { 0.0 }
}

/// One plot of the window: its lines (label, points, colour) and its vertical range.
struct Chart<'a> {
    name: &'static str,
    unit: &'static str,
    lines: Vec<ChartLine<'a>>,
    range: (f64, f64),
}

/// The two lines of a track: as interpolated (grey) and as baked (blue).
fn interpolated_and_baked(series: &[Vec<[f64; 2]>; 2]) -> Vec<ChartLine<'_>> {
    vec![
        ("as interpolated", &series[0], egui::Color32::from_gray(150)),
        (
            "as baked",
            &series[1],
            egui::Color32::from_rgb(40, 100, 200),
        ),
    ]
}

/// A line of a chart: its label, its points and its colour.
type ChartLine<'a> = (&'static str, &'a [[f64; 2]], egui::Color32);

/// The range of `points`' values from their lowest to their highest and through zero, padded
/// (the hips' move, up and down).
fn through_zero(points: &[[f64; 2]]) -> (f64, f64) {
    let low = points.iter().map(|p| p[1]).fold(0.0, f64::min);
    let high = points.iter().map(|p| p[1]).fold(0.0, f64::max);
    let pad = 0.1 * (high - low).max(1.0);
    (low - pad, high + pad)
}

/// The motion plot window; a click on a plot goes to that frame.
pub fn motion_window(
    ctx: &egui::Context,
    document: &Document,
    tracks: &MotionTracks,
    site: &mut MotionSite,
    open: &mut bool,
    out: &mut PanelOutput,
) {
    let screen = ctx.content_rect();
    egui::Window::new("Motion")
        .open(open)
        .default_pos(egui::pos2(screen.right() - 420.0, screen.top() + 40.0))
        .default_size([400.0, 380.0])
        .resizable(true)
        .show(ctx, |ui| {
            if document.current_sequence().is_none() {
                ui.label("Show a sequence (the timeline's list) to plot its motion.");
                return;
            }
            let s = document.skeleton();
            egui::ComboBox::from_label("site")
                .selected_text(tracks.site.clone())
                .show_ui(ui, |ui| {
                    for id in s.site_ids() {
                        let name = &s.site(id).name;
                        if ui.selectable_label(*name == tracks.site, name).clicked() {
                            site.0 = Some(name.clone());
                        }
                    }
                });
            ui.label(
                "grey: as interpolated · blue: as baked with the locks · shaded: locked · \
                 orange: how far Find foot contacts moved the hips (up +, down −)",
            );
            let frame = document.frame() as f64;
            let x = tracks.height[1].first().map_or(0.0, |p| p[0])
                ..=tracks.height[1].last().map_or(1.0, |p| p[0]);
            let rows = if tracks.hips.is_empty() { 2.0 } else { 3.0 };
            let height = (ui.available_height() - 10.0).max(60.0 * rows) / rows;
            // The whole sequence, and the values up to their 99th percentile (a capture's
            // calibration frame would flatten the rest).
            let mut charts = vec![
                Chart {
                    name: "height",
                    unit: "height (m)",
                    lines: interpolated_and_baked(&tracks.height),
                    range: (lower(&tracks.height), upper(&tracks.height)),
                },
                Chart {
                    name: "speed",
                    unit: "speed (m/s)",
                    lines: interpolated_and_baked(&tracks.speed),
                    range: (0.0, upper(&tracks.speed)),
                },
            ];
            if !tracks.hips.is_empty() {
                charts.push(Chart {
                    name: "hips",
                    unit: "hips moved (mm)",
                    lines: vec![(
                        "moved by Find foot contacts",
                        tracks.hips.as_slice(),
                        egui::Color32::from_rgb(230, 150, 40),
                    )],
                    range: through_zero(&tracks.hips),
                });
            }
            for Chart {
                name,
                unit,
                lines,
                range: (floor, y),
            } in charts
            {
                let response = Plot::new(format!("motion {name}"))
                    .height(height)
                    .link_cursor("motion plots", [true, false])
                    .y_axis_label(unit)
                    .allow_scroll(false)
                    .allow_zoom(false)
                    .allow_drag(false)
                    .show(ui, |plot| {
                        plot.set_plot_bounds_x(x.clone());
                        plot.set_plot_bounds_y(floor..=y);
                        for &(a, b) in &tracks.held {
                            plot.span(
                                Span::new("", a as f64..=b as f64)
                                    .fill(egui::Color32::from_rgba_unmultiplied(60, 120, 200, 40))
                                    .border_width(0.0),
                            );
                        }
                        for (label, points, colour) in &lines {
                            plot.line(
                                Line::new(*label, PlotPoints::from(points.to_vec())).color(*colour),
                            );
                        }
                        plot.vline(
                            VLine::new("frame", frame).color(egui::Color32::from_rgb(220, 80, 40)),
                        );
                        plot.pointer_coordinate()
                    });
                if response.response.clicked()
                    && let Some(at) = response.inner
                {
                    out.edits.push(Edit::GoToFrame(at.x.round() as i64));
                }
            }
        });
}
