//! The menu bar (File, Edit, View and the view buttons) and each view's name in its corner. The
//! items with a key show the key table's shortcut and run the same command as the key.

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_editing::beside::Beside;
use marionette_editing::exchange::ExportFormat;
use marionette_editing::{Document, View};

use super::output::PanelOutput;
use crate::input::Command;
use crate::messages::{FileAction, FileRequest, QuitRequest};
use crate::resources::Display;
use crate::views::target::ViewResolution;
use crate::views::{Layout, viewports};

/// A menu item running `command`, with its shortcut; true when clicked.
fn command_item(ui: &mut egui::Ui, command: Command, label: &str, enabled: bool) -> bool {
    ui.add_enabled(
        enabled,
        egui::Button::new(label).shortcut_text(command.shortcut_text()),
    )
    .clicked()
}

/// What the menus read: the document and what is kept beside it (the trails shown, the pose
/// copied).
pub struct MenuWork<'a> {
    /// The open document.
    pub document: &'a Document,
    /// The trails shown and the pose copied.
    pub beside: &'a Beside,
}

/// The menu bar.
pub fn menu_bar(
    ui: &mut egui::Ui,
    work: MenuWork,
    layout: &mut Layout,
    display: &mut Display,
    panels: &mut super::panel_memory::PanelLayout,
    resolution: &mut ViewResolution,
    out: &mut PanelOutput,
) {
    let MenuWork { document, beside } = work;
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, document, out));
        ui.menu_button("Edit", |ui| {
            let history = document.history();
            let undo = history
                .next_undo()
                .map_or("Undo".to_owned(), |l| format!("Undo {l}"));
            let redo = history
                .next_redo()
                .map_or("Redo".to_owned(), |l| format!("Redo {l}"));
            for (command, label, enabled) in [
                (Command::Undo, undo, history.next_undo().is_some()),
                (Command::Redo, redo, history.next_redo().is_some()),
            ] {
                if command_item(ui, command, &label, enabled) {
                    out.commands.push(command);
                    ui.close();
                }
            }
        });
        ui.menu_button("Pose", |ui| {
            let copied = beside.copied.is_some();
            for (command, enabled) in [
                (Command::MirrorPose, true),
                (Command::MirrorLimb, true),
                (Command::CopyPose, true),
                (Command::PastePose, copied),
                (Command::PasteFlipped, copied),
            ] {
                if command_item(ui, command, command.label(), enabled) {
                    out.commands.push(command);
                    ui.close();
                }
            }
            ui.separator();
            ui.checkbox(&mut display.pose_library, "Pose library");
        });
        ui.menu_button("Sequence", |ui| {
            if ui
                .button("Retarget a capture onto this figure…")
                .on_hover_text(
                    "A BVH capture's motion put onto this figure (from its current pose) as a \
                     new sequence; one undo step",
                )
                .clicked()
            {
                out.files.push(crate::messages::FileRequest::ask(
                    FileAction::RetargetCapture,
                ));
                ui.close();
            }
            let shown = document.current_sequence().is_some();
            if ui
                .add_enabled(shown, egui::Button::new("Find foot contacts"))
                .on_hover_text(
                    "Lock each foot where it stands in the shown sequence (heels and toes, from \
                     the humanoid map); earlier contact locks replaced; one undo step",
                )
                .clicked()
            {
                out.edits.push(marionette_editing::Edit::FindFootContacts(
                    Default::default(),
                ));
                ui.close();
            }
            if command_item(
                ui,
                Command::KeySelectedJoints,
                Command::KeySelectedJoints.label(),
                true,
            ) {
                out.commands.push(Command::KeySelectedJoints);
                ui.close();
            }
            ui.checkbox(&mut display.motion_plot, "Motion plot");
            ui.checkbox(&mut display.physics_ghost, "Physics ghost…")
                .on_hover_text(
                    "A flight made physical (parabola, momentum, apex) or standing frames \
                     balanced, drawn beside the take to accept or discard",
                );
            ui.checkbox(&mut display.curves, "Curves");
            ui.separator();
            if command_item(ui, Command::ShowTrail, Command::ShowTrail.label(), shown) {
                out.commands.push(Command::ShowTrail);
                ui.close();
            }
            let trails = beside.trails.of(document).next().is_some();
            if command_item(ui, Command::HideTrails, Command::HideTrails.label(), trails) {
                out.commands.push(Command::HideTrails);
                ui.close();
            }
        });
        ui.menu_button("View", |ui| {
            let staged = document.figures().len() > 1;
            view_menu(
                ui,
                (beside, staged),
                (layout, display, panels, resolution),
                out,
            );
        });
        ui.separator();
        for view in View::ALL {
            if ui
                .selectable_label(layout.large == view, view_title(view))
                .on_hover_text("Show this view in the large viewport")
                .clicked()
            {
                layout.large = view;
            }
        }
        ui.separator();
        ui.toggle_value(&mut layout.four, "Four views");
    });
}

