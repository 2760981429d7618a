//! The egui panels around the views: the menu bar, the outliner with the selected joint's DOF
//! sliders and stiffness (left, [`crate::ui_outliner`]), the IK panel with the residual plot and
//! the swivel slider (right, [`crate::ui_ik`]), the timeline and the Locks panel (bottom,
//! [`crate::ui_timeline`], [`crate::ui_locks`]), the status bar and the error list. egui runs once
//! per frame on its own camera, drawn over the views; what the panels leave free is the
//! [`ViewArea`] the views share.

use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy_egui::{
    EguiContext, EguiContextSettings, EguiFullOutput, EguiGlobalSettings, EguiInput,
    EguiStartupSet, PrimaryEguiContext, egui,
};
use marionette_editing::View;

use crate::files::{FileAction, FileRequest, PathPrompt};
use crate::overlays::SelectedLimb;
use crate::state::Editor;
use crate::views::{FrameRequest, Layout, ViewArea};

/// The panels.
pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreStartup,
            (
                no_automatic_context.before(EguiStartupSet::InitContexts),
                spawn_ui_camera.before(EguiStartupSet::InitContexts),
                run_manually.after(EguiStartupSet::InitContexts),
            ),
        )
        .add_systems(
            Update,
            (editor_ui.after(crate::dragging::DragSet::End), window_title),
        )
        .init_resource::<crate::ui_timeline::TimelineUi>();
    }
}

/// The window's title names the document (or the skeleton of a new one) and marks unsaved
/// edits; it is rewritten only when one of those differs from what it shows.
fn window_title(
    editor: Res<Editor>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    mut shown: Local<Option<(u64, Option<std::path::PathBuf>, bool)>>,
) {
    let now = (
        editor.document.id(),
        editor.document.file().map(std::path::Path::to_path_buf),
        editor.unsaved(),
    );
    if shown.as_ref() == Some(&now) {
        return;
    }
    let unsaved = if now.2 { " •" } else { "" };
    let title = match (&now.1, editor.document.source()) {
        (Some(file), _) => format!(
            "Marionette — {}{unsaved} ({})",
            file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            ),
            editor.skeleton().name()
        ),
        (None, Some(path)) => format!(
            "Marionette — {}{unsaved} (new, on {})",
            editor.skeleton().name(),
            path.display()
        ),
        (None, None) => format!("Marionette — {}{unsaved} (new)", editor.skeleton().name()),
    };
    *shown = Some(now);
    for mut window in &mut windows {
        window.title.clone_from(&title);
    }
}

fn no_automatic_context(mut settings: ResMut<EguiGlobalSettings>) {
    settings.auto_create_primary_context = false;
}

