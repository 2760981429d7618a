//! The status bar: the last solve (solver, residual, iterations, IK time, limits hit, why a goal
//! is unmet, a solver that could not run), the worst lock holding now, and the newest message.

use bevy_egui::egui;
use marionette_editing::Document;

use super::theme;
use crate::derived::LockStatus;
use crate::resources::{Notices, SolveStatus, SolvingState};
use crate::views::target::ViewResolution;

/// What the status bar shows.
pub struct StatusView<'a> {
    /// The open document.
    pub document: &'a Document,
    /// How solves run.
    pub solving: &'a SolvingState,
    /// The last solve.
    pub solve: &'a SolveStatus,
    /// The locks now.
    pub locks: &'a LockStatus,
    /// The messages.
    pub notices: &'a Notices,
}

/// The status bar; it says when the 3D views are drawn at a reduced resolution, and a click
/// there draws them at full resolution.
pub fn status_bar(ui: &mut egui::Ui, view: &StatusView, resolution: &mut ViewResolution) {
    let settings = view.solving.runner.settings();
    ui.horizontal_wrapped(|ui| {
        match view.solve.outcome(view.document.id()) {
            Some(outcome) => {
                let report = &outcome.report;
                ui.label(format!("Solver: {}", outcome.ran));
                ui.separator();
                ui.label(format!("Residual: {:.3} mm", report.residual * 1000.0));
                ui.separator();
                ui.label(format!(
                    "Iterations: {} ({} this drag)",
                    report.iterations,
                    view.solve.trace.len()
                ));
                if let Some(time) = view.solve.ik_time {
                    ui.separator();
                    ui.label(format!("IK: {:.0} µs", time.as_secs_f64() * 1e6));
                }
                ui.separator();
                let limits = report.limits_hit.len();
                let text = format!("Limits hit: {limits}");
                if limits > 0 {
                    ui.colored_label(theme::WARNING, text);
                } else {
                    ui.label(text);
                }
                if let Some((_, shortfall)) = report.worst_shortfall() {
                    ui.separator();
                    let text = format!(
                        "Goal unmet: {}",
                        shortfall.describe(view.document.skeleton())
                    );
                    if matches!(shortfall, marionette_ik::Shortfall::Converging) {
                        ui.label(text);
                    } else {
                        ui.colored_label(theme::WARNING, text);
                    }
                }
                if let Some(reason) = &outcome.fallback {
                    ui.separator();
                    ui.colored_label(
                        theme::WARNING,
                        format!("{} could not run: {reason}", settings.solver),
                    );
                }
            }
            None => {
                ui.label(format!("Solver: {}", settings.solver));
            }
        }
        if let Some((i, v)) = view.locks.worst {
            ui.separator();
            let name = &view.document.locks()[i].name;
            if v.within(settings.tolerance) {
                ui.label(format!("Locks held (worst: {name}, {v})"));
            } else {
                ui.colored_label(theme::ERROR, format!("Lock gave way: {name} by {v}"));
            }
        }
        if resolution.reduced {
            ui.separator();
            if ui
                .small_button("3D views at half resolution")
                .on_hover_text(
                    "Drawn at half the window's resolution to keep up on a software renderer. \
                     Click to draw them at full resolution (View ▸ Half-resolution 3D views \
                     turns it back on).",
                )
                .clicked()
            {
                resolution.reduced = false;
            }
        }
        if let Some(notice) = view.notices.last() {
            ui.separator();
            let colour = if notice.is_error {
                theme::ERROR
            } else {
                ui.visuals().weak_text_color()
            };
            ui.colored_label(colour, notice.text.lines().next().unwrap_or_default());
        }
    });
}
