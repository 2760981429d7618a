//! The left panel: the stage's figures and props ([`super::stage::list`]); for an imported
//! character, what its import recognised (folded); the
//! hierarchy with its groups (click a joint to select it), then the selected
//! joint's DOF sliders with their limits (drag, or type a value into the number) and its
//! stiffness. A slider drag is one undo step (its first change a new step, the rest extending
//! it); the document clamps to the limits.

use bevy_egui::egui;
use marionette_editing::outliner::{OutlineItem, dof_sliders, from_display, outline};
use marionette_editing::{Document, Edit};

use super::output::{PanelOutput, undo_step};
use crate::selection::Selection;

/// Draws the outliner and the forward-kinematics sliders.
pub fn outliner_panel(
    ui: &mut egui::Ui,
    document: &Document,
    character: &[String],
    selection: &mut Selection,
    out: &mut PanelOutput,
) {
    super::stage::list::stage_list(ui, document, out);
    let skeleton = document.skeleton();
    ui.heading("Skeleton");
    ui.label(egui::RichText::new(skeleton.name()).weak());
    if let Some(summary) = character.get(1) {
        // "humanoid" or "not a humanoid": the summary's words before its reasons.
        let short = summary.split([',', '(']).next().unwrap_or(summary).trim();
        egui::CollapsingHeader::new(format!("Character: {short}"))
            .id_salt("character report")
            .show(ui, |ui| {
                for line in character {
                    ui.label(egui::RichText::new(line.trim_start()).small());
                }
            });
    }
    let chosen = selection.joint(document);
    egui::ScrollArea::vertical()
        .id_salt("outliner rows")
        .max_height(ui.available_height() * 0.5)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for row in outline(skeleton) {
                ui.horizontal(|ui| {
                    ui.add_space(row.depth as f32 * 12.0);
                    match row.item {
                        OutlineItem::Joint(joint) => {
                            let name = &skeleton.joint(joint).name;
                            let selected = selection.contains(document, joint);
                            let response = ui.selectable_label(selected, name);
                            if response.clicked() {
                                if ui.input(|i| i.modifiers.shift) {
                                    selection.extend(document, joint);
                                } else {
                                    let joint = (chosen != Some(joint)).then_some(joint);
                                    selection.select(document, joint);
                                }
                            }
                        }
                        OutlineItem::Group(group) => {
                            let name = &skeleton.group(group).name;
                            ui.label(egui::RichText::new(format!("▸ {name}")).italics().weak());
                        }
                    }
                });
            }
        });
    ui.separator();
    let Some(joint) = selection.joint(document) else {
        ui.label("Select a joint (click its body or its name) to edit its DOFs.");
        return;
    };
    ui.heading(skeleton.joint(joint).name.as_str());
    let sliders = dof_sliders(skeleton, joint, document.pose());
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
            out.edits.push(Edit::SetDof {
                dof: slider.dof,
                value: from_display(skeleton, slider.dof, value),
                undo: undo_step(&response),
            });
        }
    }
    ui.separator();
    let mut stiffness = document.stiffness()[joint.index()];
    let before = stiffness;
    let response = ui
        .add(egui::Slider::new(&mut stiffness, 0.05..=1.0).text("stiffness"))
        .on_hover_text(
            "Welman's stiffness: 1 moves freely, small values make the solvers move this joint \
             less",
        );
    if response.changed() && stiffness != before {
        out.edits.push(Edit::SetStiffness {
            joint,
            value: stiffness,
            undo: undo_step(&response),
        });
    }
}
