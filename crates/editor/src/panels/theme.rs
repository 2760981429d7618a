//! The panels' colours, by what they mean (one red for "wrong", one green for "held").

use bevy_egui::egui::{self, Color32};

/// The editor's panels are dark (the colours here are chosen for it), and see-through: their
/// background is the window's clear colour, which this returns, so no pixel of it is drawn twice
/// (under a software renderer every pixel egui fills costs). Scroll areas fade their edges into
/// the panel's fill, which is now none: the invisible fades are not drawn either.
pub fn see_through_panels(ctx: &egui::Context) -> Color32 {
    ctx.set_theme(egui::Theme::Dark);
    let fill = ctx.style_of(egui::Theme::Dark).visuals.panel_fill;
    ctx.all_styles_mut(|style| {
        style.visuals.panel_fill = Color32::TRANSPARENT;
        style.spacing.scroll.fade.strength = 0.0;
    });
    fill
}

/// An error, a lock that gave way, a failed check.
pub const ERROR: Color32 = Color32::from_rgb(255, 110, 100);
/// Something the user should look at: limits hit, a goal unmet, a solver that could not run.
pub const WARNING: Color32 = Color32::from_rgb(240, 180, 60);
/// A lock held within the tolerance.
pub const HELD: Color32 = Color32::from_rgb(110, 220, 120);
/// The violation strip where the locks hold.
pub const STRIP_HELD: Color32 = Color32::from_rgb(60, 150, 80);
/// The violation strip where a lock gives way.
pub const STRIP_VIOLATED: Color32 = Color32::from_rgb(230, 70, 60);
/// A key marker on the ruler.
pub const KEY: Color32 = Color32::from_rgb(255, 200, 60);
/// The current frame on the ruler.
pub const CURRENT_FRAME: Color32 = Color32::from_rgb(255, 80, 80);
/// An enabled lock's lane.
pub const LOCK_LANE: Color32 = Color32::from_rgb(120, 200, 255);
/// The range of frames selected on the ruler (translucent).
pub const SELECTED_RANGE: Color32 = Color32::from_rgba_premultiplied(14, 22, 40, 40);
/// Ticks, lane names and other quiet marks on the ruler.
pub const QUIET: Color32 = Color32::from_gray(150);
/// The ruler's background.
pub const RULER_BACKGROUND: Color32 = Color32::from_gray(24);
/// A flipbook's background.
pub const FLIPBOOK_BACKGROUND: Color32 = Color32::from_gray(28);
/// A flipbook's stick figures.
pub const FLIPBOOK_FIGURE: Color32 = Color32::from_rgb(200, 205, 215);
