//! The physics assistant's strip under the timeline's ruler (View ▸ Physics), coloured as
//! Cascadeur's: green where two or more points support the figure, yellow where one does,
//! orange where none does; over each span with no support, its fitted g and how many frames a
//! flight of its height takes under 9.81 m/s² (`g 9.6 · 36 f`); for a figure with no humanoid
//! roles, that its masses are the skeleton's own.

use bevy_egui::egui;
use marionette_editing::physics_view::PhysicsView;

/// The strip's height.
pub const SUPPORT_STRIP_H: f32 = 14.0;

/// Two or more supports.
const TWO: egui::Color32 = egui::Color32::from_rgb(70, 170, 90);
/// One support.
const ONE: egui::Color32 = egui::Color32::from_rgb(220, 200, 60);
/// None: in the air.
const NONE: egui::Color32 = egui::Color32::from_rgb(235, 130, 40);

/// The colour of a frame with `supports` supporting points.
pub fn support_colour(supports: usize) -> egui::Color32 {
    match supports {
        0 => NONE,
        1 => ONE,
        _ => TWO,
    }
}

/// Draws the strip for `view` over the frames `start..=end` at `top`.
pub fn draw_support_strip(
    painter: &egui::Painter,
    view: &PhysicsView,
    (start, end): (i64, i64),
    (x_of, ppf): (&dyn Fn(i64) -> f32, f32),
    top: f32,
) {
    for (i, supports) in view.supports.iter().enumerate() {
        let f = view.first_frame + i as i64;
        if f < start || f > end {
            continue;
        }
        let r = egui::Rect::from_x_y_ranges(
            (x_of(f) - ppf * 0.5)..=(x_of(f) + ppf * 0.5),
            (top + 2.0)..=(top + SUPPORT_STRIP_H - 1.0),
        );
        painter.rect_filled(r, 0.0, support_colour(supports.len()));
    }
    let text = egui::FontId::proportional(10.0);
    if view.no_roles.is_some() {
        // A figure with no humanoid roles is weighed by its skeleton's own masses: say so.
        painter.text(
            egui::pos2(x_of(end), top + SUPPORT_STRIP_H * 0.5),
            egui::Align2::RIGHT_CENTER,
            "masses: the skeleton's own (no humanoid roles)",
            text.clone(),
            egui::Color32::LIGHT_GRAY,
        );
    }
    // The props it carries, weighed in while held: a line over the frames, named with the mass.
    for carried in &view.carried {
        let Some((from, to)) = carried.held_span() else {
            continue;
        };
        let (a, b) = (
            (view.first_frame + from as i64).max(start),
            (view.first_frame + to as i64).min(end),
        );
        if b < a {
            continue;
        }
        let y = top + 3.0;
        let colour = egui::Color32::from_rgb(0x6b, 0x4a, 0x2b);
        painter.line_segment(
            [egui::pos2(x_of(a), y), egui::pos2(x_of(b), y)],
            egui::Stroke::new(2.0, colour),
        );
        painter.text(
            egui::pos2(x_of(a), top + SUPPORT_STRIP_H - 2.0),
            egui::Align2::LEFT_BOTTOM,
            format!("+{} {} kg", carried.name, carried.carried.mass),
            egui::FontId::proportional(9.0),
            egui::Color32::BLACK,
        );
    }
    for span in &view.spans {
        let (a, b) = (
            view.first_frame + span.from as i64,
            view.first_frame + span.to as i64,
        );
        if b < start || a > end {
            continue;
        }
        let label = format!("g {:.1} · {:.0} f", span.g, view.frames_for_height(span));
        painter.text(
            egui::pos2((x_of(a) + x_of(b)) * 0.5, top + SUPPORT_STRIP_H * 0.5),
            egui::Align2::CENTER_CENTER,
            label,
            text.clone(),
            egui::Color32::BLACK,
        );
    }
}
