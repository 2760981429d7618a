//! The timeline's ruler: the current-frame cursor (click or drag to scrub, Shift+drag to select
//! a range of frames), the key markers (drag one to move the key), one lane per lock with its
//! frame range as a bar (drag its ends; right-click: every frame ↔ the selected range) and the
//! violation strip: every frame's largest lock error, red where it passes the solver's
//! tolerance; with View ▸ Physics on, the support strip under it. What it asks for goes out as
//! edits.

use bevy_egui::egui;
use marionette_document::Lock;
use marionette_editing::{Document, Edit};

use super::output::PanelOutput;
use super::theme;
use crate::derived::BakedStrip;
use crate::timeline::{FrameRange, key_frames};

/// Width of the lane names left of the ruler.
pub(super) const GUTTER: f32 = 96.0;
const RULER_H: f32 = 18.0;
const KEYS_H: f32 = 16.0;
const LANE_H: f32 = 13.0;
const STRIP_H: f32 = 12.0;

/// What the ruler shows.
pub struct RulerView<'a> {
    /// The open document.
    pub document: &'a Document,
    /// The shown sequence, baked.
    pub strip: &'a BakedStrip,
    /// Within this the locks hold.
    pub tolerance: f64,
    /// The physics assistant's measures of the shown sequence, when View ▸ Physics is on.
    pub physics: Option<&'a marionette_editing::physics_view::PhysicsView>,
}

/// What a drag on the ruler holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Grab {
    /// Scrubbing.
    Scrub,
    /// Selecting frames from this one.
    Range(i64),
    /// A key from this frame, now at that one.
    Key(i64, i64),
    /// A lock's range end (lock, which end: false first, true last, the frame now).
    LockEnd(usize, bool, i64),
}

/// The frames the ruler shows: from the first key (or 0) to past the last key and the cursor.
pub(super) fn visible_frames(document: &Document, range: &FrameRange) -> (i64, i64) {
    let keys = key_frames(document);
    let frame = document.frame();
    let mut start = keys.first().copied().unwrap_or(0).min(0).min(frame);
    let mut end = keys.last().copied().unwrap_or(0).max(frame) + 12;
    if let Some((a, b)) = range.0 {
        start = start.min(a);
        end = end.max(b + 1);
    }
    (start, end.max(start + 48))
}

