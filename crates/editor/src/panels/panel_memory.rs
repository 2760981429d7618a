//! The panels' room, remembered: the outliner (left), the IK panel (right), the timeline and
//! the Locks panel (bottom) can each be hidden (the button in its corner, or View ▸ Panels; a
//! hidden panel leaves a thin strip with a button to bring it back) and resized by dragging its
//! edge. What the user chose is kept in `panels.ron` in the user's data folder and comes back at
//! the next start; a missing or broken file gives the default layout.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use serde::{Deserialize, Serialize};

use crate::resources::Notices;

/// One panel: shown or hidden, and its width (side panels) or height (bottom panels), points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PanelRoom {
    /// Shown (else a thin strip).
    pub shown: bool,
    /// Its width or height when shown.
    pub size: f32,
}

/// Every panel's room.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Panels")]
pub struct PanelLayout {
    /// The outliner (left).
    pub outliner: PanelRoom,
    /// The IK panel (right).
    pub ik: PanelRoom,
    /// The timeline (bottom).
    pub timeline: PanelRoom,
    /// The Locks panel (bottom, below the timeline).
    pub locks: PanelRoom,
}

impl Default for PanelLayout {
    fn default() -> Self {
        let room = |size| PanelRoom { shown: true, size };
        PanelLayout {
            outliner: room(300.0),
            ik: room(310.0),
            timeline: room(150.0),
            locks: room(170.0),
        }
    }
}

/// The sizes a panel may take (points): side panels, timeline, Locks panel.
pub const SIDE_SIZES: std::ops::RangeInclusive<f32> = 160.0..=640.0;
/// The timeline's heights.
pub const TIMELINE_SIZES: std::ops::RangeInclusive<f32> = 120.0..=420.0;
/// The Locks panel's heights.
pub const LOCKS_SIZES: std::ops::RangeInclusive<f32> = 170.0..=480.0;

impl PanelLayout {
    /// Every size within its range (a hand-edited or old file cannot make a panel vanish).
    fn clamped(mut self) -> PanelLayout {
        let clamp = |room: &mut PanelRoom, range: &std::ops::RangeInclusive<f32>| {
            room.size = if room.size.is_finite() {
                room.size.clamp(*range.start(), *range.end())
            } else {
                *range.start()
            };
        };
        clamp(&mut self.outliner, &SIDE_SIZES);
        clamp(&mut self.ik, &SIDE_SIZES);
        clamp(&mut self.timeline, &TIMELINE_SIZES);
        clamp(&mut self.locks, &LOCKS_SIZES);
        self
    }

    /// The layout kept in `path`, or the default one when there is none or it cannot be read.
    pub fn load(path: &Path) -> PanelLayout {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|text| marionette_skeleton::ron_io::parse::<PanelLayout>(&text).ok())
            .map_or_else(PanelLayout::default, PanelLayout::clamped)
    }

    /// Keeps the layout in `path` (atomically).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = marionette_skeleton::ron_io::to_pretty("Panels", self)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        marionette_skeleton::ron_io::write_atomically(path, &text)
    }
}

/// Where the layout is kept.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct PanelLayoutFile(pub PathBuf);

/// Loads the layout at start (unless one was given) and keeps it when it changed, once no
/// mouse button is held (a resize is saved when it ends, not every frame of it).
pub struct PanelMemoryPlugin;

impl Plugin for PanelMemoryPlugin {
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<PanelLayoutFile>() {
            let file = marionette_editing::document::io::data_dir().join("panels.ron");
            app.insert_resource(PanelLayoutFile(file));
        }
        let file = app.world().resource::<PanelLayoutFile>().0.clone();
        if !app.world().contains_resource::<PanelLayout>() {
            app.insert_resource(PanelLayout::load(&file));
        }
        app.add_systems(Last, remember_panels.in_set(crate::EditorSet::Remember));
    }
}

