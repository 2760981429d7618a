//! The figure in the 3D scene: one entity per joint frame placed by forward kinematics, its body
//! (capsule, box, sphere or glTF mesh from the skeleton file) as a pickable child, small pickable
//! handles on the sites, joint markers, lights, a ground and the comparison ghosts. Presses,
//! hovers and outs on bodies and handles come from Bevy's picking (mesh ray casts) and become
//! [`PickRequest`]s and [`Editor::hovered`].

use bevy::light::GlobalAmbientLight;
use bevy::prelude::*;
use marionette_skeleton::{Fk, JointId, Shape, SiteId, Skeleton};
use nalgebra::Vector3;

use crate::dragging::{PickRequest, PickTarget};
use crate::state::Editor;

/// Everything spawned for the current skeleton (despawned when another one is opened).
#[derive(Component)]
pub struct FigurePart;

/// A joint's frame, placed by forward kinematics.
#[derive(Component, Debug, Clone, Copy)]
pub struct JointFrame(pub JointId);

/// A joint's body: the pickable mesh of that joint.
#[derive(Component, Debug, Clone, Copy)]
pub struct Body(pub JointId);

/// A site's pickable handle.
#[derive(Component, Debug, Clone, Copy)]
pub struct SiteHandle(pub SiteId);

/// A ghost's joint frame: ghost `0` is the first compared solver.
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostFrame {
    /// Which ghost.
    pub ghost: usize,
    /// The drag it belongs to ([`Editor::ghost_generation`]).
    pub generation: u64,
    /// Which joint.
    pub joint: JointId,
}

/// The materials the figure is drawn with.
#[derive(Resource, Clone)]
pub struct Palette {
    /// Bodies.
    pub body: Handle<StandardMaterial>,
    /// The body under the cursor.
    pub hovered: Handle<StandardMaterial>,
    /// The selected joint's body.
    pub selected: Handle<StandardMaterial>,
    /// Site handles.
    pub site: Handle<StandardMaterial>,
    /// Joint markers.
    pub joint: Handle<StandardMaterial>,
    /// One translucent material per ghost.
    pub ghosts: Vec<Handle<StandardMaterial>>,
}

/// The colours of the ghosts, in the order of [`Editor::compared`].
pub const GHOST_COLOURS: [Color; 6] = [
    Color::srgba(0.95, 0.35, 0.3, 0.35),
    Color::srgba(0.3, 0.8, 0.4, 0.35),
    Color::srgba(0.35, 0.55, 1.0, 0.35),
    Color::srgba(0.9, 0.8, 0.25, 0.35),
    Color::srgba(0.8, 0.4, 0.9, 0.35),
    Color::srgba(0.3, 0.85, 0.9, 0.35),
];

/// The radius of a site handle, as a fraction of the figure's size (0.022 m on the humanoid).
pub const SITE_HANDLE_SIZE: f32 = 0.012;

/// Where the joints in `joints` and their sites are, at the pose `fk` holds.
pub fn points_of(skeleton: &Skeleton, fk: &Fk, joints: impl Fn(JointId) -> bool) -> Vec<Vec3> {
    let joint_points = skeleton
        .joint_ids()
        .filter(|&j| joints(j))
        .map(|j| vec3(&fk.joint_position(j)));
    let site_points = skeleton
        .site_ids()
        .filter(|&s| joints(skeleton.site(s).joint))
        .map(|s| vec3(&fk.site_position(s)));
    joint_points.chain(site_points).collect()
}

/// The smallest and largest corner of the box around `points` (`None` when there are none).
pub fn bounds(points: &[Vec3]) -> Option<(Vec3, Vec3)> {
    let first = *points.first()?;
    Some(
        points
            .iter()
            .fold((first, first), |(lo, hi), &p| (lo.min(p), hi.max(p))),
    )
}

/// The size of the figure at the pose `fk` holds: the diagonal of its joints' and sites' box
/// (at least 1 cm), which scales the markers, handles and bodiless bones.
pub fn figure_size(skeleton: &Skeleton, fk: &Fk) -> f32 {
    bounds(&points_of(skeleton, fk, |_| true))
        .map_or(0.0, |(min, max)| (max - min).length())
        .max(0.01)
}

