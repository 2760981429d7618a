//! The timeline panel (along the bottom, above the Locks panel): the sequences list on the left,
//! each row with a flipbook of a few of its poses drawn small (Welman's icons, 1993 §6); then the
//! transport (first, previous key, play/pause, next key, last, loop), the frame, fps and
//! interpolation, the range tools, and the [`ruler`](super::ruler). What the panel asks for goes
//! out as edits, commands and timeline requests.

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_document::{RootInterpolation, RotationInterpolation};
use marionette_editing::{Document, Edit, SequenceSettings};
use marionette_skeleton::{Fk, Skeleton};

use super::output::PanelOutput;
use super::ruler::{Grab, RulerView, ruler};
use super::theme;
use crate::derived::BakedStrip;
use crate::input::Command;
use crate::messages::TimelineRequest;
use crate::timeline::{FrameClipboard, FrameRange, Playback, key_frames};

/// The panel's own state between frames: what the ruler's drag holds, the text being typed.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct TimelineUi {
    grab: Option<Grab>,
    key_menu: Option<super::key_menu::KeyMenu>,
    renaming: Option<(usize, String)>,
    retime: i64,
    insert: i64,
    joint_lanes: super::joint_lanes::JointLanes,
}

/// What the timeline panel shows.
pub struct TimelineView<'a> {
    /// The open document.
    pub document: &'a Document,
    /// The shown sequence, baked.
    pub strip: &'a BakedStrip,
    /// What was copied.
    pub clipboard: &'a FrameClipboard,
    /// Within this the locks hold.
    pub tolerance: f64,
    /// The physics assistant's measures, when View ▸ Physics is on.
    pub physics: Option<&'a marionette_editing::physics_view::PhysicsView>,
}

/// The view state the timeline panel sets.
pub struct TimelineState<'a> {
    /// Playback (the loop switch).
    pub playback: &'a mut Playback,
    /// The frames selected on the ruler.
    pub range: &'a mut FrameRange,
    /// Whether the onion skins are shown.
    pub onion_skins: &'a mut bool,
    /// The panel's own state.
    pub ui: &'a mut TimelineUi,
}

/// The whole panel.
pub fn timeline_panel(
    ui: &mut egui::Ui,
    view: &TimelineView,
    state: &mut TimelineState,
    out: &mut PanelOutput,
) {
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(200.0);
            sequences_list(ui, view.document, state.ui, out);
        });
        ui.separator();
        ui.vertical(|ui| {
            transport(ui, view.document, state, out);
            range_tools(ui, view, state, out);
            let ruler_view = RulerView {
                document: view.document,
                strip: view.strip,
                tolerance: view.tolerance,
                physics: view.physics,
            };
            // A lane per lock: many locks (a capture's foot contacts) scroll instead of
            // pushing the views away.
            egui::ScrollArea::vertical()
                .id_salt("ruler")
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    ruler(
                        ui,
                        &ruler_view,
                        state.range,
                        &mut state.ui.grab,
                        &mut state.ui.key_menu,
                        out,
                    );
                    super::joint_lanes::joint_lanes(
                        ui,
                        view.document,
                        state.range,
                        &mut state.ui.joint_lanes,
                        out,
                    );
                    super::key_menu::key_menu(ui.ctx(), view.document, &mut state.ui.key_menu, out);
                });
        });
    });
}

fn sequences_list(
    ui: &mut egui::Ui,
    doc: &Document,
    state: &mut TimelineUi,
    out: &mut PanelOutput,
) {
    ui.horizontal(|ui| {
        ui.strong("Sequences");
        if ui
            .small_button("New")
            .on_hover_text("A new sequence keyed with this pose")
            .clicked()
        {
            out.edits.push(Edit::NewSequence);
        }
        if let Some(i) = doc.current_sequence() {
            if ui.small_button("Duplicate").clicked() {
                out.edits.push(Edit::DuplicateSequence(i));
            }
            if ui.small_button("Delete").clicked() {
                out.edits.push(Edit::DeleteSequence(i));
            }
        }
    });
    egui::ScrollArea::vertical()
        .id_salt("sequences")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if doc.sequences().is_empty() {
                ui.weak("None yet: K keys the pose at the current frame.");
            }
            for (i, seq) in doc.sequences().iter().enumerate() {
                ui.horizontal(|ui| {
                    let poses: Vec<&[f64]> =
                        pick(&seq.keys, 4).map(|k| k.pose.q.as_slice()).collect();
                    flipbook(ui, doc.skeleton(), &poses);
                    let shown = doc.current_sequence() == Some(i);
                    match &mut state.renaming {
                        Some((r, text)) if *r == i => {
                            let edit = ui.add(egui::TextEdit::singleline(text).desired_width(90.0));
                            if edit.lost_focus() {
                                out.edits.push(Edit::RenameSequence(i, text.clone()));
                                state.renaming = None;
                            } else {
                                edit.request_focus();
                            }
                        }
                        _ => {
                            let label = ui
                                .selectable_label(shown, &seq.name)
                                .on_hover_text("Click to show; double-click to rename");
                            if label.double_clicked() {
                                state.renaming = Some((i, seq.name.clone()));
                            } else if label.clicked() {
                                out.edits.push(Edit::SelectSequence((!shown).then_some(i)));
                            }
                        }
                    }
                });
            }
        });
}

