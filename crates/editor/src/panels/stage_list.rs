//! The outliner's stage: every figure (click one to edit it; the edited one is highlighted) and
//! every prop, with buttons to add a figure (the built-in humanoid, standing beside the others)
//! or a prop (a box on the floor), to duplicate a figure, and to remove a figure other than the
//! edited one, or a prop.
//! Each button sends one stage edit ([`StageEdit`]); undo takes it back.

use bevy_egui::egui;
use marionette_document::{Prop, PropPlace, PropShape};
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit};

use super::PanelOutput;

/// Draws the stage section (figures and props).
pub fn stage_list(ui: &mut egui::Ui, document: &Document, out: &mut PanelOutput) {
    ui.horizontal(|ui| {
        ui.heading("Stage");
        if ui
            .small_button("+ figure")
            .on_hover_text("Add the built-in humanoid beside the others (File ▸ Add figure for a skeleton or character file)")
            .clicked()
        {
            out.edits.push(Edit::Stage(StageEdit::AddFigure {
                name: document.free_name("Figure"),
                file: None,
                placement: document.beside_the_others(),
            }));
        }
        if ui
            .small_button("+ prop")
            .on_hover_text("Add a box on the floor in front of the edited figure")
            .clicked()
        {
            let front = document.figure_to_stage() * nalgebra::Point3::new(0.0, 0.2, 0.6);
            out.edits.push(Edit::Stage(StageEdit::AddProp(Prop {
                name: document.free_name("Box"),
                shape: PropShape::Box {
                    size: [0.4, 0.4, 0.4],
                },
                place: PropPlace {
                    at: [front.x, 0.2, front.z],
                    rotation: [0.0, 0.0, 0.0],
                },
            })));
        }
    });
    let active = document.active_figure();
    for (k, figure) in document.figures().iter().enumerate() {
        ui.horizontal(|ui| {
            let label = format!("🚶 {}", figure.name);
            if ui
                .selectable_label(k == active, label)
                .on_hover_text(format!(
                    "at ({:.2}, {:.2}) m, facing {:.0}°; click to edit this figure",
                    figure.placement.at[0], figure.placement.at[1], figure.placement.facing
                ))
                .clicked()
                && k != active
            {
                out.edits
                    .push(Edit::Stage(StageEdit::SelectFigure(figure.name.clone())));
            }
            if ui
                .small_button("copy")
                .on_hover_text("Duplicate this figure (its pose, locks and keys) beside the others")
                .clicked()
            {
                out.edits.push(Edit::Stage(StageEdit::DuplicateFigure {
                    name: figure.name.clone(),
                    copy: document.free_name(&figure.name),
                    placement: document.beside_the_others(),
                }));
            }
            if k != active
                && ui
                    .small_button("🗑")
                    .on_hover_text("Remove this figure (and its links and grips)")
                    .clicked()
            {
                out.edits
                    .push(Edit::Stage(StageEdit::RemoveFigure(figure.name.clone())));
            }
        });
    }
    for prop in document.props() {
        ui.horizontal(|ui| {
            ui.label(format!("📦 {}", prop.name));
            if ui
                .small_button("🗑")
                .on_hover_text("Remove this prop (and its links, keys and grips)")
                .clicked()
            {
                out.edits
                    .push(Edit::Stage(StageEdit::RemoveProp(prop.name.clone())));
            }
        });
    }
    for link in document.links() {
        ui.label(egui::RichText::new(format!("🔗 {}", link.name)).small());
    }
    ui.separator();
}