/// The ruler: frame numbers, the key markers, a lane per lock, the violation strip and the
/// current frame; click or drag to scrub, Shift+drag to select frames, drag a key marker or a
/// lock's range end to move it, right-click a lane to switch its lock between every frame and
/// the selected range, right-click a key for its interpolation and ease.
pub fn ruler(
    ui: &mut egui::Ui,
    view: &RulerView,
    range: &mut FrameRange,
    grab: &mut Option<Grab>,
    menu: &mut Option<super::key_menu::KeyMenu>,
    out: &mut PanelOutput,
) {
    let doc = view.document;
    let locks = doc.locks();
    let physics_h = if view.physics.is_some() {
        super::support_strip::SUPPORT_STRIP_H
    } else {
        0.0
    };
    let height = RULER_H + KEYS_H + LANE_H * locks.len() as f32 + STRIP_H + physics_h + 4.0;
    let width = ui.available_width();
    let (response, painter) =
        ui.allocate_painter(egui::vec2(width, height), egui::Sense::click_and_drag());
    let rect = response.rect;
    let (start, end) = visible_frames(doc, range);
    let left = rect.min.x + GUTTER;
    let ppf = (rect.max.x - left) / (end - start + 1) as f32;
    let x_of = |f: i64| left + (f - start) as f32 * ppf + ppf * 0.5;
    let frame_at = |x: f32| start + ((x - left) / ppf).floor() as i64;
    let keys_top = rect.min.y + RULER_H;
    // With View ▸ Physics on, the support strip sits under the keys, above the locks' lanes.
    let support_top = keys_top + KEYS_H;
    let lanes_top = support_top + physics_h;
    let strip_top = lanes_top + LANE_H * locks.len() as f32;
    let text = egui::FontId::proportional(11.0);
    let weak = theme::QUIET;
    painter.rect_filled(rect, 0.0, theme::RULER_BACKGROUND);
    // Selected range.
    if let Some((a, b)) = range.0 {
        let r = egui::Rect::from_x_y_ranges(
            (x_of(a) - ppf * 0.5)..=(x_of(b) + ppf * 0.5),
            rect.min.y..=rect.max.y,
        );
        painter.rect_filled(r, 0.0, theme::SELECTED_RANGE);
    }
    draw_ticks(&painter, rect, (start, end), (&x_of, ppf), &text);
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
    // Key markers (the dragged one where it is being dragged to), a Step key's hold drawn to
    // the next key.
    let keys: &[marionette_document::Key] = doc
        .current_sequence()
        .and_then(|i| doc.sequences().get(i))
        .map_or(&[], |s| &s.keys);
    for (i, key) in keys.iter().enumerate() {
        let shown_at = match *grab {
            Some(Grab::Key(from, to)) if from == key.frame => to,
            _ => key.frame,
        };
        let c = egui::pos2(x_of(shown_at), keys_top + KEYS_H * 0.5);
        if let (Some(marionette_document::KeyInterpolation::Step), Some(next)) =
            (key.interpolation, keys.get(i + 1))
        {
            painter.line_segment(
                [c, egui::pos2(x_of(next.frame), c.y)],
                egui::Stroke::new(2.0, theme::KEY.gamma_multiply(0.5)),
            );
        }
        super::key_menu::marker(&painter, c, key);
    }
    // Lock lanes.
    for (i, lock) in locks.iter().enumerate() {
        let y = lanes_top + LANE_H * i as f32;
        let colour = if lock.enabled { theme::LOCK_LANE } else { weak };
        name(y + LANE_H * 0.5, &lock.name, colour);
        let (a, b) = match (*grab, lock.frames()) {
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
    draw_strip(&painter, view, (start, end), (&x_of, ppf), strip_top);
    if let Some(physics) = view.physics {
        name(support_top + physics_h * 0.5, "support", weak);
        super::support_strip::draw_support_strip(
            &painter,
            physics,
            (start, end),
            (&x_of, ppf),
            support_top,
        );
    }
    // The current frame.
    let x = x_of(doc.frame());
    painter.line_segment(
        [egui::pos2(x, rect.min.y), egui::pos2(x, rect.max.y)],
        egui::Stroke::new(2.0, theme::CURRENT_FRAME),
    );
    let layout = RulerLayout {
        frame_at: &frame_at,
        x_of: &x_of,
        keys_top,
        lanes_top,
        strip_top,
        left,
    };
    interact(&response, doc, &layout, range, grab, out);
    // A right-click on a key marker opens its menu.
    if response.secondary_clicked()
        && let Some(pos) = response.interact_pointer_pos()
        && pos.y >= keys_top
        && pos.y < support_top
        && let Some(key) = keys.iter().find(|k| (x_of(k.frame) - pos.x).abs() <= 6.0)
    {
        *menu = Some(super::key_menu::KeyMenu {
            frame: key.frame,
            at: pos + egui::vec2(4.0, 4.0),
        });
    }
}

/// The ruler's ticks, every frame when there is room, and its numbers.
fn draw_ticks(
    painter: &egui::Painter,
    rect: egui::Rect,
    (start, end): (i64, i64),
    (x_of, ppf): (&dyn Fn(i64) -> f32, f32),
    text: &egui::FontId,
) {
    let weak = theme::QUIET;
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
}

/// The violation strip: per frame, green where every lock holds, red where one does not.
fn draw_strip(
    painter: &egui::Painter,
    view: &RulerView,
    (start, end): (i64, i64),
    (x_of, ppf): (&dyn Fn(i64) -> f32, f32),
    strip_top: f32,
) {
    for &(f, error) in &view.strip.errors {
        if f < start || f > end {
            continue;
        }
        let colour = if error <= view.tolerance {
            theme::STRIP_HELD
        } else {
            theme::STRIP_VIOLATED
        };
        let r = egui::Rect::from_x_y_ranges(
            (x_of(f) - ppf * 0.5)..=(x_of(f) + ppf * 0.5),
            (strip_top + 2.0)..=(strip_top + STRIP_H - 1.0),
        );
        painter.rect_filled(r, 0.0, colour);
    }
}

/// Where the ruler's parts are, for the pointer.
struct RulerLayout<'a> {
    frame_at: &'a dyn Fn(f32) -> i64,
    x_of: &'a dyn Fn(i64) -> f32,
    keys_top: f32,
    lanes_top: f32,
    strip_top: f32,
    left: f32,
}

impl RulerLayout<'_> {
    /// The lock lane at height `y`, if any.
    fn lane(&self, y: f32, locks: usize) -> Option<usize> {
        (y >= self.lanes_top && y < self.strip_top)
            .then(|| ((y - self.lanes_top) / LANE_H) as usize)
            .filter(|&l| l < locks)
    }
}

