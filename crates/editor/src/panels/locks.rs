//! The Locks panel (along the bottom): buttons that lock the selection as a position,
//! orientation, pose, one axis, floor plane, line, two sites together or the centre of mass over
//! its ground point, and one row per lock with its name (editable), kind, enabled switch, weight,
//! priority, live violation, frame range, the joints that keep it, and delete. Every change is
//! one edit, one undo step ([`marionette_editing::lock_edits`]); hovering a row highlights its
//! marker.

use bevy_egui::egui;
use marionette_document::{Lock, LockKind, LockPart, Violation};
use marionette_editing::{Document, Edit};
use marionette_ik::{GoalKind, TargetShape};
use marionette_skeleton::Skeleton;

use super::output::PanelOutput;
use super::output::undo_step;
use super::theme;
use crate::derived::LockStatus;
use crate::input::Command;
use crate::selection::Selection;

/// What the Locks panel shows.
pub struct LocksView<'a> {
    /// The open document.
    pub document: &'a Document,
    /// The locks now.
    pub status: &'a LockStatus,
    /// What the lock buttons lock.
    pub selection: &'a Selection,
    /// Within this a lock holds (the solver's tolerance).
    pub tolerance: f64,
}

/// Colour of a violation: green within the tolerance, red beyond.
fn violation_colour(held: bool) -> egui::Color32 {
    if held { theme::HELD } else { theme::ERROR }
}

/// The lock's kind as the panel names it.
pub fn kind_label(lock: &Lock) -> &'static str {
    match &lock.goal().kind {
        GoalKind::Plane { .. }
        | GoalKind::Point {
            shape: TargetShape::Plane(_),
            ..
        } => "plane",
        GoalKind::Position { .. } | GoalKind::Point { .. } => "position",
        GoalKind::Orientation { axes, .. } if axes.iter().filter(|&&a| a).count() == 1 => "axis",
        GoalKind::Orientation { .. } => "orientation",
        GoalKind::Pose { .. } => "pose",
        GoalKind::Line { .. } => "line",
        GoalKind::Coincide { .. } => "two sites",
        GoalKind::CoincidePose { .. } => "two sites, turned",
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

/// The buttons that lock the selection.
fn lock_buttons(ui: &mut egui::Ui, view: &LocksView, out: &mut PanelOutput) {
    let document = view.document;
    ui.horizontal_wrapped(|ui| {
        let selected = view.selection.joint(document).is_some();
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
                        let root = document.skeleton().root();
                        let part = LockPart::Point(root, nalgebra::Vector3::zeros());
                        out.edits.push(Edit::Lock { part, kind });
                    }
                    LockKind::Position => out.commands.push(Command::LockPosition),
                    LockKind::Pose => out.commands.push(Command::LockPose),
                    _ => {
                        if let Some(part) = view.selection.part(document) {
                            out.edits.push(Edit::Lock { part, kind });
                        }
                    }
                }
            }
        }
        let pair = view
            .selection
            .site(document)
            .zip(view.selection.previous_site(document));
        if ui
            .add_enabled(pair.is_some(), egui::Button::new("Two sites together"))
            .on_hover_text("keep the last two picked site handles touching")
            .clicked()
            && let Some((a, b)) = pair
        {
            out.edits.push(Edit::LockTogether(b, a));
        }
    });
}

/// The Locks panel; the lock whose row the pointer is over.
pub fn locks_panel(ui: &mut egui::Ui, view: &LocksView, out: &mut PanelOutput) -> Option<usize> {
    let document = view.document;
    ui.horizontal(|ui| {
        ui.strong("Locks");
        match view.status.worst {
            Some((i, v)) => {
                let held = v.within(view.tolerance);
                let name = &document.locks()[i].name;
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
    lock_buttons(ui, view, out);
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
                    let rows = document.locks().iter().zip(&view.status.violations);
                    for (i, (lock, &violation)) in rows.enumerate() {
                        let holding = view.status.holding.get(i).copied().unwrap_or(true);
                        let row = LockRow {
                            index: i,
                            lock,
                            violation,
                            holding,
                        };
                        let rect = lock_row(ui, view, &row, out);
                        if ui.rect_contains_pointer(rect) {
                            hovered = Some(i);
                        }
                        ui.end_row();
                    }
                });
        });
    hovered
}

/// One lock as its row shows it.
struct LockRow<'a> {
    index: usize,
    lock: &'a Lock,
    violation: Violation,
    holding: bool,
}

/// One lock's row; the rectangle its name and kind cover.
fn lock_row(
    ui: &mut egui::Ui,
    view: &LocksView,
    row: &LockRow,
    out: &mut PanelOutput,
) -> egui::Rect {
    let (i, lock) = (row.index, row.lock);
    let mut name = lock.name.clone();
    let field = ui.add_sized([170.0, 18.0], egui::TextEdit::singleline(&mut name));
    if field.lost_focus() && name != lock.name {
        out.edits.push(Edit::RenameLock(i, name));
    }
    let rect = field.rect.union(ui.label(kind_label(lock)).rect);
    let mut enabled = lock.enabled;
    if ui.checkbox(&mut enabled, "").changed() {
        out.edits.push(Edit::SetLockEnabled(i, enabled));
    }
    let mut weight = lock.goal().weight;
    let w = ui.add(
        egui::DragValue::new(&mut weight)
            .speed(0.01)
            .range(0.001..=1000.0),
    );
    if w.changed() {
        out.edits.push(Edit::SetLockWeight {
            lock: i,
            weight,
            undo: undo_step(&w),
        });
    }
    let mut priority = lock.goal().priority;
    if ui
        .add(egui::DragValue::new(&mut priority).range(0..=9))
        .changed()
    {
        out.edits.push(Edit::SetLockPriority(i, priority));
    }
    let held = row.violation.within(view.tolerance);
    let text = if !lock.enabled {
        "off".to_owned()
    } else if !row.holding {
        "not on this frame".to_owned()
    } else {
        row.violation.to_string()
    };
    ui.colored_label(violation_colour(held || !row.holding), text);
    ui.horizontal(|ui| frames_cell(ui, i, lock, out));
    ui.label(chain_label(view.document.skeleton(), lock));
    if ui.small_button("Delete").clicked() {
        out.edits.push(Edit::RemoveLock(i));
    }
    rect
}

/// The lock's frame range: every frame, or a range (first, last) with its blend.
fn frames_cell(ui: &mut egui::Ui, i: usize, lock: &Lock, out: &mut PanelOutput) {
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
            .on_hover_text("frames over which the lock eases in before its range and out after it")
            .changed()
        {
            out.edits.push(Edit::SetLockBlend(i, blend));
        }
    } else {
        ui.weak("every frame");
    }
    if (ranged, first, last) != before {
        out.edits.push(Edit::SetLockFrames(
            i,
            ranged.then_some((first, last.max(first))),
        ));
    }
}
