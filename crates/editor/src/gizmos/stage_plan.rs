//! The stage plan (issue 32): with a sequence shown, each figure's floor path over that sequence
//! (its root's ground track, the keys interpolated frame by frame) drawn on the floor, a ring
//! at each key, and where each figure stands with the way it faces (its floor handles: a ring
//! to move it and a knob to turn it, [`crate::drag::floor_grip`]); seen from the top view it
//! is the choreographer's floor pattern. Every figure of the stage that has a sequence of the
//! shown one's name is drawn (the edited one in orange, the others in blue), in the edited
//! figure's frame like the rest of the scene. Recomputed only when the document changes.

use bevy::prelude::*;
use marionette_editing::Document;
use marionette_motion::interpolate::Interpolator;
use marionette_skeleton::Fk;
use nalgebra::{Isometry3, Point3};

use crate::resources::OpenDocument;

/// One figure's path on the floor, in the edited figure's frame.
#[derive(Debug, Clone, Default)]
struct FloorPath {
    /// The root's ground track, one point per frame.
    track: Vec<Vec3>,
    /// The root on the floor at each key.
    keys: Vec<Vec3>,
    /// Where the figure stands and the way it faces (its placement's +Z).
    stands: (Vec3, Vec3),
    /// Whether it is the edited figure.
    edited: bool,
}

/// The floor paths of the shown sequence, as last computed.
#[derive(Resource, Debug, Default)]
pub struct StagePlan {
    paths: Vec<FloorPath>,
    /// Each prop's floor handles: its place on the floor and its heading, in the edited
    /// figure's frame.
    props: Vec<(Vec3, Vec3)>,
    /// What they were computed from.
    made_from: Option<crate::scene::stage::StageWork>,
}

/// The height the plan is drawn at: just above the floor.
const ABOVE_FLOOR: f32 = 0.004;

/// A figure's floor path in the edited figure's frame (`to_edited`), for sequence `name`.
fn floor_path(
    document: &Document,
    placement: &Isometry3<f64>,
    to_edited: &Isometry3<f64>,
    name: Option<&str>,
    edited: bool,
) -> FloorPath {
    let on_floor = |p: Point3<f64>| {
        let p = to_edited * placement * p;
        Vec3::new(p.x as f32, ABOVE_FLOOR, p.z as f32)
    };
    let facing = to_edited * placement * nalgebra::Vector3::z();
    let mut path = FloorPath {
        stands: (
            on_floor(Point3::origin()),
            Vec3::new(facing.x as f32, 0.0, facing.z as f32),
        ),
        edited,
        ..FloorPath::default()
    };
    let Some(sequence) = name
        .and_then(|n| document.sequences().iter().find(|s| s.name == n))
        .filter(|s| !s.keys.is_empty())
    else {
        return path;
    };
    let skeleton = document.skeleton();
    let interpolator = Interpolator::new(skeleton, sequence);
    let (first, last) = interpolator.range();
    let mut fk = Fk::new(skeleton);
    let mut q = Vec::new();
    let root = skeleton.root();
    // At most 2000 points: a long sequence is sampled every few frames.
    let step = ((last - first) / 2000).max(1);
    let mut frame = first;
    while frame <= last {
        interpolator.pose_at(skeleton, frame, &mut q);
        fk.update(skeleton, &q);
        path.track
            .push(on_floor(Point3::from(fk.joint_position(root))));
        frame = if frame == last {
            last + 1
        } else {
            (frame + step).min(last)
        };
    }
    for key in &sequence.keys {
        fk.update(skeleton, &key.pose.q);
        path.keys
            .push(on_floor(Point3::from(fk.joint_position(root))));
    }
    path
}

/// Recomputes the paths when the document changed what they depend on, and the props'
/// handles whenever it changed (a keyed prop's move with the frame).
pub(super) fn update_stage_plan(
    document: Res<OpenDocument>,
    work: Res<crate::scene::stage::StageWork>,
    mut plan: ResMut<StagePlan>,
) {
    if document.is_changed() {
        let to_edited = document.stage_to_figure();
        plan.props = document
            .props()
            .iter()
            .enumerate()
            .map(|(p, _)| {
                let (at, heading) =
                    crate::drag::floor_grip::prop_stands(&document.prop_place_now(p));
                let at = to_edited * Point3::from(at);
                let heading = to_edited.rotation * heading;
                (
                    Vec3::new(at.x as f32, ABOVE_FLOOR, at.z as f32),
                    Vec3::new(heading.x as f32, 0.0, heading.z as f32),
                )
            })
            .collect();
    }
    if !work.is_changed() || plan.made_from.as_ref() == Some(&*work) {
        return;
    }
    let name = work.sequence.clone();
    let to_edited = document.stage_to_figure();
    let active = document.active_figure();
    plan.paths = document
        .figures()
        .iter()
        .enumerate()
        .map(|(k, figure)| {
            let doc = figure.document().unwrap_or(&document);
            floor_path(
                doc,
                &figure.placement.isometry(),
                &to_edited,
                name.as_deref(),
                k == active,
            )
        })
        .collect();
    plan.made_from = Some(work.clone());
}

