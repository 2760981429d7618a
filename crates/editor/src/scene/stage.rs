//! The rest of the stage in the 3D scene: every figure other than the edited one, drawn with its
//! bodies (or slim bones) at its own pose, and every prop (its box, cylinder or sphere, or its
//! glTF mesh file), each where it stands relative to the edited figure: the scene is drawn in
//! the edited figure's frame ([`marionette_editing::stage`]), so the stage's other things are
//! placed by `stage_to_figure · placement`. A press on another figure's body selects that
//! figure for editing. Rebuilt when anything of the stage changes (figures, places, poses,
//! props); nothing here edits.

use bevy::prelude::*;
use marionette_document::PropShape;
use marionette_editing::Document;
use marionette_editing::stage::StageEdit;
use nalgebra::Isometry3;

use super::figure::shape_mesh;
use super::figure_material::FigureMaterial;
use crate::convert::{quat, vec3};
use crate::messages::EditRequest;
use crate::resources::OpenDocument;

/// Everything drawn for the rest of the stage.
#[derive(Component)]
pub struct StagePart;

/// A body of another figure (by its name): a press selects the figure.
#[derive(Component, Debug, Clone)]
pub struct OtherFigureBody(pub String);

/// A prop's entity (by its name).
#[derive(Component, Debug, Clone)]
pub struct PropBody(pub String);

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

/// What the stage's drawing depends on, to rebuild only when it changed.
fn signature(document: &Document) -> String {
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

/// A core rigid motion as Bevy's transform.
fn transform_of(iso: &Isometry3<f64>) -> Transform {
    Transform::from_translation(vec3(&iso.translation.vector))
        .with_rotation(quat(iso.rotation.to_rotation_matrix().matrix()))
}

/// Rebuilds the rest of the stage when it changed.
pub(super) fn rebuild_stage(
    mut commands: Commands,
    document: Res<OpenDocument>,
    palette: Option<Res<StagePalette>>,
    parts: Query<Entity, With<StagePart>>,
    (mut meshes, asset_server): (ResMut<Assets<Mesh>>, Res<AssetServer>),
    mut shown: Local<String>,
) {
    let Some(palette) = palette else {
        return;
    };
    if !document.is_changed() {
        return;
    }
    let now = signature(&document);
    if *shown == now {
        return;
    }
    *shown = now;
    for entity in &parts {
        commands.entity(entity).despawn();
    }
    let to_figure = document.stage_to_figure();
    for figure in document.figures() {
        let Some(other) = figure.document() else {
            continue;
        };
        let root = transform_of(&(to_figure * figure.placement.isometry()));
        spawn_figure(
            &mut commands,
            other,
            &figure.name,
            root,
            &palette.figure,
            &mut meshes,
        );
    }
    for prop in document.props() {
        let place = transform_of(&(to_figure * prop.place.isometry()));
        let mut entity = commands.spawn((
            StagePart,
            PropBody(prop.name.clone()),
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
    name: &str,
    root: Transform,
    material: &Handle<FigureMaterial>,
    meshes: &mut Assets<Mesh>,
) {
    let skeleton = document.skeleton();
    let fk = document.fk();
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
                        super::figure::bones(skeleton, id, bone_radius * 3.0)
                    }
                    Some(shape) => vec![shape.clone()],
                };
                figure
                    .spawn((frame, Visibility::default()))
                    .with_children(|joint| {
                        for (mesh, placement) in shapes.iter().filter_map(shape_mesh) {
                            joint.spawn((
                                OtherFigureBody(name.to_owned()),
                                Mesh3d(meshes.add(mesh)),
                                MeshMaterial3d(material.clone()),
                                placement,
                            ));
                        }
                    });
            }
        });
}

/// A primary press on another figure's body selects that figure for editing.
pub(super) fn on_press_other_figure(
    press: On<Pointer<Press>>,
    bodies: Query<&OtherFigureBody>,
    mut edits: MessageWriter<EditRequest>,
) {
    if press.event.button != PointerButton::Primary {
        return;
    }
    if let Ok(body) = bodies.get(press.entity) {
        edits.write(EditRequest(marionette_editing::Edit::Stage(
            StageEdit::SelectFigure(body.0.clone()),
        )));
    }
}
