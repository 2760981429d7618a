//! The right panel: the solver and its settings (updates per frame, tolerance, bend hints,
//! damping), what a drag moves, "solve until satisfied", the comparison ghosts, the swivel slider
//! of the selected limb, and the live plot of the residual against the iteration for the current
//! solve. Every change is an edit (settings are not recorded; the swivel is one undo step per
//! slider drag).

use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints};
use marionette_editing::edit::SATISFY_BUDGET;
use marionette_editing::{ChainMode, Comparison, Document, Edit};
use marionette_ik::SolverKind;

use super::output::PanelOutput;
use super::output::undo_step;
use super::theme;
use crate::derived::SelectedLimb;
use crate::drag::ghosts::{GHOST_COLOURS, Ghosts};
use crate::resources::{SolveStatus, SolvingState};

/// What the IK panel shows.
pub struct IkView<'a> {
    /// The open document.
    pub document: &'a Document,
    /// How solves run.
    pub solving: &'a SolvingState,
    /// The selected limb's swivel.
    pub limb: &'a SelectedLimb,
    /// The last solve.
    pub solve: &'a SolveStatus,
    /// The comparison ghosts.
    pub ghosts: &'a Ghosts,
}

/// Draws the IK panel.
pub fn ik_panel(ui: &mut egui::Ui, view: &IkView, out: &mut PanelOutput) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.heading("Inverse kinematics");
        solver_settings(ui, view, out);
        ui.separator();
        chain_mode(ui, view, out);
        ui.separator();
        if ui
            .button("Solve until satisfied")
            .on_hover_text(
                "Run the solver on the locks and the last drag's goal until they are met",
            )
            .clicked()
        {
            out.edits.push(Edit::SolveUntilSatisfied {
                budget: SATISFY_BUDGET,
            });
        }
        ui.separator();
        comparison(ui, view, out);
        ui.separator();
        swivel(ui, view.limb, out);
        ui.separator();
        residual_plot(ui, view.solve);
    });
}

fn solver_settings(ui: &mut egui::Ui, view: &IkView, out: &mut PanelOutput) {
    let mut settings = *view.solving.runner.settings();
    let before = settings;
    egui::ComboBox::from_label("solver")
        .selected_text(settings.solver.name())
        .show_ui(ui, |ui| {
            for kind in SolverKind::ALL {
                ui.selectable_value(&mut settings.solver, kind, kind.name());
            }
        });
    let mut updates = settings.iterations_per_frame as u32;
    ui.add(
        egui::DragValue::new(&mut updates)
            .range(1..=1000)
            .prefix("updates per frame: "),
    );
    settings.iterations_per_frame = updates.max(1) as usize;
    let mut tolerance_mm = settings.tolerance * 1000.0;
    ui.add(
        egui::DragValue::new(&mut tolerance_mm)
            .range(1e-4..=100.0)
            .speed(0.01)
            .prefix("tolerance: ")
            .suffix(" mm"),
    );
    settings.tolerance = (tolerance_mm / 1000.0).max(1e-7);
    ui.add(
        egui::Slider::new(&mut settings.preference, 0.0..=1.0)
            .text("bend hints")
            .fixed_decimals(2),
    )
    .on_hover_text(
        "How strongly joints are pulled towards their preferred values where the goals leave them free (0 = off): what makes a straight limb bend the way it should",
    );
    if settings.solver == SolverKind::DampedLeastSquares {
        let mut fixed = settings.options.damping.is_some();
        ui.checkbox(&mut fixed, "fixed damping (else adaptive)");
        if fixed {
            let mut lambda = settings.options.damping.unwrap_or(0.05);
            ui.add(
                egui::DragValue::new(&mut lambda)
                    .range(0.0..=10.0)
                    .speed(0.001)
                    .prefix("damping λ: ")
                    .suffix(" m"),
            );
            settings.options.damping = Some(lambda);
        } else {
            settings.options.damping = None;
        }
    }
    if settings != before {
        out.edits.push(Edit::Settings(settings));
    }
}