/// Up to `n` items spread evenly over `items`.
fn pick<T>(items: &[T], n: usize) -> impl Iterator<Item = &T> {
    let len = items.len();
    let count = len.min(n);
    (0..count).map(move |k| {
        &items[if count > 1 {
            k * (len - 1) / (count - 1)
        } else {
            0
        }]
    })
}

/// A few poses drawn small, side by side, as seen from the front.
fn flipbook(ui: &mut egui::Ui, skeleton: &Skeleton, poses: &[&[f64]]) {
    let cell = egui::vec2(18.0, 34.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell.x * 4.0, cell.y), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, theme::FLIPBOOK_BACKGROUND);
    let mut fk = Fk::new(skeleton);
    for (k, q) in poses.iter().enumerate() {
        fk.update(skeleton, q);
        let origin = rect.min + egui::vec2(cell.x * (k as f32 + 0.5), cell.y - 2.0);
        let root = fk.joint_position(skeleton.root());
        let scale = (cell.y - 4.0) / 1.9;
        let at = |p: nalgebra::Vector3<f64>| {
            origin + egui::vec2(((p.x - root.x) as f32) * scale, -(p.y as f32) * scale)
        };
        for j in skeleton.joint_ids() {
            if let Some(parent) = skeleton.joint(j).parent {
                painter.line_segment(
                    [at(fk.joint_position(parent)), at(fk.joint_position(j))],
                    egui::Stroke::new(1.0, theme::FLIPBOOK_FIGURE),
                );
            }
        }
    }
}

fn transport(ui: &mut egui::Ui, doc: &Document, state: &mut TimelineState, out: &mut PanelOutput) {
    let shown = doc.current_sequence().and_then(|i| doc.sequences().get(i));
    ui.horizontal(|ui| {
        let playing = state.playback.playing;
        let buttons: [(&str, Command); 5] = [
            ("⏮", Command::FirstKey),
            ("◀ Key", Command::PreviousKey),
            (if playing { "⏸" } else { "▶" }, Command::PlayPause),
            ("Key ▶", Command::NextKey),
            ("⏭", Command::LastKey),
        ];
        for (text, command) in buttons {
            let hint = format!("{} ({})", command.label(), command.shortcut_text());
            if ui.button(text).on_hover_text(hint).clicked() {
                out.commands.push(command);
            }
        }
        ui.checkbox(&mut state.playback.looping, "Loop");
        ui.separator();
        let mut frame = doc.frame();
        ui.label("Frame");
        if ui
            .add(egui::DragValue::new(&mut frame).speed(0.2))
            .changed()
        {
            out.edits.push(Edit::GoToFrame(frame));
        }
        if ui
            .button("Set key")
            .on_hover_text(Command::SetKey.shortcut_text())
            .clicked()
        {
            out.commands.push(Command::SetKey);
        }
        let on_key = key_frames(doc).contains(&doc.frame());
        if ui
            .add_enabled(on_key, egui::Button::new("Delete key"))
            .on_hover_text(Command::DeleteKey.shortcut_text())
            .clicked()
        {
            out.commands.push(Command::DeleteKey);
        }
        ui.checkbox(state.onion_skins, "Onion skin")
            .on_hover_text("Show the figures at the previous and next keys");
        if let Some(seq) = shown {
            ui.separator();
            let mut settings = SequenceSettings::of(seq);
            let before = settings.clone();
            ui.label("fps");
            ui.add(
                egui::DragValue::new(&mut settings.fps)
                    .range(1.0..=240.0)
                    .speed(0.5),
            );
            egui::ComboBox::from_id_salt("rotation")
                .selected_text(format!("{:?}", settings.rotation))
                .show_ui(ui, |ui| {
                    for r in [RotationInterpolation::Slerp, RotationInterpolation::Squad] {
                        ui.selectable_value(&mut settings.rotation, r, format!("{r:?}"));
                    }
                });
            egui::ComboBox::from_id_salt("root")
                .selected_text(root_name(&settings.root))
                .show_ui(ui, |ui| {
                    for r in [
                        RootInterpolation::Linear,
                        RootInterpolation::CatmullRom,
                        RootInterpolation::KochanekBartels {
                            tension: 0.0,
                            continuity: 0.0,
                            bias: 0.0,
                        },
                    ] {
                        let name = root_name(&r);
                        if ui
                            .selectable_label(root_name(&settings.root) == name, name)
                            .clicked()
                        {
                            settings.root = r;
                        }
                    }
                });
            ui.checkbox(&mut settings.hold_locks, "Hold locks");
            if settings != before {
                out.edits.push(Edit::SequenceSettings(settings));
            }
            let (first, last) = (seq.keys[0].frame, seq.keys[seq.keys.len() - 1].frame);
            ui.weak(format!("{first}–{last}, {} keys", seq.keys.len()));
        }
    });
}

