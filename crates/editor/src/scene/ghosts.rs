//! The comparison ghosts in the scene: translucent, unpickable copies of the bodies the drag can
//! move, one per compared solver, placed by that solver's pose (a glTF body's scene is
//! instanced again for each ghost and given the ghost's material by [`super::gltf_tint`]).

use bevy::prelude::*;
use marionette_skeleton::{Fk, JointId};

use super::parts::{Body, FigurePart, Palette};
use crate::convert::{quat, vec3};
use crate::drag::ghosts::Ghosts;

/// A ghost's joint frame: ghost `0` is the first compared solver.
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostFrame {
    /// Which ghost.
    pub ghost: usize,
    /// The ghosts it belongs to ([`Ghosts::generation`]).
    pub generation: u64,
    /// Which joint.
    pub joint: JointId,
}

/// A glTF body's copy in a ghost: its meshes get the ghost's material when they appear
/// ([`super::gltf_tint`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostMeshBody(pub usize);

/// Spawns, places and removes the comparison ghosts: translucent, unpickable copies of the bodies
/// (a glTF body's scene is instanced again for each ghost).
#[expect(clippy::type_complexity, reason = "a Bevy system's queries")]
pub(super) fn sync_ghosts(
    mut commands: Commands,
    ghosts_now: Res<Ghosts>,
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
    let wanted = ghosts_now.tracks.len();
    let mut have = 0;
    for (entity, ghost, mut transform) in &mut ghosts {
        match ghosts_now
            .tracks
            .get(ghost.ghost)
            .filter(|_| ghost.generation == ghosts_now.generation())
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
        let track = &ghosts_now.tracks[index];
        let material = palette.ghosts[index % palette.ghosts.len()].clone();
        let ghosted = |joint: JointId| {
            ghosts_now
                .moves
                .get(joint.index())
                .copied()
                .unwrap_or(false)
        };
        let generation = ghosts_now.generation();
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
