//! The outliner's stage: every figure (click one to edit it; the edited one is highlighted) and
//! every prop, with buttons to add a figure (the built-in humanoid, standing beside the others)
//! or a prop (a box, a stick or a ball in front of the edited figure), to duplicate a figure,
//! and to remove a figure other than the edited one, or a prop; the edited figure's name and
//! its place on the floor (x, z, facing), and each prop's place, are typed or dragged here; two
//! figures' sites are locked together, or a site to a prop, (or a link removed) here too
//! ([`super::link_maker`]); each prop's grips and releases ([`super::holds`]).
//! Each button sends one stage edit ([`StageEdit`]); undo takes it back.

use bevy_egui::egui;
use marionette_document::{Prop, PropPlace, PropShape};
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit};

use crate::panels::output::PanelOutput;

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
        ui.menu_button("+ prop", |ui| {
            let front = document.figure_to_stage() * nalgebra::Point3::new(0.0, 0.0, 0.6);
            for (label, stem, shape, height) in [
                ("Box", "Box", PropShape::Box { size: [0.4, 0.4, 0.4] }, 0.2),
                ("Stick", "Stick", PropShape::Cylinder { radius: 0.015, length: 1.0 }, 0.5),
                ("Ball", "Ball", PropShape::Sphere { radius: 0.11 }, 0.11),
            ] {
                if ui.button(label).clicked() {
                    out.edits.push(Edit::Stage(StageEdit::AddProp(Prop {
                        name: document.free_name(stem),
                        shape,
                        place: PropPlace {
                            at: [front.x, height, front.z],
                            rotation: [0.0, 0.0, 0.0],
                        },
                        mass: None,
                    })));
                    ui.close();
                }
            }
        })
        .response
        .on_hover_text("Add a prop in front of the edited figure");
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
    if document.figures().len() > 1 || !document.props().is_empty() {
        edited_figure_place(ui, document, out);
    }
    for (p, prop) in document.props().iter().enumerate() {
        let id = ui.make_persistent_id(("prop", prop.name.as_str()));
        egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false)
            .show_header(ui, |ui| {
                ui.label(format!("📦 {}", prop.name));
                if ui
                    .small_button("🗑")
                    .on_hover_text("Remove this prop (and its links, keys and grips)")
                    .clicked()
                {
                    out.edits
                        .push(Edit::Stage(StageEdit::RemoveProp(prop.name.clone())));
                }
            })
            .body(|ui| {
                prop_place(ui, prop, document.prop_place_now(p), out);
                prop_mass(ui, prop, out);
                super::holds::prop_holds(ui, document, p, out);
            });
    }
    for link in document.links() {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("🔗 {}", link.name)).small());
            if ui
                .small_button("🗑")
                .on_hover_text("Remove this link")
                .clicked()
            {
                out.edits
                    .push(Edit::Stage(StageEdit::RemoveLink(link.name.clone())));
            }
        });
    }
    if document.figures().len() > 1 {
        super::link_maker::between_figures(ui, document, out);
    }
    if !document.props().is_empty() {
        super::link_maker::to_a_prop(ui, document, out);
    }
    ui.separator();
}

/// The edited figure's name (typed, Enter renames) and its place on the floor: x and z in
/// metres and the way it faces in degrees (a drag on a number is one undo step).
fn edited_figure_place(ui: &mut egui::Ui, document: &Document, out: &mut PanelOutput) {
    let Some(figure) = document.figures().get(document.active_figure()) else {
        return;
    };
    let id = egui::Id::new(("rename figure", document.id()));
    let mut typed: String = ui
        .data_mut(|d| d.get_temp(id))
        .unwrap_or_else(|| figure.name.clone());
    ui.horizontal(|ui| {
        ui.label("name");
        let response = ui.add(egui::TextEdit::singleline(&mut typed).desired_width(110.0));
        if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            if typed != figure.name {
                out.edits.push(Edit::Stage(StageEdit::RenameFigure {
                    from: figure.name.clone(),
                    to: typed.clone(),
                }));
            }
            ui.data_mut(|d| d.remove::<String>(id));
        } else if response.has_focus() {
            ui.data_mut(|d| d.insert_temp(id, typed.clone()));
        } else {
            ui.data_mut(|d| d.remove::<String>(id));
        }
    });
    let mut place = figure.placement;
    let mut changed = None;
    ui.horizontal(|ui| {
        let [x, z] = &mut place.at;
        for (label, value, speed, suffix) in [
            ("x", x, 0.01, " m"),
            ("z", z, 0.01, " m"),
            ("facing", &mut place.facing, 1.0, "°"),
        ] {
            ui.label(label);
            changed = number(ui, value, speed, suffix).or(changed);
        }
    });
    if let Some(undo) = changed
        && place != figure.placement
    {
        out.edits.push(Edit::Stage(StageEdit::PlaceFigure {
            name: figure.name.clone(),
            placement: place,
            undo,
        }));
    }
}

/// A prop's place on the stage now (`now`: keyed at this frame where the shown sequence keys
/// it): its position (metres) and rotation (Rx·Ry·Rz degrees), typed or dragged (a drag is one
/// undo step; on a keyed prop, its key at this frame).
fn prop_place(ui: &mut egui::Ui, prop: &Prop, now: PropPlace, out: &mut PanelOutput) {
    let mut place = now;
    let mut changed = None;
    for (row, values, speed, suffix) in [
        ("at", &mut place.at, 0.01, " m"),
        ("turn", &mut place.rotation, 1.0, "°"),
    ] {
        ui.horizontal(|ui| {
            ui.label(row);
            for value in values.iter_mut() {
                changed = number(ui, value, speed, suffix).or(changed);
            }
        });
    }
    if let Some(undo) = changed
        && place != now
    {
        out.edits.push(Edit::Stage(StageEdit::PlaceProp {
            name: prop.name.clone(),
            place,
            undo,
        }));
    }
}

/// A number typed or dragged; how its change joins the undo history, if it changed.
fn number(
    ui: &mut egui::Ui,
    value: &mut f64,
    speed: f64,
    suffix: &str,
) -> Option<marionette_editing::UndoStep> {
    let response = ui.add(
        egui::DragValue::new(value)
            .speed(speed)
            .suffix(suffix)
            .max_decimals(3),
    );
    response
        .changed()
        .then(|| crate::panels::output::undo_step(&response))
}

/// The prop's mass: typed, then set with the button (one undo step), counted in the centre of
/// mass of a figure while it grips the prop (View ▸ Physics, `physics check`).
fn prop_mass(ui: &mut egui::Ui, prop: &Prop, out: &mut PanelOutput) {
    let id = egui::Id::new(("prop mass", prop.name.as_str()));
    let given = prop.mass_kg();
    let mut kg = ui.data(|d| d.get_temp::<f64>(id)).unwrap_or(given);
    ui.horizontal(|ui| {
        ui.label("Mass");
        ui.add(
            egui::DragValue::new(&mut kg)
                .range(0.01..=Prop::HEAVIEST)
                .speed(0.1)
                .suffix(" kg"),
        )
        .on_hover_text("Counted in the centre of mass of a figure while it grips the prop");
        if ui
            .add_enabled(kg != given, egui::Button::new("Set"))
            .clicked()
        {
            out.edits.push(Edit::Stage(StageEdit::SetPropMass {
                name: prop.name.clone(),
                mass: Some(kg),
            }));
        }
    });
    ui.data_mut(|d| {
        if kg == given {
            d.remove::<f64>(id);
        } else {
            d.insert_temp(id, kg);
        }
    });
}
