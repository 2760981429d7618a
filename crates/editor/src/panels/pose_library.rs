//! The pose library window (Pose ▸ Pose library): the document's named poses, each with a small
//! picture of the figure in it (seen from the front, drawn from the pose itself, so it is never
//! out of date), applied to the whole figure or only the selected joints with a blend, deleted,
//! and the current pose saved under a name. Each action is one edit and one undo step.

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_editing::{Document, Edit};
use marionette_skeleton::{Fk, Skeleton};

use super::output::PanelOutput;

/// The window's own settings: the name typed, the blend, whether only the selection takes it.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct PoseLibraryUi {
    /// The name the current pose is saved under.
    pub name: String,
    /// How far a pose is applied (0 … 1).
    pub blend: f64,
    /// Apply to the selected joints only.
    pub selected_only: bool,
}

impl Default for PoseLibraryUi {
    fn default() -> Self {
        PoseLibraryUi {
            name: String::new(),
            blend: 1.0,
            selected_only: false,
        }
    }
}

/// The size of a pose's picture (points).
const PICTURE: egui::Vec2 = egui::vec2(56.0, 72.0);

/// A picture of `skeleton` at `q` from the front: each joint joined to its parent, each site
/// to its joint, fitted into the picture.
fn picture(ui: &mut egui::Ui, skeleton: &Skeleton, fk: &mut Fk, q: &[f64]) {
    let (rect, _) = ui.allocate_exact_size(PICTURE, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, ui.visuals().extreme_bg_color);
    fk.update(skeleton, q);
    let mut segments = Vec::new();
    for j in skeleton.joint_ids() {
        if let Some(parent) = skeleton.joint(j).parent {
            segments.push((fk.joint_position(parent), fk.joint_position(j)));
        }
    }
    for s in skeleton.site_ids() {
        segments.push((
            fk.joint_position(skeleton.site(s).joint),
            fk.site_position(s),
        ));
    }
    let points = segments.iter().flat_map(|(a, b)| [a, b]);
    let (mut lo, mut hi) = (
        egui::pos2(f32::MAX, f32::MAX),
        egui::pos2(f32::MIN, f32::MIN),
    );
    for p in points {
        // Seen from the front: the figure's left (+X) on the picture's right.
        let (x, y) = (p.x as f32, p.y as f32);
        lo = egui::pos2(lo.x.min(x), lo.y.min(y));
        hi = egui::pos2(hi.x.max(x), hi.y.max(y));
    }
    let inner = rect.shrink(5.0);
    let span = (hi.x - lo.x).max(hi.y - lo.y).max(1e-6);
    let scale = inner.width().min(inner.height()) / span;
    let centre = egui::pos2((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0);
    let to_screen = |p: &nalgebra::Vector3<f64>| {
        inner.center()
            + egui::vec2(
                (p.x as f32 - centre.x) * scale,
                -(p.y as f32 - centre.y) * scale,
            )
    };
    let stroke = egui::Stroke::new(1.5, ui.visuals().strong_text_color());
    for (a, b) in &segments {
        painter.line_segment([to_screen(a), to_screen(b)], stroke);
    }
}

/// The window; `selected` are the joints selected now.
pub fn pose_library_window(
    ctx: &egui::Context,
    document: &Document,
    selected: &[marionette_skeleton::JointId],
    settings: &mut PoseLibraryUi,
    open: &mut bool,
    out: &mut PanelOutput,
) {
    let screen = ctx.content_rect();
    egui::Window::new("Pose library")
        .open(open)
        .default_pos(egui::pos2(screen.right() - 560.0, screen.top() + 40.0))
        .default_size([240.0, 380.0])
        .resizable(true)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut settings.name)
                        .hint_text("name")
                        .desired_width(120.0),
                );
                let named = !settings.name.trim().is_empty();
                if ui
                    .add_enabled(named, egui::Button::new("Save pose"))
                    .on_hover_text("Keep the current pose in the document's library")
                    .clicked()
                {
                    out.edits
                        .push(Edit::SavePoseToLibrary(settings.name.trim().to_owned()));
                }
            });
            ui.add(egui::Slider::new(&mut settings.blend, 0.0..=1.0).text("blend"));
            let label = format!("only the selected joints ({})", selected.len());
            ui.add_enabled(
                !selected.is_empty(),
                egui::Checkbox::new(&mut settings.selected_only, label),
            );
            ui.separator();
            let library = document.library();
            if library.is_empty() {
                ui.label("No poses yet: name the current pose and save it.");
                return;
            }
            let skeleton = document.skeleton();
            let mut fk = Fk::new(skeleton);
            egui::ScrollArea::vertical().show(ui, |ui| {
                for pose in library {
                    ui.horizontal(|ui| {
                        picture(ui, skeleton, &mut fk, &pose.pose.q);
                        ui.vertical(|ui| {
                            ui.strong(&pose.name);
                            ui.horizontal(|ui| {
                                if ui.button("Apply").clicked() {
                                    let joints = if settings.selected_only {
                                        selected.to_vec()
                                    } else {
                                        Vec::new()
                                    };
                                    out.edits.push(Edit::ApplyLibraryPose {
                                        name: pose.name.clone(),
                                        blend: settings.blend,
                                        joints,
                                    });
                                }
                                if ui.button("Delete").clicked() {
                                    out.edits.push(Edit::DeleteLibraryPose(pose.name.clone()));
                                }
                            });
                        });
                    });
                }
            });
        });
}
