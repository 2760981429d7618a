//! The timeline panel (along the bottom, above the Locks panel): the sequences list on the left,
//! each row with a flipbook of a few of its poses drawn small (Welman's icons, 1993 §6); then the
//! transport (first, previous key, play/pause, next key, last, loop), the frame, fps and
//! interpolation; the ruler with the current-frame cursor (click or drag to scrub, Shift+drag to
//! select a range of frames), the key markers (drag one to move the key), one lane per lock with
//! its frame range as a bar (drag its ends; right-click: every frame ↔ the selected range) and the
//! violation strip: every frame's largest lock error, red where it passes the solver's tolerance
//! (0.1 mm unless changed). What the panel
//! asks for goes out as [`TimelineAction`]s.

use bevy::prelude::*;
use bevy_egui::egui;
use marionette_document::{RootInterpolation, RotationInterpolation};
use marionette_skeleton::{Fk, Skeleton};

use crate::state::Editor;
use crate::timeline::{
    BakedStrip, FrameClipboard, FrameSelection, OnionSkin, Playback, SequenceSettings,
    TimelineAction, key_frames,
};

/// Width of the lane names left of the ruler.
const GUTTER: f32 = 96.0;
const RULER_H: f32 = 18.0;
const KEYS_H: f32 = 16.0;
const LANE_H: f32 = 13.0;
const STRIP_H: f32 = 12.0;

/// The panel's own state between frames: what is being dragged, the text being typed.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct TimelineUi {
    grab: Option<Grab>,
    renaming: Option<(usize, String)>,
    retime: i64,
    insert: i64,
}

/// What a drag on the ruler holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Grab {
    /// Scrubbing.
    Scrub,
    /// Selecting frames from this one.
    Range(i64),
    /// A key from this frame, now at that one.
    Key(i64, i64),
    /// A lock's range end (lock, which end: false first, true last, the frame now).
    LockEnd(usize, bool, i64),
}

/// The timeline's resources, as the panels' system takes them.
#[derive(bevy::ecs::system::SystemParam)]
pub struct TimelineParams<'w> {
    /// Playback.
    pub playback: ResMut<'w, Playback>,
    /// The selected frames.
    pub selection: ResMut<'w, FrameSelection>,
    /// Onion skins.
    pub onion: ResMut<'w, OnionSkin>,
    /// The baked frames of the shown sequence.
    pub strip: Res<'w, BakedStrip>,
    /// What was copied.
    pub clipboard: Res<'w, FrameClipboard>,
    /// The panel's state.
    pub state: ResMut<'w, TimelineUi>,
    /// Where the panel's actions go.
    pub actions: MessageWriter<'w, TimelineAction>,
}

impl TimelineParams<'_> {
    /// The panel, then its actions sent.
    pub fn show(&mut self, ui: &mut egui::Ui, editor: &Editor) {
        let mut actions = Vec::new();
        timeline_panel(
            ui,
            editor,
            TimelineView {
                playback: &mut self.playback,
                selection: &mut self.selection,
                onion: &mut self.onion,
                strip: &self.strip,
                clipboard: &self.clipboard,
                state: &mut self.state,
            },
            &mut actions,
        );
        for a in actions {
            self.actions.write(a);
        }
    }
}

/// The resources the panel reads and edits.
pub struct TimelineView<'a> {
    /// Playback.
    pub playback: &'a mut Playback,
    /// The selected frames.
    pub selection: &'a mut FrameSelection,
    /// Onion skins on or off.
    pub onion: &'a mut OnionSkin,
    /// The baked frames of the shown sequence.
    pub strip: &'a BakedStrip,
    /// What was copied.
    pub clipboard: &'a FrameClipboard,
    /// The panel's state.
    pub state: &'a mut TimelineUi,
}