/// egui gets a camera of its own, drawn after (over) the views and rendering nothing else.
fn spawn_ui_camera(mut commands: Commands) {
    commands.spawn((
        PrimaryEguiContext,
        Camera3d::default(),
        RenderLayers::none(),
        Camera {
            order: 10,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// The editor runs egui's pass itself (`run_ui`), so egui knows which part of the window its
/// panels leave to the views, and clicks there reach the scene.
fn run_manually(mut settings: Query<&mut EguiContextSettings, With<PrimaryEguiContext>>) {
    for mut settings in &mut settings {
        settings.run_manually = true;
    }
}

/// What the panels ask for beyond editing the editor state, sent after the pass.
#[derive(Debug, Default)]
pub struct UiRequests {
    /// File actions.
    pub files: Vec<FileAction>,
    /// Frame the selection.
    pub frame: bool,
    /// Quit (asking first if the pose is unsaved).
    pub quit: bool,
    /// Quit, discarding an unsaved pose.
    pub discard: bool,
}

#[allow(clippy::too_many_arguments)]
fn editor_ui(
    mut contexts: Query<
        (&mut EguiContext, &mut EguiInput, &mut EguiFullOutput),
        With<PrimaryEguiContext>,
    >,
    mut editor: ResMut<Editor>,
    mut layout: ResMut<Layout>,
    mut area: ResMut<ViewArea>,
    limb: Res<SelectedLimb>,
    mut files: MessageWriter<FileRequest>,
    mut frames: MessageWriter<FrameRequest>,
    mut quit: MessageWriter<crate::quit::QuitRequest>,
    mut prompt: ResMut<PathPrompt>,
    mut lock_hover: ResMut<crate::lock_markers::LockHover>,
    mut recovery: ResMut<crate::autosave::RecoveryOffer>,
    mut status: ResMut<crate::state::SolveStatus>,
    mut selection: ResMut<crate::selection::Selection>,
    mut timeline: crate::ui_timeline::TimelineParams,
) {
    let Ok((mut context, mut input, mut output)) = contexts.single_mut() else {
        return;
    };
    let ctx = context.get_mut().clone();
    let mut requests = UiRequests::default();
    let mut free = None;
    let mut typed_path = None;
    let full = ctx.run_ui(input.take(), |ui| {
        egui::Panel::top("menu bar").show(ui, |ui| {
            menu_bar(ui, &mut editor, &mut layout, &mut requests);
        });
        egui::Panel::bottom("status bar").show(ui, |ui| {
            status_bar(ui, &editor, &status);
        });
        // At least its default height from the start, so adding the first lock does not move
        // the views under the cursor.
        egui::Panel::bottom("locks")
            .resizable(true)
            .default_size(170.0)
            .size_range(170.0..=480.0)
            .show(ui, |ui| {
                crate::ui_locks::locks_panel(ui, &mut editor, &selection, &mut lock_hover);
            });
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(150.0)
            .size_range(120.0..=420.0)
            .show(ui, |ui| {
                timeline.show(ui, &editor);
            });
        egui::Panel::left("outliner")
            .resizable(true)
            .default_size(300.0)
            .show(ui, |ui| {
                crate::ui_outliner::outliner_panel(ui, &mut editor, &mut selection);
            });
        egui::Panel::right("ik panel")
            .resizable(true)
            .default_size(310.0)
            .show(ui, |ui| {
                crate::ui_ik::ik_panel(ui, &mut editor, &limb, &mut status);
            });
        free = Some(ui.available_rect_before_wrap());
        view_labels(ui, &mut layout, area.0);
        errors_window(ui, &mut editor);
        export_progress(ui, &editor);
        quit_question(ui, &mut editor, &mut requests);
        crate::autosave::recovery_question(ui, &mut editor, &mut recovery);
        typed_path = path_prompt(ui, &mut prompt);
    });
    **output = Some(full);
    if let Some((action, path)) = typed_path {
        crate::files::carry_out(&mut editor, action, &path);
    }
    for action in requests.files {
        files.write(FileRequest(action));
    }
    if requests.frame {
        frames.write(FrameRequest);
    }
    if requests.quit || requests.discard {
        quit.write(crate::quit::QuitRequest {
            discard: requests.discard,
        });
    }
    // The views keep their place while a drag is in progress, whatever the panels do.
    if let Some(r) = free.filter(|_| editor.document.drag().is_none()) {
        let rect = Rect::new(r.min.x, r.min.y, r.max.x, r.max.y);
        if area.0 != rect {
            area.0 = rect;
        }
    }
}

/// While an export runs: how far its bake has come.
fn export_progress(ui: &mut egui::Ui, editor: &Editor) {
    let Some(running) = &editor.export else {
        return;
    };
    let done = running.done.load(std::sync::atomic::Ordering::Relaxed);
    egui::Window::new("Exporting")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ui.ctx(), |ui| {
            ui.label(format!("Baking frame {done} of {}", running.total));
            ui.add(
                egui::ProgressBar::new(done as f32 / running.total.max(1) as f32)
                    .desired_width(260.0)
                    .show_percentage(),
            );
        });
    ui.ctx().request_repaint();
}

fn menu_bar(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    layout: &mut Layout,
    requests: &mut UiRequests,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            let items = [
                ("New from skeleton…", "", FileAction::OpenSkeleton),
                ("Open…", "Ctrl+O", FileAction::OpenDocument),
                ("Save", "Ctrl+S", FileAction::SaveDocument),
                ("Save as…", "Ctrl+Shift+S", FileAction::SaveDocumentAs),
                ("Open pose…", "Ctrl+Shift+O", FileAction::OpenPose),
                ("Export pose…", "", FileAction::SavePoseAs),
            ];
            for (index, (label, keys, action)) in items.into_iter().enumerate() {
                if index == 4 {
                    ui.separator();
                }
                if ui
                    .add(egui::Button::new(label).shortcut_text(keys))
                    .clicked()
                {
                    requests.files.push(action);
                    ui.close();
                }
            }
            ui.separator();
            if ui.button("Import BVH…").clicked() {
                requests.files.push(FileAction::ImportBvh);
                ui.close();
            }
            ui.menu_button("Export", |ui| {
                use marionette_editing::exchange::ExportFormat;
                let what = if editor.document.current_sequence().is_some() {
                    "the shown sequence, baked"
                } else {
                    "the current pose"
                };
                ui.weak(what);
                for (label, format) in [
                    ("BVH…", ExportFormat::Bvh),
                    ("glTF (.glb)…", ExportFormat::Glb),
                    ("JSON…", ExportFormat::Json),
                ] {
                    if ui.button(label).clicked() {
                        requests.files.push(FileAction::Export(format));
                        ui.close();
                    }
                }
            });
            ui.separator();
            if ui.button("Quit").clicked() {
                requests.quit = true;
            }
        });
        ui.menu_button("Edit", |ui| {
            let undo = editor.document.history().next_undo().map(str::to_owned);
            let redo = editor.document.history().next_redo().map(str::to_owned);
            let undo_text = undo.map_or("Undo".to_owned(), |l| format!("Undo {l}"));
            let redo_text = redo.map_or("Redo".to_owned(), |l| format!("Redo {l}"));
            let can_undo = editor.document.history().next_undo().is_some();
            let can_redo = editor.document.history().next_redo().is_some();
            if ui
                .add_enabled(
                    can_undo,
                    egui::Button::new(undo_text).shortcut_text("Ctrl+Z"),
                )
                .clicked()
            {
                editor.undo();
                ui.close();
            }
            if ui
                .add_enabled(
                    can_redo,
                    egui::Button::new(redo_text).shortcut_text("Ctrl+Shift+Z"),
                )
                .clicked()
            {
                editor.redo();
                ui.close();
            }
        });
        ui.menu_button("View", |ui| {
            ui.checkbox(&mut layout.four, "Four views");
            ui.separator();
            ui.label("Large view");
            for view in View::ALL {
                ui.radio_value(&mut layout.large, view, view_title(view));
            }
            ui.separator();
            ui.checkbox(&mut editor.show_axes, "Joint axes and limits");
            if ui
                .add(egui::Button::new("Frame selection").shortcut_text("F"))
                .clicked()
            {
                requests.frame = true;
                ui.close();
            }
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

/// Each view's name in its top-left corner; in the four-view layout a click on a small view's
/// name puts that view in the large viewport.
fn view_labels(ui: &mut egui::Ui, layout: &mut Layout, area: Rect) {
    let views = crate::views::viewports(layout, area);
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

fn status_bar(ui: &mut egui::Ui, editor: &Editor, status: &crate::state::SolveStatus) {
    ui.horizontal_wrapped(|ui| {
        match status.outcome(editor.document.id()) {
            Some(outcome) => {
                let report = &outcome.report;
                ui.label(format!("Solver: {}", outcome.ran));
                ui.separator();
                ui.label(format!("Residual: {:.3} mm", report.residual * 1000.0));
                ui.separator();
                ui.label(format!(
                    "Iterations: {} ({} this drag)",
                    report.iterations,
                    status.trace.len()
                ));
                if let Some(time) = status.ik_time {
                    ui.separator();
                    ui.label(format!("IK: {:.0} µs", time.as_secs_f64() * 1e6));
                }
                ui.separator();
                let limits = report.limits_hit.len();
                let text = format!("Limits hit: {limits}");
                if limits > 0 {
                    ui.colored_label(egui::Color32::from_rgb(240, 180, 60), text);
                } else {
                    ui.label(text);
                }
                if let Some((_, shortfall)) = report.worst_shortfall() {
                    ui.separator();
                    let text = format!(
                        "Goal unmet: {}",
                        shortfall.describe(editor.document.skeleton())
                    );
                    if matches!(shortfall, marionette_ik::Shortfall::Converging) {
                        ui.label(text);
                    } else {
                        ui.colored_label(egui::Color32::from_rgb(240, 180, 60), text);
                    }
                }
                if let Some(reason) = &outcome.fallback {
                    ui.separator();
                    ui.colored_label(
                        egui::Color32::from_rgb(240, 180, 60),
                        format!(
                            "{} could not run: {reason}",
                            editor.runner.settings().solver
                        ),
                    );
                }
            }
            None => {
                ui.label(format!("Solver: {}", editor.runner.settings().solver));
            }
        }
        if let Some((i, v)) = crate::ui_locks::worst_lock(editor) {
            ui.separator();
            let name = &editor.document.locks()[i].name;
            if v.within(editor.runner.settings().tolerance) {
                ui.label(format!("Locks held (worst: {name}, {v})"));
            } else {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 110, 100),
                    format!("Lock gave way: {name} by {v}"),
                );
            }
        }
        if let Some(notice) = editor.notices.last() {
            ui.separator();
            let colour = if notice.is_error {
                egui::Color32::from_rgb(255, 110, 100)
            } else {
                ui.visuals().weak_text_color()
            };
            ui.colored_label(colour, notice.text.lines().next().unwrap_or_default());
        }
    });
}

/// Quitting with an unsaved pose: save it, discard it, or stay.
fn quit_question(ui: &mut egui::Ui, editor: &mut Editor, requests: &mut UiRequests) {
    if !editor.confirm_quit {
        return;
    }
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            ui.label("The document has changed since it was last saved.");
            ui.horizontal(|ui| {
                if ui.button("Save…").clicked() {
                    requests.files.push(FileAction::SaveDocument);
                }
                if ui.button("Quit without saving").clicked() {
                    requests.discard = true;
                }
                if ui.button("Cancel").clicked() {
                    editor.confirm_quit = false;
                }
            });
        });
}

/// The path typed where no native file dialog could be shown ([`PathPrompt`]): Enter or the
/// button uses it, Escape or Cancel closes the window.
fn path_prompt(
    ui: &mut egui::Ui,
    prompt: &mut PathPrompt,
) -> Option<(FileAction, std::path::PathBuf)> {
    let typed = prompt.0.as_mut()?;
    let (title, verb) = typed.action.title();
    let (mut chosen, mut closed) = (false, false);
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            ui.label("File path (absolute, relative to the working folder, or ~/…):");
            let field = ui.add(egui::TextEdit::singleline(&mut typed.text).desired_width(420.0));
            if !field.has_focus() && !field.lost_focus() {
                field.request_focus();
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            closed = ui.input(|i| i.key_pressed(egui::Key::Escape));
            ui.horizontal(|ui| {
                chosen = ui.button(verb).clicked() || enter;
                closed |= ui.button("Cancel").clicked();
            });
        });
    let action = typed.action;
    let path = crate::files::typed_path(&typed.text);
    if closed || (chosen && path.is_some()) {
        prompt.0 = None;
    }
    if closed {
        return None;
    }
    path.filter(|_| chosen).map(|path| (action, path))
}

/// Errors stay on screen until dismissed.
fn errors_window(ui: &mut egui::Ui, editor: &mut Editor) {
    if !editor.notices.iter().any(|n| n.is_error) {
        return;
    }
    let mut dismissed = false;
    egui::Window::new("Errors")
        .collapsible(false)
        .resizable(true)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ui.ctx(), |ui| {
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    for notice in editor.notices.iter().filter(|n| n.is_error) {
                        ui.colored_label(egui::Color32::from_rgb(255, 120, 110), &notice.text);
                        ui.separator();
                    }
                });
            dismissed = ui.button("Dismiss").clicked();
        });
    if dismissed {
        editor.notices.retain(|n| !n.is_error);
    }
}
