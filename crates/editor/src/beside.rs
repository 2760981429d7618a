//! What the editor keeps beside the document ([`BesideState`]: the motion trails shown, the
//! pose copied), changed by [`BesideRequest`]s from the menus, keys and replays. None of it is
//! work: changing it leaves the document (and its change detection) untouched and marks nothing
//! unsaved. A paste becomes an edit carrying the pose copied.

use bevy::prelude::*;
use marionette_editing::beside::{Beside, BesideChange, BesideOutcome};

use crate::EditorSet;
use crate::messages::EditRequest;
use crate::resources::{Notices, OpenDocument};

/// The trails shown and the pose copied.
#[derive(Resource, Debug, Default, Deref, DerefMut)]
pub struct BesideState(pub Beside);

/// A change of what is kept beside the document.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct BesideRequest(pub BesideChange);

/// Keeps the trails shown and the pose copied.
pub struct BesidePlugin;

impl Plugin for BesidePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<BesideRequest>()
            .init_resource::<BesideState>()
            .add_systems(Update, carry_out_requests.in_set(EditorSet::Apply));
    }
}

/// Carries out this frame's requests: a refusal becomes an error notice, a paste an edit.
fn carry_out_requests(
    mut requests: MessageReader<BesideRequest>,
    document: Res<OpenDocument>,
    mut beside: ResMut<BesideState>,
    mut notices: ResMut<Notices>,
    mut edits: MessageWriter<EditRequest>,
) {
    for BesideRequest(change) in requests.read() {
        match beside.take(change.clone(), &document) {
            Ok(BesideOutcome::Quietly) => {}
            Ok(BesideOutcome::Said(said)) => notices.info(said),
            Ok(BesideOutcome::Edit(edit)) => {
                edits.write(EditRequest(edit));
            }
            Err(e) => notices.error(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::change_detection::DetectChanges;
    use marionette_editing::{Document, Grip};
    use marionette_skeleton::builtin;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_plugins(BesidePlugin)
            .add_message::<EditRequest>()
            .init_resource::<Notices>()
            .insert_resource(OpenDocument(
                Document::new(builtin::humanoid(), None).standing(),
            ));
        app.update();
        app
    }

    /// Copying a pose and showing a trail change nothing of the document (it stays unchanged
    /// to Bevy, unmodified to the user); a paste is sent as an edit carrying the copy.
    #[test]
    fn copying_and_trails_leave_the_document_untouched() {
        let mut app = app();
        let before = app.world().resource_ref::<OpenDocument>().last_changed();
        let hand = {
            let doc = app.world().resource::<OpenDocument>();
            doc.skeleton()
                .site_by_name("right fingertips")
                .expect("hand")
        };
        for change in [
            BesideChange::CopyPose(Vec::new()),
            BesideChange::ShowTrail {
                of: Grip::Site(hand),
                from: 0,
                to: 10,
            },
            BesideChange::PastePose { flipped: true },
        ] {
            app.world_mut().write_message(BesideRequest(change));
        }
        app.update();
        let world = app.world();
        let doc = world.resource_ref::<OpenDocument>();
        assert_eq!(doc.last_changed(), before, "the document was not touched");
        assert!(!doc.is_modified());
        let beside = world.resource::<BesideState>();
        assert!(beside.copied.is_some());
        // No sequence is shown: the trail is refused, and said so.
        assert!(beside.trails.is_empty());
        let notices = world.resource::<Notices>();
        assert!(notices.error_count() > 0);
        let edits: Vec<_> = world
            .resource::<Messages<EditRequest>>()
            .iter_current_update_messages()
            .collect();
        assert!(matches!(
            edits.as_slice(),
            [EditRequest(marionette_editing::Edit::PastePose {
                flipped: true,
                ..
            })]
        ));
    }
}
