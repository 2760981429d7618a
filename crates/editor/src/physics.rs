//! What the physics assistant's overlays show (View ▸ Physics, the replay's `ShowPhysics`),
//! measured by [`PhysicsView`] when the document, the shown sequence's bake or the switch change
//! ([`PhysicsOverlay`]); drawn in the views by [`crate::gizmos::physics`] and on the timeline by
//! [`crate::panels::support_strip`]. Nothing here changes the document.

use bevy::prelude::*;
use marionette_editing::physics_view::PhysicsView;

use crate::EditorSet;
use crate::beside::BesideState;
use crate::derived::BakedStrip;
use crate::resources::OpenDocument;

/// The physics of the edited figure, measured when shown.
#[derive(Resource, Debug, Default)]
pub struct PhysicsOverlay {
    /// What it was measured from: the document, its motion revision, the sequence shown, and
    /// (no sequence shown) the pose's revision.
    source: Option<(u64, u64, Option<usize>, u64)>,
    /// The measures, or why there are none; `None` while hidden.
    pub view: Option<Result<PhysicsView, String>>,
}

impl PhysicsOverlay {
    /// The measures and the index of the frame shown in them, when shown.
    pub fn shown(&self, document: &OpenDocument) -> Option<(&PhysicsView, usize)> {
        let view = self.view.as_ref()?.as_ref().ok()?;
        let i = match document.current_sequence() {
            Some(_) => view.index(document.frame())?,
            None => 0,
        };
        Some((view, i))
    }
}

/// Measures and draws the physics overlays.
pub struct PhysicsPlugin;

impl Plugin for PhysicsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsOverlay>().add_systems(
            Update,
            measure
                .run_if(
                    resource_changed::<OpenDocument>
                        .or_eager(resource_changed::<BesideState>)
                        .or_eager(resource_changed::<BakedStrip>),
                )
                .in_set(EditorSet::Derive)
                .after(crate::derived::baked_strip),
        );
    }
}

/// Measures the shown sequence's bake (or the pose, with none shown) when shown and changed.
fn measure(
    document: Res<OpenDocument>,
    beside: Res<BesideState>,
    strip: Res<BakedStrip>,
    mut overlay: ResMut<PhysicsOverlay>,
) {
    if !beside.physics {
        if overlay.view.is_some() {
            *overlay = PhysicsOverlay::default();
        }
        return;
    }
    let shown = document.current_sequence();
    let pose_revision = if shown.is_some() {
        0
    } else {
        document.history().revision()
    };
    let source = (
        document.id(),
        document.history().motion_revision(),
        shown,
        pose_revision,
    );
    if overlay.source == Some(source) && overlay.view.is_some() {
        return;
    }
    let skeleton = document.skeleton();
    let view = match shown.and_then(|i| document.sequences().get(i)) {
        Some(sequence) if !strip.poses.is_empty() => {
            let first = strip.errors.first().map_or(0, |e| e.0);
            PhysicsView::of_take(
                skeleton,
                document.locks(),
                first,
                &strip.poses,
                (sequence.fps, document.mass_settings()),
            )
        }
        _ => {
            let pose = [document.pose().to_vec()];
            let body = document.mass_settings();
            PhysicsView::of_take(
                skeleton,
                document.locks(),
                document.frame(),
                &pose,
                (24.0, body),
            )
        }
    }
    .map_err(|e| e.to_string());
    *overlay = PhysicsOverlay {
        source: Some(source),
        view: Some(view),
    };
}
