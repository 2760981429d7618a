//! Presses and hovers on the figure, from Bevy's picking (mesh ray casts): a press on a body or
//! a site handle becomes a [`PickRequest`] for the drag, the nearest hovered body the
//! [`Hovered`] joint.

use bevy::prelude::*;

use super::parts::{Body, SiteHandle};
use crate::messages::{PickRequest, PickTarget};
use crate::selection::Hovered;

/// A primary press on a body or a handle asks for a drag.
pub(super) fn on_press(
    press: On<Pointer<Press>>,
    bodies: Query<&Body>,
    handles: Query<&SiteHandle>,
    mut picks: MessageWriter<PickRequest>,
) {
    if press.event.button != PointerButton::Primary {
        return;
    }
    let target = if let Ok(handle) = handles.get(press.entity) {
        PickTarget::Site(handle.0)
    } else if let Ok(body) = bodies.get(press.entity) {
        PickTarget::Body(body.0)
    } else {
        return;
    };
    let hit = &press.event.hit;
    picks.write(PickRequest {
        target,
        hit: hit.position.unwrap_or_default(),
        depth: hit.depth,
        camera: hit.camera,
    });
}

/// The body under the mouse: the nearest body among the picking hover hits (bodies let the ray
/// through, so several can be hovered at once; a glTF body is hit through its child meshes).
pub(super) fn update_hover(
    hover: Res<bevy::picking::hover::HoverMap>,
    bodies: Query<&Body>,
    parents: Query<&ChildOf>,
    mut hovered: ResMut<Hovered>,
    document: Res<crate::resources::OpenDocument>,
) {
    if document.character().is_some() {
        // A character's bodies are hidden: its surface is picked as drawn instead.
        return;
    }
    let body_of = |mut entity: Entity| {
        for _ in 0..8 {
            if let Ok(body) = bodies.get(entity) {
                return Some(body.0);
            }
            entity = parents.get(entity).ok()?.parent();
        }
        None
    };
    let nearest = hover
        .get(&bevy::picking::pointer::PointerId::Mouse)
        .and_then(|hits| {
            hits.iter()
                .filter_map(|(&entity, hit)| body_of(entity).map(|joint| (joint, hit.depth)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
        })
        .map(|(joint, _)| joint);
    if hovered.0 != nearest {
        hovered.0 = nearest;
    }
}
