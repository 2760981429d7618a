//! The gizmo group drawn in front of the figure's bodies.

use bevy::prelude::*;

/// The overlays that must show through the bodies (axes, limit arcs, the drag line, the swivel
/// gizmo): drawn in front of the geometry, a little thicker than the grid.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct OnTop;
