//! The egui panels around the views: the menu bar ([`menu`]), the outliner with the selected
//! joint's DOF sliders and stiffness (left, [`outliner`]), the IK panel with the residual plot and
//! the swivel slider (right, [`ik`]), the timeline and the Locks panel (bottom, [`timeline`] with
//! its [`ruler`], [`locks`]), the status bar ([`status`]) and the windows that ask or tell
//! ([`dialogs`]). egui runs once per frame on its own camera, drawn over the views; what the
//! panels leave free is the [`ViewArea`] the views share.
//!
//! Every panel is a plain function over read-only views of the state that pushes what it asks for
//! onto a [`PanelOutput`] (edits, file and timeline requests, commands); the one system here
//! sends them after the pass. View state the panels own (the layout, what is shown, the
//! selection, the ruler's range) is edited on copies and written back only when it changed, so
//! change detection sees real changes only.

pub mod curve_points;
pub mod curves;
pub mod dialogs;
pub mod ik;
pub mod joint_lanes;
pub mod key_menu;
pub mod locks;
pub mod menu;
pub mod motion;
pub mod outliner;
mod output;
pub mod panel_memory;
mod params;
pub mod physics_ghost;
pub mod pose_library;
pub mod retarget_map;
pub mod ruler;
pub mod stage;
pub mod status;
pub mod support_strip;
pub mod theme;
pub mod timeline;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy_egui::{
    EguiContext, EguiContextSettings, EguiFullOutput, EguiGlobalSettings, EguiInput,
    EguiStartupSet, PrimaryEguiContext, egui,
};

use crate::EditorSet;
use crate::export::RunningExport;
use crate::input::Requests;
use crate::messages::RecoveryAnswer;
use crate::resources::{Display, LockHover, Notices, OpenDocument, Prompts, SolveStatus};
use crate::selection::Selection;
use crate::timeline::Playback;
use crate::views::ViewArea;
use crate::views::target::{ViewResolution, paint_views};
pub use output::{PanelOutput, undo_step};
use params::{PanelInputs, PanelState};

/// The panels.
pub struct PanelsPlugin;

impl Plugin for PanelsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PreStartup,
            (
                no_automatic_context.before(EguiStartupSet::InitContexts),
                spawn_ui_camera.before(EguiStartupSet::InitContexts),
                (run_manually, see_through_panels).after(EguiStartupSet::InitContexts),
            )
                .in_set(EditorSet::Setup),
        )
        .add_systems(
            Update,
            (
                editor_ui,
                window_title.run_if(resource_changed::<OpenDocument>),
                keep_awake,
            )
                .in_set(EditorSet::Present),
        )
        .init_resource::<timeline::TimelineUi>()
        .init_resource::<pose_library::PoseLibraryUi>()
        .add_plugins(physics_ghost::GhostWindowPlugin)
        .add_plugins(panel_memory::PanelMemoryPlugin);
    }
}

/// The window's title names the document (or the skeleton of a new one) and marks unsaved
/// edits; rewritten when the document changed and the title with it.
fn window_title(
    document: Res<OpenDocument>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    let unsaved = if document.is_modified() { " •" } else { "" };
    let name = document.skeleton().name();
    let title = match (document.file(), document.source()) {
        (Some(file), _) => format!(
            "Marionette — {}{unsaved} ({name})",
            file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into_owned()
            ),
        ),
        (None, Some(path)) => {
            format!("Marionette — {name}{unsaved} (new, on {})", path.display())
        }
        (None, None) => format!("Marionette — {name}{unsaved} (new)"),
    };
    for mut window in &mut windows {
        if window.title != title {
            window.title.clone_from(&title);
        }
    }
}

