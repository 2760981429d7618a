//! The retarget map window (Sequence ▸ Retarget a capture onto this figure…, after the file is
//! chosen): per humanoid bone, the capture's joint and the figure's joint the retarget will
//! use, as found on both figures by names and shape; each can be changed or left unmapped
//! before it runs. Retarget sends one edit with the changed rows as a map over the one found
//! (as `marionette retarget --map` applies a map file); Cancel changes nothing.

use bevy_egui::egui;
use marionette_editing::retarget_capture::RetargetPlan;

use super::output::PanelOutput;

/// Shown in a combo box for "no joint".
const UNMAPPED: &str = "— unmapped —";

/// A combo box choosing one of `joints` or none.
fn joint_choice(
    ui: &mut egui::Ui,
    id: (&str, usize),
    joints: &[String],
    chosen: &mut Option<usize>,
) {
    let text = chosen.map_or(UNMAPPED, |j| joints[j].as_str());
    egui::ComboBox::from_id_salt(id)
        .selected_text(text)
        .width(150.0)
        .height(360.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, None, UNMAPPED);
            for (j, name) in joints.iter().enumerate() {
                ui.selectable_value(chosen, Some(j), name);
            }
        });
}

/// The window, while a retarget waits for its map (`pending`, [`crate::resources::Prompts`]);
/// closes (`pending` emptied) on Retarget or Cancel.
pub fn retarget_map_window(
    ctx: &egui::Context,
    pending: &mut Option<RetargetPlan>,
    out: &mut PanelOutput,
) {
    let Some(plan) = pending else {
        return;
    };
    let path = &plan.capture.path;
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut close = false;
    egui::Window::new(format!("Retarget {file}"))
        .id(egui::Id::new("retarget map"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(
                "The bones found on both figures. Change a row to map a bone by hand; \
                 a bone left unmapped keeps the figure's pose.",
            );
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height((ctx.content_rect().height() - 260.0).max(160.0))
                .show(ui, |ui| {
                    egui::Grid::new("retarget map rows")
                        .num_columns(4)
                        .striped(true)
                        .show(ui, |ui| {
                            ui.strong("bone");
                            ui.strong("capture");
                            ui.strong("figure");
                            ui.label("");
                            ui.end_row();
                            for (i, row) in plan.rows.iter_mut().enumerate() {
                                ui.label(row.bone.vrm_name());
                                joint_choice(
                                    ui,
                                    ("capture", i),
                                    &plan.capture_joints,
                                    &mut row.capture,
                                );
                                joint_choice(
                                    ui,
                                    ("figure", i),
                                    &plan.target_joints,
                                    &mut row.target,
                                );
                                let note = match (row.changed(), row.found.is_some()) {
                                    (true, _) if row.chosen().is_none() => "unmapped by hand",
                                    (true, _) => "by hand",
                                    (false, true) => "found",
                                    (false, false) => "not found",
                                };
                                ui.weak(note);
                                ui.end_row();
                            }
                        });
                });
            ui.separator();
            let mapped = plan.rows.iter().filter(|r| r.chosen().is_some()).count();
            let changed = plan.rows.iter().filter(|r| r.changed()).count();
            ui.label(format!("{mapped} bones mapped, {changed} by hand"));
            ui.checkbox(&mut plan.keep_place, "Keep the capture's own place")
                .on_hover_text(
                    "Off: the take starts where the figure stands, facing where it faces. \
                     On: it stays where the performer was in the capture room.",
                );
            ui.horizontal(|ui| {
                if ui.button("Retarget").clicked() {
                    out.edits.push(plan.edit());
                    close = true;
                }
                if ui
                    .add_enabled(changed > 0, egui::Button::new("Reset to the map found"))
                    .clicked()
                {
                    plan.reset();
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if close {
        *pending = None;
    }
}
