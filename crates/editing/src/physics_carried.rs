//! The props a stage figure carries, for the physics assistant: each prop gripped by one of the
//! figure's sites in a sequence's cue weighs in the figure's centre of mass (and its angular
//! momentum) on the frames it is held ([`marionette_physics::track::Track::carrying`]), at the
//! place the stage's bake of the sequence carries it to. A prop let go, or held by another
//! figure, does not count.

use marionette_document::Stage;
use marionette_motion::BakeSettings;
use marionette_motion::stage::{StageBake, StageBaker};
use marionette_physics::track::Carried;

/// A prop the figure carries on some frames of a take.
#[derive(Debug, Clone, PartialEq)]
pub struct CarriedProp {
    /// The prop's name.
    pub name: String,
    /// Its mass, where it is (in the figure's own frame) and when the figure holds it.
    pub carried: Carried,
}

impl CarriedProp {
    /// The first and last frame index it is held on (`None`: never).
    pub fn held_span(&self) -> Option<(usize, usize)> {
        let first = self.carried.held.iter().position(|&h| h)?;
        let last = self.carried.held.iter().rposition(|&h| h)?;
        Some((first, last))
    }
}

/// The props figure `figure` of `stage` grips in sequence `sequence`, on its frames `first ..
/// first + frames`: empty when the cue grips none by the figure. The props' places come from
/// the stage's bake of the sequence (refused with its reason when it cannot be baked).
pub fn carried_props(
    stage: &Stage,
    figure: usize,
    sequence: &str,
    frames: (i64, usize),
) -> Result<Vec<CarriedProp>, String> {
    if gripped_by(stage, figure, sequence).is_empty() {
        return Ok(Vec::new());
    }
    let baker = StageBaker::new(stage, sequence, BakeSettings::default())?;
    let bake = baker.bake(&|| {});
    Ok(carried_in(
        stage,
        figure,
        sequence,
        (&bake, baker.range().0),
        frames,
    ))
}

/// The props `figure` grips somewhere in `sequence`'s cue (stage indices).
fn gripped_by(stage: &Stage, figure: usize, sequence: &str) -> Vec<usize> {
    let Some(cue) = stage.cue(sequence) else {
        return Vec::new();
    };
    (0..stage.props.len())
        .filter(|&p| {
            cue.holds.iter().any(|h| {
                matches!(h, marionette_document::Hold::Grip { prop, by, .. }
                    if *prop == p && by.figure == figure)
            })
        })
        .collect()
}

/// [`carried_props`] from a bake of the sequence made already (its first frame `bake_first`).
pub fn carried_in(
    stage: &Stage,
    figure: usize,
    sequence: &str,
    (bake, bake_first): (&StageBake, i64),
    (first, frames): (i64, usize),
) -> Vec<CarriedProp> {
    let Some(cue) = stage.cue(sequence) else {
        return Vec::new();
    };
    let to_figure = stage.figures[figure].placement.isometry().inverse();
    gripped_by(stage, figure, sequence)
        .into_iter()
        .map(|p| {
            let places = &bake.props[p];
            let (at, held) = (first..first + frames as i64)
                .map(|frame| {
                    let i = usize::try_from(frame - bake_first)
                        .unwrap_or(0)
                        .min(places.len().saturating_sub(1));
                    let place = to_figure * places[i];
                    let held = cue.holder_at(p, frame).is_some_and(|s| s.figure == figure);
                    (place.translation.vector, held)
                })
                .unzip();
            CarriedProp {
                name: stage.props[p].name.clone(),
                carried: Carried {
                    mass: stage.props[p].mass_kg(),
                    at,
                    held,
                },
            }
        })
        .collect()
}
