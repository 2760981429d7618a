//! The rest of the stage in the 3D scene: every figure other than the edited one, drawn with its
//! bodies (or slim bones; a character with its skin, [`characters`]) at its pose, and every prop (its box, cylinder or sphere, or its
//! glTF mesh file), each where it stands relative to the edited figure: the scene is drawn in
//! the edited figure's frame ([`marionette_editing::stage`]), so the stage's other things are
//! placed by `stage_to_figure · placement`. Where they are at the timeline's frame is
//! [`poses`]. A press on another figure's body selects that figure for editing. The entities are rebuilt
//! when the stage's figures or props change, and moved when their poses do; nothing here
//! edits.

pub mod characters;
pub mod poses;

use bevy::prelude::*;
use marionette_document::PropShape;
use marionette_editing::Document;
use marionette_editing::stage::StageEdit;

use crate::convert::{quat, vec3};
use crate::messages::EditRequest;
use crate::resources::OpenDocument;
use crate::scene::figure::shape_mesh;
use crate::scene::figure_material::FigureMaterial;

/// Everything drawn for the rest of the stage.
#[derive(Component)]
pub struct StagePart;

/// A body of another figure (its name, the joint): a press selects the figure and grips the
/// body.
#[derive(Component, Debug, Clone)]
pub struct OtherFigureBody(pub String, pub marionette_skeleton::JointId);

/// A press on another figure's body, waiting for that figure to be the edited one to become
/// a drag of the same body (one gesture: press, the figure is selected, the drag goes on).
#[derive(Resource, Debug, Clone)]
pub struct PendingGrip {
    figure: String,
    joint: marionette_skeleton::JointId,
    /// Where the body was hit, on the stage.
    hit: nalgebra::Point3<f64>,
    depth: f32,
    camera: Entity,
}

/// A prop's entity (its index among the props).
#[derive(Component, Debug, Clone, Copy)]
pub struct PropBody(pub usize);

/// A joint frame of another figure (its index among the figures, the joint).
#[derive(Component, Debug, Clone, Copy)]
pub struct OtherJoint(pub usize, pub marionette_skeleton::JointId);

/// The materials of the rest of the stage.
#[derive(Resource, Clone)]
pub struct StagePalette {
    /// Other figures' bodies.
    figure: Handle<FigureMaterial>,
    /// Props.
    prop: Handle<FigureMaterial>,
}

pub(super) fn setup_stage_palette(
    mut commands: Commands,
    mut materials: ResMut<Assets<FigureMaterial>>,
) {
    commands.insert_resource(StagePalette {
        figure: materials.add(FigureMaterial::matte(Color::srgb(0.58, 0.66, 0.74))),
        prop: materials.add(FigureMaterial::matte(Color::srgb(0.62, 0.48, 0.34))),
    });
}

/// What the drawing of the rest of the stage (and the stage plan) is made from, worked out once
/// each time the document changes ([`track_stage_work`]) and changed only when it differs, so
/// its readers go by its change detection.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct StageWork {
    /// The edited figure's frame on the stage, every figure's name and place (and the others'
    /// documents and revisions), every prop: what the stage's entities are made from.
    pub layout: String,
    /// The edited figure's history revision.
    pub revision: u64,
    /// The shown sequence's name.
    pub sequence: Option<String>,
}

/// Works out [`StageWork`] when the document changed.
pub(crate) fn track_stage_work(document: Res<OpenDocument>, mut work: ResMut<StageWork>) {
    if !document.is_changed() {
        return;
    }
    work.set_if_neq(StageWork {
        layout: layout(&document),
        revision: document.history().revision(),
        sequence: document
            .current_sequence()
            .and_then(|s| document.sequences().get(s))
            .map(|s| s.name.clone()),
    });
}

/// What the stage's entities are made from ([`StageWork::layout`]).
fn layout(document: &Document) -> String {
    let mut text = format!("{:?}|", document.figure_to_stage());
    for (k, figure) in document.figures().iter().enumerate() {
        let pose = figure.document().map(|d| (d.id(), d.history().revision()));
        text.push_str(&format!(
            "{k}:{}:{:?}:{pose:?}|",
            figure.name, figure.placement
        ));
    }
    for prop in document.props() {
        text.push_str(&format!("{prop:?}|"));
    }
    text
}