/// The window redraws only when something happens (Bevy's reactive desktop mode); what goes on
/// by itself asks for the next frame: playback, a drag whose solve has not converged yet (the
/// cursor may rest while the limb still moves), a native file dialog awaited, an export running.
fn keep_awake(
    playback: Res<Playback>,
    document: Res<OpenDocument>,
    solve: Res<SolveStatus>,
    dialogs: Res<crate::files::dialogs::DialogAnswers>,
    export: Option<Res<RunningExport>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let converging = document.drag().is_some()
        && solve
            .outcome(document.id())
            .is_none_or(|o| !o.report.converged);
    if playback.playing || converging || dialogs.open || export.is_some() {
        redraw.write(RequestRedraw);
    }
}

fn no_automatic_context(mut settings: ResMut<EguiGlobalSettings>) {
    settings.auto_create_primary_context = false;
}

/// egui gets a camera of its own, the only one drawing the window: the views are drawn into an
/// image ([`crate::views::target`]) that egui shows under the panels.
fn spawn_ui_camera(mut commands: Commands) {
    commands.spawn((
        PrimaryEguiContext,
        // A 3D camera drawing nothing 3D: cheaper here than a 2D one under a software renderer.
        Camera3d::default(),
        // egui's colours are final: no tone mapping, no dithering, no light clusters.
        bevy::core_pipeline::tonemapping::Tonemapping::None,
        bevy::core_pipeline::tonemapping::DebandDither::Disabled,
        bevy::light::cluster::ClusterConfig::Single,
        RenderLayers::none(),
        Camera {
            order: 10,
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

/// The panels draw no background of their own: the window is cleared to their colour.
fn see_through_panels(
    mut contexts: Query<(&mut EguiContext, &mut Camera), With<PrimaryEguiContext>>,
) {
    for (mut context, mut camera) in &mut contexts {
        let [r, g, b, _] = theme::see_through_panels(context.get_mut()).to_array();
        camera.clear_color = ClearColorConfig::Custom(Color::srgb_u8(r, g, b));
    }
}

/// The panels, drawn in one egui pass; what they ask for sent after it.
fn editor_ui(
    mut contexts: Query<
        (&mut EguiContext, &mut EguiInput, &mut EguiFullOutput),
        With<PrimaryEguiContext>,
    >,
    inputs: PanelInputs,
    mut state: PanelState,
    mut requests: Requests,
    mut redraw: MessageWriter<RequestRedraw>,
    mut modifiers: Local<Option<egui::Modifiers>>,
) {
    let Ok((mut context, mut input, mut output)) = contexts.single_mut() else {
        return;
    };
    let ctx = context.get_mut().clone();
    let document = &inputs.document.0;
    let mut out = PanelOutput::default();
    let (mut layout, mut display, mut prompts) =
        (*state.layout, *state.display, state.prompts.clone());
    let mut selection = state.selection.clone();
    let (mut playback, mut range) = (state.playback.clone(), *state.range);
    let mut timeline_ui = state.timeline.clone();
    let mut panels = *state.panels;
    let mut resolution = *state.resolution;
    let mut hover = state.lock_hover.0;
    let mut dismiss_errors = false;
    let mut free = None;
    let mut raw = input.take();
    quiet_unchanged_modifiers(&mut raw, &mut modifiers);
    let full = ctx.run_ui(raw, |ui| {
        egui::Panel::top("menu bar").show(ui, |ui| {
            let work = menu::MenuWork {
                document,
                beside: &inputs.beside,
            };
            menu::menu_bar(
                ui,
                work,
                &mut layout,
                &mut display,
                &mut panels,
                &mut resolution,
                &mut out,
            );
        });
        egui::Panel::bottom("status bar").show(ui, |ui| {
            status_bar(ui, &inputs, &state, &mut resolution);
        });
        let tolerance = inputs.solving.runner.settings().tolerance;
        // At least its default height from the start, so adding the first lock does not move
        // the views under the cursor. Each panel can be hidden and resized; both remembered.
        use panel_memory::{Edge, remembered_panel};
        remembered_panel(
            ui,
            (Edge::Bottom, "locks"),
            &mut panels.locks,
            panel_memory::LOCKS_SIZES,
            ("Locks panel", "Show Locks"),
            |ui| {
                let view = locks::LocksView {
                    document,
                    status: &inputs.lock_status,
                    selection: &selection,
                    tolerance,
                };
                hover = locks::locks_panel(ui, &view, &mut out);
            },
        );
        remembered_panel(
            ui,
            (Edge::Bottom, "timeline"),
            &mut panels.timeline,
            panel_memory::TIMELINE_SIZES,
            ("timeline", "Show timeline"),
            |ui| {
                let view = timeline::TimelineView {
                    document,
                    strip: &inputs.strip,
                    clipboard: &inputs.clipboard,
                    tolerance,
                    physics: document
                        .current_sequence()
                        .and(inputs.physics.view.as_ref())
                        .and_then(|v| v.as_ref().ok()),
                };
                let mut state = timeline::TimelineState {
                    playback: &mut playback,
                    range: &mut range,
                    onion_skins: &mut display.onion_skins,
                    ui: &mut timeline_ui,
                };
                timeline::timeline_panel(ui, &view, &mut state, &mut out);
            },
        );
        side_panels(ui, &inputs, &mut panels, &mut selection, &mut out);
        let left = ui.available_rect_before_wrap();
        // Only where the panels leave room (a drag keeps the views' place, not the panels').
        paint_views(ui.ctx(), &inputs.views_image, &state.area, left);
        free = Some(left);
        menu::view_labels(ui, &mut layout, state.area.0);
        dismiss_errors = dialogs::errors_window(ui, &state.notices);
        if let Some(running) = &inputs.export {
            dialogs::export_progress(ui, running);
        }
        floating_windows(
            ui,
            &inputs,
            &mut state,
            (&mut display, &selection, &mut prompts),
            &mut out,
        );
    });
    **output = Some(full);
    state.layout.set_if_neq(layout);
    state.display.set_if_neq(display);
    state.prompts.set_if_neq(prompts);
    state.selection.set_if_neq(selection);
    state.playback.set_if_neq(playback);
    state.range.set_if_neq(range);
    state.timeline.set_if_neq(timeline_ui);
    state.panels.set_if_neq(panels);
    state.resolution.set_if_neq(resolution);
    state.lock_hover.set_if_neq(LockHover(hover));
    if dismiss_errors {
        state.notices.dismiss_errors();
    }
    // The views keep their place while a drag is in progress, whatever the panels do.
    if let Some(r) = free.filter(|_| document.drag().is_none()) {
        let rect = Rect::new(r.min.x, r.min.y, r.max.x, r.max.y);
        state.area.set_if_neq(ViewArea(rect));
    }
    if !out.is_empty() {
        // What the panels asked for is applied in the next frame: make sure there is one.
        redraw.write(RequestRedraw);
    }
    send(
        out,
        document,
        &state.selection,
        &mut state.notices,
        &mut requests,
    );
}

/// The outliner on the left and the IK panel on the right, each hidden or resized as
/// remembered.
fn side_panels(
    ui: &mut egui::Ui,
    inputs: &PanelInputs,
    panels: &mut panel_memory::PanelLayout,
    selection: &mut Selection,
    out: &mut PanelOutput,
) {
    use panel_memory::{Edge, remembered_panel};
    let document = &inputs.document.0;
    remembered_panel(
        ui,
        (Edge::Left, "outliner"),
        &mut panels.outliner,
        panel_memory::SIDE_SIZES,
        ("outliner", "»"),
        |ui| {
            outliner::outliner_panel(ui, document, &inputs.character.0, selection, out);
        },
    );
    remembered_panel(
        ui,
        (Edge::Right, "ik panel"),
        &mut panels.ik,
        panel_memory::SIDE_SIZES,
        ("IK panel", "«"),
        |ui| {
            let view = ik::IkView {
                document,
                solving: &inputs.solving,
                limb: &inputs.limb,
                solve: &inputs.solve,
                ghosts: &inputs.ghosts,
            };
            ik::ik_panel(ui, &view, out);
        },
    );
}

/// The windows that float over the views (the motion plot, the curves, the pose library, the
/// retarget map) and the dialogs (errors, progress, questions, the path prompt).
fn floating_windows(
    ui: &mut egui::Ui,
    inputs: &PanelInputs,
    state: &mut PanelState,
    (display, selection, prompts): (&mut Display, &Selection, &mut Prompts),
    out: &mut PanelOutput,
) {
    let document = &inputs.document.0;
    if display.motion_plot {
        let mut site = state.motion_site.clone();
        motion::motion_window(
            ui.ctx(),
            document,
            &inputs.motion,
            &mut site,
            &mut display.motion_plot,
            out,
        );
        state.motion_site.set_if_neq(site);
    }
    if display.curves {
        let mut ui_state = state.curves_ui.clone();
        let tracks = (&*inputs.curves, selection.joints(document));
        curves::curves_window(
            ui.ctx(),
            document,
            tracks,
            &mut ui_state,
            &mut display.curves,
            out,
        );
        state.curves_ui.set_if_neq(ui_state);
    }
    if display.pose_library {
        let mut settings = state.library.clone();
        pose_library::pose_library_window(
            ui.ctx(),
            document,
            &selection.joints(document),
            &mut settings,
            &mut display.pose_library,
            out,
        );
        state.library.set_if_neq(settings);
    }
    if display.physics_ghost {
        let ghost_inputs = physics_ghost::GhostWindowInputs {
            document: &inputs.document,
            view: inputs.physics.view.as_ref().and_then(|v| v.as_ref().ok()),
            ghost: inputs.beside.ghost.as_ref(),
            selected: state.range.0,
        };
        let open = &mut display.physics_ghost;
        physics_ghost::show(ui.ctx(), &ghost_inputs, &mut state.ghost_form, open, out);
    }
    retarget_map::retarget_map_window(ui.ctx(), &mut prompts.retarget, out);
    if let Some(grip) = inputs.active.handle() {
        dialogs::handle_value(ui.ctx(), document, &grip);
    }
    dialogs::quit_question(ui, prompts, out);
    dialogs::recovery_question(ui, prompts, out);
    dialogs::path_prompt(ui, prompts, out);
}

/// The status bar along the bottom.
fn status_bar(
    ui: &mut egui::Ui,
    inputs: &PanelInputs,
    state: &PanelState,
    resolution: &mut ViewResolution,
) {
    status::status_bar(
        ui,
        &status::StatusView {
            document: &inputs.document.0,
            solving: &inputs.solving,
            solve: &inputs.solve,
            locks: &inputs.lock_status,
            notices: &state.notices,
        },
        resolution,
    );
}

/// bevy_egui reports the keyboard's modifiers as an event in every pass, changed or not; egui
/// answers any event with a request to repaint at once, and bevy_egui turns that into another
/// frame, so the editor would never rest. The event is kept only when the modifiers changed
/// (`raw.modifiers` carries them in every pass regardless).
fn quiet_unchanged_modifiers(raw: &mut egui::RawInput, last: &mut Option<egui::Modifiers>) {
    raw.events.retain(|event| match event {
        egui::Event::ModifiersChanged(now) => {
            let changed = *last != Some(*now);
            *last = Some(*now);
            changed
        }
        _ => true,
    });
}

/// Sends what the panels asked for.
fn send(
    out: PanelOutput,
    document: &marionette_editing::Document,
    selection: &Selection,
    notices: &mut Notices,
    requests: &mut Requests,
) {
    for edit in out.edits {
        requests.edit(edit);
    }
    for command in out.commands {
        requests.command(command, document, selection, notices);
    }
    for file in out.files {
        requests.files.write(file);
    }
    for request in out.timeline {
        requests.timeline.write(request);
    }
    for change in out.beside {
        requests.beside(change);
    }
    if let Some(quit) = out.quit {
        requests.quit.write(quit);
    }
    if let Some(recover) = out.recovery {
        requests.recovery.write(RecoveryAnswer(recover));
    }
}