/// Saves the layout once it changed and the mouse is released.
fn remember_panels(
    layout: Res<PanelLayout>,
    file: Res<PanelLayoutFile>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    mut notices: ResMut<Notices>,
    mut dirty: Local<bool>,
) {
    if layout.is_changed() && !layout.is_added() {
        *dirty = true;
    }
    let held = mouse.is_some_and(|m| m.get_pressed().next().is_some());
    if !*dirty || held {
        return;
    }
    *dirty = false;
    if let Err(e) = layout.save(&file.0) {
        notices.info(format!(
            "Could not keep the panel layout in {}: {e}",
            file.0.display()
        ));
    }
}

/// A small button in the top-right corner of a shown panel that hides it (drawn over the
/// panel, taking no room from its layout).
pub fn hide_button(ui: &mut egui::Ui, room: &mut PanelRoom, what: &str) {
    let r = ui.max_rect();
    let rect = egui::Rect::from_min_size(
        egui::pos2(r.right() - 14.0, r.top()),
        egui::vec2(14.0, 14.0),
    );
    let id = ui.id().with(("hide panel", what));
    let response = ui
        .interact(rect, id, egui::Sense::click())
        .on_hover_text(format!("Hide the {what} (View ▸ Panels shows it again)"));
    let colour = if response.hovered() {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().weak_text_color()
    };
    ui.painter().text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        "×",
        egui::FontId::proportional(13.0),
        colour,
    );
    if response.clicked() {
        room.shown = false;
    }
}

/// The thin strip a hidden panel leaves, with a button that shows it again.
pub fn show_button(ui: &mut egui::Ui, room: &mut PanelRoom, label: &str) {
    let button = egui::Button::new(egui::RichText::new(label).small());
    if ui
        .add(button)
        .on_hover_text("Show this panel again")
        .clicked()
    {
        room.shown = true;
    }
}

/// Which edge a panel stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// Left.
    Left,
    /// Right.
    Right,
    /// Bottom.
    Bottom,
}

/// A panel on `edge` (egui id `id`) with its room: shown, resizable within `sizes`, with the
/// hide button in its corner and `contents`, its size read back into `room`; or, hidden, a
/// strip with a button labelled `show` that brings it back. `what` names it in the tooltip.
pub fn remembered_panel(
    ui: &mut egui::Ui,
    (edge, id): (Edge, &'static str),
    room: &mut PanelRoom,
    sizes: std::ops::RangeInclusive<f32>,
    (what, show): (&str, &str),
    contents: impl FnOnce(&mut egui::Ui),
) {
    let panel = |id: String| match edge {
        Edge::Left => egui::Panel::left(id),
        Edge::Right => egui::Panel::right(id),
        Edge::Bottom => egui::Panel::bottom(id),
    };
    if !room.shown {
        panel(format!("{id} hidden")).show(ui, |ui| show_button(ui, room, show));
        return;
    }
    let shown = panel(id.to_owned())
        .resizable(true)
        .default_size(room.size)
        .size_range(sizes)
        .show(ui, |ui| {
            hide_button(ui, room, what);
            contents(ui);
        });
    let rect = shown.response.rect;
    let size = if edge == Edge::Bottom {
        rect.height()
    } else {
        rect.width()
    };
    room.size = size.round();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_is_kept_and_read_back_and_a_bad_file_gives_the_default() {
        let dir = std::env::temp_dir().join(format!("marionette-panels-{}", std::process::id()));
        let path = dir.join("panels.ron");
        let mut layout = PanelLayout::default();
        layout.timeline.shown = false;
        layout.outliner.size = 222.0;
        layout.save(&path).expect("saves");
        assert_eq!(PanelLayout::load(&path), layout);
        std::fs::write(&path, "Panels(outliner: oops").expect("write");
        assert_eq!(PanelLayout::load(&path), PanelLayout::default());
        let huge = "Panels(outliner: (shown: true, size: 1e9), ik: (shown: false, size: -5.0), \
                    timeline: (shown: true, size: 150.0), locks: (shown: true, size: 170.0))";
        std::fs::write(&path, huge).expect("write");
        let read = PanelLayout::load(&path);
        assert_eq!(read.outliner.size, *SIDE_SIZES.end());
        assert_eq!(read.ik.size, *SIDE_SIZES.start());
        assert!(!read.ik.shown);
        assert_eq!(
            PanelLayout::load(&dir.join("none.ron")),
            PanelLayout::default()
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}
