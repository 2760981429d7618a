//! What the physics assistant's overlays show (View ▸ Physics, the replay's `ShowPhysics`),
//! measured by [`PhysicsView`] when the document, the shown sequence's bake or the switch change
//! ([`PhysicsOverlay`]); drawn in the views by [`crate::gizmos::physics`] and on the timeline by
//! [`crate::panels::support_strip`]. Nothing here changes the document.

use bevy::prelude::*;
use marionette_editing::physics_carried::carried_props;
use marionette_editing::physics_view::PhysicsView;

use crate::EditorSet;
use crate::beside::BesideState;
use crate::derived::BakedStrip;
use crate::resources::OpenDocument;
use crate::scene::stage::StageWork;
use marionette_editing::physics_stage::stage_views;

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
        // The stage's work and the notices are the scene's and the panels'; made here too, so
        // an app without them (the headless tests) still runs.
        app.init_resource::<PhysicsOverlay>()
            .init_resource::<StagePhysicsOverlay>()
            .init_resource::<StageWork>()
            .init_resource::<crate::resources::Notices>()
            .add_systems(
                Update,
                (
                    measure
                        .run_if(
                            resource_changed::<OpenDocument>
                                .or_eager(resource_changed::<BesideState>)
                                .or_eager(resource_changed::<BakedStrip>),
                        )
                        .after(crate::derived::baked_strip),
                    measure_stage.run_if(
                        resource_changed::<StageWork>.or_eager(resource_changed::<BesideState>),
                    ),
                )
                    .in_set(EditorSet::Derive),
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
            let carried = if document.props().is_empty() {
                Ok(Vec::new())
            } else {
                carried_props(
                    &document.to_stage(),
                    document.active_figure(),
                    &sequence.name,
                    (first, strip.poses.len()),
                )
            };
            match carried {
                Ok(carried) => PhysicsView::of_take_carrying(
                    skeleton,
                    document.locks(),
                    first,
                    &strip.poses,
                    (sequence.fps, document.mass_settings()),
                    carried,
                )
                .map_err(|e| e.to_string()),
                Err(why) => Err(format!("the props it carries cannot be placed: {why}")),
            }
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
            .map_err(|e| e.to_string())
        }
    };
    *overlay = PhysicsOverlay {
        source: Some(source),
        view: Some(view),
    };
}

/// The physics of the stage's other figures (View ▸ Physics of every figure), each in its own
/// frame, measured over the stage's bake of the shown sequence (or at their poses).
#[derive(Resource, Debug, Default)]
pub struct StagePhysicsOverlay {
    /// What it was measured from.
    source: Option<StageWork>,
    /// Per figure (stage order): its measures (`None` for the edited figure, and for a figure
    /// that could not be measured).
    pub views: Vec<Option<PhysicsView>>,
}

impl StagePhysicsOverlay {
    /// Figure `k`'s measures and the index of the frame shown in them, when shown.
    pub fn shown(&self, k: usize, document: &OpenDocument) -> Option<(&PhysicsView, usize)> {
        let view = self.views.get(k)?.as_ref()?;
        let i = match document.current_sequence() {
            Some(_) => view.index(document.frame())?,
            None => 0,
        };
        Some((view, i))
    }
}

/// Measures every other figure of the stage when asked (and the stage has others).
fn measure_stage(
    document: Res<OpenDocument>,
    beside: Res<BesideState>,
    work: Res<StageWork>,
    mut overlay: ResMut<StagePhysicsOverlay>,
    mut notices: ResMut<crate::resources::Notices>,
) {
    if !(beside.physics && beside.physics_of_every_figure && document.figures().len() > 1) {
        if overlay.source.is_some() {
            *overlay = StagePhysicsOverlay::default();
        }
        return;
    }
    if overlay.source.as_ref() == Some(&*work) {
        return;
    }
    let active = document.active_figure();
    let views = match stage_views(&document.to_stage(), work.sequence.as_deref()) {
        Ok(views) => views,
        Err(why) => {
            notices.error(format!(
                "The other figures' physics cannot be measured: {why}"
            ));
            Vec::new()
        }
    };
    overlay.views = views
        .into_iter()
        .enumerate()
        .map(|(k, v)| match v {
            Ok(view) => Some(view).filter(|_| k != active),
            Err(why) => {
                notices.error(format!("No physics shown for {why}"));
                None
            }
        })
        .collect();
    overlay.source = Some(work.clone());
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_editing::beside::BesideChange;
    use marionette_editing::{Document, Edit, Solving};

    fn two_dancers() -> Document {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron");
        Document::open_document(path).expect("the test stage")
    }

    fn app(document: Document) -> App {
        let mut app = App::new();
        app.insert_resource(OpenDocument::new(document))
            .init_resource::<BesideState>()
            .init_resource::<StageWork>()
            .init_resource::<StagePhysicsOverlay>()
            .init_resource::<crate::resources::Notices>()
            .add_systems(
                Update,
                (
                    crate::scene::stage::track_stage_work,
                    measure_stage.run_if(
                        resource_changed::<StageWork>.or_eager(resource_changed::<BesideState>),
                    ),
                )
                    .chain(),
            );
        app
    }

    fn ask(app: &mut App, change: BesideChange) {
        let mut beside = app.world_mut().resource_mut::<BesideState>();
        let document = two_dancers();
        beside.take(change, &document).expect("taken");
        app.update();
    }

    /// Asked for, every other figure of the stage is measured on the shown sequence's frames
    /// (the edited one by the overlay of its own); hidden again, nothing is kept.
    #[test]
    fn every_other_figure_is_measured_when_asked_and_dropped_when_not() {
        let mut doc = two_dancers();
        let mut solving = Solving::default();
        let b = Edit::Stage(marionette_editing::stage::StageEdit::SelectFigure(
            "B".into(),
        ));
        doc.apply(b, &mut solving).expect("B");
        doc.apply(Edit::SelectSequence(Some(0)), &mut solving)
            .expect("B's sway");
        let mut app = app(doc);
        app.update();
        assert!(
            app.world()
                .resource::<StagePhysicsOverlay>()
                .views
                .is_empty()
        );
        ask(&mut app, BesideChange::ShowStagePhysics(true));
        let overlay = app.world().resource::<StagePhysicsOverlay>();
        assert_eq!(overlay.views.len(), 2);
        assert!(
            overlay.views[1].is_none(),
            "B is edited: its own overlay shows it"
        );
        let a = overlay.views[0].as_ref().expect("A measured");
        assert_eq!(a.com.len(), 49, "the stage's bake of sway: frames 0 to 48");
        assert!(app.world().resource::<BesideState>().physics);
        ask(&mut app, BesideChange::ShowStagePhysics(false));
        assert!(
            app.world()
                .resource::<StagePhysicsOverlay>()
                .views
                .is_empty()
        );
    }
}
