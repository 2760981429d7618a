//! The windows that ask or tell: quitting with unsaved edits, the recovery offer, the path typed
//! where no native dialog can be shown, the errors until dismissed, and an export's progress.

use bevy_egui::egui;

use super::output::PanelOutput;
use super::theme;
use crate::export::RunningExport;
use crate::files::typed_path;
use crate::messages::{FileAction, FileRequest, QuitRequest};
use crate::resources::{Notices, Prompts};

/// A window in the middle of the screen that cannot be moved or folded.
fn question(title: &str) -> egui::Window<'_> {
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

/// While an export runs: how far its bake has come.
pub fn export_progress(ui: &mut egui::Ui, running: &RunningExport) {
    let done = running.progress();
    question("Exporting").show(ui.ctx(), |ui| {
        ui.label(format!("Baking frame {done} of {}", running.total));
        ui.add(
            egui::ProgressBar::new(done as f32 / running.total.max(1) as f32)
                .desired_width(260.0)
                .show_percentage(),
        );
    });
    ui.ctx().request_repaint();
}

/// While a rotate handle is dragged: the value it has turned or moved to, beside the cursor.
pub fn handle_value(
    ctx: &egui::Context,
    document: &marionette_editing::Document,
    grip: &crate::resources::HandleGrip,
) {
    use marionette_editing::rotate_handles::HandleKind;
    let Some(pointer) = ctx.pointer_latest_pos() else {
        return;
    };
    let skeleton = document.skeleton();
    let joint = &skeleton.joint(grip.joint).name;
    let q = document.pose();
    let text = match grip.kind {
        HandleKind::Hinge(dof) => format!(
            "{joint} DOF {}: {:.1}°",
            skeleton.dof(dof).index_in_joint + 1,
            q[dof.state_index()].to_degrees()
        ),
        HandleKind::Slide(dof) => format!(
            "{joint} DOF {}: {:.1} mm",
            skeleton.dof(dof).index_in_joint + 1,
            q[dof.state_index()] * 1000.0
        ),
        HandleKind::Root(i) => format!("{joint} {}: {:.3} m", ["x", "y", "z"][i], q[i]),
    };
    egui::Area::new(egui::Id::new("handle value"))
        .order(egui::Order::Tooltip)
        .fixed_pos(pointer + egui::vec2(16.0, 12.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(text);
            });
        });
}

/// Quitting with unsaved edits: save them, discard them, or stay.
pub fn quit_question(ui: &mut egui::Ui, prompts: &mut Prompts, out: &mut PanelOutput) {
    if !prompts.quit {
        return;
    }
    question("Unsaved changes").show(ui.ctx(), |ui| {
        ui.label("The document has changed since it was last saved.");
        ui.horizontal(|ui| {
            if ui.button("Save…").clicked() {
                out.files.push(FileRequest::ask(FileAction::SaveDocument));
            }
            if ui.button("Quit without saving").clicked() {
                out.quit = Some(QuitRequest { discard: true });
            }
            if ui.button("Cancel").clicked() {
                prompts.quit = false;
            }
        });
    });
}

/// The question shown while a recovery file is on offer.
pub fn recovery_question(ui: &mut egui::Ui, prompts: &Prompts, out: &mut PanelOutput) {
    let Some(path) = &prompts.recovery else {
        return;
    };
    question("Recover unsaved work?").show(ui.ctx(), |ui| {
        ui.label(format!(
            "The last session ended with unsaved edits, kept in\n{}",
            path.display()
        ));
        ui.horizontal(|ui| {
            if ui.button("Recover").clicked() {
                out.recovery = Some(true);
            }
            if ui.button("Discard").clicked() {
                out.recovery = Some(false);
            }
        });
    });
}

/// The path typed where no native file dialog could be shown ([`Prompts::path`]): Enter or the
/// button uses it, Escape or Cancel closes the window.
pub fn path_prompt(ui: &mut egui::Ui, prompts: &mut Prompts, out: &mut PanelOutput) {
    let Some(typed) = prompts.path.as_mut() else {
        return;
    };
    let (title, verb) = typed.action.title();
    let (mut chosen, mut closed) = (false, false);
    question(title).show(ui.ctx(), |ui| {
        ui.label("File path (absolute, relative to the working folder, or ~/…):");
        let field = ui.add(egui::TextEdit::singleline(&mut typed.text).desired_width(420.0));
        if !field.has_focus() && !field.lost_focus() {
            field.request_focus();
        }
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        closed = ui.input(|i| i.key_pressed(egui::Key::Escape));
        ui.horizontal(|ui| {
            chosen = ui.button(verb).clicked() || enter;
            closed |= ui.button("Cancel").clicked();
        });
    });
    let action = typed.action;
    let path = typed_path(&typed.text);
    if closed || (chosen && path.is_some()) {
        prompts.path = None;
    }
    if let Some(path) = path.filter(|_| chosen && !closed) {
        out.files.push(FileRequest::on(action, path));
    }
}

/// Errors stay on screen until dismissed; true when Dismiss was clicked.
pub fn errors_window(ui: &mut egui::Ui, notices: &Notices) -> bool {
    if notices.errors().next().is_none() {
        return false;
    }
    let mut dismissed = false;
    egui::Window::new("Errors")
        .collapsible(false)
        .resizable(true)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ui.ctx(), |ui| {
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    for notice in notices.errors() {
                        ui.colored_label(theme::ERROR, &notice.text);
                        ui.separator();
                    }
                });
            dismissed = ui.button("Dismiss").clicked();
        });
    dismissed
}
