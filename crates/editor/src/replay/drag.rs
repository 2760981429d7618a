//! The replay's drags and clicks through the large view: a grip (a site's handle, a joint's
//! origin, or a hinge's rotate ring) pressed where it shows, the cursor moved a step a frame in
//! a straight line to where the target shows (or round the ring by the angle asked for, a few
//! degrees a frame), held and released; a click where a world point shows. As a user would do
//! it, through the window's input path.

use bevy::input::ButtonState;
use bevy::prelude::*;
use marionette_editing::replay::DragGrip;
use marionette_editing::rotate_handles::{HandleKind, across};
use marionette_skeleton::{DofId, JointId};
use nalgebra::{Rotation3, Unit, Vector3};

use super::input::{mouse, move_cursor};
use super::state::{DragStage, Grip, Phase, Replay, SiteDrag, fail};
use crate::messages::{PickRequest, PickTarget};
use crate::resources::OpenDocument;
use crate::selection::Selection;
use crate::views::{Layout, ViewCamera};

/// Frames the cursor rests on a handle before pressing (picking updates its hover state from
/// the cursor's position first).
const SETTLE_FRAMES: u32 = 2;
/// Frames a drag holds still at its end before releasing, so the solver finishes the last move.
const HOLD_FRAMES: u32 = 10;
/// Degrees the cursor goes round a ring per frame.
const DEGREES_PER_FRAME: f64 = 4.0;
/// Frames between selecting a joint and making the mouse's path round its ring (a selection
/// changes the panels, and the views with them).
const LAYOUT_FRAMES: u32 = 3;

/// The large view's active camera.
fn large_view_camera(world: &mut World) -> Option<(Entity, Camera, GlobalTransform)> {
    let large = world.resource::<Layout>().large;
    let mut cameras = world.query::<(Entity, &ViewCamera, &Camera, &GlobalTransform)>();
    cameras
        .iter(world)
        .find(|(_, v, camera, _)| v.view == large && camera.is_active)
        .map(|(e, _, c, t)| (e, c.clone(), *t))
}

/// The window pixel where `p` appears in the large view.
fn project_in_large_view(world: &mut World, p: Vec3) -> Option<Vec2> {
    let (_, camera, transform) = large_view_camera(world)?;
    let area = *world.resource::<crate::views::ViewArea>();
    let in_image = camera.world_to_viewport(&transform, p).ok()?;
    Some(area.to_window(in_image))
}

/// Where a grip is now (`None`: a trail's dot that is not drawn).
fn grip_position(world: &World, grip: Grip) -> Option<Vec3> {
    let fk = world.resource::<OpenDocument>().fk();
    let at = match grip {
        Grip::Point(DragGrip::Site(site)) => fk.site_position(site),
        Grip::Point(DragGrip::Joint(joint)) | Grip::Ring(joint, _) => fk.joint_position(joint),
        Grip::Point(trail @ DragGrip::Trail { frame, .. }) => {
            let of = trail.trail_of()?;
            let paths = world.get_resource::<crate::derived::TrailPaths>()?;
            paths
                .trails
                .iter()
                .filter(|t| t.shown.of == of)
                .flat_map(|t| t.points.iter())
                .find(|(f, _)| *f == frame)?
                .1
        }
    };
    Some(crate::convert::vec3(&at))
}

/// A grip as a message names it.
fn label(world: &World, grip: Grip) -> String {
    let skeleton = world.resource::<OpenDocument>().skeleton();
    match grip {
        Grip::Point(DragGrip::Site(s)) => format!("site \"{}\"", skeleton.site(s).name),
        Grip::Point(DragGrip::Joint(j)) => format!("joint \"{}\"", skeleton.joint(j).name),
        Grip::Point(DragGrip::Trail { site, joint, frame }) => {
            let name = site.map_or(&skeleton.joint(joint).name, |s| &skeleton.site(s).name);
            format!("the trail of \"{name}\" at frame {frame}")
        }
        Grip::Ring(j, d) => format!(
            "the ring of joint \"{}\" DOF {}",
            skeleton.joint(j).name,
            skeleton.dof(d).index_in_joint
        ),
    }
}

