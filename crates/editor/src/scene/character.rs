//! A rigged character drawn as authored: when the open document holds a character (its
//! skeleton names a character file as its skin, read once by the document), the file's scene is
//! loaded with Bevy's glTF loader for the GPU (meshes, materials and textures as the file has
//! them, skinned on the GPU), its joint nodes are found in the spawned scene, and
//! every frame the document changed their transforms are set from Marionette's forward
//! kinematics, so the skin follows the pose. The figure's capsules stay as hidden bodies (the
//! ghosts and the bone overlay use them); the body under the cursor is found on the mesh as
//! drawn: its vertices skinned on the CPU for the pose shown, intersected with the cursor's ray,
//! the joint with the largest blended weight of the triangle hit taken (Bevy 0.19's mesh picking
//! sees the bind pose only).

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use marionette_editing::document::SkinCharacter;
use marionette_interchange::character::Character;
use marionette_interchange::character::posing::{joint_nodes, joint_world, posed_locals};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Matrix4;

use crate::EditorSet;
use crate::messages::{PickRequest, PickTarget};
use crate::resources::{CharacterReport, CursorCamera, CursorRay, Notices, OpenDocument};
use crate::selection::Hovered;

/// The character shown, if the open document's skeleton has a skin that could be read.
#[derive(Resource, Default)]
pub struct ShownCharacter {
    /// The document it belongs to.
    document: Option<u64>,
    /// The character read from its file (`None`: the document has none, or it could not be read).
    pub character: Option<Loaded>,
}

/// A character file, read, and where it stands in the scene.
pub struct Loaded {
    /// The file.
    pub path: PathBuf,
    /// Its rig, skinned meshes and glTF, as the document read them.
    pub character: Arc<Character>,
    /// Per skeleton joint, the rig joint it drives.
    rig_joint: Vec<Option<usize>>,
    /// The scene's root entity.
    root: Entity,
    /// Per glTF node, its entity in the spawned scene (once found).
    entities: Vec<Option<Entity>>,
}

/// Loads, poses and picks characters.
pub(super) fn add_systems(app: &mut App) {
    app.init_resource::<ShownCharacter>()
        .init_resource::<CharacterReport>()
        .add_systems(Update, pick_character.in_set(EditorSet::Pick))
        .add_systems(
            PostUpdate,
            (load_character, find_joint_entities, pose_character)
                .chain()
                .in_set(EditorSet::Character),
        );
}

/// Reads and spawns the character of a newly opened document (or forgets the last one).
fn load_character(
    mut commands: Commands,
    document: Res<OpenDocument>,
    mut shown: ResMut<ShownCharacter>,
    asset_server: Res<AssetServer>,
    (mut notices, mut report): (ResMut<Notices>, ResMut<CharacterReport>),
) {
    if shown.document == Some(document.id()) {
        return;
    }
    shown.document = Some(document.id());
    if !report.0.is_empty() {
        report.0.clear();
    }
    if let Some(old) = shown.character.take() {
        commands.entity(old.root).despawn();
    }
    let character = match document.skin_character() {
        SkinCharacter::None => return,
        SkinCharacter::Unreadable(e) => {
            notices.error(format!(
                "The character's skin could not be read ({e}): the figure is drawn with capsules"
            ));
            return;
        }
        SkinCharacter::Read(c) => c.clone(),
    };
    report.0 = character.report();
    shown.character = Some(Loaded::spawn(
        character,
        document.skeleton(),
        Transform::default(),
        &asset_server,
        &mut commands,
    ));
}