fn chain_mode(ui: &mut egui::Ui, view: &IkView, out: &mut PanelOutput) {
    ui.label("A drag moves");
    let skeleton = view.document.skeleton();
    let describe = |mode: ChainMode| match mode {
        ChainMode::SelectedPart => "the picked part only".to_owned(),
        ChainMode::NearestBranch => "up to the nearest branch".to_owned(),
        ChainMode::UpToJoint(j) => format!("up to {}", skeleton.joint(j).name),
        ChainMode::UpToGroup(g) => format!("up to group {}", skeleton.group(g).name),
        ChainMode::WholeBody => "the whole body".to_owned(),
    };
    let before = view.solving.chain_mode;
    let mut mode = before;
    egui::ComboBox::from_id_salt("chain mode")
        .selected_text(describe(mode))
        .width(240.0)
        .show_ui(ui, |ui| {
            for m in [
                ChainMode::SelectedPart,
                ChainMode::NearestBranch,
                ChainMode::WholeBody,
            ] {
                ui.selectable_value(&mut mode, m, describe(m));
            }
            ui.separator();
            for group in skeleton.groups() {
                if let Some(id) = skeleton.group_by_name(&group.name) {
                    let m = ChainMode::UpToGroup(id);
                    ui.selectable_value(&mut mode, m, format!("up to group {}", group.name));
                }
            }
            ui.separator();
            for (id, joint) in skeleton.joint_ids().zip(skeleton.joints()) {
                let m = ChainMode::UpToJoint(id);
                ui.selectable_value(&mut mode, m, format!("up to {}", joint.name));
            }
        });
    if mode != before {
        out.edits.push(Edit::ChainMode(mode));
    }
}

fn comparison(ui: &mut egui::Ui, view: &IkView, out: &mut PanelOutput) {
    let before = &view.solving.comparison;
    let mut wanted = before.clone();
    ui.checkbox(&mut wanted.enabled, "Compare solvers (ghosts)")
        .on_hover_text("While dragging, translucent ghosts show what other solvers would do");
    if wanted.enabled {
        compared_solvers(ui, view, &mut wanted);
    }
    if wanted != *before {
        out.edits.push(Edit::Comparison(wanted));
    }
}

/// One row per solver that can be compared: its ghost's colour, whether it is compared, and its
/// ghost's distance to the goal.
fn compared_solvers(ui: &mut egui::Ui, view: &IkView, wanted: &mut Comparison) {
    let chosen = view.solving.runner.settings().solver;
    for kind in SolverKind::ALL {
        if kind == chosen {
            continue;
        }
        let mut on = wanted.solvers.contains(&kind);
        let index = wanted.solvers.iter().position(|&k| k == kind);
        let colour = index.map_or(egui::Color32::GRAY, |i| {
            let c = GHOST_COLOURS[i % GHOST_COLOURS.len()].to_srgba();
            egui::Color32::from_rgb(
                (c.red * 255.0) as u8,
                (c.green * 255.0) as u8,
                (c.blue * 255.0) as u8,
            )
        });
        ui.horizontal(|ui| {
            ui.colored_label(colour, "■");
            if ui.checkbox(&mut on, kind.name()).changed() {
                if on {
                    wanted.solvers.push(kind);
                } else {
                    wanted.solvers.retain(|&k| k != kind);
                }
            }
            if let Some(ghost) = view.ghosts.tracks.iter().find(|g| g.kind == kind)
                && ghost.residual.is_finite()
            {
                ui.weak(format!("{:.2} mm", ghost.residual * 1000.0));
            }
        });
    }
}

fn swivel(ui: &mut egui::Ui, limb: &SelectedLimb, out: &mut PanelOutput) {
    ui.label("Swivel (elbow or knee about the shoulder–wrist line)");
    let Some(measured) = &limb.measured else {
        ui.weak("Select a joint of an arm or a leg.");
        return;
    };
    let measured = match measured {
        Ok(m) => m,
        Err(e) => {
            ui.colored_label(theme::ERROR, e);
            return;
        }
    };
    let mut degrees = measured.angle.to_degrees();
    let response = ui.add(
        // Never clamped by egui: "always" clamping re-sets the value each frame, rounded to the
        // shown decimals, which reads as a change and would turn the limb every frame.
        egui::Slider::new(&mut degrees, -180.0..=180.0)
            .suffix("°")
            .fixed_decimals(1)
            .clamping(egui::SliderClamping::Never)
            .text("swivel"),
    );
    let intervals: Vec<String> = measured
        .report
        .intervals
        .iter()
        .map(|(a, b)| format!("{:.0}°…{:.0}°", a.to_degrees(), b.to_degrees()))
        .collect();
    ui.weak(if intervals.is_empty() {
        "No swivel angle keeps every joint within its limits here".to_owned()
    } else {
        format!("Valid within the limits: {}", intervals.join(", "))
    });
    if response.changed() && (degrees - measured.angle.to_degrees()).abs() > 1e-9 {
        out.edits.push(Edit::SetSwivel {
            limb: Box::new(measured.limb.clone()),
            angle: degrees.to_radians(),
            undo: undo_step(&response),
        });
    }
}

fn residual_plot(ui: &mut egui::Ui, status: &SolveStatus) {
    ui.label("Residual of the current solve, per update");
    let points: Vec<[f64; 2]> = status
        .trace
        .iter()
        .enumerate()
        .map(|(i, &r)| [i as f64, r.max(1e-12).log10()])
        .collect();
    Plot::new("residual plot")
        .height(160.0)
        .x_axis_label("update")
        .y_axis_label("log₁₀ residual (m)")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("residual", PlotPoints::from(points)));
        });
}
