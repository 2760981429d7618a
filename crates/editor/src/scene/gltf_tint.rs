//! Hover and selection tints for bodies drawn with their own materials: a glTF body's meshes
//! keep their textures and colours, so instead of the palette's body materials each mesh gets two
//! tinted copies of its own material (the palette's hover and selection colours mixed in,
//! textures kept), made once when the mesh appears, and shows the one the body's state asks for.
//! A glTF body's copy in a comparison ghost gets the ghost's translucent material instead, and is
//! not pickable.

use bevy::prelude::*;
use marionette_skeleton::JointId;

use super::parts::{Body, GhostMeshBody, Palette};
use crate::EditorSet;
use crate::resources::OpenDocument;
use crate::selection::{Hovered, Selection};

/// A mesh inside a joint's glTF body, with its own material and the tinted copies.
#[derive(Component, Debug, Clone)]
pub struct MeshBodyPart {
    /// The joint whose body this mesh belongs to.
    pub joint: JointId,
    /// The material the file gave it.
    pub own: Handle<StandardMaterial>,
    /// Its material tinted in the hover colour.
    pub hovered: Handle<StandardMaterial>,
    /// Its material tinted in the selection colour.
    pub selected: Handle<StandardMaterial>,
}

/// A mesh of a ghost's copy of a glTF body (drawn in the ghost's material).
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostMeshPart;

/// A hovered body's tint: the palette's hover colour, half mixed into the file's colour (a
/// texture is multiplied by it, so it shows through), and a faint glow.
pub const HOVER_TINT: (Color, f32, LinearRgba) = (
    Color::srgb(0.95, 0.85, 0.55),
    0.5,
    LinearRgba::rgb(0.08, 0.06, 0.02),
);
/// The selected body's tint: the palette's selection orange, mostly, and a glow.
pub const SELECTED_TINT: (Color, f32, LinearRgba) = (
    Color::srgb(1.0, 0.62, 0.2),
    0.75,
    LinearRgba::rgb(0.2, 0.08, 0.0),
);

/// Tints the meshes of glTF bodies like the other bodies.
pub struct TintPlugin;

impl Plugin for TintPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            PostUpdate,
            (adopt_mesh_body_parts, tint_mesh_body_parts)
                .chain()
                .in_set(EditorSet::Scene),
        );
    }
}

/// The nearest ancestor of `entity` (within a glTF scene's depth) with a `C`, as that `C`.
fn ancestor_with<'a, C: Component>(
    entity: Entity,
    with: &'a Query<&C>,
    parents: &Query<&ChildOf>,
) -> Option<&'a C> {
    let mut current = parents.get(entity).ok()?.parent();
    for _ in 0..16 {
        if let Ok(found) = with.get(current) {
            return Some(found);
        }
        current = parents.get(current).ok()?.parent();
    }
    None
}

/// The material tinted: `colour` mixed into its base colour by `amount`, `glow` added to its
/// emission.
fn tinted(
    material: &StandardMaterial,
    (colour, amount, glow): (Color, f32, LinearRgba),
) -> StandardMaterial {
    let mut tinted = material.clone();
    tinted.base_color = tinted.base_color.mix(&colour, amount);
    tinted.emissive = LinearRgba::rgb(
        tinted.emissive.red + glow.red,
        tinted.emissive.green + glow.green,
        tinted.emissive.blue + glow.blue,
    );
    tinted
}

/// Gives every newly appeared mesh under a glTF body its tinted materials, and every one under
/// a ghost's copy of a glTF body the ghost's material.
#[expect(clippy::type_complexity, reason = "a Bevy system's queries")]
pub fn adopt_mesh_body_parts(
    mut commands: Commands,
    added: Query<
        (Entity, &MeshMaterial3d<StandardMaterial>),
        (
            Added<MeshMaterial3d<StandardMaterial>>,
            Without<Body>,
            Without<MeshBodyPart>,
            Without<GhostMeshPart>,
        ),
    >,
    bodies: Query<&Body>,
    ghosts: Query<&GhostMeshBody>,
    parents: Query<&ChildOf>,
    palette: Option<Res<Palette>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (entity, material) in &added {
        if let (Some(ghost), Some(palette)) = (ancestor_with(entity, &ghosts, &parents), &palette) {
            let translucent = palette.ghosts[ghost.0 % palette.ghosts.len()].clone();
            commands.entity(entity).insert((
                MeshMaterial3d(translucent),
                Pickable::IGNORE,
                GhostMeshPart,
            ));
            continue;
        }
        let Some(&Body(joint)) = ancestor_with(entity, &bodies, &parents) else {
            continue;
        };
        let Some(own) = materials.get(&material.0).cloned() else {
            continue;
        };
        let part = MeshBodyPart {
            joint,
            own: material.0.clone(),
            hovered: materials.add(tinted(&own, HOVER_TINT)),
            selected: materials.add(tinted(&own, SELECTED_TINT)),
        };
        commands.entity(entity).insert(part);
    }
}

