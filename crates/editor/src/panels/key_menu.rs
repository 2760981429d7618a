//! A key's menu (a right-click on its marker on the ruler): how the span after it goes, its
//! own interpolation (`Step` holds the key's pose until the next, `Linear`, `Smooth`) or the
//! sequence's, and its ease in and out. Each change is one edit; the marker's shape shows the
//! choice ([`marker`]).

use bevy_egui::egui;
use marionette_document::{Key, KeyInterpolation};
use marionette_editing::{Document, Edit};

use super::output::PanelOutput;
use super::theme;

/// The key whose menu is open, and where.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyMenu {
    /// The key's frame.
    pub frame: i64,
    /// Where the menu opens.
    pub at: egui::Pos2,
}

/// Draws a key's marker at `c`: a diamond (the sequence's interpolation), a square (`Step`),
/// a triangle (`Linear`) or a circle (`Smooth`); an eased key gets a light ring.
pub fn marker(painter: &egui::Painter, c: egui::Pos2, key: &Key) {
    let r = 5.0;
    let stroke = egui::Stroke::new(1.0, egui::Color32::BLACK);
    match key.interpolation {
        None => {
            let points = vec![
                c + egui::vec2(0.0, -r),
                c + egui::vec2(r, 0.0),
                c + egui::vec2(0.0, r),
                c + egui::vec2(-r, 0.0),
            ];
            painter.add(egui::Shape::convex_polygon(points, theme::KEY, stroke));
        }
        Some(KeyInterpolation::Step) => {
            let square = egui::Rect::from_center_size(c, egui::vec2(2.0 * r - 1.0, 2.0 * r - 1.0));
            painter.rect(square, 0.0, theme::KEY, stroke, egui::StrokeKind::Middle);
        }
        Some(KeyInterpolation::Linear) => {
            let points = vec![
                c + egui::vec2(-r, -r),
                c + egui::vec2(r, 0.0),
                c + egui::vec2(-r, r),
            ];
            painter.add(egui::Shape::convex_polygon(points, theme::KEY, stroke));
        }
        Some(KeyInterpolation::Smooth) => {
            painter.circle(c, r, theme::KEY, stroke);
        }
    }
    if key.ease > 0.0 {
        painter.circle_stroke(
            c,
            r + 2.5,
            egui::Stroke::new(1.0, theme::KEY.gamma_multiply(0.6)),
        );
    }
}

/// The open menu, closed by a click elsewhere or Escape.
pub fn key_menu(
    ctx: &egui::Context,
    document: &Document,
    menu: &mut Option<KeyMenu>,
    out: &mut PanelOutput,
) {
    let Some(open) = *menu else {
        return;
    };
    let key = document
        .current_sequence()
        .and_then(|i| document.sequences().get(i))
        .and_then(|s| s.keys.iter().find(|k| k.frame == open.frame));
    let Some(key) = key else {
        *menu = None;
        return;
    };
    let response = egui::Area::new(egui::Id::new("key menu"))
        .order(egui::Order::Foreground)
        .fixed_pos(open.at)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.strong(format!("Key at frame {}", open.frame));
                ui.label("The span to the next key:");
                let mut chosen = key.interpolation;
                ui.radio_value(&mut chosen, None, "as the sequence");
                ui.radio_value(&mut chosen, Some(KeyInterpolation::Step), "Step (hold)");
                ui.radio_value(&mut chosen, Some(KeyInterpolation::Linear), "Linear");
                ui.radio_value(&mut chosen, Some(KeyInterpolation::Smooth), "Smooth");
                let mut ease = key.ease;
                let slider = ui.add(egui::Slider::new(&mut ease, 0.0..=1.0).text("ease in/out"));
                let eased = slider.drag_stopped() || (slider.changed() && !slider.dragged());
                if chosen != key.interpolation || (eased && ease != key.ease) {
                    out.edits.push(Edit::SetKeyInterpolation {
                        frame: open.frame,
                        interpolation: chosen,
                        ease,
                    });
                }
            });
        })
        .response;
    let clicked_elsewhere = ctx.input(|i| i.pointer.any_pressed())
        && !response.contains_pointer()
        && !ctx.is_being_dragged(response.id);
    if clicked_elsewhere || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        *menu = None;
    }
}