/// The View menu: the layout, the panels, the large view, what is drawn over the figure
/// (joint axes, bones, the physics overlays, of every figure on a stage (`staged`)) and the
/// views' resolution.
fn view_menu(
    ui: &mut egui::Ui,
    (beside, staged): (&Beside, bool),
    (layout, display, panels, resolution): (
        &mut Layout,
        &mut Display,
        &mut super::panel_memory::PanelLayout,
        &mut ViewResolution,
    ),
    out: &mut PanelOutput,
) {
    ui.checkbox(&mut layout.four, "Four views");
    ui.separator();
    ui.label("Panels");
    ui.checkbox(&mut panels.outliner.shown, "Outliner");
    ui.checkbox(&mut panels.ik.shown, "Inverse kinematics");
    ui.checkbox(&mut panels.timeline.shown, "Timeline");
    ui.checkbox(&mut panels.locks.shown, "Locks");
    ui.separator();
    ui.label("Large view");
    for view in View::ALL {
        ui.radio_value(&mut layout.large, view, view_title(view));
    }
    ui.separator();
    ui.checkbox(&mut display.joint_axes, "Joint axes and limits");
    ui.checkbox(&mut display.bones, "Bones")
        .on_hover_text(Command::ToggleBones.shortcut_text());
    let mut physics = beside.physics;
    if ui
        .checkbox(&mut physics, "Physics")
        .on_hover_text(
            "The centre of mass and its plumb line, the support polygon (green inside, \
                 amber at the edge, red outside), the angular momentum, and the support \
                 strip on the timeline (its flights' g)",
        )
        .changed()
    {
        out.beside
            .push(marionette_editing::beside::BesideChange::ShowPhysics(
                physics,
            ));
    }
    let mut every = beside.physics_of_every_figure;
    if ui
        .add_enabled(
            staged,
            egui::Checkbox::new(&mut every, "Physics of every figure"),
        )
        .on_hover_text("On a stage: the physics overlays of every figure, not the edited one alone")
        .changed()
    {
        out.beside
            .push(marionette_editing::beside::BesideChange::ShowStagePhysics(
                every,
            ));
    }
    ui.checkbox(&mut resolution.reduced, "Half-resolution 3D views")
        .on_hover_text(
            "Draw the 3D views at half the window's resolution: a quarter of the \
                 pixels, for a smooth editor on a software renderer (on by default there)",
        );
    let focus = Command::FocusSelection;
    if command_item(ui, focus, focus.label(), true) {
        out.commands.push(focus);
        ui.close();
    }
}

fn file_menu(ui: &mut egui::Ui, document: &Document, out: &mut PanelOutput) {
    if ui.button("New from skeleton…").clicked() {
        out.files.push(FileRequest::ask(FileAction::OpenSkeleton));
        ui.close();
    }
    for command in [
        Command::OpenDocument,
        Command::SaveDocument,
        Command::SaveDocumentAs,
    ] {
        if command_item(ui, command, command.label(), true) {
            out.commands.push(command);
            ui.close();
        }
    }
    ui.separator();
    if command_item(ui, Command::OpenPose, Command::OpenPose.label(), true) {
        out.commands.push(Command::OpenPose);
        ui.close();
    }
    if ui.button("Export pose…").clicked() {
        out.files.push(FileRequest::ask(FileAction::SavePoseAs));
        ui.close();
    }
    ui.separator();
    if ui.button("Import capture (BVH, FBX)…").clicked() {
        out.files.push(FileRequest::ask(FileAction::ImportBvh));
        ui.close();
    }
    if ui
        .button("Import character (glTF, FBX)…")
        .on_hover_text("A rigged .glb, .gltf or .vrm character, posed with its own skin")
        .clicked()
    {
        out.files
            .push(FileRequest::ask(FileAction::ImportCharacter));
        ui.close();
    }
    ui.separator();
    if ui
        .button("Add figure…")
        .on_hover_text(
            "Put another figure on the stage: a skeleton (.ron) or a character (.glb, .gltf, .vrm)",
        )
        .clicked()
    {
        out.files.push(FileRequest::ask(FileAction::AddFigure));
        ui.close();
    }
    if ui
        .button("Add humanoid")
        .on_hover_text("Put the built-in humanoid on the stage beside the others")
        .clicked()
    {
        out.edits.push(marionette_editing::Edit::Stage(
            marionette_editing::stage::StageEdit::AddFigure {
                name: document.free_name("humanoid"),
                file: None,
                placement: document.beside_the_others(),
            },
        ));
        ui.close();
    }
    ui.menu_button("Export", |ui| {
        ui.weak(if document.current_sequence().is_some() {
            "the shown sequence, baked"
        } else {
            "the current pose"
        });
        for (label, format) in [
            ("BVH…", ExportFormat::Bvh),
            ("glTF (.glb)…", ExportFormat::Glb),
            ("JSON…", ExportFormat::Json),
        ] {
            if ui.button(label).clicked() {
                out.files.push(FileRequest::ask(FileAction::Export(format)));
                ui.close();
            }
        }
    });
    ui.separator();
    if ui.button("Quit").clicked() {
        out.quit = Some(QuitRequest { discard: false });
    }
}

/// Each view's name in its top-left corner; in the four-view layout a click on a small view's
/// name puts that view in the large viewport.
pub fn view_labels(ui: &mut egui::Ui, layout: &mut Layout, area: Rect) {
    let views = viewports(layout, area);
    for (index, (view, rect)) in views.into_iter().enumerate() {
        let at = egui::pos2(rect.min.x + 6.0, rect.min.y + 4.0);
        egui::Area::new(egui::Id::new(("view label", view.name())))
            .fixed_pos(at)
            .order(egui::Order::Foreground)
            .show(ui.ctx(), |ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                if index == 0 {
                    ui.label(egui::RichText::new(view_title(view)).strong());
                } else if ui
                    .small_button(view_title(view))
                    .on_hover_text("Show this view in the large viewport")
                    .clicked()
                {
                    layout.large = view;
                }
            });
    }
}

/// A view's title in the interface.
pub fn view_title(view: View) -> &'static str {
    match view {
        View::Perspective => "Perspective",
        View::Front => "Front",
        View::Side => "Side",
        View::Top => "Top",
    }
}
