//! A prop's keys, grips and releases in the outliner ([`super::list`], under the prop):
//! those of the shown sequence in frame order, each with a remove button; a key at the current
//! frame where the prop is now; a figure's site to grip it with at the current frame (a
//! hand-over when another site holds it then), or a release at the current frame. Each button
//! is one stage edit and one undo step.

use bevy_egui::egui;
use marionette_document::Hold;
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit};

use crate::panels::output::PanelOutput;

/// The grips and releases of prop `p` in the shown sequence, and the buttons that add them.
pub(super) fn prop_holds(ui: &mut egui::Ui, document: &Document, p: usize, out: &mut PanelOutput) {
    let prop = &document.props()[p];
    let Some(sequence) = document
        .current_sequence()
        .and_then(|s| document.sequences().get(s))
    else {
        ui.label(egui::RichText::new("Show a sequence to time grips and releases").weak());
        return;
    };
    let frame = document.frame();
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("keys").small());
        for key in document.prop_keys(p) {
            if ui
                .small_button(format!("{} 🗑", key.frame))
                .on_hover_text(format!("Remove the key at frame {}", key.frame))
                .clicked()
            {
                out.edits.push(Edit::Stage(StageEdit::RemovePropKey {
                    prop: prop.name.clone(),
                    frame: key.frame,
                }));
            }
        }
        if ui
            .small_button(format!("Key at {frame}"))
            .on_hover_text(
                "Key the prop where it is now at this frame; once keyed, moving it on a frame \
                 keys it there",
            )
            .clicked()
        {
            out.edits
                .push(Edit::Stage(StageEdit::KeyProp(prop.name.clone())));
        }
    });
    let names = document.figure_names();
    let holds: Vec<&Hold> = document
        .cues()
        .iter()
        .filter(|c| c.sequence == sequence.name)
        .flat_map(|c| c.holds.iter())
        .filter(|h| h.prop() == p)
        .collect();
    for hold in holds {
        ui.horizontal(|ui| {
            let text = match hold {
                Hold::Grip { by, frame, .. } => {
                    let figure = &document.figures()[by.figure];
                    let skeleton = figure.document().unwrap_or(document).skeleton();
                    format!(
                        "frame {frame}: gripped by {}: {}",
                        names[by.figure],
                        skeleton.site(by.site).name
                    )
                }
                Hold::Release { frame, .. } => format!("frame {frame}: released"),
            };
            ui.label(egui::RichText::new(text).small());
            if ui
                .small_button("🗑")
                .on_hover_text(
                    "Remove this grip or release (a release it leaves without a grip goes too)",
                )
                .clicked()
            {
                out.edits.push(Edit::Stage(StageEdit::RemoveHold {
                    prop: prop.name.clone(),
                    frame: hold.frame(),
                }));
            }
        });
    }
    let id = egui::Id::new(("stage hold maker", prop.name.as_str()));
    let (mut figure, mut site): (usize, usize) = ui
        .data_mut(|d| d.get_temp(id))
        .unwrap_or((document.active_figure(), 0));
    super::link_maker::figure_and_site(ui, document, 3 + p, (&mut figure, &mut site));
    ui.horizontal(|ui| {
        let skeleton = document.figures()[figure]
            .document()
            .unwrap_or(document)
            .skeleton();
        let chosen = skeleton.sites().get(site).map(|s| s.name.clone());
        if ui
            .add_enabled(
                chosen.is_some(),
                egui::Button::new(format!("Grip at {frame}")),
            )
            .on_hover_text(
                "From this frame the site holds the prop where it is, keeping its offset (a \
                 hand-over when another site holds it then)",
            )
            .clicked()
            && let Some(site) = chosen
        {
            out.edits.push(Edit::Stage(StageEdit::Grip {
                prop: prop.name.clone(),
                figure: names[figure].to_owned(),
                site,
                frame,
            }));
        }
        if ui
            .button(format!("Release at {frame}"))
            .on_hover_text("From this frame the prop stays where it is")
            .clicked()
        {
            out.edits.push(Edit::Stage(StageEdit::Release {
                prop: prop.name.clone(),
                frame,
            }));
        }
    });
    ui.data_mut(|d| d.insert_temp(id, (figure, site)));
}
