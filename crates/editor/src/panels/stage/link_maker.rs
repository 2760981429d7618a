//! The outliner's link makers ([`super::list`]): two figures' sites locked together, or a
//! figure's site held to a prop where it is now (at a point of it, on its top plane, or along
//! its long axis). Each is one stage edit and one undo step.

use bevy_egui::egui;
use marionette_editing::stage::{PropHold, StageEdit};
use marionette_editing::{Document, Edit};

use crate::panels::output::PanelOutput;

/// Figure `k`'s site names.
fn sites_of(document: &Document, k: usize) -> Vec<String> {
    let doc = document.figures()[k].document().unwrap_or(document);
    doc.skeleton()
        .sites()
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

/// A figure and one of its sites, chosen by two boxes; `side` keeps the boxes apart.
pub(super) fn figure_and_site(
    ui: &mut egui::Ui,
    document: &Document,
    side: usize,
    (figure, site): (&mut usize, &mut usize),
) {
    let names = document.figure_names();
    *figure = (*figure).min(names.len() - 1);
    let sites = sites_of(document, *figure);
    *site = (*site).min(sites.len().saturating_sub(1));
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(("link figure", side))
            .width(70.0)
            .selected_text(names[*figure])
            .show_ui(ui, |ui| {
                for (k, name) in names.iter().enumerate() {
                    ui.selectable_value(figure, k, *name);
                }
            });
        egui::ComboBox::from_id_salt(("link site", side))
            .width(110.0)
            .selected_text(sites.get(*site).map_or("(no sites)", String::as_str))
            .show_ui(ui, |ui| {
                for (k, name) in sites.iter().enumerate() {
                    ui.selectable_value(site, k, name);
                }
            });
    });
}

/// Two (figure, site) choices and a button that locks them together (`StageEdit::LockBetween`).
pub(super) fn between_figures(ui: &mut egui::Ui, document: &Document, out: &mut PanelOutput) {
    let id = egui::Id::new("stage link maker");
    let names = document.figure_names();
    let (mut chosen, mut turned): ([(usize, usize); 2], bool) =
        ui.data_mut(|d| d.get_temp(id)).unwrap_or((
            [
                (document.active_figure(), 0),
                ((document.active_figure() + 1) % names.len(), 0),
            ],
            false,
        ));
    let sites_of = |k: usize| sites_of(document, k);
    egui::CollapsingHeader::new("Lock two figures' sites")
        .id_salt("stage link maker header")
        .show(ui, |ui| {
            for (side, (figure, site)) in chosen.iter_mut().enumerate() {
                figure_and_site(ui, document, side, (figure, site));
            }
            let [(fa, sa), (fb, sb)] = chosen;
            let (sites_a, sites_b) = (sites_of(fa), sites_of(fb));
            let ready = sites_a.get(sa).zip(sites_b.get(sb));
            ui.checkbox(&mut turned, "keep their turn")
                .on_hover_text("The two sites' joints also keep the orientation they have to each other now (hands clasped)");
            if ui
                .add_enabled(ready.is_some(), egui::Button::new("Lock together"))
                .on_hover_text(
                    "The two sites are held together: both figures move to meet, now, on every \
                     drag and on every baked frame",
                )
                .clicked()
                && let Some((a, b)) = ready
            {
                out.edits.push(Edit::Stage(StageEdit::LockBetween {
                    a: (names[fa].to_owned(), a.clone()),
                    b: (names[fb].to_owned(), b.clone()),
                    turned,
                }));
            }
        });
    ui.data_mut(|d| d.insert_temp(id, (chosen, turned)));
}

/// A figure's site, a prop and how the site holds to it, and a button that holds them
/// (`StageEdit::LockToProp`).
pub(super) fn to_a_prop(ui: &mut egui::Ui, document: &Document, out: &mut PanelOutput) {
    let id = egui::Id::new("stage prop link maker");
    let (mut figure, mut site, mut prop, mut hold): (usize, usize, usize, PropHold) = ui
        .data_mut(|d| d.get_temp(id))
        .unwrap_or((document.active_figure(), 0, 0, PropHold::Point));
    egui::CollapsingHeader::new("Hold a site to a prop")
        .id_salt("stage prop link maker header")
        .show(ui, |ui| {
            figure_and_site(ui, document, 2, (&mut figure, &mut site));
            let props = document.props();
            prop = prop.min(props.len() - 1);
            ui.horizontal(|ui| {
                egui::ComboBox::from_id_salt("link prop")
                    .width(70.0)
                    .selected_text(props[prop].name.as_str())
                    .show_ui(ui, |ui| {
                        for (k, p) in props.iter().enumerate() {
                            ui.selectable_value(&mut prop, k, p.name.as_str());
                        }
                    });
                egui::ComboBox::from_id_salt("link hold")
                    .width(110.0)
                    .selected_text(hold.label())
                    .show_ui(ui, |ui| {
                        for kind in PropHold::ALL {
                            ui.selectable_value(&mut hold, kind, kind.label());
                        }
                    });
            });
            let sites = sites_of(document, figure);
            if ui
                .add_enabled(!sites.is_empty(), egui::Button::new("Hold"))
                .on_hover_text(
                    "The site is held to the prop where it is now, on every drag and on every \
                     baked frame",
                )
                .clicked()
                && let Some(site) = sites.get(site)
            {
                out.edits.push(Edit::Stage(StageEdit::LockToProp {
                    figure: document.figure_names()[figure].to_owned(),
                    site: site.clone(),
                    prop: props[prop].name.clone(),
                    hold,
                }));
            }
        });
    ui.data_mut(|d| d.insert_temp(id, (figure, site, prop, hold)));
}
