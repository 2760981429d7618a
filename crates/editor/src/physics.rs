//! The physics assistant in the views (View ▸ Physics, the replay's `ShowPhysics`): the edited
//! figure's centre of mass as a cross with its plumb line to the floor, the support polygon on
//! the floor (green when the centre of mass is inside by more than 2 cm, amber within 2 cm, red
//! outside) and the angular momentum as an arrow at the centre of mass, on the frame shown; on
//! the timeline, the support strip ([`crate::panels::support_strip`]). What they show is measured
//! by [`PhysicsView`] when the document, the shown sequence's bake or the switch change
//! ([`PhysicsOverlay`]); nothing here changes the document.

use bevy::prelude::*;
use marionette_editing::physics_view::{Footing, PhysicsView};
use marionette_motion::BakedFrame;

use crate::EditorSet;
use crate::beside::BesideState;
use crate::convert::vec3;
use crate::derived::BakedStrip;
use crate::resources::OpenDocument;

/// Metres of arrow per kg·m²/s of angular momentum (a 75 kg jump's few units show as tens of
/// centimetres), at most [`LONGEST_ARROW`].
const ARROW_PER_MOMENTUM: f64 = 0.05;

/// The longest momentum arrow drawn (m).
const LONGEST_ARROW: f64 = 0.6;

/// The physics of the edited figure, measured when shown.
#[derive(Resource, Debug, Default)]
pub struct PhysicsOverlay {
    /// What it was measured from: the document, its motion revision, the sequence shown, and
    /// (no sequence shown) the pose's revision.
    source: Option<(u64, u64, Option<usize>, u64)>,
    /// The measures, or why there are none; `None` while hidden.
    pub view: Option<Result<PhysicsView, String>>,
}

impl PhysicsOverlay {
    /// The measures and the index of the frame shown in them, when shown.
    pub fn shown(&self, document: &OpenDocument) -> Option<(&PhysicsView, usize)> {
        let view = self.view.as_ref()?.as_ref().ok()?;
        let i = match document.current_sequence() {
            Some(_) => view.index(document.frame())?,
            None => 0,
        };
        Some((view, i))
    }
}

/// Measures and draws the physics overlays.
pub struct PhysicsPlugin;

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsOverlay>().add_systems(
            Update,
            measure
                .run_if(
                    resource_changed::<OpenDocument>
                        .or_eager(resource_changed::<BesideState>)
                        .or_eager(resource_changed::<BakedStrip>),
                )
                .in_set(EditorSet::Derive)
                .after(crate::derived::baked_strip),
        );
    }
}

/// The overlays' gizmo system, added with the other gizmos.
pub fn add_drawing(app: &mut App) {
    app.add_systems(PostUpdate, draw.in_set(EditorSet::Gizmos));
}

/// Measures the shown sequence's bake (or the pose, with none shown) when shown and changed.
fn measure(
    document: Res<OpenDocument>,
    beside: Res<BesideState>,
    strip: Res<BakedStrip>,
    mut overlay: ResMut<PhysicsOverlay>,
) {
    if !beside.physics {
        if overlay.view.is_some() {
            *overlay = PhysicsOverlay::default();
        }
        return;
    }
    let shown = document.current_sequence();
    let pose_revision = if shown.is_some() {
        0
    } else {
        document.history().revision()
    };
    let source = (
        document.id(),
        document.history().motion_revision(),
        shown,
        pose_revision,
    );
    if overlay.source == Some(source) && overlay.view.is_some() {
        return;
    }
    let (frames, fps) = match shown.and_then(|i| document.sequences().get(i)) {
        Some(sequence) if !strip.poses.is_empty() => {
            let frames: Vec<BakedFrame> = strip
                .errors
                .iter()
                .zip(&strip.poses)
                .map(|(&(frame, _), q)| BakedFrame {
                    frame,
                    q: q.clone(),
                    lock_errors: Vec::new(),
                })
                .collect();
            (frames, sequence.fps)
        }
        _ => {
            let frame = BakedFrame {
                frame: document.frame(),
                q: document.pose().to_vec(),
                lock_errors: Vec::new(),
            };
            (vec![frame], 24.0)
        }
    };
    let view = PhysicsView::of_take(document.skeleton(), document.locks(), &frames, fps)
        .map_err(|e| e.to_string());
    *overlay = PhysicsOverlay {
        source: Some(source),
        view: Some(view),
    };
}

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
/// frame shown.
fn draw(
    mut gizmos: Gizmos<crate::gizmos::OnTop>,
    document: Res<OpenDocument>,
    overlay: Res<PhysicsOverlay>,
) {
    let Some((view, i)) = overlay.shown(&document) else {
        return;
    };
    let com = vec3(&view.com[i]);
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
        let on_floor = |p: &nalgebra::Vector2<f64>| Vec3::new(p.x as f32, 0.003, p.y as f32);
        let mut outline: Vec<Vec3> = hull.iter().map(on_floor).collect();
        if let Some(first) = outline.first().copied() {
            outline.push(first);
        }
        gizmos.linestrip(outline, colour);
    }
    let momentum = view.momentum[i] * ARROW_PER_MOMENTUM;
    let length = momentum.norm();
    if length > 1e-3 {
        let arrow = momentum * (length.min(LONGEST_ARROW) / length);
        gizmos.arrow(com, com + vec3(&arrow), Color::srgb(0.4, 0.75, 1.0));
    }
}