/// A joint without a body gets a slim pickable bone to each child and each of its sites, so
/// every figure can be seen and grabbed (Buss's trees, say, have no bodies).
fn bones(skeleton: &Skeleton, joint: JointId, radius: f64) -> Vec<Shape> {
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

/// Draws the figure and routes picking to the drag.
pub struct ScenePlugin;

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(GlobalAmbientLight {
            color: Color::WHITE,
            brightness: 350.0,
            ..default()
        })
        .insert_resource(ClearColor(Color::srgb(0.16, 0.17, 0.19)))
        .add_systems(Startup, (setup_palette, setup_lights).chain())
        .add_systems(Update, economise_on_software_renderer)
        .add_systems(
            PostUpdate,
            (rebuild_figure, place_figure, sync_ghosts, highlight)
                .chain()
                .before(TransformSystems::Propagate),
        )
        .add_systems(
            PreUpdate,
            update_hover.after(bevy::picking::PickingSystems::Hover),
        )
        .add_observer(on_press)
        .add_plugins(crate::tint::TintPlugin);
    }
}

fn setup_palette(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    let mut solid = |colour: Color| {
        materials.add(StandardMaterial {
            base_color: colour,
            perceptual_roughness: 0.6,
            ..default()
        })
    };
    let body = solid(Color::srgb(0.78, 0.74, 0.68));
    let hovered = solid(Color::srgb(0.95, 0.85, 0.55));
    let selected = solid(Color::srgb(1.0, 0.62, 0.2));
    let site = materials.add(StandardMaterial {
        base_color: Color::srgb(0.2, 0.75, 1.0),
        emissive: LinearRgba::rgb(0.1, 0.4, 0.8),
        ..default()
    });
    let joint = materials.add(StandardMaterial {
        base_color: Color::srgb(0.25, 0.25, 0.3),
        unlit: true,
        ..default()
    });
    let ghosts = GHOST_COLOURS
        .iter()
        .map(|&colour| {
            materials.add(StandardMaterial {
                base_color: colour,
                alpha_mode: AlphaMode::Blend,
                unlit: true,
                ..default()
            })
        })
        .collect();
    commands.insert_resource(Palette {
        body,
        hovered,
        selected,
        site,
        joint,
        ghosts,
    });
}

fn setup_lights(mut commands: Commands) {
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(2.0, 5.0, 4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2500.0,
            ..default()
        },
        Transform::from_xyz(-3.0, 2.0, -4.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// On a software renderer (Mesa's llvmpipe and the like: no GPU) anti-aliasing and shadow maps
/// cost most of the frame; they are turned off there, once, and the user is told.
fn economise_on_software_renderer(
    mut commands: Commands,
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    cameras: Query<Entity, With<Camera3d>>,
    mut lights: Query<&mut DirectionalLight>,
    mut editor: ResMut<Editor>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter.filter(|_| !*done) else {
        return;
    };
    if cameras.is_empty() {
        return;
    }
    *done = true;
    if adapter.device_type != wgpu_types::DeviceType::Cpu {
        return;
    }
    for camera in &cameras {
        commands
            .entity(camera)
            .insert(bevy::render::view::Msaa::Off);
    }
    for mut light in &mut lights {
        light.shadow_maps_enabled = false;
    }
    editor.inform(format!(
        "Software renderer ({}): anti-aliasing and shadows are off",
        adapter.name
    ));
}

pub use crate::convert::{quat, vec3};

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
                Capsule3d::new(*radius as f32, length).mesh().build(),
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
            Sphere::new(*radius as f32).mesh().uv(24, 16),
            Transform::from_translation(vec3(center)),
        )),
        Shape::Mesh { .. } => None,
    }
}