/// The whole panel; the actions it asks for are pushed on `actions`.
pub fn timeline_panel(
    ui: &mut egui::Ui,
    editor: &Editor,
    view: TimelineView<'_>,
    actions: &mut Vec<TimelineAction>,
) {
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(200.0);
            sequences_list(ui, editor, view.state, actions);
        });
        ui.separator();
        ui.vertical(|ui| {
            transport(ui, editor, view.playback, view.onion, actions);
            range_tools(
                ui,
                editor,
                view.selection,
                view.clipboard,
                view.state,
                actions,
            );
            ruler(ui, editor, view.selection, view.strip, view.state, actions);
        });
    });
}

fn sequences_list(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut TimelineUi,
    actions: &mut Vec<TimelineAction>,
) {
    let doc = &editor.document;
    ui.horizontal(|ui| {
        ui.strong("Sequences");
        if ui
            .small_button("New")
            .on_hover_text("A new sequence keyed with this pose")
            .clicked()
        {
            actions.push(TimelineAction::NewSequence);
        }
        if let Some(i) = doc.current_sequence() {
            if ui.small_button("Duplicate").clicked() {
                actions.push(TimelineAction::Duplicate(i));
            }
            if ui.small_button("Delete").clicked() {
                actions.push(TimelineAction::Delete(i));
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
                                actions.push(TimelineAction::Rename(i, text.clone()));
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
                                actions.push(TimelineAction::Select((!shown).then_some(i)));
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
    painter.rect_filled(rect, 2.0, egui::Color32::from_gray(28));
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
                    egui::Stroke::new(1.0, egui::Color32::from_rgb(200, 205, 215)),
                );
            }
        }
    }
}

