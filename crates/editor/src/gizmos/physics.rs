//! The physics assistant in the views (View ▸ Physics): the edited figure's centre of mass as a
//! cross with its plumb line to the floor, the support polygon on the floor (green when the
//! centre of mass is inside by more than 2 cm, amber within 2 cm, red outside) and the angular
//! momentum as an arrow at the centre of mass, on the frame shown ([`PhysicsOverlay`]); with
//! View ▸ Physics of every figure, the same for the stage's other figures
//! ([`StagePhysicsOverlay`]).

use bevy::prelude::*;
use marionette_editing::physics_view::Footing;

use marionette_editing::physics_view::PhysicsView;
use nalgebra::{Isometry3, Vector3};

use crate::convert::vec3;
use crate::physics::{PhysicsOverlay, StagePhysicsOverlay};
use crate::resources::OpenDocument;

/// Metres of arrow per kg·m²/s of angular momentum (a 75 kg jump's few units show as tens of
/// centimetres), at most [`LONGEST_ARROW`].
const ARROW_PER_MOMENTUM: f64 = 0.05;

/// The longest momentum arrow drawn (m).
const LONGEST_ARROW: f64 = 0.6;

/// The colour of a footing: green inside, amber at the edge, red outside.
pub fn footing_colour(footing: Footing) -> Color {
    match footing {
        Footing::Inside => Color::srgb(0.3, 0.85, 0.4),
        Footing::Edge => Color::srgb(1.0, 0.7, 0.1),
        Footing::Outside => Color::srgb(0.95, 0.25, 0.2),
        Footing::Airborne => Color::srgb(1.0, 0.55, 0.15),
    }
}

/// Draws the centre of mass, its plumb line, the support polygon and the momentum arrow of the
/// frame shown: the edited figure's, and with View ▸ Physics of every figure the other figures'
/// (each measured in its own frame, drawn where it stands).
pub fn draw_physics(
    mut gizmos: Gizmos<super::on_top::OnTop>,
    document: Res<OpenDocument>,
    overlay: Res<PhysicsOverlay>,
    stage: Res<StagePhysicsOverlay>,
    mut time: ResMut<PhysicsDrawTime>,
) {
    let started = std::time::Instant::now();
    let mut drawn = 0;
    if let Some((view, i)) = overlay.shown(&document) {
        draw_view(&mut gizmos, view, i, &Isometry3::identity());
        drawn += 1;
    }
    let to_edited = document.stage_to_figure();
    for (k, figure) in document.figures().iter().enumerate() {
        if let Some((view, i)) = stage.shown(k, &document) {
            let place = to_edited * figure.placement.isometry();
            draw_view(&mut gizmos, view, i, &place);
            drawn += 1;
        }
    }
    if drawn > 0 {
        time.add(started.elapsed(), drawn);
    }
}

/// How long drawing the physics overlays took, over the frames they were drawn on (what a
/// replay reports at its end: the overlays' own cost a drawn frame, the gizmos' lines included).
#[derive(Resource, Debug, Default)]
pub struct PhysicsDrawTime {
    /// Frames the overlays were drawn on.
    pub frames: u64,
    /// Figures drawn, over those frames.
    pub figures: u64,
    /// Their time, in all.
    pub total: std::time::Duration,
    /// The longest frame's.
    pub longest: std::time::Duration,
}

impl PhysicsDrawTime {
    fn add(&mut self, took: std::time::Duration, figures: u64) {
        self.frames += 1;
        self.figures += figures;
        self.total += took;
        self.longest = self.longest.max(took);
    }
}

/// Draws frame `i` of `view`, its points moved by `place` (from the figure's frame to the one
/// the views draw in; both have their floor at height 0).
fn draw_view(
    gizmos: &mut Gizmos<super::on_top::OnTop>,
    view: &PhysicsView,
    i: usize,
    place: &Isometry3<f64>,
) {
    let at = |p: &Vector3<f64>| vec3(&(place * nalgebra::Point3::from(*p)).coords);
    let com = at(&view.com[i]);
    let white = Color::srgb(0.95, 0.95, 0.95);
    for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
        gizmos.line(com - axis * 0.06, com + axis * 0.06, white);
    }
    let ground = Vec3::new(com.x, 0.0, com.z);
    gizmos.line(com, ground, white.with_alpha(0.6));
    let footing = view.footing(i);
    let colour = footing_colour(footing);
    gizmos.circle(
        Isometry3d::new(ground, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
        0.02,
        colour,
    );
    if let Some((hull, _)) = view.footing_at(i) {
        let on_floor = |p: &nalgebra::Vector2<f64>| {
            let floor = at(&Vector3::new(p.x, 0.0, p.y));
            Vec3::new(floor.x, 0.003, floor.z)
        };
        let mut outline: Vec<Vec3> = hull.iter().map(on_floor).collect();
        if let Some(first) = outline.first().copied() {
            outline.push(first);
        }
        gizmos.linestrip(outline, colour);
    }
    let momentum = place.rotation * view.momentum[i] * ARROW_PER_MOMENTUM;
    let length = momentum.norm();
    if length > 1e-3 {
        let arrow = momentum * (length.min(LONGEST_ARROW) / length);
        gizmos.arrow(com, com + vec3(&arrow), Color::srgb(0.4, 0.75, 1.0));
    }
}

/// The physics ghost's colour: violet, translucent.
pub const GHOST_COLOUR: Color = Color::srgba(0.75, 0.45, 1.0, 0.85);

/// Draws the physics ghost (Sequence ▸ Physics ghost): on its frames, its figure as a stick
/// figure with its centre of mass, and its centre of mass's path over all its frames, while
/// the sequence it was made from is shown unchanged.
pub fn draw_physics_ghost(
    mut gizmos: Gizmos<super::on_top::OnTop>,
    document: Res<OpenDocument>,
    beside: Res<crate::beside::BesideState>,
) {
    let Some(ghost) = beside.ghost.as_ref() else {
        return;
    };
    if !ghost.is_current(&document) {
        return;
    }
    let path: Vec<Vec3> = ghost
        .com
        .iter()
        .map(|c| Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32))
        .collect();
    gizmos.linestrip(path, GHOST_COLOUR.with_alpha(0.6));
    let Some(pose) = ghost.pose_at(document.frame()) else {
        return;
    };
    let skeleton = document.skeleton();
    let mut fk = marionette_skeleton::Fk::new(skeleton);
    fk.update_transforms(skeleton, pose);
    for j in skeleton.joint_ids() {
        if let Some(parent) = skeleton.joint(j).parent {
            let (a, b) = (fk.joint_position(parent), fk.joint_position(j));
            gizmos.line(vec3(&a), vec3(&b), GHOST_COLOUR);
        }
        gizmos.sphere(
            Isometry3d::from_translation(vec3(&fk.joint_position(j))),
            0.015,
            GHOST_COLOUR,
        );
    }
    let i = (document.frame() - ghost.request.from) as usize;
    if let Some(c) = ghost.com.get(i) {
        let at = Vec3::new(c[0] as f32, c[1] as f32, c[2] as f32);
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            gizmos.line(at - axis * 0.05, at + axis * 0.05, GHOST_COLOUR);
        }
    }
}
