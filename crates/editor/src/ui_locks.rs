//! The Locks panel (along the bottom): buttons that lock the selection as a position,
//! orientation, pose, one axis, floor plane, line, two sites together or the centre of mass over
//! its ground point, and one row per lock with its name (editable), kind, enabled switch, weight,
//! priority, live violation, frame range, the joints that keep it, and delete. Every change is
//! one undo step ([`marionette_editing::lock_edits`]); hovering a row highlights its marker.

use bevy_egui::egui;
use marionette_document::{Lock, LockKind, Violation};
use marionette_ik::GoalKind;
use marionette_skeleton::Skeleton;

use crate::lock_markers::LockHover;
use crate::selection::Selection;
use crate::state::Editor;

/// Colour of a violation: green within the tolerance, red beyond.
fn violation_colour(held: bool) -> egui::Color32 {
    if held {
        egui::Color32::from_rgb(110, 220, 120)
    } else {
        egui::Color32::from_rgb(255, 100, 90)
    }
}

/// The lock's kind as the panel names it.
pub fn kind_label(lock: &Lock) -> &'static str {
    match &lock.goal().kind {
        GoalKind::Position { .. } | GoalKind::Point { .. } => "position",
        GoalKind::Orientation { axes, .. } if axes.iter().filter(|&&a| a).count() == 1 => "axis",
        GoalKind::Orientation { .. } => "orientation",
        GoalKind::Pose { .. } => "pose",
        GoalKind::Plane { .. } => "plane",
        GoalKind::Line { .. } => "line",
        GoalKind::Coincide { .. } => "two sites",
        GoalKind::CenterOfMass { .. } => "centre of mass",
        GoalKind::Aim { .. } => "aim",
    }
}

/// The joints that keep the lock: "left hip … left ankle (6 DOFs)".
pub fn chain_label(skeleton: &Skeleton, lock: &Lock) -> String {
    let columns = lock.limb().columns();
    let joints: Vec<&str> = lock
        .limb()
        .joints(skeleton)
        .into_iter()
        .map(|j| skeleton.joint(j).name.as_str())
        .collect();
    let span = match joints.as_slice() {
        [] => "nothing".to_owned(),
        [one] => (*one).to_owned(),
        [first, .., last] if joints.len() > 6 => {
            format!("{} joints ({first} … {last})", joints.len())
        }
        [first, .., last] => format!("{first} … {last}"),
    };
    format!("{span} ({} DOFs)", columns.len())
}

/// The worst violation among the locks holding now (enabled, and on the current frame while a
/// sequence is shown): (lock index, violation), if any lock holds.
pub fn worst_lock(editor: &Editor) -> Option<(usize, Violation)> {
    let locks = editor.document.locks();
    editor
        .document
        .lock_violations()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| locks[*i].active_at(editor.document.lock_frame()))
        .max_by(|a, b| a.1.largest().total_cmp(&b.1.largest()))
}

/// The buttons that lock the selection.
fn lock_buttons(ui: &mut egui::Ui, editor: &mut Editor, selection: &Selection) {
    ui.horizontal_wrapped(|ui| {
        let selected = selection.joint(&editor.document).is_some();
        let buttons: [(&str, &str, LockKind); 7] = [
            (
                "Position",
                "L: hold the selected point where it is",
                LockKind::Position,
            ),
            (
                "Orientation",
                "hold the selected joint's orientation",
                LockKind::Orientation,
            ),
            ("Pose", "Shift+L: position and orientation", LockKind::Pose),
            (
                "One axis",
                "hold the direction of the joint's Y axis",
                LockKind::Axis(1),
            ),
            (
                "Floor plane",
                "keep the point on the horizontal plane through where it is",
                LockKind::Plane,
            ),
            (
                "Line",
                "keep the point on the left–right line through where it is",
                LockKind::Line(nalgebra::Vector3::x()),
            ),
            (
                "Centre of mass",
                "keep the centre of mass over its current ground point",
                LockKind::CenterOfMass,
            ),
        ];
        ui.label("Lock the selection:");
        for (label, hint, kind) in buttons {
            let enabled = selected || kind == LockKind::CenterOfMass;
            if ui
                .add_enabled(enabled, egui::Button::new(label))
                .on_hover_text(hint)
                .clicked()
            {
                match kind {
                    LockKind::CenterOfMass => {
                        let root = editor.skeleton().root();
                        editor.lock(
                            marionette_document::LockPart::Point(root, nalgebra::Vector3::zeros()),
                            kind,
                        );
                    }
                    _ => {
                        editor.lock_selection(selection, kind);
                    }
                }
            }
        }
        let pair = selection
            .site(&editor.document)
            .zip(selection.previous_site(&editor.document));
        if ui
            .add_enabled(pair.is_some(), egui::Button::new("Two sites together"))
            .on_hover_text("keep the last two picked site handles touching")
            .clicked()
            && let Some((a, b)) = pair
        {
            let editor = &mut *editor;
            if let Err(e) = editor.document.lock_together(b, a, &mut editor.runner) {
                editor.fail(format!("Could not lock: {e}"));
            }
        }
    });
}

