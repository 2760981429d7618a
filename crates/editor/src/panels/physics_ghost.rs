//! The physics ghost window (Sequence ▸ Physics ghost…): which frames, and what to fix there —
//! a flight (the centre of mass on the parabola under g, the angular momentum held, an apex)
//! or frames marked standing (balanced over their feet); then the ghost's report, Accept (one
//! undo step) and Discard. The frames start as the flight at the current frame when the
//! physics overlays found one, else the frames selected on the ruler.

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_document::{Body, BodySex};
use marionette_editing::Edit;
use marionette_editing::beside::BesideChange;
use marionette_editing::physics_ghost::{Ghost, GhostFix, GhostRequest, MassSettings};
use marionette_editing::physics_view::PhysicsView;

use super::output::PanelOutput;
use crate::resources::OpenDocument;

/// What the window asks, kept between frames.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct GhostForm {
    /// The first frame.
    pub from: i64,
    /// The last.
    pub to: i64,
    /// The parabola.
    pub ballistic: bool,
    /// The momentum.
    pub momentum: bool,
    /// Whether an apex is asked.
    pub apex_on: bool,
    /// The apex (m above the take-off).
    pub apex: f64,
    /// The frames marked for the momentum's fit, as typed ("20, 24").
    pub marks: String,
    /// Why the form could not make a request (a mark that is not a number).
    pub problem: Option<String>,
    /// The body typed (kg, de Leva's female column), before it is set.
    pub body: Option<(f64, bool)>,
}

impl Default for GhostForm {
    fn default() -> Self {
        GhostForm {
            from: 0,
            to: 0,
            ballistic: true,
            momentum: true,
            apex_on: false,
            apex: 0.4,
            marks: String::new(),
            problem: None,
            body: None,
        }
    }
}

impl GhostForm {
    /// The flight request the form makes for a figure weighed by `body`, or why it cannot.
    fn flight(&self, body: MassSettings) -> Result<GhostRequest, String> {
        let marks = (self.marks.split([',', ' ']))
            .filter(|t| !t.trim().is_empty())
            .map(|t| {
                (t.trim().parse::<i64>()).map_err(|_| format!("\"{t}\" is not a frame number"))
            })
            .collect::<Result<Vec<i64>, String>>()?;
        let fix = GhostFix::Flight {
            ballistic: self.ballistic,
            momentum: self.momentum,
            apex: self.apex_on.then_some(self.apex),
            marks,
        };
        Ok(self.request(fix, body))
    }

    fn request(&self, fix: GhostFix, body: MassSettings) -> GhostRequest {
        GhostRequest {
            from: self.from,
            to: self.to,
            fix,
            body,
        }
    }
}

/// The window's form and its opening when a new ghost is made.
pub struct GhostWindowPlugin;

impl Plugin for GhostWindowPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<GhostForm>().add_systems(
            Update,
            open_for_new_ghost
                .run_if(resource_changed::<crate::beside::BesideState>)
                .in_set(crate::EditorSet::Derive),
        );
    }
}

/// The window over the views, from the panels' one egui pass: its form kept in
/// [`GhostForm`] (written back only when it changed).
pub(super) fn show(
    ctx: &egui::Context,
    inputs: &GhostWindowInputs,
    kept: &mut ResMut<GhostForm>,
    open: &mut bool,
    out: &mut PanelOutput,
) {
    let mut form = (**kept).clone();
    physics_ghost_window(ctx, inputs, &mut form, open, out);
    kept.set_if_neq(form);
}

/// Opens the window when a new ghost is made (a replay's `PhysicsGhost`, or the window's own
/// button), its frames and choices those the ghost was made with, so its report, Accept and
/// Discard are in view.
pub fn open_for_new_ghost(
    beside: Res<crate::beside::BesideState>,
    mut display: ResMut<crate::resources::Display>,
    mut form: ResMut<GhostForm>,
    mut last: Local<Option<GhostRequest>>,
) {
    let now = beside.ghost.as_ref().map(|g| g.request.clone());
    if now == *last {
        return;
    }
    if let Some(request) = &now {
        if !display.physics_ghost {
            display.physics_ghost = true;
        }
        let mut asked = form.clone();
        (asked.from, asked.to) = (request.from, request.to);
        if let GhostFix::Flight {
            ballistic,
            momentum,
            apex,
            marks,
        } = &request.fix
        {
            (asked.ballistic, asked.momentum) = (*ballistic, *momentum);
            asked.apex_on = apex.is_some();
            asked.apex = apex.unwrap_or(asked.apex);
            let marks: Vec<String> = marks.iter().map(i64::to_string).collect();
            asked.marks = marks.join(", ");
        }
        form.set_if_neq(asked);
    }
    *last = now;
}

/// What the window reads.
pub struct GhostWindowInputs<'a> {
    /// The document.
    pub document: &'a OpenDocument,
    /// The physics overlays' measures, when shown.
    pub view: Option<&'a PhysicsView>,
    /// The ghost shown.
    pub ghost: Option<&'a Ghost>,
    /// The frames selected on the ruler.
    pub selected: Option<(i64, i64)>,
}