impl Loaded {
    /// Spawns `character`'s scene at `at`, its joints to be driven by `skeleton`'s.
    pub(super) fn spawn(
        character: Arc<Character>,
        skeleton: &Skeleton,
        at: Transform,
        asset_server: &AssetServer,
        commands: &mut Commands,
    ) -> Loaded {
        let path = character.file.path.clone();
        let rig_joint = joint_nodes(skeleton, &character.rig)
            .into_iter()
            .map(|node| node.and_then(|n| character.rig.joint_of_node(n)))
            .collect();
        let scene = character.file.json["scene"].as_u64().unwrap_or(0) as usize;
        let handle = asset_server
            .load_builder()
            .override_unapproved()
            .load(GltfAssetLabel::Scene(scene).from_asset(loadable_path(&character.file)));
        let root = commands
            .spawn((
                bevy::world_serialization::WorldAssetRoot(handle),
                at,
                Name::new("character"),
            ))
            .id();
        let nodes = character.file.nodes.len();
        Loaded {
            path,
            character,
            rig_joint,
            root,
            entities: vec![None; nodes],
        }
    }

    /// The scene's root entity.
    pub(super) fn root(&self) -> Entity {
        self.root
    }

    /// Finds the spawned scene's node entities (by name, under the parent node's entity) once
    /// the scene is there; whether they were just found.
    pub(super) fn find_entities(
        &mut self,
        children: &Query<&Children>,
        names: &Query<&Name>,
    ) -> bool {
        if self.entities.iter().any(Option::is_some) || children.get(self.root).is_err() {
            return false;
        }
        let file = &self.character.file;
        let name_of = |n: usize| {
            file.nodes[n]
                .name
                .clone()
                .unwrap_or_else(|| format!("GltfNode{n}"))
        };
        // The scene's roots are somewhere below our root entity.
        let mut below = vec![self.root];
        let mut k = 0;
        while k < below.len() {
            if let Ok(kids) = children.get(below[k]) {
                below.extend(kids.iter());
            }
            k += 1;
        }
        let mut entities = vec![None; file.nodes.len()];
        let mut taken = Vec::new();
        let mut stack: Vec<(usize, Option<Entity>)> =
            file.scene_roots().into_iter().map(|n| (n, None)).collect();
        while let Some((n, parent)) = stack.pop() {
            let name = name_of(n);
            let candidates: Vec<Entity> = match parent {
                Some(p) => children.get(p).map(|c| c.to_vec()).unwrap_or_default(),
                None => below.clone(),
            };
            let found = candidates
                .into_iter()
                .find(|e| !taken.contains(e) && names.get(*e).is_ok_and(|x| x.as_str() == name));
            let Some(entity) = found else {
                continue;
            };
            taken.push(entity);
            entities[n] = Some(entity);
            for &c in &file.nodes[n].children {
                stack.push((c, Some(entity)));
            }
        }
        self.entities = entities;
        true
    }

    /// Sets the joint nodes' transforms for `skeleton` at pose `q`.
    pub(super) fn pose(
        &self,
        skeleton: &Skeleton,
        q: &[f64],
        transforms: &mut Query<&mut Transform>,
    ) {
        let c = &self.character;
        let locals = posed_locals(&c.file, &c.rig, skeleton, &[q.to_vec()]);
        let Some(locals) = locals.first() else {
            return;
        };
        for joint in &c.rig.joints {
            let Some(entity) = self.entities[joint.node] else {
                continue;
            };
            let Ok(mut transform) = transforms.get_mut(entity) else {
                continue;
            };
            let wanted = crate::convert::transform(&locals[joint.node]);
            if *transform != wanted {
                *transform = wanted;
            }
        }
    }

    /// The nearest point of the surface, skinned for `skeleton` at the pose `fk` holds, where
    /// the ray (in the figure's frame) meets it, with the joint that owns it.
    pub(super) fn pick(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        origin: &nalgebra::Vector3<f64>,
        direction: &nalgebra::Vector3<f64>,
    ) -> Option<(
        marionette_skeleton::JointId,
        marionette_interchange::character::skinning::SurfaceHit,
    )> {
        let world = rig_world(self, skeleton, fk);
        let hit = self.character.mesh.pick(&world, origin, direction)?;
        let joint = skeleton
            .joint_ids()
            .zip(&self.rig_joint)
            .find(|(_, r)| **r == Some(hit.joint))?
            .0;
        Some((joint, hit))
    }
}