fn root_name(r: &RootInterpolation) -> &'static str {
    match r {
        RootInterpolation::Linear => "Linear",
        RootInterpolation::CatmullRom => "Catmull-Rom",
        RootInterpolation::KochanekBartels { .. } => "Kochanek-Bartels",
    }
}

fn range_tools(
    ui: &mut egui::Ui,
    view: &TimelineView,
    state: &mut TimelineState,
    out: &mut PanelOutput,
) {
    let doc = view.document;
    if doc.current_sequence().is_none() {
        return;
    }
    ui.horizontal(|ui| {
        let range = state.range.0;
        match range {
            Some((a, b)) => ui.label(format!("Frames {a}–{b}")),
            None => ui.weak("Shift+drag on the ruler selects frames"),
        };
        let has = range.is_some();
        for text in ["Copy", "Cut", "Delete", "Slide −1", "Slide +1"] {
            if !ui.add_enabled(has, egui::Button::new(text)).clicked() {
                continue;
            }
            let Some((first, last)) = range else {
                continue;
            };
            match text {
                "Copy" => out.timeline.push(TimelineRequest::Copy),
                "Cut" => out.timeline.push(TimelineRequest::Cut),
                "Delete" => out.edits.push(Edit::DeleteFrames { first, last }),
                _ => out.edits.push(Edit::SlideFrames {
                    first,
                    last,
                    delta: if text == "Slide −1" { -1 } else { 1 },
                }),
            }
        }
        let ui_state = &mut *state.ui;
        if ui_state.retime < 1 {
            ui_state.retime = range.map_or(12, |(a, b)| b - a + 1);
        }
        ui.add(
            egui::DragValue::new(&mut ui_state.retime)
                .range(1..=100_000)
                .suffix(" frames"),
        );
        if ui
            .add_enabled(has, egui::Button::new("Retime"))
            .on_hover_text("Stretch or shrink the selected frames to this length")
            .clicked()
            && let Some((first, last)) = range
        {
            out.edits.push(Edit::RetimeFrames {
                first,
                last,
                length: ui_state.retime,
            });
        }
        if ui
            .add_enabled(view.clipboard.0.is_some(), egui::Button::new("Paste"))
            .on_hover_text("Insert the copied frames at the current frame")
            .clicked()
            && let Some(clip) = &view.clipboard.0
        {
            out.edits.push(Edit::PasteFrames {
                at: doc.frame(),
                clip: clip.clone(),
            });
        }
        if ui_state.insert < 1 {
            ui_state.insert = 1;
        }
        ui.add(egui::DragValue::new(&mut ui_state.insert).range(1..=100_000));
        if ui.button("Insert frames").clicked() {
            out.edits.push(Edit::InsertFrames {
                at: doc.frame(),
                count: ui_state.insert,
            });
        }
        if has
            && ui
                .small_button("✕")
                .on_hover_text("Clear the selection")
                .clicked()
        {
            state.range.0 = None;
        }
    });
}