/// Shows each glTF mesh in its selected, hovered or own material, as the
/// [`Selection`] and [`Hovered`] say.
pub fn tint_mesh_body_parts(
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    hovered: Res<Hovered>,
    mut parts: Query<(&MeshBodyPart, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    for (part, mut material) in &mut parts {
        let wanted = if selection.joint(&document) == Some(part.joint) {
            &part.selected
        } else if hovered.0 == Some(part.joint) {
            &part.hovered
        } else {
            &part.own
        };
        if material.0 != *wanted {
            material.0 = wanted.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::Document;
    use marionette_skeleton::builtin;

    /// An app with the editor's state, materials and the two systems, nothing else.
    fn test_app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<StandardMaterial>()
            .insert_resource(OpenDocument::new(Document::new(builtin::humanoid(), None)))
            .init_resource::<Selection>()
            .init_resource::<Hovered>()
            .add_systems(
                Update,
                (adopt_mesh_body_parts, tint_mesh_body_parts).chain(),
            );
        app
    }

    #[test]
    fn a_gltf_body_s_meshes_show_hover_and_selection_in_their_own_material() {
        let mut app = test_app();
        let hand = app
            .world()
            .resource::<OpenDocument>()
            .skeleton()
            .joint_by_name("right wrist")
            .expect("joint");
        let textured_red = app
            .world_mut()
            .resource_mut::<Assets<StandardMaterial>>()
            .add(StandardMaterial {
                base_color: Color::srgb(0.8, 0.1, 0.1),
                ..default()
            });
        // A body (the glTF scene's root) with a node and, under it, a mesh with its own material;
        // and a mesh with no body above it (a ghost, say), which must be left alone.
        let root = app.world_mut().spawn(Body(hand)).id();
        let node = app.world_mut().spawn(ChildOf(root)).id();
        let mesh = app
            .world_mut()
            .spawn((MeshMaterial3d(textured_red.clone()), ChildOf(node)))
            .id();
        let stray = app
            .world_mut()
            .spawn(MeshMaterial3d(textured_red.clone()))
            .id();
        app.update();
        let shown = |app: &App, entity: Entity| {
            app.world()
                .get::<MeshMaterial3d<StandardMaterial>>(entity)
                .expect("material")
                .0
                .clone()
        };
        assert_eq!(shown(&app, mesh), textured_red, "idle: its own material");
        assert!(app.world().get::<MeshBodyPart>(stray).is_none());

        app.world_mut().resource_mut::<Hovered>().0 = Some(hand);
        app.update();
        let hovered = shown(&app, mesh);
        assert_ne!(hovered, textured_red);
        let materials = app.world().resource::<Assets<StandardMaterial>>();
        let tinted = materials.get(&hovered).expect("hover material");
        assert_eq!(
            tinted.base_color,
            Color::srgb(0.8, 0.1, 0.1).mix(&HOVER_TINT.0, HOVER_TINT.1),
            "the hover colour mixed into the file's"
        );
        assert_eq!(tinted.emissive, HOVER_TINT.2);

        app.world_mut()
            .resource_scope(|world, mut selection: Mut<Selection>| {
                selection.select(&world.resource::<OpenDocument>().0, Some(hand));
            });
        app.update();
        let selected = shown(&app, mesh);
        let materials = app.world().resource::<Assets<StandardMaterial>>();
        assert_eq!(
            materials
                .get(&selected)
                .expect("selection material")
                .emissive,
            SELECTED_TINT.2
        );

        app.world_mut()
            .resource_scope(|world, mut selection: Mut<Selection>| {
                selection.select(&world.resource::<OpenDocument>().0, None);
            });
        app.world_mut().resource_mut::<Hovered>().0 = None;
        app.update();
        assert_eq!(shown(&app, mesh), textured_red, "back to its own material");
        assert_eq!(shown(&app, stray), textured_red);
    }

    #[test]
    fn a_ghost_s_copy_of_a_gltf_body_is_drawn_in_the_ghost_s_material_and_not_picked() {
        let mut app = test_app();
        let mut materials = app.world_mut().resource_mut::<Assets<StandardMaterial>>();
        let own = materials.add(StandardMaterial::default());
        let ghosts: Vec<_> = (0..3)
            .map(|_| materials.add(StandardMaterial::default()))
            .collect();
        // The figure's own materials play no part here: default handles.
        let plain = Handle::<crate::scene::figure_material::FigureMaterial>::default();
        app.insert_resource(Palette {
            body: plain.clone(),
            hovered: plain.clone(),
            selected: plain.clone(),
            site: plain.clone(),
            joint: plain,
            ghosts: ghosts.clone(),
        });
        let copy = app.world_mut().spawn(GhostMeshBody(1)).id();
        let node = app.world_mut().spawn(ChildOf(copy)).id();
        let mesh = app
            .world_mut()
            .spawn((MeshMaterial3d(own), ChildOf(node)))
            .id();
        app.update();
        app.update();
        let world = app.world();
        assert_eq!(
            world
                .get::<MeshMaterial3d<StandardMaterial>>(mesh)
                .expect("material")
                .0,
            ghosts[1]
        );
        assert_eq!(world.get::<Pickable>(mesh), Some(&Pickable::IGNORE));
        assert!(world.get::<MeshBodyPart>(mesh).is_none());
    }
}
