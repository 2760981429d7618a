//! Motion trails drawn in the views (issue 34): for each trail shown (Sequence ▸ Show trail, or
//! the replay's `ShowTrail`), the path of its site or joint over its frames as the timeline shows
//! them (baked, so a held foot draws as still), a dot per frame and a bigger one on each frame
//! keyed for it ([`crate::derived::TrailPaths`]; dragging a dot: [`crate::drag::trail_grip`]).

use bevy::prelude::*;

use crate::convert::vec3;
use crate::derived::TrailPaths;

/// Draws each trail: its path, a dot per frame, a bigger one per key.
pub fn draw_trails(mut gizmos: Gizmos<super::on_top::OnTop>, paths: Res<TrailPaths>) {
    let colour = Color::srgb(0.95, 0.55, 0.95);
    for trail in &paths.trails {
        gizmos.linestrip(trail.points.iter().map(|(_, p)| vec3(p)), colour);
        for (f, p) in &trail.points {
            let keyed = trail.keys.contains(f);
            let radius = if keyed { 0.012 } else { 0.005 };
            let c = if keyed {
                Color::srgb(1.0, 0.85, 0.2)
            } else {
                colour
            };
            gizmos.sphere(Isometry3d::from_translation(vec3(p)), radius, c);
        }
    }
}