/// Clicks where world point `at` shows in the large view; true (the step used the frame).
pub(super) fn click_at(world: &mut World, window: Entity, at: Vector3<f64>) -> bool {
    let Some(pixel) = project_in_large_view(world, crate::convert::vec3(&at)) else {
        fail(world, format!("{at:?} is not in the large view"));
        return true;
    };
    move_cursor(world, window, pixel);
    world.resource_mut::<Replay>().phase = Phase::Click(2);
    true
}

/// Begins a scripted drag of `grip` towards world point `to`; true (the step used the frame).
pub(super) fn start_drag(
    world: &mut World,
    window: Entity,
    grip: DragGrip,
    to: Vector3<f64>,
    frames: u32,
) -> bool {
    let grip = Grip::Point(grip);
    let label = label(world, grip);
    let Some(at) = grip_position(world, grip) else {
        fail(world, format!("{label} is not drawn"));
        return true;
    };
    let (Some(from), Some(to_px)) = (
        project_in_large_view(world, at),
        project_in_large_view(world, crate::convert::vec3(&to)),
    ) else {
        fail(
            world,
            format!("{label} or its target is not visible in the large view"),
        );
        return true;
    };
    move_cursor(world, window, from);
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip,
        label,
        from,
        to: to_px,
        frames: frames.max(1),
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES),
        path: Vec::new(),
        pending: None,
        figure: world.resource::<OpenDocument>().figure_name().to_owned(),
    });
    true
}

/// Starts turning `joint`'s hinge `dof` by `degrees` through its ring: selects the joint now;
/// the mouse's path is made when the layout has settled ([`rotate_path`]).
pub(super) fn start_rotate(world: &mut World, joint: JointId, dof: DofId, degrees: f64) -> bool {
    world.resource_scope(|world, mut selection: Mut<Selection>| {
        selection.select(world.resource::<OpenDocument>(), Some(joint));
    });
    let grip = Grip::Ring(joint, dof);
    let label = label(world, grip);
    world.resource_mut::<Replay>().phase = Phase::Drag(SiteDrag {
        grip,
        label,
        from: Vec2::ZERO,
        to: Vec2::ZERO,
        frames: 1,
        frame: 0,
        stage: DragStage::Settle(SETTLE_FRAMES + LAYOUT_FRAMES),
        path: Vec::new(),
        pending: Some(degrees),
        figure: world.resource::<OpenDocument>().figure_name().to_owned(),
    });
    true
}

