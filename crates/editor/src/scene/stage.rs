//! The rest of the stage in the 3D scene: every figure other than the edited one, drawn with its
//! bodies (or slim bones) at its own pose, and every prop (its box, cylinder or sphere, or its
//! glTF mesh file), each where it stands relative to the edited figure: the scene is drawn in
//! the edited figure's frame ([`marionette_editing::stage`]), so the stage's other things are
//! placed by `stage_to_figure · placement`. With a sequence shown, the other figures and the
//! props are where the stage's bake of it puts them at the timeline's frame (links held, props
//! carried by their grips: [`pose_stage`]); the edited figure shows its own frame as always. A
//! press on another figure's body selects that figure for editing. The entities are rebuilt
//! when the stage's figures or props change, and moved when their poses do; nothing here
//! edits.

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

/// Where the rest of the stage is now: each other figure's joint values and each prop's place
/// on the stage. With a sequence shown, the stage's bake of it at the timeline's frame (links
/// held, props carried by their grips); else each figure's own pose and each prop's place.
#[derive(Resource, Debug, Default)]
pub struct StagePoses {
    /// Per figure (stage order), its joint values (`None` for the edited figure).
    figures: Vec<Option<Vec<f64>>>,
    /// Per prop, its place on the stage.
    props: Vec<Isometry3<f64>>,
    /// What they were made from: the work and the timeline's frame.
    made_from: Option<(StageWork, i64)>,
}

/// A stage's bake of one sequence, kept while the work it was made from is unchanged.
#[derive(Default)]
pub(super) struct CachedBake {
    made_from: Option<StageWork>,
    first: i64,
    figures: Vec<Vec<Vec<f64>>>,
    props: Vec<Vec<Isometry3<f64>>>,
}

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

