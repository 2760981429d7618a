//! The timeline's joint lanes, under the ruler: when some keys of the shown sequence hold only
//! some joints, a lane per limb (the joints from a branch of the skeleton down to the next, its
//! name the limb's first joint) with every key of its joints, then a lane per joint keyed on its
//! own; a click on the limb's name folds its joints' lanes away (and back). Drag a marker on a joint's lane to move that
//! joint's key alone; Alt+drag to move all of that joint's keys by as many frames (its timing
//! offset against the rest). The frames line up with the ruler's.

use std::collections::BTreeSet;

use bevy_egui::egui;
use marionette_editing::{Document, Edit};
use marionette_skeleton::{JointId, Skeleton};

use super::output::PanelOutput;
use super::ruler::{GUTTER, visible_frames};
use super::theme;
use crate::timeline::FrameRange;

const LANE_H: f32 = 14.0;

/// What a drag on the joint lanes holds: a joint's key from a frame, now at another, and
/// whether all its keys move (Alt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneGrab {
    joint: JointId,
    from: i64,
    to: i64,
    all: bool,
}

/// The lanes' state between frames: the limbs folded and the drag.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JointLanes {
    folded: BTreeSet<String>,
    grab: Option<LaneGrab>,
}

/// A lane: a limb (its joints) or one joint.
enum Lane {
    Limb { name: String, joints: Vec<JointId> },
    Joint(JointId),
}

/// The first joint of `joint`'s limb: up the parents while the parent has no other child.
fn limb_of(skeleton: &Skeleton, joint: JointId) -> JointId {
    let mut at = joint;
    while let Some(parent) = skeleton.joint(at).parent {
        if skeleton.joint(parent).children.len() > 1 || skeleton.joint(parent).parent.is_none() {
            break;
        }
        at = parent;
    }
    at
}

/// The joints of the shown sequence keyed on their own (some key holding them, or some of their
/// DOFs, holds only some parts), by limb in skeleton order.
fn limbs(document: &Document) -> Vec<(JointId, Vec<JointId>)> {
    let Some(seq) = document
        .current_sequence()
        .and_then(|i| document.sequences().get(i))
    else {
        return Vec::new();
    };
    if seq.keys.iter().all(|k| k.only.is_none()) {
        return Vec::new();
    }
    let skeleton = document.skeleton();
    let mut out: Vec<(JointId, Vec<JointId>)> = Vec::new();
    for j in skeleton.joint_ids() {
        let own = seq
            .keys
            .iter()
            .any(|k| k.only.is_some() && k.holds_part_of(skeleton, j));
        if !own {
            continue;
        }
        let limb = limb_of(skeleton, j);
        match out.iter_mut().find(|(l, _)| *l == limb) {
            Some((_, joints)) => joints.push(j),
            None => out.push((limb, vec![j])),
        }
    }
    out
}

/// The lanes: per limb, its own, then (unless folded) one per joint.
fn lanes(document: &Document, state: &JointLanes) -> Vec<Lane> {
    let skeleton = document.skeleton();
    let mut out = Vec::new();
    for (limb, joints) in limbs(document) {
        let name = skeleton.joint(limb).name.clone();
        let unfolded = !state.folded.contains(&name);
        out.push(Lane::Limb {
            name,
            joints: joints.clone(),
        });
        if unfolded {
            out.extend(joints.into_iter().map(Lane::Joint));
        }
    }
    out
}