/// The mouse's path round the ring of `joint`'s hinge `dof` turning it by `degrees`, window
/// pixels, one a frame.
fn rotate_path(
    world: &mut World,
    joint: JointId,
    dof: DofId,
    degrees: f64,
    label: &str,
) -> Result<Vec<Vec2>, String> {
    let (handle, others) = {
        let document = world.resource::<OpenDocument>();
        let (mine, others): (Vec<_>, Vec<_>) = document
            .handles(joint)
            .into_iter()
            .partition(|h| h.kind == HandleKind::Hinge(dof));
        let handle = mine
            .first()
            .copied()
            .ok_or_else(|| format!("{label}: the joint shows no such ring"))?;
        (handle, others)
    };
    let (_, camera, transform) = large_view_camera(world).ok_or("no large view")?;
    let forward = crate::convert::vector(transform.forward().as_vec3());
    if handle.axis.dot(&forward).abs() < 0.26 {
        return Err(format!(
            "{label} is seen edge-on in the large view; turn it in another view"
        ));
    }
    let axis = Unit::new_normalize(handle.axis);
    let start = across(&handle.axis) * handle.size;
    let pixel = |angle: f64| {
        let p = handle.centre + Rotation3::from_axis_angle(&axis, angle) * start;
        camera
            .world_to_viewport(&transform, crate::convert::vec3(&p))
            .ok()
    };
    let centre = camera
        .world_to_viewport(&transform, crate::convert::vec3(&handle.centre))
        .map_err(|_| format!("{label} is not in the large view"))?;
    // Grip the ring where it is seen wide (at least 60 % of its widest, away from its centre
    // on the screen) and the other rings of the joint pass farthest from the cursor's ray (the
    // rings of one joint cross each other).
    let candidates: Vec<(f64, Vec2)> = (0..48)
        .map(|k| std::f64::consts::TAU * f64::from(k) / 48.0)
        .filter_map(|a| Some((a, pixel(a)?)))
        .collect();
    let widest = candidates
        .iter()
        .map(|(_, p)| p.distance(centre))
        .fold(0.0f32, f32::max);
    let clearance = |p: Vec2| {
        camera
            .viewport_to_world(&transform, p)
            .ok()
            .as_ref()
            .and_then(crate::convert::ray)
            .map_or(0.0, |ray| {
                others
                    .iter()
                    .map(|h| h.distance(&ray))
                    .fold(f64::INFINITY, f64::min)
            })
    };
    let grip = candidates
        .iter()
        .filter(|(_, p)| p.distance(centre) >= 0.6 * widest)
        .map(|&(a, p)| (a, clearance(p)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| a);
    let steps = ((degrees.abs() / DEGREES_PER_FRAME).ceil() as usize).max(2);
    let path: Option<Vec<Vec2>> = grip.and_then(|g| {
        (0..=steps)
            .map(|k| pixel(g + degrees.to_radians() * k as f64 / steps as f64))
            .collect()
    });
    // The path in window pixels (the camera's are the views' image's).
    let area = *world.resource::<crate::views::ViewArea>();
    path.map(|p| p.into_iter().map(|q| area.to_window(q)).collect())
        .ok_or_else(|| format!("{label} is not in the large view"))
}

/// The press of a joint drag lands on the joint's origin: a pick of that point through the
/// large view, nearer than anything picking finds there.
fn grip_joint(world: &mut World, joint: JointId) {
    let Some(at) = grip_position(world, Grip::Point(DragGrip::Joint(joint))) else {
        return;
    };
    if let Some((camera, _, _)) = large_view_camera(world) {
        world.write_message(PickRequest {
            target: PickTarget::Joint(joint),
            hit: at,
            depth: f32::NEG_INFINITY,
            camera,
        });
    }
}

/// Whether the press started the drag it meant, on the figure it meant (`figure`): `Err` says
/// what it did instead (another figure pressed, another joint gripped, nothing).
fn gripped(world: &World, grip: Grip, figure: &str) -> Result<(), String> {
    let document = world.resource::<OpenDocument>();
    let edited = document.figure_name();
    if edited != figure {
        return Err(format!(
            "it pressed figure \"{edited}\" instead of figure \"{figure}\" (its body is in front there)"
        ));
    }
    let skeleton = document.skeleton();
    let on_joint = |want: JointId| match document.drag() {
        Some(d) if d.joint == want => Ok(()),
        Some(d) => Err(format!(
            "it gripped joint \"{}\" of figure \"{edited}\"",
            skeleton.joint(d.joint).name
        )),
        None => Err("it started no drag".to_owned()),
    };
    match grip {
        Grip::Ring(_, dof) => world
            .resource::<crate::resources::ActiveDrag>()
            .handle()
            .is_some_and(|h| h.kind == HandleKind::Hinge(dof))
            .then_some(())
            .ok_or_else(|| "it gripped no ring of that DOF".to_owned()),
        Grip::Point(DragGrip::Joint(joint) | DragGrip::Trail { joint, .. }) => on_joint(joint),
        Grip::Point(DragGrip::Site(site)) => on_joint(skeleton.site(site).joint),
    }
}

/// One frame of a scripted drag; the phase that follows (`None` when the replay failed and
/// already moved on).
pub(super) fn drag_frame(world: &mut World, window: Entity, mut drag: SiteDrag) -> Option<Phase> {
    if let (Some(degrees), Grip::Ring(joint, dof), DragStage::Settle(n)) =
        (drag.pending, drag.grip, drag.stage)
        && n <= SETTLE_FRAMES
    {
        match rotate_path(world, joint, dof, degrees, &drag.label) {
            Ok(path) => {
                move_cursor(world, window, path[0]);
                drag.from = path[0];
                drag.to = path[path.len() - 1];
                drag.frames = (path.len() - 1) as u32;
                drag.path = path;
                drag.pending = None;
            }
            Err(text) => {
                fail(world, text);
                return None;
            }
        }
    }
    match drag.stage {
        DragStage::Settle(n) if n > 1 => drag.stage = DragStage::Settle(n - 1),
        DragStage::Settle(_) => {
            mouse(world, window, ButtonState::Pressed);
            if let Grip::Point(DragGrip::Joint(joint)) = drag.grip {
                grip_joint(world, joint);
            }
            drag.stage = DragStage::Press;
        }
        DragStage::Press => {
            if let Err(why) = gripped(world, drag.grip, &drag.figure) {
                mouse(world, window, ButtonState::Released);
                fail(
                    world,
                    format!(
                        "the press at ({:.1}, {:.1}) did not start a drag on {} of figure \"{}\": \
                         {why} (is its handle hidden behind a panel or another body?)",
                        drag.from.x, drag.from.y, drag.label, drag.figure
                    ),
                );
                return None;
            }
            drag.stage = DragStage::Move;
            drag_move(world, window, &mut drag);
        }
        DragStage::Move => drag_move(world, window, &mut drag),
        DragStage::Hold(n) if n > 1 => drag.stage = DragStage::Hold(n - 1),
        DragStage::Hold(_) => {
            mouse(world, window, ButtonState::Released);
            return Some(Phase::Ready);
        }
    }
    Some(Phase::Drag(drag))
}

/// Moves the cursor one step along the drag's line; after the last, the drag holds.
fn drag_move(world: &mut World, window: Entity, drag: &mut SiteDrag) {
    drag.frame += 1;
    let t = drag.frame as f32 / drag.frames as f32;
    let at = match drag.path.get(drag.frame as usize) {
        Some(&p) => p,
        None => drag.from.lerp(drag.to, t.min(1.0)),
    };
    move_cursor(world, window, at);
    if drag.frame >= drag.frames {
        drag.stage = DragStage::Hold(HOLD_FRAMES);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::stage::StageEdit;
    use marionette_editing::{ChainMode, Document, Edit, Solving};

    /// A world holding the test stage of two dancers, figure B edited, with `joint` of B
    /// dragged by its origin when given.
    fn stage_with_b_dragging(joint: Option<&str>) -> World {
        let mut document = Document::open_document(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../motion/tests/data/two-dancers.marionette.ron"),
        )
        .expect("the test stage");
        let mut solving = Solving::default();
        let b = Edit::Stage(StageEdit::SelectFigure("B".into()));
        document.apply(b, &mut solving).expect("B");
        if let Some(name) = joint {
            let j = document.skeleton().joint_by_name(name).expect("joint");
            solving.chain_mode = ChainMode::NearestBranch;
            document
                .apply(
                    Edit::BeginDrag(marionette_editing::Grip::Joint(j)),
                    &mut solving,
                )
                .expect("drags");
        }
        let mut world = World::new();
        world.insert_resource(OpenDocument::new(document));
        world.insert_resource(crate::resources::ActiveDrag::default());
        world
    }

    #[test]
    fn a_press_that_grips_another_figure_or_joint_fails_naming_what_it_gripped() {
        let world = stage_with_b_dragging(Some("pelvis"));
        let skeleton = world.resource::<OpenDocument>().skeleton().clone();
        let pelvis = skeleton.joint_by_name("pelvis").expect("pelvis");
        let knee = skeleton.joint_by_name("left knee").expect("knee");
        let grip = Grip::Point(DragGrip::Joint(pelvis));
        // Meant for A's pelvis; B's body was in front and B's pelvis is dragged.
        let why = gripped(&world, grip, "A").expect_err("another figure");
        assert!(
            why.contains("figure \"B\"") && why.contains("figure \"A\""),
            "{why}"
        );
        assert_eq!(gripped(&world, grip, "B"), Ok(()));
        let why = gripped(&world, Grip::Point(DragGrip::Joint(knee)), "B").expect_err("joint");
        assert!(why.contains("joint \"pelvis\""), "{why}");
        let idle = stage_with_b_dragging(None);
        assert!(gripped(&idle, grip, "B").is_err_and(|w| w.contains("no drag")));
    }
}