/// The Locks panel.
pub fn locks_panel(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    selection: &Selection,
    hover: &mut LockHover,
) {
    ui.horizontal(|ui| {
        ui.strong("Locks");
        match worst_lock(editor) {
            Some((i, v)) => {
                let held = v.within(editor.runner.settings().tolerance);
                let name = &editor.document.locks()[i].name;
                let text = if held {
                    "all held".to_owned()
                } else {
                    format!("\"{name}\" gave way by {v}")
                };
                ui.colored_label(violation_colour(held), text);
            }
            None => {
                ui.weak("none: select a part and lock it (L position, Shift+L pose)");
            }
        }
    });
    lock_buttons(ui, editor, selection);
    let tolerance = editor.runner.settings().tolerance;
    let violations = editor.document.lock_violations();
    let mut hovered = None;
    egui::ScrollArea::vertical()
        .max_height(ui.available_height().max(60.0))
        .show(ui, |ui| {
            egui::Grid::new("locks grid")
                .striped(true)
                .num_columns(9)
                .show(ui, |ui| {
                    for title in [
                        "name",
                        "kind",
                        "on",
                        "weight",
                        "priority",
                        "violation",
                        "frames",
                        "kept by",
                        "",
                    ] {
                        ui.strong(title);
                    }
                    ui.end_row();
                    let count = editor.document.locks().len();
                    for i in 0..count {
                        let Some(v) = violations.get(i).copied() else {
                            break;
                        };
                        let rect = lock_row(ui, editor, i, v, tolerance);
                        if rect.is_some_and(|r| ui.rect_contains_pointer(r)) {
                            hovered = Some(i);
                        }
                        ui.end_row();
                        if editor.document.locks().len() != count {
                            break; // deleted: the rest of the rows are drawn next frame
                        }
                    }
                });
        });
    if hover.0 != hovered {
        hover.0 = hovered;
    }
}

/// One lock's row; the rectangle it covers (`None` when it was deleted).
fn lock_row(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    i: usize,
    violation: Violation,
    tolerance: f64,
) -> Option<egui::Rect> {
    let lock = editor.document.locks().get(i)?.clone();
    let mut result: Option<Result<(), marionette_editing::EditError>> = None;
    let mut name = lock.name.clone();
    let field = ui.add_sized([170.0, 18.0], egui::TextEdit::singleline(&mut name));
    if field.lost_focus() && name != lock.name {
        result = Some(editor.document.rename_lock(i, &name));
    }
    let mut rect = field.rect;
    rect = rect.union(ui.label(kind_label(&lock)).rect);
    let mut enabled = lock.enabled;
    if ui.checkbox(&mut enabled, "").changed() {
        let editor = &mut *editor;
        result = Some(
            editor
                .document
                .set_lock_enabled(i, enabled, &mut editor.runner),
        );
    }
    let mut weight = lock.goal().weight;
    let w = ui.add(
        egui::DragValue::new(&mut weight)
            .speed(0.01)
            .range(0.001..=1000.0),
    );
    if w.changed() {
        let continuing = w.dragged() && !w.drag_started();
        result = Some(editor.document.set_lock_weight(i, weight, continuing));
    }
    let mut priority = lock.goal().priority;
    if ui
        .add(egui::DragValue::new(&mut priority).range(0..=9))
        .changed()
    {
        result = Some(editor.document.set_lock_priority(i, priority));
    }
    let held = violation.within(tolerance);
    let active = lock.active_at(editor.document.lock_frame());
    let text = if !lock.enabled {
        "off".to_owned()
    } else if !active {
        "not on this frame".to_owned()
    } else {
        violation.to_string()
    };
    ui.colored_label(violation_colour(held || !active), text);
    ui.horizontal(|ui| {
        let mut ranged = lock.frames().is_some();
        let (mut first, mut last) = lock.frames().unwrap_or((0, 24));
        let before = (ranged, first, last);
        ui.checkbox(&mut ranged, "")
            .on_hover_text("hold only on a range of frames (sequences)");
        if ranged {
            ui.add(egui::DragValue::new(&mut first).range(-100_000..=100_000));
            ui.add(egui::DragValue::new(&mut last).range(first..=100_000));
            let mut blend = lock.blend();
            if ui
                .add(egui::DragValue::new(&mut blend).range(0..=1000).prefix("±"))
                .on_hover_text(
                    "frames over which the lock eases in before its range and out after it",
                )
                .changed()
            {
                result = Some(editor.document.set_lock_blend(i, blend));
            }
        } else {
            ui.weak("every frame");
        }
        if (ranged, first, last) != before {
            result = Some(
                editor
                    .document
                    .set_lock_frames(i, ranged.then_some((first, last.max(first)))),
            );
        }
    });
    ui.label(chain_label(editor.skeleton(), &lock));
    if ui.small_button("Delete").clicked() {
        result = Some(editor.document.remove_lock(i));
    }
    if let Some(Err(e)) = result {
        editor.fail(e.to_string());
    }
    Some(rect)
}