/// The joint lanes, when the shown sequence has keys on some joints.
pub fn joint_lanes(
    ui: &mut egui::Ui,
    document: &Document,
    range: &FrameRange,
    state: &mut JointLanes,
    out: &mut PanelOutput,
) {
    let lanes = lanes(document, state);
    if lanes.is_empty() {
        return;
    }
    let Some(seq) = document
        .current_sequence()
        .and_then(|i| document.sequences().get(i))
    else {
        return;
    };
    let skeleton = document.skeleton();
    let width = ui.available_width();
    let height = LANE_H * lanes.len() as f32;
    let (response, painter) =
        ui.allocate_painter(egui::vec2(width, height), egui::Sense::click_and_drag());
    let rect = response.rect;
    let (start, end) = visible_frames(document, range);
    let left = rect.min.x + GUTTER;
    let ppf = (rect.max.x - left) / (end - start + 1) as f32;
    let x_of = |f: i64| left + (f - start) as f32 * ppf + ppf * 0.5;
    let frame_at = |x: f32| start + ((x.max(left) - left) / ppf).floor() as i64;
    painter.rect_filled(rect, 0.0, theme::RULER_BACKGROUND);
    let text = egui::FontId::proportional(11.0);
    let frames_of = |joints: &[JointId]| -> Vec<i64> {
        let mut frames: Vec<i64> = joints
            .iter()
            .flat_map(|&j| seq.joint_key_frames(skeleton, j))
            .collect();
        frames.sort_unstable();
        frames.dedup();
        frames
    };
    for (i, lane) in lanes.iter().enumerate() {
        let y = rect.min.y + LANE_H * i as f32;
        let mid = y + LANE_H * 0.5;
        let (label, frames, joint) = match lane {
            Lane::Limb { name, joints } => {
                let arrow = if state.folded.contains(name) {
                    "+"
                } else {
                    "-"
                };
                (format!("{arrow} {name}"), frames_of(joints), None)
            }
            Lane::Joint(j) => (
                format!("   {}", skeleton.joint(*j).name),
                seq.joint_key_frames(skeleton, *j),
                Some(*j),
            ),
        };
        painter.text(
            egui::pos2(rect.min.x + 4.0, mid),
            egui::Align2::LEFT_CENTER,
            label,
            text.clone(),
            theme::QUIET,
        );
        for f in frames {
            let shown = match state.grab {
                Some(g) if Some(g.joint) == joint && (g.all || g.from == f) => f + g.to - g.from,
                _ => f,
            };
            let c = egui::pos2(x_of(shown), mid);
            let r = if joint.is_some() { 4.0 } else { 3.0 };
            painter.add(egui::Shape::convex_polygon(
                vec![
                    c + egui::vec2(0.0, -r),
                    c + egui::vec2(r, 0.0),
                    c + egui::vec2(0.0, r),
                    c + egui::vec2(-r, 0.0),
                ],
                theme::KEY,
                egui::Stroke::NONE,
            ));
        }
    }
    let x = x_of(document.frame());
    painter.line_segment(
        [egui::pos2(x, rect.min.y), egui::pos2(x, rect.max.y)],
        egui::Stroke::new(2.0, theme::CURRENT_FRAME),
    );
    let lane_at = |y: f32| {
        let i = ((y - rect.min.y) / LANE_H).floor();
        (i >= 0.0).then_some(i as usize).and_then(|i| lanes.get(i))
    };
    let Some(pos) = response.interact_pointer_pos() else {
        return;
    };
    if response.clicked()
        && pos.x < left
        && let Some(Lane::Limb { name, .. }) = lane_at(pos.y)
        && !state.folded.remove(name)
    {
        state.folded.insert(name.clone());
    }
    if response.drag_started() {
        let origin = response
            .ctx
            .input(|i| i.pointer.press_origin())
            .unwrap_or(pos);
        if let Some(Lane::Joint(j)) = lane_at(origin.y)
            && let Some(f) = seq
                .joint_key_frames(skeleton, *j)
                .into_iter()
                .find(|&f| (x_of(f) - origin.x).abs() <= 6.0)
        {
            let all = response.ctx.input(|i| i.modifiers.alt);
            state.grab = Some(LaneGrab {
                joint: *j,
                from: f,
                to: f,
                all,
            });
        }
    }
    if response.dragged()
        && let Some(g) = &mut state.grab
    {
        g.to = frame_at(pos.x);
    }
    if response.drag_stopped()
        && let Some(g) = state.grab.take()
        && g.to != g.from
    {
        out.edits.push(if g.all {
            Edit::OffsetJointKeys {
                joint: g.joint,
                by: g.to - g.from,
            }
        } else {
            Edit::MoveJointKeys(vec![(g.joint, g.from, g.to)])
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    #[test]
    fn a_limb_is_the_joints_from_a_branch_down() {
        let s = builtin::humanoid();
        let j = |n: &str| s.joint_by_name(n).expect(n);
        assert_eq!(limb_of(&s, j("left wrist")), j("left clavicle"));
        assert_eq!(limb_of(&s, j("head")), j("neck"));
        assert_eq!(limb_of(&s, j("upper spine")), j("lower spine"));
        assert_eq!(limb_of(&s, j("left toes")), j("left hip"));
        assert_eq!(limb_of(&s, j("pelvis")), j("pelvis"));
    }
}
