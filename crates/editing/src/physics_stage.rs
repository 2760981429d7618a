//! The physics assistant's measures of every figure on a stage (View ▸ Physics of every figure):
//! with a sequence shown, each figure's frames of one stage bake of it (links held, props
//! carried, the props each grips weighed in), numbered as the stage numbers them; else each
//! figure's own pose. Each figure is weighed by its own body and measured in its own frame.

use marionette_document::Stage;
use marionette_motion::BakeSettings;
use marionette_motion::stage::StageBaker;

use crate::physics_carried::carried_in;
use crate::physics_view::{PhysicsView, mass_settings};

/// Frames per second of a pose shown alone (no sequence): what a one-frame view is measured at.
const POSE_FPS: f64 = 24.0;

/// Every figure's physics (stage order): with `sequence`, over the stage's bake of it; else at
/// each figure's own pose. A figure that cannot be measured (no masses) gets why; a sequence
/// the stage cannot bake is refused with why.
pub fn stage_views(
    stage: &Stage,
    sequence: Option<&str>,
) -> Result<Vec<Result<PhysicsView, String>>, String> {
    let Some(name) = sequence else {
        return Ok(stage
            .figures
            .iter()
            .map(|f| {
                let doc = &f.document;
                PhysicsView::of_take(
                    &doc.skeleton,
                    &doc.locks,
                    0,
                    std::slice::from_ref(&doc.pose.q),
                    (POSE_FPS, mass_settings(doc.body)),
                )
                .map_err(|e| format!("{}: {e}", f.name))
            })
            .collect());
    };
    let baker = StageBaker::new(stage, name, BakeSettings::default())?;
    let bake = baker.bake(&|| {});
    let first = baker.range().0;
    let fps = stage
        .figures
        .iter()
        .flat_map(|f| f.document.sequences.iter())
        .find(|s| s.name == name)
        .map_or(POSE_FPS, |s| s.fps);
    Ok(stage
        .figures
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let doc = &f.document;
            let poses: Vec<Vec<f64>> = bake
                .frames
                .iter()
                .map(|frame| frame.figures[k].q.clone())
                .collect();
            let carried = carried_in(stage, k, name, (&bake, first), (first, poses.len()));
            PhysicsView::of_take_carrying(
                &doc.skeleton,
                &doc.locks,
                first,
                &poses,
                (fps, mass_settings(doc.body)),
                carried,
            )
            .map_err(|e| format!("{}: {e}", f.name))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Fk, Pose};

    fn two_dancers() -> Stage {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../motion/tests/data/two-dancers.marionette.ron");
        crate::Document::open_document(path)
            .expect("the test stage")
            .to_stage()
    }

    /// Each figure's centre of mass is its own: the one the test works out from the figure's
    /// own masses and the stage bake's pose, never another figure's.
    #[test]
    fn each_figure_is_measured_on_its_own_frames_of_the_stage_bake() {
        let stage = two_dancers();
        let views = stage_views(&stage, Some("sway")).expect("bakes");
        assert_eq!(views.len(), 2);
        let baker = StageBaker::new(&stage, "sway", BakeSettings::default()).expect("bakes");
        let bake = baker.bake(&|| {});
        for (k, view) in views.iter().enumerate() {
            let view = view.as_ref().expect("measured");
            assert_eq!(view.first_frame, baker.range().0);
            assert_eq!(view.com.len(), bake.frames.len());
            let doc = &stage.figures[k].document;
            let model = marionette_physics::MassModel::of(&doc.skeleton, mass_settings(doc.body))
                .expect("masses");
            let mut fk = Fk::new(&doc.skeleton);
            for (i, frame) in bake.frames.iter().enumerate().step_by(7) {
                fk.update(&doc.skeleton, &frame.figures[k].q);
                let own = model.center_of_mass(&fk);
                // The stick A grips from frame 10 and B from 30 weighs 1 kg: within 2 cm.
                assert!((view.com[i] - own).norm() < 0.02, "figure {k} frame {i}");
            }
        }
        let still = stage_views(&stage, None).expect("poses");
        let b = &stage.figures[1].document;
        let model =
            marionette_physics::MassModel::of(&b.skeleton, mass_settings(b.body)).expect("masses");
        let mut fk = Fk::new(&b.skeleton);
        fk.update(&b.skeleton, &Pose::rest(&b.skeleton).q);
        fk.update(&b.skeleton, &b.pose.q);
        let com = still[1].as_ref().expect("measured").com[0];
        assert!((com - model.center_of_mass(&fk)).norm() < 1e-12);
    }
}
