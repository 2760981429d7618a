//! Where the rest of the stage is drawn ([`super::stage`]): with a sequence shown, the other
//! figures and the props where the stage's bake of it puts them at the timeline's frame (links
//! held, props carried by their grips), the bake made again only when the work changed
//! ([`StageWork`]); else each figure's own pose and each prop's place. A figure a drag of a
//! figure linked to it moved is drawn where the drag left it until the timeline shows another
//! frame. The edited figure shows its own pose, which on a frame is the stage's bake of it
//! where links tie it.

use bevy::prelude::*;
use nalgebra::Isometry3;

use super::{OtherJoint, PropBody, StageWork};
use crate::convert::{isometry, quat, vec3};
use crate::resources::OpenDocument;

/// Where the rest of the stage is now: each other figure's joint values and each prop's place
/// on the stage. With a sequence shown, the stage's bake of it at the timeline's frame (links
/// held, props carried by their grips); else each figure's own pose and each prop's place.
#[derive(Resource, Debug, Default)]
pub struct StagePoses {
    /// Per figure (stage order), its joint values (`None` for the edited figure).
    figures: Vec<Option<Vec<f64>>>,
    /// Per prop, its place on the stage.
    props: Vec<Isometry3<f64>>,
    /// What they were made from: the work, the timeline's frame and the linked poses'
    /// revision ([`marionette_editing::Document::linked_poses_revision`]).
    made_from: Option<(StageWork, i64, u64)>,
}

impl StagePoses {
    /// Figure `k`'s joint values as drawn now (`None` for the edited figure).
    pub fn figure(&self, k: usize) -> Option<&[f64]> {
        self.figures.get(k).and_then(Option::as_deref)
    }
}

/// A stage's bake of one sequence, kept while the work it was made from is unchanged.
#[derive(Default)]
pub(in crate::scene) struct CachedBake {
    made_from: Option<StageWork>,
    first: i64,
    figures: Vec<Vec<Vec<f64>>>,
    props: Vec<Vec<Isometry3<f64>>>,
}

/// Works out where the rest of the stage is now ([`StagePoses`]): baking the shown sequence
/// for the whole stage when the work changed, then taking the timeline's frame of it.
pub(in crate::scene) fn pose_stage(
    document: Res<OpenDocument>,
    work: Res<StageWork>,
    mut poses: ResMut<StagePoses>,
    mut bake: Local<CachedBake>,
    mut notices: ResMut<crate::resources::Notices>,
) {
    if !document.is_changed() {
        return;
    }
    let made_from = (
        work.clone(),
        document.frame(),
        document.linked_poses_revision(),
    );
    if poses.made_from.as_ref() == Some(&made_from) {
        return;
    }
    let (work, _, _) = &made_from;
    let sequence = &work.sequence;
    let staged = document.figures().len() > 1 || !document.props().is_empty();
    if let (Some(name), true) = (&sequence, staged)
        && bake.made_from.as_ref() != Some(work)
    {
        let stage = document.to_stage();
        *bake = CachedBake {
            made_from: Some(work.clone()),
            ..CachedBake::default()
        };
        match marionette_motion::stage::StageBaker::new(
            &stage,
            name,
            marionette_motion::BakeSettings::default(),
        ) {
            Ok(baker) => {
                let baked = baker.bake(&|| {});
                bake.first = baker.range().0;
                bake.figures = (0..stage.figures.len())
                    .map(|f| {
                        baked
                            .frames
                            .iter()
                            .map(|fr| fr.figures[f].q.clone())
                            .collect()
                    })
                    .collect();
                bake.props = baked.props;
            }
            Err(e) => notices.error(format!(
                "The stage's sequence \"{name}\" cannot be baked: {e}"
            )),
        }
    }
    let active = document.active_figure();
    let at = usize::try_from(document.frame() - bake.first).unwrap_or(0);
    let baked = sequence.is_some() && staged && bake.made_from.as_ref() == Some(work);
    poses.figures = document
        .figures()
        .iter()
        .enumerate()
        .map(|(k, figure)| {
            if k == active {
                return None;
            }
            if let Some(moved) = figure.linked_pose() {
                // A drag of a figure linked to it left it here.
                return Some(moved.to_vec());
            }
            let own = figure.document().map(|d| d.pose().to_vec());
            match bake.figures.get(k).filter(|_| baked) {
                Some(frames) if !frames.is_empty() => {
                    Some(frames[at.min(frames.len() - 1)].clone())
                }
                _ => own,
            }
        })
        .collect();
    poses.props = document
        .props()
        .iter()
        .enumerate()
        .map(|(p, prop)| match bake.props.get(p).filter(|_| baked) {
            Some(places) if !places.is_empty() => places[at.min(places.len() - 1)],
            _ => prop.place.isometry(),
        })
        .collect();
    poses.made_from = Some(made_from);
}