/// Rebuilds the rest of the stage when it changed.
pub(super) fn rebuild_stage(
    mut commands: Commands,
    document: Res<OpenDocument>,
    work: Res<StageWork>,
    palette: Option<Res<StagePalette>>,
    parts: Query<Entity, With<StagePart>>,
    (mut meshes, asset_server): (ResMut<Assets<Mesh>>, Res<AssetServer>),
    mut shown: Local<String>,
) {
    let Some(palette) = palette else {
        return;
    };
    if !work.is_changed() || *shown == work.layout {
        return;
    }
    shown.clone_from(&work.layout);
    for entity in &parts {
        commands.entity(entity).despawn();
    }
    let to_figure = document.stage_to_figure();
    for (k, figure) in document.figures().iter().enumerate() {
        let Some(other) = figure.document() else {
            continue;
        };
        let root = crate::convert::isometry(&(to_figure * figure.placement.isometry()));
        spawn_figure(
            &mut commands,
            other,
            (k, &figure.name),
            root,
            &palette.figure,
            &mut meshes,
        );
    }
    for (k, prop) in document.props().iter().enumerate() {
        let place = crate::convert::isometry(&(to_figure * prop.place.isometry()));
        let mut entity = commands.spawn((
            StagePart,
            PropBody(k),
            place,
            Visibility::default(),
            Name::new(format!("prop {}", prop.name)),
        ));
        let mesh = match &prop.shape {
            PropShape::Box { size } => Some(
                Cuboid::new(size[0] as f32, size[1] as f32, size[2] as f32)
                    .mesh()
                    .build(),
            ),
            PropShape::Cylinder { radius, length } => {
                Some(Cylinder::new(*radius as f32, *length as f32).mesh().build())
            }
            PropShape::Sphere { radius } => Some(Sphere::new(*radius as f32).mesh().uv(24, 16)),
            PropShape::Mesh(file) => {
                let path = document.prop_mesh_path(file);
                let handle = asset_server
                    .load_builder()
                    .override_unapproved()
                    .load(GltfAssetLabel::Scene(0).from_asset(path));
                entity.with_child((
                    bevy::world_serialization::WorldAssetRoot(handle),
                    Transform::default(),
                ));
                None
            }
        };
        if let Some(mesh) = mesh {
            entity.insert((
                Mesh3d(meshes.add(mesh)),
                MeshMaterial3d(palette.prop.clone()),
            ));
        }
    }
}

/// Spawns another figure: a root at its place, a frame per joint at its pose, its bodies.
fn spawn_figure(
    commands: &mut Commands,
    document: &Document,
    (index, name): (usize, &str),
    root: Transform,
    material: &Handle<FigureMaterial>,
    meshes: &mut Assets<Mesh>,
) {
    let skeleton = document.skeleton();
    let fk = document.fk();
    // A character is drawn with its skin ([`characters`]), which is picked too.
    let skinned = matches!(
        document.skin_character(),
        marionette_editing::document::SkinCharacter::Read(_)
    );
    let size = crate::figure_bounds::figure_size(skeleton, fk);
    let bone_radius = f64::from(0.008 * size);
    commands
        .spawn((
            StagePart,
            root,
            Visibility::default(),
            Name::new(format!("figure {name}")),
        ))
        .with_children(|figure| {
            for id in skeleton.joint_ids() {
                let frame = Transform::from_translation(vec3(&fk.joint_position(id)))
                    .with_rotation(quat(fk.joint_rotation(id)));
                let shapes = match &skeleton.joint(id).shape {
                    Some(marionette_skeleton::Shape::Mesh { .. }) | None => {
                        crate::scene::figure::bones(skeleton, id, bone_radius * 3.0)
                    }
                    Some(shape) => vec![shape.clone()],
                };
                figure
                    .spawn((frame, Visibility::default(), OtherJoint(index, id)))
                    .with_children(|joint| {
                        if skinned {
                            return;
                        }
                        for (mesh, placement) in shapes.iter().filter_map(shape_mesh) {
                            joint.spawn((
                                OtherFigureBody(name.to_owned(), id),
                                Mesh3d(meshes.add(mesh)),
                                MeshMaterial3d(material.clone()),
                                placement,
                            ));
                        }
                    });
            }
        });
}

impl PendingGrip {
    /// A press on figure `figure`'s body of `joint` at `hit` (on the stage), seen by `camera`
    /// at `depth`.
    pub(super) fn new(
        figure: String,
        joint: marionette_skeleton::JointId,
        hit: nalgebra::Point3<f64>,
        (depth, camera): (f32, Entity),
    ) -> PendingGrip {
        PendingGrip {
            figure,
            joint,
            hit,
            depth,
            camera,
        }
    }
}

/// A primary press on another figure's body selects that figure for editing, and grips the
/// body once it is ([`grip_after_select`]).
pub(super) fn on_press_other_figure(
    press: On<Pointer<Press>>,
    bodies: Query<&OtherFigureBody>,
    document: Res<OpenDocument>,
    mut commands: Commands,
    mut edits: MessageWriter<EditRequest>,
) {
    if press.event.button != PointerButton::Primary {
        return;
    }
    if let Ok(body) = bodies.get(press.entity) {
        edits.write(EditRequest(marionette_editing::Edit::Stage(
            StageEdit::SelectFigure(body.0.clone()),
        )));
        let hit = &press.event.hit;
        let at = crate::convert::vector(hit.position.unwrap_or_default());
        commands.insert_resource(PendingGrip {
            figure: body.0.clone(),
            joint: body.1,
            hit: document.figure_to_stage() * nalgebra::Point3::from(at),
            depth: hit.depth,
            camera: hit.camera,
        });
    }
}

/// Once the pressed figure is the edited one and the button is still down, its body is pressed
/// as the figure's own bodies are (a [`PickRequest`](crate::messages::PickRequest)), so the
/// drag goes on in the same gesture.
pub(super) fn grip_after_select(
    mut commands: Commands,
    pending: Option<Res<PendingGrip>>,
    document: Res<OpenDocument>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut picks: MessageWriter<crate::messages::PickRequest>,
) {
    let Some(pending) = pending else {
        return;
    };
    if !mouse.pressed(MouseButton::Left) {
        commands.remove_resource::<PendingGrip>();
        return;
    }
    if document.figure_name() != pending.figure {
        return;
    }
    commands.remove_resource::<PendingGrip>();
    let hit = document.stage_to_figure() * pending.hit;
    picks.write(crate::messages::PickRequest {
        target: crate::messages::PickTarget::Body(pending.joint),
        hit: vec3(&hit.coords),
        depth: pending.depth,
        camera: pending.camera,
    });
}