/// What the pointer does on the ruler.
fn interact(
    response: &egui::Response,
    doc: &Document,
    layout: &RulerLayout,
    range: &mut FrameRange,
    grab: &mut Option<Grab>,
    out: &mut PanelOutput,
) {
    let Some(pos) = response.interact_pointer_pos() else {
        return;
    };
    let frame = (layout.frame_at)(pos.x.max(layout.left));
    let locks = doc.locks().len();
    let lane = layout.lane(pos.y, locks);
    if response.drag_started() {
        // What the drag holds is decided where the button went down (a drag starts only after
        // the pointer has moved a little).
        let pos = response
            .ctx
            .input(|i| i.pointer.press_origin())
            .unwrap_or(pos);
        *grab = Some(grab_at(response, doc, layout, pos));
    }
    if response.dragged() {
        match *grab {
            Some(Grab::Scrub) if frame != doc.frame() => out.edits.push(Edit::GoToFrame(frame)),
            Some(Grab::Range(from)) => range.0 = Some((from.min(frame), from.max(frame))),
            Some(Grab::Key(from, _)) => *grab = Some(Grab::Key(from, frame)),
            Some(Grab::LockEnd(l, last, _)) => *grab = Some(Grab::LockEnd(l, last, frame)),
            _ => {}
        }
    }
    if response.drag_stopped() {
        match grab.take() {
            Some(Grab::Key(from, to)) if from != to => {
                out.edits.push(Edit::MoveKey { from, to });
            }
            Some(Grab::LockEnd(l, last, f)) => {
                if let Some((a, b)) = doc.locks().get(l).and_then(Lock::frames) {
                    let frames = if last { (a, f.max(a)) } else { (f.min(b), b) };
                    out.edits.push(Edit::SetLockFrames(l, Some(frames)));
                }
            }
            _ => {}
        }
    }
    if response.secondary_clicked()
        && let Some(l) = lane
    {
        let frames = match doc.locks()[l].frames() {
            Some(_) => None,
            None => Some(range.0.unwrap_or((doc.frame(), doc.frame() + 24))),
        };
        out.edits.push(Edit::SetLockFrames(l, frames));
    } else if response.clicked() && lane.is_none() {
        out.edits.push(Edit::GoToFrame(frame));
    }
}

/// What a drag that began at `pos` holds: a range (Shift), a lock's range end (on its lane), a
/// key marker, or the current frame.
fn grab_at(
    response: &egui::Response,
    doc: &Document,
    layout: &RulerLayout,
    pos: egui::Pos2,
) -> Grab {
    let frame = (layout.frame_at)(pos.x.max(layout.left));
    let lane = layout.lane(pos.y, doc.locks().len());
    let shift = response.ctx.input(|i| i.modifiers.shift);
    let near_key = key_frames(doc)
        .into_iter()
        .find(|&k| ((layout.x_of)(k) - pos.x).abs() <= 6.0);
    if shift {
        Grab::Range(frame)
    } else if let Some(l) = lane {
        match doc.locks()[l].frames() {
            Some((a, b)) => {
                let last = ((layout.x_of)(b) - pos.x).abs() < ((layout.x_of)(a) - pos.x).abs();
                Grab::LockEnd(l, last, frame)
            }
            None => Grab::Scrub,
        }
    } else if let Some(k) =
        near_key.filter(|_| pos.y >= layout.keys_top && pos.y < layout.keys_top + KEYS_H)
    {
        Grab::Key(k, k)
    } else {
        Grab::Scrub
    }
}
