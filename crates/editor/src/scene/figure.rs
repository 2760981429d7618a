//! The figure's entities: one per joint frame placed by forward kinematics, its body (capsule,
//! box, sphere or glTF mesh from the skeleton file, or slim bones for a joint without one) as a
//! pickable child, small pickable handles on the sites, joint markers and the ground; rebuilt
//! when another document is opened, moved when the pose changed, tinted by hover and selection.

use bevy::prelude::*;
use marionette_skeleton::{JointId, Shape, Skeleton};
use nalgebra::Vector3;

use super::parts::{Body, FigurePart, Ground, JointFrame, Palette, SITE_HANDLE_SIZE, SiteHandle};
use crate::convert::{quat, vec3};
use crate::figure_bounds::{figure_size, ground_height};
use crate::resources::OpenDocument;
use crate::selection::{Hovered, Selection};

/// A joint without a body gets a slim pickable bone to each child and each of its sites, so
/// every figure can be seen and grabbed (Buss's trees, say, have no bodies).
pub(crate) fn bones(skeleton: &Skeleton, joint: JointId, radius: f64) -> Vec<Shape> {
    let children = skeleton
        .joint(joint)
        .children
        .iter()
        .map(|&child| skeleton.joint(child).offset);
    let sites = skeleton
        .sites()
        .iter()
        .filter(|site| site.joint == joint)
        .map(|site| site.offset);
    children
        .chain(sites)
        .filter(|offset| offset.norm() > 1e-9)
        .map(|end| Shape::Capsule {
            radius,
            start: Vector3::zeros(),
            end,
        })
        .collect()
}

/// Facets around a body's capsule or sphere: smooth at any size a body is seen, and a quarter of
/// Bevy's default triangles (triangle set-up is most of the 3D pass on a software renderer).
const BODY_LONGITUDES: u32 = 16;

/// The mesh and its placement in the joint frame for a body shape (glTF meshes excepted).
pub fn shape_mesh(shape: &Shape) -> Option<(Mesh, Transform)> {
    match shape {
        Shape::Capsule { radius, start, end } => {
            let axis = vec3(&(end - start));
            let length = axis.length();
            let centre = vec3(&((start + end) * 0.5));
            let rotation = if length > 1e-6 {
                Quat::from_rotation_arc(Vec3::Y, axis / length)
            } else {
                Quat::IDENTITY
            };
            Some((
                Capsule3d::new(*radius as f32, length)
                    .mesh()
                    .longitudes(BODY_LONGITUDES)
                    .latitudes(BODY_LONGITUDES / 2)
                    .build(),
                Transform::from_translation(centre).with_rotation(rotation),
            ))
        }
        Shape::Box {
            half_extents,
            center,
        } => {
            let size = vec3(half_extents) * 2.0;
            Some((
                Cuboid::new(size.x, size.y, size.z).mesh().build(),
                Transform::from_translation(vec3(center)),
            ))
        }
        Shape::Sphere { radius, center } => Some((
            Sphere::new(*radius as f32)
                .mesh()
                .uv(BODY_LONGITUDES, BODY_LONGITUDES * 5 / 8),
            Transform::from_translation(vec3(center)),
        )),
        Shape::Mesh { .. } => None,
    }
}

/// Spawns the figure of a newly opened document (the scene's figure says which document it
/// shows), despawning the last one.
pub(super) fn rebuild_figure(
    mut commands: Commands,
    document: Res<OpenDocument>,
    palette: Res<Palette>,
    parts: Query<Entity, (With<FigurePart>, Without<ChildOf>)>,
    shown: Query<&Ground>,
    (mut meshes, asset_server): (ResMut<Assets<Mesh>>, Res<AssetServer>),
) {
    if shown.iter().any(|g| g.document == document.id()) {
        return;
    }
    // A character draws itself: its bodies are there, hidden, for the ghosts to copy.
    let bodies_visible = if document.character().is_some() {
        Visibility::Hidden
    } else {
        Visibility::Inherited
    };
    for entity in &parts {
        commands.entity(entity).despawn();
    }
    let skeleton = document.skeleton();
    let fk = document.fk();
    let size = figure_size(skeleton, fk);
    let site_mesh = meshes.add(Sphere::new(SITE_HANDLE_SIZE * size).mesh().uv(12, 8));
    let joint_mesh = meshes.add(Sphere::new(0.006 * size).mesh().uv(8, 5));
    let bone_radius = f64::from(0.008 * size);
    let ground_y = ground_height(skeleton, fk);
    commands.spawn((
        FigurePart,
        Mesh3d(meshes.add(Plane3d::default().mesh().size(8.0, 8.0))),
        MeshMaterial3d(palette.joint.clone()),
        // Put under the stage by `place_ground`, right after.
        Transform::from_xyz(0.0, ground_y - 0.001, 0.0),
        Pickable::IGNORE,
        Ground {
            document: document.id(),
        },
    ));
    for (id, joint) in skeleton.joint_ids().zip(skeleton.joints()) {
        let mut frame = commands.spawn((
            FigurePart,
            JointFrame(id),
            Transform::from_translation(vec3(&fk.joint_position(id)))
                .with_rotation(quat(fk.joint_rotation(id))),
            Visibility::default(),
            Name::new(joint.name.clone()),
        ));
        frame.with_children(|children| {
            children.spawn((
                Mesh3d(joint_mesh.clone()),
                MeshMaterial3d(palette.joint.clone()),
                Transform::default(),
                Pickable::IGNORE,
            ));
            match &joint.shape {
                Some(Shape::Mesh { path, origin }) => {
                    children.spawn((
                        Body(id),
                        bevy::world_serialization::WorldAssetRoot(
                            asset_server.load(GltfAssetLabel::Scene(0).from_asset(path.clone())),
                        ),
                        Transform::from_translation(vec3(origin)),
                        non_blocking(),
                    ));
                }
                other => {
                    let shapes = match other {
                        Some(shape) => vec![shape.clone()],
                        None => bones(skeleton, id, bone_radius),
                    };
                    for (mesh, placement) in shapes.iter().filter_map(shape_mesh) {
                        children.spawn((
                            Body(id),
                            Mesh3d(meshes.add(mesh)),
                            MeshMaterial3d(palette.body.clone()),
                            placement,
                            non_blocking(),
                            bodies_visible,
                        ));
                    }
                }
            }
            for (site_id, site) in skeleton.site_ids().zip(skeleton.sites()) {
                if site.joint == id {
                    children.spawn((
                        SiteHandle(site_id),
                        Mesh3d(site_mesh.clone()),
                        MeshMaterial3d(palette.site.clone()),
                        Transform::from_translation(vec3(&site.offset)),
                        Name::new(site.name.clone()),
                    ));
                }
            }
        });
    }
}