/// The path Bevy's glTF loader reads `file` from: a `.vrm` (a binary glTF by another name) is
/// copied as `.glb` into the user's data folder, since the loader goes by the file's extension,
/// and a character read from FBX is written there as the glTF binary it was read as.
fn loadable_path(file: &marionette_interchange::gltf::read::GltfFile) -> PathBuf {
    let path = &file.path;
    let is_vrm = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("vrm"));
    let is_fbx = marionette_interchange::character::is_fbx(path);
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if !is_vrm && !is_fbx {
        return absolute;
    }
    let cache = marionette_editing::document::io::data_dir().join("characters");
    let name = absolute
        .file_stem()
        .map_or_else(|| "character".into(), |s| s.to_string_lossy().into_owned());
    let link = cache.join(format!("{name}.glb"));
    let made = std::fs::create_dir_all(&cache).and_then(|()| {
        let _ = std::fs::remove_file(&link);
        if is_fbx {
            let glb = marionette_interchange::character::export::file_glb(file)
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            std::fs::write(&link, glb)
        } else {
            std::fs::copy(&absolute, &link).map(|_| ())
        }
    });
    if made.is_ok() { link } else { absolute }
}

/// Finds the spawned scene's node entities once the scene is there.
fn find_joint_entities(
    mut shown: ResMut<ShownCharacter>,
    children: Query<&Children>,
    names: Query<&Name>,
) {
    if let Some(loaded) = shown.character.as_mut() {
        loaded.find_entities(&children, &names);
    }
}

/// Sets the joint nodes' transforms from forward kinematics when the pose changed (or the scene
/// was just found).
fn pose_character(
    document: Res<OpenDocument>,
    shown: Res<ShownCharacter>,
    mut transforms: Query<&mut Transform>,
) {
    if !document.is_changed() && !shown.is_changed() {
        return;
    }
    let Some(loaded) = &shown.character else {
        return;
    };
    loaded.pose(document.skeleton(), document.pose(), &mut transforms);
}

/// Each rig joint's world transform (with its scale) at the pose `fk` holds.
fn rig_world(loaded: &Loaded, skeleton: &Skeleton, fk: &Fk) -> Vec<Matrix4<f64>> {
    let rig = &loaded.character.rig;
    let mut world: Vec<Matrix4<f64>> = (0..rig.joints.len()).map(|j| rig.world(j)).collect();
    for (joint, rig_joint) in skeleton.joint_ids().zip(&loaded.rig_joint) {
        let Some(r) = *rig_joint else {
            continue;
        };
        world[r] = joint_world(fk, joint, rig.joints[r].scale);
    }
    world
}

/// The character's surface under the cursor: the joint it belongs to becomes the hovered body,
/// and a press there asks for a drag of that body (site handles are still picked by Bevy).
#[expect(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn pick_character(
    document: Res<OpenDocument>,
    shown: Res<ShownCharacter>,
    cursor: Res<CursorRay>,
    camera: Res<CursorCamera>,
    mouse: Res<ButtonInput<MouseButton>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut hovered: ResMut<Hovered>,
    mut picks: MessageWriter<PickRequest>,
) {
    let Some(loaded) = &shown.character else {
        return;
    };
    let pressed = mouse.just_pressed(MouseButton::Left);
    if document.drag().is_some() || !(cursor.is_changed() || document.is_changed() || pressed) {
        return;
    }
    let over_panel = crate::drag::over_panel(egui_input.as_deref());
    let hit = cursor.0.filter(|_| !over_panel).and_then(|ray| {
        let origin = crate::convert::vector(ray.origin);
        let direction = crate::convert::vector(*ray.direction);
        loaded.pick(document.skeleton(), document.fk(), &origin, &direction)
    });
    hovered.set_if_neq(Hovered(hit.map(|(j, _)| j)));
    if pressed && let (Some((joint, hit)), Some(camera)) = (hit, camera.0) {
        picks.write(PickRequest {
            target: PickTarget::Body(joint),
            hit: crate::convert::vec3(&hit.point),
            depth: hit.distance as f32,
            camera,
        });
    }
}