/// A core rigid motion as Bevy's transform.
fn transform_of(iso: &Isometry3<f64>) -> Transform {
    Transform::from_translation(vec3(&iso.translation.vector))
        .with_rotation(quat(iso.rotation.to_rotation_matrix().matrix()))
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
        let root = transform_of(&(to_figure * figure.placement.isometry()));
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
        let place = transform_of(&(to_figure * prop.place.isometry()));
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
                    .spawn((frame, Visibility::default(), OtherJoint(index, id)))
                    .with_children(|joint| {
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

/// Works out where the rest of the stage is now ([`StagePoses`]): baking the shown sequence
/// for the whole stage when the work changed, then taking the timeline's frame of it.
pub(super) fn pose_stage(
    document: Res<OpenDocument>,
    work: Res<StageWork>,
    mut poses: ResMut<StagePoses>,
    mut bake: Local<CachedBake>,
    mut notices: ResMut<crate::resources::Notices>,
) {
    if !document.is_changed() {
        return;
    }
    let made_from = (work.clone(), document.frame());
    if poses.made_from.as_ref() == Some(&made_from) {
        return;
    }
    let (work, _) = &made_from;
    let sequence = &work.sequence;
    let staged = document.figures().len() > 1 || !document.props().is_empty();
    if let (Some(name), true) = (&sequence, staged)
        && bake.made_from.as_ref() != Some(work)
    {
        let stage = document.to_stage();
        *bake = CachedBake {
            made_from: Some(work.clone()),
            ..CachedBake::default()
        };
        match marionette_motion::stage::StageBaker::new(
            &stage,
            name,
            marionette_motion::BakeSettings::default(),
        ) {
            Ok(baker) => {
                let baked = baker.bake(&|| {});
                bake.first = baker.range().0;
                bake.figures = (0..stage.figures.len())
                    .map(|f| {
                        baked
                            .frames
                            .iter()
                            .map(|fr| fr.figures[f].q.clone())
                            .collect()
                    })
                    .collect();
                bake.props = baked.props;
            }
            Err(e) => notices.error(format!(
                "The stage's sequence \"{name}\" cannot be baked: {e}"
            )),
        }
    }
    let active = document.active_figure();
    let at = usize::try_from(document.frame() - bake.first).unwrap_or(0);
    let baked = sequence.is_some() && staged && bake.made_from.as_ref() == Some(work);
    poses.figures = document
        .figures()
        .iter()
        .enumerate()
        .map(|(k, figure)| {
            if k == active {
                return None;
            }
            let own = figure.document().map(|d| d.pose().to_vec());
            match bake.figures.get(k).filter(|_| baked) {
                Some(frames) if !frames.is_empty() => {
                    Some(frames[at.min(frames.len() - 1)].clone())
                }
                _ => own,
            }
        })
        .collect();
    poses.props = document
        .props()
        .iter()
        .enumerate()
        .map(|(p, prop)| match bake.props.get(p).filter(|_| baked) {
            Some(places) if !places.is_empty() => places[at.min(places.len() - 1)],
            _ => prop.place.isometry(),
        })
        .collect();
    poses.made_from = Some(made_from);
}

/// Other figures' joints and props spawned since the last run.
type JustSpawned = Or<(Added<OtherJoint>, Added<PropBody>)>;

/// Puts the other figures' joints and the props where [`StagePoses`] says.
pub(super) fn place_stage(
    document: Res<OpenDocument>,
    poses: Res<StagePoses>,
    mut joints: Query<(&OtherJoint, &mut Transform), Without<PropBody>>,
    mut props: Query<(&PropBody, &mut Transform), Without<OtherJoint>>,
    added: Query<(), JustSpawned>,
) {
    if !poses.is_changed() && added.is_empty() {
        return;
    }
    let mut fks: Vec<Option<marionette_skeleton::Fk>> = Vec::new();
    for (k, figure) in document.figures().iter().enumerate() {
        let fk = match (
            figure.document(),
            poses.figures.get(k).and_then(Option::as_ref),
        ) {
            (Some(doc), Some(q)) if q.len() == doc.pose().len() => {
                let mut fk = marionette_skeleton::Fk::new(doc.skeleton());
                fk.update(doc.skeleton(), q);
                Some(fk)
            }
            _ => None,
        };
        fks.push(fk);
    }
    for (joint, mut transform) in &mut joints {
        if let Some(Some(fk)) = fks.get(joint.0) {
            *transform = Transform::from_translation(vec3(&fk.joint_position(joint.1)))
                .with_rotation(quat(fk.joint_rotation(joint.1)));
        }
    }
    let to_figure = document.stage_to_figure();
    for (prop, mut transform) in &mut props {
        if let Some(place) = poses.props.get(prop.0) {
            *transform = transform_of(&(to_figure * place));
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

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::{Edit, Solving};

    fn two_dancers() -> Document {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron");
        Document::open_document(path).expect("the test stage")
    }

    fn poses_of(document: Document) -> (Vec<Option<Vec<f64>>>, Vec<Isometry3<f64>>) {
        let mut app = App::new();
        app.insert_resource(OpenDocument::new(document))
            .init_resource::<StagePoses>()
            .init_resource::<StageWork>()
            .init_resource::<crate::resources::Notices>()
            .add_systems(Update, (track_stage_work, pose_stage).chain());
        app.update();
        let poses = app.world().resource::<StagePoses>();
        (poses.figures.clone(), poses.props.clone())
    }

    #[test]
    fn with_a_sequence_shown_the_others_and_the_props_are_at_the_stage_s_bake_of_the_frame() {
        let mut doc = two_dancers();
        doc.select_figure("B").expect("B");
        let mut solving = Solving::default();
        doc.apply(Edit::SelectSequence(Some(0)), &mut solving)
            .expect("B's sway");
        doc.apply(Edit::GoToFrame(24), &mut solving)
            .expect("frame 24");
        let stage = doc.to_stage();
        let (figures, props) = poses_of(doc);
        let baker = marionette_motion::stage::StageBaker::new(
            &stage,
            "sway",
            marionette_motion::BakeSettings::default(),
        )
        .expect("bakes");
        let bake = baker.bake(&|| {});
        let at = usize::try_from(24 - baker.range().0).expect("in range");
        assert_eq!(figures[1], None, "B is edited: it shows its own frame");
        assert_eq!(
            figures[0].as_deref(),
            Some(bake.frames[at].figures[0].q.as_slice())
        );
        assert_eq!(props[0], bake.props[0][at]);
        // A's arm is held to B's hand by the link: not A's own pose.
        assert_ne!(
            figures[0].as_deref(),
            Some(stage.figures[0].document.pose.q.as_slice())
        );
    }

    #[test]
    fn without_a_sequence_the_others_keep_their_own_pose_and_the_props_their_place() {
        let doc = two_dancers();
        let b_pose = doc.figures()[1].document().expect("B").pose().to_vec();
        let stick = doc.props()[0].place.isometry();
        let (figures, props) = poses_of(doc);
        assert_eq!(figures, vec![None, Some(b_pose)]);
        assert_eq!(props, vec![stick]);
    }
}