/// Other figures' joints and props spawned since the last run.
type JustSpawned = Or<(Added<OtherJoint>, Added<PropBody>)>;

/// Puts the other figures' joints and the props where [`StagePoses`] says.
pub(in crate::scene) fn place_stage(
    document: Res<OpenDocument>,
    poses: Res<StagePoses>,
    mut joints: Query<(&OtherJoint, &mut Transform), Without<PropBody>>,
    mut props: Query<(&PropBody, &mut Transform), Without<OtherJoint>>,
    added: Query<(), JustSpawned>,
) {
    if !poses.is_changed() && added.is_empty() {
        return;
    }
    let mut fks: Vec<Option<marionette_skeleton::Fk>> = Vec::new();
    for (k, figure) in document.figures().iter().enumerate() {
        let fk = match (
            figure.document(),
            poses.figures.get(k).and_then(Option::as_ref),
        ) {
            (Some(doc), Some(q)) if q.len() == doc.pose().len() => {
                let mut fk = marionette_skeleton::Fk::new(doc.skeleton());
                fk.update(doc.skeleton(), q);
                Some(fk)
            }
            _ => None,
        };
        fks.push(fk);
    }
    for (joint, mut transform) in &mut joints {
        if let Some(Some(fk)) = fks.get(joint.0) {
            *transform = Transform::from_translation(vec3(&fk.joint_position(joint.1)))
                .with_rotation(quat(fk.joint_rotation(joint.1)));
        }
    }
    let to_figure = document.stage_to_figure();
    for (prop, mut transform) in &mut props {
        if let Some(place) = poses.props.get(prop.0) {
            *transform = isometry(&(to_figure * place));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::track_stage_work;
    use super::*;
    use marionette_editing::Document;
    use marionette_editing::{Edit, Solving};

    fn two_dancers() -> Document {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron");
        Document::open_document(path).expect("the test stage")
    }

    fn poses_of(document: Document) -> (Vec<Option<Vec<f64>>>, Vec<Isometry3<f64>>) {
        let mut app = App::new();
        app.insert_resource(OpenDocument::new(document))
            .init_resource::<StagePoses>()
            .init_resource::<StageWork>()
            .init_resource::<crate::resources::Notices>()
            .add_systems(Update, (track_stage_work, pose_stage).chain());
        app.update();
        let poses = app.world().resource::<StagePoses>();
        (poses.figures.clone(), poses.props.clone())
    }

    #[test]
    fn with_a_sequence_shown_the_others_and_the_props_are_at_the_stage_s_bake_of_the_frame() {
        let mut doc = two_dancers();
        let mut solving = Solving::default();
        let b = Edit::Stage(marionette_editing::stage::StageEdit::SelectFigure(
            "B".into(),
        ));
        doc.apply(b, &mut solving).expect("B");
        doc.apply(Edit::SelectSequence(Some(0)), &mut solving)
            .expect("B's sway");
        doc.apply(Edit::GoToFrame(24), &mut solving)
            .expect("frame 24");
        let stage = doc.to_stage();
        let (figures, props) = poses_of(doc);
        let baker = marionette_motion::stage::StageBaker::new(
            &stage,
            "sway",
            marionette_motion::BakeSettings::default(),
        )
        .expect("bakes");
        let bake = baker.bake(&|| {});
        let at = usize::try_from(24 - baker.range().0).expect("in range");
        assert_eq!(figures[1], None, "B is edited: it shows its own frame");
        assert_eq!(
            figures[0].as_deref(),
            Some(bake.frames[at].figures[0].q.as_slice())
        );
        assert_eq!(props[0], bake.props[0][at]);
        // A's arm is held to B's hand by the link: not A's own pose.
        assert_ne!(
            figures[0].as_deref(),
            Some(stage.figures[0].document.pose.q.as_slice())
        );
    }

    #[test]
    fn without_a_sequence_the_others_keep_their_own_pose_and_the_props_their_place() {
        let doc = two_dancers();
        let b_pose = doc.figures()[1].document().expect("B").pose().to_vec();
        let stick = doc.props()[0].place.isometry();
        let (figures, props) = poses_of(doc);
        assert_eq!(figures, vec![None, Some(b_pose)]);
        assert_eq!(props, vec![stick]);
    }
}