/// Draws the plan: tracks, key rings, and an arrow where each figure stands, the way it faces;
/// each prop's floor handles. One figure without props or a sequence draws nothing (there is
/// no stage to plan).
pub(super) fn draw_stage_plan(mut gizmos: Gizmos, plan: Res<StagePlan>) {
    let flat = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let brown = Color::srgb(0.85, 0.55, 0.3);
    for &(at, heading) in &plan.props {
        let ring = crate::drag::floor_grip::PROP_RING as f32;
        let knob = at + heading * crate::drag::floor_grip::PROP_KNOB as f32;
        gizmos.circle(Isometry3d::new(at, flat), ring, brown.with_alpha(0.8));
        gizmos.line(at + heading * ring, knob, brown.with_alpha(0.8));
        gizmos.circle(Isometry3d::new(knob, flat), 0.03, brown);
    }
    if plan.paths.len() < 2 && plan.paths.iter().all(|p| p.track.len() < 2) {
        return;
    }
    for path in &plan.paths {
        let colour = if path.edited {
            Color::srgb(1.0, 0.62, 0.2)
        } else {
            Color::srgb(0.45, 0.7, 1.0)
        };
        if path.track.len() > 1 {
            gizmos.linestrip(path.track.iter().copied(), colour);
        }
        for &key in &path.keys {
            gizmos.circle(
                Isometry3d::new(key, Quat::from_rotation_x(std::f32::consts::FRAC_PI_2)),
                0.05,
                colour,
            );
        }
        // The floor handles ([`crate::drag::floor_grip`]): a ring to move the figure, a knob
        // ahead of it to turn it.
        let (at, facing) = path.stands;
        if plan.paths.len() < 2 {
            gizmos.arrow(at, at + facing * 0.35, colour.with_alpha(0.8));
            continue;
        }
        let ring = crate::drag::floor_grip::RING as f32;
        let knob = at + facing * crate::drag::floor_grip::KNOB as f32;
        gizmos.circle(Isometry3d::new(at, flat), ring, colour.with_alpha(0.8));
        gizmos.arrow(at + facing * ring, knob, colour.with_alpha(0.8));
        gizmos.circle(Isometry3d::new(knob, flat), 0.04, colour);
    }
}

/// The plan's inputs and drawing, for the gizmos plugin.
pub(super) fn add_systems(app: &mut App) {
    app.init_resource::<StagePlan>().add_systems(
        PostUpdate,
        (update_stage_plan, draw_stage_plan)
            .chain()
            .in_set(crate::EditorSet::Gizmos),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::stage::StageEdit;
    use marionette_editing::{Edit, Solving};

    #[test]
    fn a_figure_s_path_follows_its_root_through_the_keys_on_the_stage() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron");
        let mut doc = Document::open_document(path).expect("the test stage");
        doc.apply(
            Edit::Stage(StageEdit::SelectFigure("B".into())),
            &mut Solving::default(),
        )
        .expect("B");
        // B's own sequence "sway", seen from A's frame (A stands at the stage's origin).
        let to_a = doc.figures()[0].placement.isometry().inverse();
        let placement = doc.figure_to_stage();
        let plan = floor_path(&doc, &placement, &to_a, Some("sway"), true);
        assert_eq!(plan.track.len(), 49);
        assert_eq!(plan.keys.len(), 3);
        // Key 24 moves B's root by (0.08, -, 0.04) in B's frame: turned half round on the stage.
        let delta = plan.keys[1] - plan.keys[0];
        assert!(
            (delta.x + 0.08).abs() < 1e-5 && (delta.z + 0.04).abs() < 1e-5,
            "{delta}"
        );
        // B stands 1 m along +z, facing -z (towards A).
        assert!((plan.stands.0 - Vec3::new(0.0, ABOVE_FLOOR, 1.0)).length() < 1e-6);
        assert!((plan.stands.1 - Vec3::NEG_Z).length() < 1e-6);
        // No sequence of that name: where it stands, no track.
        let none = floor_path(&doc, &placement, &to_a, Some("nothing"), true);
        assert!(none.track.is_empty() && none.keys.is_empty());
    }
}