fn transport(
    ui: &mut egui::Ui,
    editor: &Editor,
    playback: &mut Playback,
    onion: &mut OnionSkin,
    actions: &mut Vec<TimelineAction>,
) {
    let doc = &editor.document;
    let shown = doc.current_sequence().and_then(|i| doc.sequences().get(i));
    ui.horizontal(|ui| {
        let buttons: [(&str, &str, TimelineAction); 5] = [
            ("⏮", "First key (Home)", TimelineAction::ToEnd(false)),
            (
                "◀ Key",
                "Previous key (Alt+Left)",
                TimelineAction::ToKey(-1),
            ),
            (
                if playback.playing { "⏸" } else { "▶" },
                "Play or pause (Space)",
                TimelineAction::Play(!playback.playing),
            ),
            ("Key ▶", "Next key (Alt+Right)", TimelineAction::ToKey(1)),
            ("⏭", "Last key (End)", TimelineAction::ToEnd(true)),
        ];
        for (text, hint, action) in buttons {
            if ui.button(text).on_hover_text(hint).clicked() {
                actions.push(action);
            }
        }
        ui.checkbox(&mut playback.looping, "Loop");
        ui.separator();
        let mut frame = doc.frame();
        ui.label("Frame");
        if ui
            .add(egui::DragValue::new(&mut frame).speed(0.2))
            .changed()
        {
            actions.push(TimelineAction::SetFrame(frame));
        }
        if ui.button("Set key").on_hover_text("K").clicked() {
            actions.push(TimelineAction::SetKey);
        }
        let on_key = key_frames(editor).contains(&doc.frame());
        if ui
            .add_enabled(on_key, egui::Button::new("Delete key"))
            .on_hover_text("Alt+K")
            .clicked()
        {
            actions.push(TimelineAction::DeleteKey);
        }
        ui.checkbox(&mut onion.0, "Onion skin")
            .on_hover_text("Show the figures at the previous and next keys");
        if let Some(seq) = shown {
            ui.separator();
            let mut settings = SequenceSettings {
                fps: seq.fps,
                rotation: seq.rotation,
                root: seq.root,
                hold_locks: seq.hold_locks,
            };
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
                actions.push(TimelineAction::Settings(settings));
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
    editor: &Editor,
    selection: &mut FrameSelection,
    clipboard: &FrameClipboard,
    state: &mut TimelineUi,
    actions: &mut Vec<TimelineAction>,
) {
    if editor.document.current_sequence().is_none() {
        return;
    }
    ui.horizontal(|ui| {
        let range = selection.0;
        match range {
            Some((a, b)) => ui.label(format!("Frames {a}–{b}")),
            None => ui.weak("Shift+drag on the ruler selects frames"),
        };
        let has = range.is_some();
        for (text, action) in [
            ("Copy", TimelineAction::Copy),
            ("Cut", TimelineAction::Cut),
            ("Delete", TimelineAction::DeleteFrames),
            ("Slide −1", TimelineAction::Slide(-1)),
            ("Slide +1", TimelineAction::Slide(1)),
        ] {
            if ui.add_enabled(has, egui::Button::new(text)).clicked() {
                actions.push(action);
            }
        }
        if state.retime < 1 {
            state.retime = range.map_or(12, |(a, b)| b - a + 1);
        }
        ui.add(
            egui::DragValue::new(&mut state.retime)
                .range(1..=100_000)
                .suffix(" frames"),
        );
        if ui
            .add_enabled(has, egui::Button::new("Retime"))
            .on_hover_text("Stretch or shrink the selected frames to this length")
            .clicked()
        {
            actions.push(TimelineAction::Retime(state.retime));
        }
        if ui
            .add_enabled(clipboard.0.is_some(), egui::Button::new("Paste"))
            .on_hover_text("Insert the copied frames at the current frame")
            .clicked()
        {
            actions.push(TimelineAction::Paste);
        }
        if state.insert < 1 {
            state.insert = 1;
        }
        ui.add(egui::DragValue::new(&mut state.insert).range(1..=100_000));
        if ui.button("Insert frames").clicked() {
            actions.push(TimelineAction::InsertFrames(state.insert));
        }
        if has
            && ui
                .small_button("✕")
                .on_hover_text("Clear the selection")
                .clicked()
        {
            selection.0 = None;
        }
    });
}

/// The frames the ruler shows: from the first key (or 0) to past the last key and the cursor.
fn visible_frames(editor: &Editor, selection: &FrameSelection) -> (i64, i64) {
    let keys = key_frames(editor);
    let frame = editor.document.frame();
    let mut start = keys.first().copied().unwrap_or(0).min(0).min(frame);
    let mut end = keys.last().copied().unwrap_or(0).max(frame) + 12;
    if let Some((a, b)) = selection.0 {
        start = start.min(a);
        end = end.max(b + 1);
    }
    (start, end.max(start + 48))
}

fn ruler(
    ui: &mut egui::Ui,
    editor: &Editor,
    selection: &mut FrameSelection,
    strip: &BakedStrip,
    state: &mut TimelineUi,
    actions: &mut Vec<TimelineAction>,
) {
    let doc = &editor.document;
    let locks = doc.locks();
    let height = RULER_H + KEYS_H + LANE_H * locks.len() as f32 + STRIP_H + 4.0;
    let width = ui.available_width();
    let (response, painter) =
        ui.allocate_painter(egui::vec2(width, height), egui::Sense::click_and_drag());
    let rect = response.rect;
    let (start, end) = visible_frames(editor, selection);
    let left = rect.min.x + GUTTER;
    let ppf = (rect.max.x - left) / (end - start + 1) as f32;
    let x_of = |f: i64| left + (f - start) as f32 * ppf + ppf * 0.5;
    let frame_at = |x: f32| start + ((x - left) / ppf).floor() as i64;
    let keys_top = rect.min.y + RULER_H;
    let lanes_top = keys_top + KEYS_H;
    let strip_top = lanes_top + LANE_H * locks.len() as f32;
    let text = egui::FontId::proportional(11.0);
    let weak = egui::Color32::from_gray(150);
    painter.rect_filled(rect, 0.0, egui::Color32::from_gray(24));
    // Selected range.
    if let Some((a, b)) = selection.0 {
        let r = egui::Rect::from_x_y_ranges(
            (x_of(a) - ppf * 0.5)..=(x_of(b) + ppf * 0.5),
            rect.min.y..=rect.max.y,
        );
        painter.rect_filled(
            r,
            0.0,
            egui::Color32::from_rgba_unmultiplied(90, 140, 255, 40),
        );
    }
    // Ticks and numbers.
    let every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&n| n as f32 * ppf >= 34.0)
        .unwrap_or(1000);
    for f in start..=end {
        let x = x_of(f);
        let long = f % every == 0;
        if ppf >= 3.0 || long {
            let h = if long { 7.0 } else { 3.0 };
            painter.line_segment(
                [
                    egui::pos2(x, rect.min.y + RULER_H - h),
                    egui::pos2(x, rect.min.y + RULER_H),
                ],
                egui::Stroke::new(1.0, weak),
            );
        }
        if long {
            painter.text(
                egui::pos2(x + 2.0, rect.min.y + 1.0),
                egui::Align2::LEFT_TOP,
                f,
                text.clone(),
                weak,
            );
        }
    }
    // Lane names.
    let name = |y: f32, s: &str, colour: egui::Color32| {
        painter.text(
            egui::pos2(rect.min.x + 4.0, y),
            egui::Align2::LEFT_CENTER,
            s,
            text.clone(),
            colour,
        );
    };
    name(keys_top + KEYS_H * 0.5, "keys", weak);
    // Key markers (the dragged one where it is being dragged to).
    let keys = key_frames(editor);
    for &k in &keys {
        let shown_at = match state.grab {
            Some(Grab::Key(from, to)) if from == k => to,
            _ => k,
        };
        let c = egui::pos2(x_of(shown_at), keys_top + KEYS_H * 0.5);
        let r = 5.0;
        painter.add(egui::Shape::convex_polygon(
            vec![
                c + egui::vec2(0.0, -r),
                c + egui::vec2(r, 0.0),
                c + egui::vec2(0.0, r),
                c + egui::vec2(-r, 0.0),
            ],
            egui::Color32::from_rgb(255, 200, 60),
            egui::Stroke::new(1.0, egui::Color32::BLACK),
        ));
    }
    // Lock lanes.
    for (i, lock) in locks.iter().enumerate() {
        let y = lanes_top + LANE_H * i as f32;
        let colour = if lock.enabled {
            egui::Color32::from_rgb(120, 200, 255)
        } else {
            weak
        };
        name(y + LANE_H * 0.5, &lock.name, colour);
        let (a, b) = match (state.grab, lock.frames()) {
            (Some(Grab::LockEnd(l, last, f)), Some((a, b))) if l == i => {
                if last {
                    (a, f.max(a))
                } else {
                    (f.min(b), b)
                }
            }
            (_, Some(range)) => range,
            (_, None) => (start, end),
        };
        let bar = egui::Rect::from_x_y_ranges(
            (x_of(a) - ppf * 0.5).max(left)..=(x_of(b) + ppf * 0.5).min(rect.max.x),
            (y + 2.0)..=(y + LANE_H - 2.0),
        );
        let fill = if lock.frames().is_none() {
            colour.gamma_multiply(0.35)
        } else {
            colour.gamma_multiply(0.8)
        };
        painter.rect_filled(bar, 2.0, fill);
    }
    // The violation strip.
    name(strip_top + STRIP_H * 0.5, "violation", weak);
    for &(f, error) in &strip.errors {
        if f < start || f > end {
            continue;
        }
        let held = error <= editor.runner.settings().tolerance;
        let colour = if held {
            egui::Color32::from_rgb(60, 150, 80)
        } else {
            egui::Color32::from_rgb(230, 70, 60)
        };
        let r = egui::Rect::from_x_y_ranges(
            (x_of(f) - ppf * 0.5)..=(x_of(f) + ppf * 0.5),
            (strip_top + 2.0)..=(strip_top + STRIP_H - 1.0),
        );
        painter.rect_filled(r, 0.0, colour);
    }
    // The current frame.
    let x = x_of(doc.frame());
    painter.line_segment(
        [egui::pos2(x, rect.min.y), egui::pos2(x, rect.max.y)],
        egui::Stroke::new(2.0, egui::Color32::from_rgb(255, 80, 80)),
    );
    interact(
        &response,
        editor,
        selection,
        state,
        actions,
        &frame_at,
        &x_of,
        (keys_top, lanes_top, strip_top),
        left,
    );
}

#[allow(clippy::too_many_arguments)]
fn interact(
    response: &egui::Response,
    editor: &Editor,
    selection: &mut FrameSelection,
    state: &mut TimelineUi,
    actions: &mut Vec<TimelineAction>,
    frame_at: &dyn Fn(f32) -> i64,
    x_of: &dyn Fn(i64) -> f32,
    (keys_top, lanes_top, strip_top): (f32, f32, f32),
    left: f32,
) {
    let Some(pos) = response.interact_pointer_pos() else {
        return;
    };
    let doc = &editor.document;
    let frame = frame_at(pos.x.max(left));
    let lane = (pos.y >= lanes_top && pos.y < strip_top)
        .then(|| ((pos.y - lanes_top) / LANE_H) as usize)
        .filter(|&l| l < doc.locks().len());
    if response.drag_started() {
        // What the drag holds is decided where the button went down (a drag starts only after
        // the pointer has moved a little).
        let pos = response
            .ctx
            .input(|i| i.pointer.press_origin())
            .unwrap_or(pos);
        let frame = frame_at(pos.x.max(left));
        let lane = (pos.y >= lanes_top && pos.y < strip_top)
            .then(|| ((pos.y - lanes_top) / LANE_H) as usize)
            .filter(|&l| l < doc.locks().len());
        let shift = response.ctx.input(|i| i.modifiers.shift);
        let near_key = key_frames(editor)
            .into_iter()
            .find(|&k| (x_of(k) - pos.x).abs() <= 6.0);
        state.grab = Some(if shift {
            Grab::Range(frame)
        } else if let Some(l) = lane {
            match doc.locks()[l].frames() {
                Some((a, b)) => {
                    let last = (x_of(b) - pos.x).abs() < (x_of(a) - pos.x).abs();
                    Grab::LockEnd(l, last, frame)
                }
                None => Grab::Scrub,
            }
        } else if pos.y >= keys_top && pos.y < lanes_top && near_key.is_some() {
            let k = near_key.unwrap_or(frame);
            Grab::Key(k, k)
        } else {
            Grab::Scrub
        });
    }
    if response.dragged() {
        match state.grab {
            Some(Grab::Scrub) if frame != doc.frame() => {
                actions.push(TimelineAction::SetFrame(frame))
            }
            Some(Grab::Range(from)) => selection.0 = Some((from.min(frame), from.max(frame))),
            Some(Grab::Key(from, _)) => state.grab = Some(Grab::Key(from, frame)),
            Some(Grab::LockEnd(l, last, _)) => state.grab = Some(Grab::LockEnd(l, last, frame)),
            _ => {}
        }
    }
    if response.drag_stopped() {
        match state.grab.take() {
            Some(Grab::Key(from, to)) if from != to => {
                actions.push(TimelineAction::MoveKey { from, to });
            }
            Some(Grab::LockEnd(l, last, f)) => {
                if let Some((a, b)) = doc.locks()[l].frames() {
                    let range = if last { (a, f.max(a)) } else { (f.min(b), b) };
                    actions.push(TimelineAction::LockFrames(l, Some(range)));
                }
            }
            _ => {}
        }
    }
    if response.secondary_clicked()
        && let Some(l) = lane
    {
        let range = match doc.locks()[l].frames() {
            Some(_) => None,
            None => Some(selection.0.unwrap_or((doc.frame(), doc.frame() + 24))),
        };
        actions.push(TimelineAction::LockFrames(l, range));
    } else if response.clicked() && lane.is_none() {
        actions.push(TimelineAction::SetFrame(frame));
    }
}
