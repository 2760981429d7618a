//! What the scene is made of: the components marking the figure's entities (its parts, joint
//! frames, bodies, site handles, the ground, ghost meshes) and the materials it is drawn with.

use bevy::prelude::*;
use marionette_skeleton::{JointId, SiteId};

use super::figure_material::FigureMaterial;

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

/// The ground plane under the figure of document `document` (what the scene shows).
#[derive(Component, Debug, Clone, Copy)]
pub struct Ground {
    /// The document whose figure is shown ([`marionette_editing::Document::id`]).
    pub document: u64,
}

/// A glTF body's copy in a ghost: its meshes get the ghost's material when they appear
/// ([`gltf_tint`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct GhostMeshBody(pub usize);

/// The materials the figure is drawn with.
#[derive(Resource, Clone)]
pub struct Palette {
    /// Bodies.
    pub body: Handle<FigureMaterial>,
    /// The body under the cursor.
    pub hovered: Handle<FigureMaterial>,
    /// The selected joint's body.
    pub selected: Handle<FigureMaterial>,
    /// Site handles.
    pub site: Handle<FigureMaterial>,
    /// Joint markers.
    pub joint: Handle<FigureMaterial>,
    /// One translucent material per ghost.
    pub ghosts: Vec<Handle<StandardMaterial>>,
}

/// The radius of a site handle, as a fraction of the figure's size (0.022 m on the humanoid).
pub const SITE_HANDLE_SIZE: f32 = 0.012;