/// Bodies let the ray through to what lies behind them, so a site handle inside a body is still
/// pressed (the drag prefers handles, then the nearest body).
fn non_blocking() -> Pickable {
    Pickable {
        should_block_lower: false,
        is_hoverable: true,
    }
}

/// Puts each joint frame where forward kinematics says, when the document changed (or frames
/// were just spawned).
pub(super) fn place_figure(
    document: Res<OpenDocument>,
    mut frames: Query<(&JointFrame, &mut Transform)>,
    added: Query<(), Added<JointFrame>>,
) {
    if !document.is_changed() && added.is_empty() {
        return;
    }
    let fk = document.fk();
    for (frame, mut transform) in &mut frames {
        let translation = vec3(&fk.joint_position(frame.0));
        let rotation = quat(fk.joint_rotation(frame.0));
        if transform.translation != translation || transform.rotation != rotation {
            transform.translation = translation;
            transform.rotation = rotation;
        }
    }
}

/// Keeps the ground under the stage (centred on its origin, turned with it) when the ground is
/// made or the edited figure moves on the floor: the scene is drawn in the edited figure's
/// frame.
pub(super) fn place_ground(
    document: Res<OpenDocument>,
    mut grounds: Query<&mut Transform, With<Ground>>,
) {
    if !document.is_changed() {
        return;
    }
    let stage = crate::convert::isometry(&document.stage_to_figure());
    for mut ground in &mut grounds {
        let wanted = stage.with_translation(stage.translation.with_y(ground.translation.y));
        if *ground != wanted {
            *ground = wanted;
        }
    }
}

/// The selected body in orange, the hovered one lighter (glTF bodies keep their own materials:
/// [`super::gltf_tint`]).
pub(super) fn highlight(
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    palette: Res<Palette>,
    mut bodies: Query<(
        &Body,
        &mut MeshMaterial3d<super::figure_material::FigureMaterial>,
    )>,
) {
    for (body, mut material) in &mut bodies {
        let wanted = if selection.contains(&document, body.0) {
            &palette.selected
        } else if hovered.0 == Some(body.0) {
            &palette.hovered
        } else {
            &palette.body
        };
        if material.0 != *wanted {
            material.0 = wanted.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::Fk;

    #[test]
    fn bodiless_joints_get_bones_to_their_children_and_sites() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/buss_y.ron");
        let skeleton = Skeleton::load(&path).expect("buss_y");
        let mut fk = Fk::new(&skeleton);
        fk.update(&skeleton, &marionette_skeleton::Pose::rest(&skeleton).q);
        let size = figure_size(&skeleton, &fk);
        assert!(size > 0.5, "Buss's Y is a few units tall: {size}");
        let mut ends = 0;
        for joint in skeleton.joint_ids() {
            assert!(skeleton.joint(joint).shape.is_none());
            let sites = skeleton.sites().iter().filter(|s| s.joint == joint).count();
            let wanted = skeleton.joint(joint).children.len() + sites;
            let bones = bones(&skeleton, joint, 0.01);
            assert_eq!(bones.len(), wanted, "{}", skeleton.joint(joint).name);
            for bone in &bones {
                let (mesh, placement) = shape_mesh(bone).expect("a capsule mesh");
                assert!(mesh.count_vertices() > 0);
                assert!(placement.translation.is_finite());
            }
            ends += sites;
        }
        assert_eq!(
            ends,
            skeleton.sites().len(),
            "every effector is reached by a bone"
        );
    }
}
