//! The other figures of the stage that are characters, drawn with their skins as the edited one
//! is ([`super::character`]): each file's scene spawned where the figure stands (in the edited
//! figure's frame), its joints set from the pose the figure is drawn at
//! ([`super::poses::StagePoses`]), and picked on the surface as drawn (skinned on the
//! CPU): a press on another character's skin edits that figure and drags the body pressed, in
//! one gesture, as a press on another figure's bodies does.

use bevy::prelude::*;
use marionette_editing::document::SkinCharacter;
use marionette_skeleton::Fk;

use super::poses::StagePoses;
use super::{PendingGrip, StageWork};
use crate::messages::EditRequest;
use crate::resources::{CursorCamera, CursorRay, OpenDocument};
use crate::scene::character::Loaded;

/// Every other figure drawn with its skin: (its index on the stage, its name, the character).
#[derive(Resource, Default)]
pub struct OtherCharacters {
    shown: Vec<(usize, String, Loaded)>,
    /// The stage's layout they were spawned for.
    made_from: String,
}

/// Spawns the other figures' characters again when the stage's layout changed (a figure added,
/// moved, or another one edited).
pub(in crate::scene) fn spawn_other_characters(
    mut commands: Commands,
    document: Res<OpenDocument>,
    work: Res<StageWork>,
    mut others: ResMut<OtherCharacters>,
    asset_server: Res<AssetServer>,
) {
    if !work.is_changed() || others.made_from == work.layout {
        return;
    }
    others.made_from.clone_from(&work.layout);
    for (_, _, old) in others.shown.drain(..) {
        commands.entity(old.root()).despawn();
    }
    let to_figure = document.stage_to_figure();
    for (k, figure) in document.figures().iter().enumerate() {
        let Some(doc) = figure.document() else {
            continue;
        };
        let SkinCharacter::Read(character) = doc.skin_character() else {
            continue;
        };
        let at = crate::convert::isometry(&(to_figure * figure.placement.isometry()));
        let loaded = Loaded::spawn(
            character.clone(),
            doc.skeleton(),
            at,
            &asset_server,
            &mut commands,
        );
        others.shown.push((k, figure.name.clone(), loaded));
    }
}

/// Their skins' meshes, as they appear, are left out of the views' picking (Bevy's sees the
/// bind pose, and would hide handles behind where the skin is not): they are picked as drawn
/// ([`press_other_characters`]).
pub(in crate::scene) fn unpickable_other_skins(
    mut commands: Commands,
    others: Res<OtherCharacters>,
    added: Query<Entity, Added<Mesh3d>>,
    parents: Query<&ChildOf>,
) {
    if others.shown.is_empty() {
        return;
    }
    for entity in &added {
        let mut at = entity;
        for _ in 0..64 {
            if others.shown.iter().any(|(_, _, l)| l.root() == at) {
                commands.entity(entity).insert(Pickable::IGNORE);
                break;
            }
            let Ok(parent) = parents.get(at) else { break };
            at = parent.parent();
        }
    }
}

/// Finds their joints once their scenes are there, and poses them where the stage draws them.
pub(in crate::scene) fn pose_other_characters(
    document: Res<OpenDocument>,
    poses: Res<StagePoses>,
    mut others: ResMut<OtherCharacters>,
    (children, names): (Query<&Children>, Query<&Name>),
    mut transforms: Query<&mut Transform>,
) {
    let mut found = false;
    for (_, _, loaded) in &mut others.shown {
        found |= loaded.find_entities(&children, &names);
    }
    if !found && !poses.is_changed() {
        return;
    }
    for (k, _, loaded) in &others.shown {
        let (Some(figure), Some(q)) = (document.figures().get(*k), poses.figure(*k)) else {
            continue;
        };
        if let Some(doc) = figure.document() {
            loaded.pose(doc.skeleton(), q, &mut transforms);
        }
    }
}

/// A press on another character's skin: the nearest surface hit under the cursor edits that
/// figure, and its body is gripped once it is ([`super::stage::grip_after_select`]).
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
pub(in crate::scene) fn press_other_characters(
    mut commands: Commands,
    document: Res<OpenDocument>,
    others: Res<OtherCharacters>,
    poses: Res<StagePoses>,
    (cursor, camera): (Res<CursorRay>, Res<CursorCamera>),
    mouse: Res<ButtonInput<MouseButton>>,
    (egui_input, hovered, hover_map): (
        Option<Res<bevy_egui::input::EguiWantsInput>>,
        Res<crate::selection::Hovered>,
        Res<bevy::picking::hover::HoverMap>,
    ),
    mut edits: MessageWriter<EditRequest>,
) {
    // Over the edited figure, the press is its own.
    if others.shown.is_empty()
        || hovered.0.is_some()
        || !mouse.just_pressed(MouseButton::Left)
        || document.drag().is_some()
        || crate::drag::over_panel(egui_input.as_deref())
    {
        return;
    }
    let (Some(ray), Some(camera)) = (cursor.0, camera.0) else {
        return;
    };
    let to_stage = document.figure_to_stage();
    let origin = to_stage * nalgebra::Point3::from(crate::convert::vector(ray.origin));
    let direction = to_stage.rotation * crate::convert::vector(*ray.direction);
    let nearest = others
        .shown
        .iter()
        .filter_map(|(k, name, loaded)| {
            let figure = document.figures().get(*k)?;
            let doc = figure.document()?;
            let q = poses.figure(*k)?;
            let mut fk = Fk::new(doc.skeleton());
            fk.update(doc.skeleton(), q);
            // The ray in that figure's own frame.
            let from_stage = figure.placement.isometry().inverse();
            let (joint, hit) = loaded.pick(
                doc.skeleton(),
                &fk,
                &(from_stage * origin).coords,
                &(from_stage.rotation * direction),
            )?;
            let on_stage = figure.placement.isometry() * nalgebra::Point3::from(hit.point);
            Some((name.clone(), joint, on_stage, hit.distance))
        })
        .min_by(|a, b| a.3.total_cmp(&b.3));
    let Some((name, joint, hit, distance)) = nearest else {
        return;
    };
    // Something the views pick (a handle, a body, another figure's bones, a prop) is nearer:
    // the press is its.
    let nearer = hover_map
        .get(&bevy::picking::pointer::PointerId::Mouse)
        .is_some_and(|hits| hits.values().any(|h| f64::from(h.depth) < distance));
    if nearer {
        return;
    }
    edits.write(EditRequest(marionette_editing::Edit::Stage(
        marionette_editing::stage::StageEdit::SelectFigure(name.clone()),
    )));
    commands.insert_resource(PendingGrip::new(
        name,
        joint,
        hit,
        (distance as f32, camera),
    ));
}