/// The window, while `open`.
pub fn physics_ghost_window(
    ctx: &egui::Context,
    inputs: &GhostWindowInputs,
    form: &mut GhostForm,
    open: &mut bool,
    out: &mut PanelOutput,
) {
    egui::Window::new("Physics ghost")
        .open(open)
        .default_width(300.0)
        .show(ctx, |ui| {
            if inputs.document.current_sequence().is_none() {
                ui.label("Show a sequence first (the timeline's sequence list).");
                return;
            }
            body_row(ui, inputs, form, out);
            frames_row(ui, inputs, form);
            ui.separator();
            ui.checkbox(
                &mut form.ballistic,
                "Ballistic: the centre of mass flies under g",
            );
            ui.checkbox(&mut form.momentum, "Momentum: the angular momentum held");
            ui.horizontal(|ui| {
                ui.checkbox(&mut form.apex_on, "Apex");
                ui.add_enabled(
                    form.apex_on,
                    egui::DragValue::new(&mut form.apex)
                        .range(0.01..=5.0)
                        .speed(0.01)
                        .suffix(" m"),
                );
            });
            ui.horizontal(|ui| {
                ui.label("Marked frames");
                ui.text_edit_singleline(&mut form.marks)
                    .on_hover_text("Up to four frames whose keyed orientation the momentum fits");
            });
            ui.horizontal(|ui| {
                if ui.button("Ghost the flight").clicked() {
                    match form.flight(inputs.document.mass_settings()) {
                        Ok(request) => {
                            form.problem = None;
                            out.beside.push(BesideChange::PhysicsGhost(request));
                        }
                        Err(e) => form.problem = Some(e),
                    }
                }
                if ui
                    .button("Mark standing")
                    .on_hover_text("Bring the centre of mass over the feet on these frames")
                    .clicked()
                {
                    let request = form.request(GhostFix::Standing, inputs.document.mass_settings());
                    out.beside.push(BesideChange::PhysicsGhost(request));
                }
            });
            if let Some(problem) = &form.problem {
                ui.colored_label(egui::Color32::from_rgb(235, 90, 80), problem);
            }
            ui.separator();
            ghost_report(ui, inputs, out);
        });
}

/// The figure's body (a setting of the figure, kept in its document): its mass and de Leva's
/// column, set as one edit.
fn body_row(
    ui: &mut egui::Ui,
    inputs: &GhostWindowInputs,
    form: &mut GhostForm,
    out: &mut PanelOutput,
) {
    let given = inputs.document.body().unwrap_or_default();
    let (mut mass, mut female) = form
        .body
        .unwrap_or((given.mass, given.sex == BodySex::Female));
    ui.horizontal(|ui| {
        ui.label("Body");
        ui.add(
            egui::DragValue::new(&mut mass)
                .range(1.0..=Body::HEAVIEST)
                .speed(0.5)
                .suffix(" kg"),
        );
        ui.checkbox(&mut female, "female");
        let typed = (mass, female) != (given.mass, given.sex == BodySex::Female);
        if ui
            .add_enabled(typed, egui::Button::new("Set"))
            .on_hover_text("The figure's mass and de Leva's column, kept in the document")
            .clicked()
        {
            let sex = if female {
                BodySex::Female
            } else {
                BodySex::Male
            };
            out.edits.push(Edit::SetBody(Some(Body { mass, sex })));
        }
    });
    form.body =
        Some((mass, female)).filter(|&(m, f)| (m, f) != (given.mass, given.sex == BodySex::Female));
}

/// The frames, with a button taking the flight at the current frame or the ruler's selection.
fn frames_row(ui: &mut egui::Ui, inputs: &GhostWindowInputs, form: &mut GhostForm) {
    ui.horizontal(|ui| {
        ui.label("Frames");
        ui.add(egui::DragValue::new(&mut form.from));
        ui.label("to");
        ui.add(egui::DragValue::new(&mut form.to));
    });
    ui.horizontal(|ui| {
        let frame = inputs.document.frame();
        let flight = inputs.view.and_then(|v| {
            (v.spans.iter())
                .map(|s| (s.from as i64 + v.first_frame, s.to as i64 + v.first_frame))
                .find(|(a, b)| (a - 1..=b + 1).contains(&frame))
        });
        if ui
            .add_enabled(flight.is_some(), egui::Button::new("The flight here"))
            .on_hover_text("The frames with no support around the current frame (View ▸ Physics)")
            .clicked()
            && let Some((a, b)) = flight
        {
            (form.from, form.to) = (a, b);
        }
        if ui
            .add_enabled(
                inputs.selected.is_some(),
                egui::Button::new("The selected frames"),
            )
            .clicked()
            && let Some((a, b)) = inputs.selected
        {
            (form.from, form.to) = (a, b);
        }
    });
}

/// The ghost's report, Accept and Discard.
fn ghost_report(ui: &mut egui::Ui, inputs: &GhostWindowInputs, out: &mut PanelOutput) {
    let Some(ghost) = inputs.ghost else {
        ui.weak("No ghost: make one above; it is drawn in violet beside the take.");
        return;
    };
    let stale = !ghost.is_current(&inputs.document.0);
    ui.label(ghost.said());
    if stale {
        ui.colored_label(
            egui::Color32::from_rgb(240, 170, 60),
            "The sequence changed since: make the ghost again",
        );
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(!stale, egui::Button::new("Accept"))
            .on_hover_text("Write the ghost into the sequence (one undo step)")
            .clicked()
        {
            out.beside.push(BesideChange::AcceptGhost);
        }
        if ui.button("Discard").clicked() {
            out.beside.push(BesideChange::DiscardGhost);
        }
    });
}