/// The height of the ground under the figure's standing pose: its lowest joint or site (never
/// above 0).
pub fn ground_height(skeleton: &Skeleton, fk: &Fk) -> f32 {
    bounds(&points_of(skeleton, fk, |_| true)).map_or(0.0, |(min, _)| min.y.min(0.0))
}

#[allow(clippy::too_many_arguments)]
fn rebuild_figure(
    mut commands: Commands,
    editor: Res<Editor>,
    palette: Res<Palette>,
    parts: Query<Entity, (With<FigurePart>, Without<ChildOf>)>,
    mut meshes: ResMut<Assets<Mesh>>,
    asset_server: Res<AssetServer>,
    mut built: Local<Option<u64>>,
) {
    if *built == Some(editor.document.id()) {
        return;
    }
    *built = Some(editor.document.id());
    for entity in &parts {
        commands.entity(entity).despawn();
    }
    let skeleton = editor.skeleton();
    let fk = editor.document.fk();
    let size = figure_size(skeleton, fk);
    let site_mesh = meshes.add(Sphere::new(SITE_HANDLE_SIZE * size).mesh().uv(16, 10));
    let joint_mesh = meshes.add(Sphere::new(0.006 * size).mesh().uv(10, 6));
    let bone_radius = f64::from(0.008 * size);
    let ground_y = ground_height(skeleton, fk);
    commands.spawn((
        FigurePart,
        Mesh3d(meshes.add(Plane3d::default().mesh().size(8.0, 8.0))),
        MeshMaterial3d(palette.joint.clone()),
        Transform::from_xyz(0.0, ground_y - 0.001, 0.0),
        Pickable::IGNORE,
        Ground,
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

/// The ground plane.
#[derive(Component)]
pub struct Ground;

/// Bodies let the ray through to what lies behind them, so a site handle inside a body is still
/// pressed (the drag prefers handles, then the nearest body).
fn non_blocking() -> Pickable {
    Pickable {
        should_block_lower: false,
        is_hoverable: true,
    }
}

/// Puts each joint frame where forward kinematics says, when the pose changed.
fn place_figure(
    editor: Res<Editor>,
    mut frames: Query<(&JointFrame, &mut Transform)>,
    mut placed: Local<Option<(u64, Vec<f64>)>>,
    added: Query<(), Added<JointFrame>>,
) {
    // Redrawn when the document or the pose itself differs from what was placed.
    let id = editor.document.id();
    let pose = editor.document.pose();
    if placed.as_ref().is_some_and(|(i, q)| *i == id && q == pose) && added.is_empty() {
        return;
    }
    match placed.as_mut() {
        Some((i, q)) => {
            *i = id;
            q.clear();
            q.extend_from_slice(pose);
        }
        None => *placed = Some((id, pose.to_vec())),
    }
    let fk = editor.document.fk();
    for (frame, mut transform) in &mut frames {
        transform.translation = vec3(&fk.joint_position(frame.0));
        transform.rotation = quat(fk.joint_rotation(frame.0));
    }
}

/// A glTF body's copy in a ghost: its meshes get the ghost's material when they appear
/// ([`crate::tint`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostMeshBody(pub usize);

/// Spawns, places and removes the comparison ghosts: translucent, unpickable copies of the bodies
/// (a glTF body's scene is instanced again for each ghost).
#[allow(clippy::type_complexity)]
fn sync_ghosts(
    mut commands: Commands,
    editor: Res<Editor>,
    palette: Res<Palette>,
    bodies: Query<(&Body, &Mesh3d, &Transform, &ChildOf), Without<GhostFrame>>,
    mesh_bodies: Query<
        (
            &Body,
            &bevy::world_serialization::WorldAssetRoot,
            &Transform,
        ),
        (Without<GhostFrame>, Without<Mesh3d>),
    >,
    mut ghosts: Query<(Entity, &GhostFrame, &mut Transform), Without<Body>>,
) {
    let wanted = editor.ghosts.len();
    let mut have = 0;
    for (entity, ghost, mut transform) in &mut ghosts {
        match editor
            .ghosts
            .get(ghost.ghost)
            .filter(|_| ghost.generation == editor.ghost_generation)
        {
            Some(track) => {
                transform.translation = vec3(&track.fk.joint_position(ghost.joint));
                transform.rotation = quat(track.fk.joint_rotation(ghost.joint));
                have = have.max(ghost.ghost + 1);
            }
            _ => commands.entity(entity).despawn(),
        }
    }
    for index in have..wanted {
        let track = &editor.ghosts[index];
        let material = palette.ghosts[index % palette.ghosts.len()].clone();
        let ghosted = |joint: JointId| editor.ghosted.get(joint.index()).copied().unwrap_or(false);
        let generation = editor.ghost_generation;
        for (body, mesh, local, _) in bodies.iter().filter(|b| ghosted(b.0.0)) {
            let frame = ghost_frame(&mut commands, (index, generation), body.0, &track.fk);
            commands.spawn((
                Mesh3d(mesh.0.clone()),
                MeshMaterial3d(material.clone()),
                *local,
                Pickable::IGNORE,
                ChildOf(frame),
            ));
        }
        for (body, scene, local) in mesh_bodies.iter().filter(|b| ghosted(b.0.0)) {
            let frame = ghost_frame(&mut commands, (index, generation), body.0, &track.fk);
            commands.spawn((GhostMeshBody(index), scene.clone(), *local, ChildOf(frame)));
        }
    }
}

/// Spawns ghost `ghost` (of drag `generation`)'s frame of `joint`, placed as `fk` has it.
fn ghost_frame(
    commands: &mut Commands,
    (ghost, generation): (usize, u64),
    joint: JointId,
    fk: &Fk,
) -> Entity {
    commands
        .spawn((
            FigurePart,
            GhostFrame {
                ghost,
                generation,
                joint,
            },
            Transform::from_translation(vec3(&fk.joint_position(joint)))
                .with_rotation(quat(fk.joint_rotation(joint))),
            Visibility::default(),
        ))
        .id()
}

/// The selected body in orange, the hovered one lighter (glTF bodies keep their own materials:
/// [`crate::tint`]).
fn highlight(
    editor: Res<Editor>,
    selection: Res<crate::selection::Selection>,
    hovered: Res<crate::selection::Hovered>,
    palette: Res<Palette>,
    mut bodies: Query<(&Body, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    for (body, mut material) in &mut bodies {
        let wanted = if selection.joint(&editor.document) == Some(body.0) {
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

fn on_press(
    press: On<Pointer<Press>>,
    bodies: Query<&Body>,
    handles: Query<&SiteHandle>,
    mut picks: MessageWriter<PickRequest>,
) {
    if press.event.button != PointerButton::Primary {
        return;
    }
    let target = if let Ok(handle) = handles.get(press.entity) {
        PickTarget::Site(handle.0)
    } else if let Ok(body) = bodies.get(press.entity) {
        PickTarget::Body(body.0)
    } else {
        return;
    };
    let hit = &press.event.hit;
    picks.write(PickRequest {
        target,
        hit: hit.position.unwrap_or_default(),
        depth: hit.depth,
        camera: hit.camera,
    });
}

/// The body under the mouse: the nearest body among the picking hover hits (bodies let the ray
/// through, so several can be hovered at once; a glTF body is hit through its child meshes).
fn update_hover(
    hover: Res<bevy::picking::hover::HoverMap>,
    bodies: Query<&Body>,
    parents: Query<&ChildOf>,
    mut hovered: ResMut<crate::selection::Hovered>,
) {
    let body_of = |mut entity: Entity| {
        for _ in 0..8 {
            if let Ok(body) = bodies.get(entity) {
                return Some(body.0);
            }
            entity = parents.get(entity).ok()?.parent();
        }
        None
    };
    let nearest = hover
        .get(&bevy::picking::pointer::PointerId::Mouse)
        .and_then(|hits| {
            hits.iter()
                .filter_map(|(&entity, hit)| body_of(entity).map(|joint| (joint, hit.depth)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
        })
        .map(|(joint, _)| joint);
    if hovered.0 != nearest {
        hovered.0 = nearest;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
