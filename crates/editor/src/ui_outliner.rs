//! The left panel: the hierarchy with its groups (click a joint to select it), then the selected
//! joint's DOF sliders with their limits (drag, or type a value into the number) and its
//! stiffness. A slider drag is one undo step; edits go through the document, which clamps to
//! the limits.

use bevy_egui::egui;
use marionette_editing::outliner::{OutlineItem, dof_sliders, from_display, outline};

use crate::selection::Selection;
use crate::state::Editor;

/// Draws the outliner and the forward-kinematics sliders.
pub fn outliner_panel(ui: &mut egui::Ui, editor: &mut Editor, selection: &mut Selection) {
    ui.heading("Skeleton");
    ui.label(egui::RichText::new(editor.skeleton().name()).weak());
    let rows = outline(editor.skeleton());
    let chosen = selection.joint(&editor.document);
    egui::ScrollArea::vertical()
        .id_salt("outliner rows")
        .max_height(ui.available_height() * 0.5)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for row in rows {
                ui.horizontal(|ui| {
                    ui.add_space(row.depth as f32 * 12.0);
                    match row.item {
                        OutlineItem::Joint(joint) => {
                            let name = editor.skeleton().joint(joint).name.clone();
                            let selected = chosen == Some(joint);
                            if ui.selectable_label(selected, name).clicked() {
                                let joint = if selected { None } else { Some(joint) };
                                selection.select(&editor.document, joint);
                            }
                        }
                        OutlineItem::Group(group) => {
                            let name = &editor.skeleton().group(group).name;
                            ui.label(egui::RichText::new(format!("▸ {name}")).italics().weak());
                        }
                    }
                });
            }
        });
    ui.separator();
    let Some(joint) = selection.joint(&editor.document) else {
        ui.label("Select a joint (click its body or its name) to edit its DOFs.");
        return;
    };
    ui.heading(editor.skeleton().joint(joint).name.clone());
    let sliders = dof_sliders(editor.skeleton(), joint, editor.document.pose());
    if sliders.is_empty() {
        ui.label("This joint has no DOFs.");
    }
    for slider in sliders {
        let mut value = slider.value;
        let response = ui.add(
            egui::Slider::new(&mut value, slider.min..=slider.max)
                .text(slider.label.clone())
                .suffix(slider.unit)
                .fixed_decimals(1)
                .clamping(egui::SliderClamping::Never),
        );
        if response.changed() && value != slider.value {
            let internal = from_display(editor.skeleton(), slider.dof, value);
            let continuing = response.dragged() && !response.drag_started();
            let result = if continuing {
                editor.document.adjust_dof(slider.dof, internal)
            } else {
                editor.document.set_dof(slider.dof, internal)
            };
            if let Err(e) = result {
                editor.fail(e.to_string());
            }
        }
    }
    ui.separator();
    let mut stiffness = editor.document.stiffness()[joint.index()];
    let before = stiffness;
    let response = ui
        .add(egui::Slider::new(&mut stiffness, 0.05..=1.0).text("stiffness"))
        .on_hover_text(
            "Welman's stiffness: 1 moves freely, small values make the solvers move this joint \
             less",
        );
    if response.changed() && stiffness != before {
        let continuing = response.dragged() && !response.drag_started();
        let result = if continuing {
            editor.document.adjust_stiffness(joint, stiffness)
        } else {
            editor.document.set_stiffness(joint, stiffness)
        };
        if let Err(e) = result {
            editor.fail(e.to_string());
        }
    }
}
