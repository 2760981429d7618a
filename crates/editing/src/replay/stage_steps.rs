//! [`Step::resolve`] of the steps on the stage: its figures, props and links.

use super::action::Action;
use super::resolve::{SETTLE, edit};
use super::step::Step;
use crate::Edit;
use crate::stage::StageEdit;
use marionette_document::{Placement, Prop, PropPlace};

impl Step {
    /// [`Step::resolve`] of a step on the stage: its figures, props and links.
    pub(super) fn resolve_stage_step(&self) -> Result<Action, String> {
        Ok(match self {
            Step::AddFigure {
                name,
                file,
                at,
                facing,
            } => edit(
                Edit::Stage(StageEdit::AddFigure {
                    name: name.clone(),
                    file: Some(file.clone()),
                    placement: Placement {
                        at: [at.0, at.1],
                        facing: *facing,
                    },
                }),
                SETTLE,
                format!("add figure {name}"),
            ),
            Step::SelectFigure(name) => edit(
                Edit::Stage(StageEdit::SelectFigure(name.clone())),
                SETTLE,
                format!("select figure {name}"),
            ),
            Step::LockBetween { a, b, turned } => edit(
                Edit::Stage(StageEdit::LockBetween {
                    a: a.clone(),
                    b: b.clone(),
                    turned: *turned,
                }),
                SETTLE,
                format!("lock {}: {} to {}: {}", a.0, a.1, b.0, b.1),
            ),
            Step::LockToProp {
                figure,
                site,
                prop,
                hold,
            } => edit(
                Edit::Stage(StageEdit::LockToProp {
                    figure: figure.clone(),
                    site: site.clone(),
                    prop: prop.clone(),
                    hold: *hold,
                }),
                SETTLE,
                format!("lock {figure}: {site} to prop {prop}"),
            ),
            Step::AddProp {
                name,
                shape,
                at,
                rotation,
                mass,
            } => edit(
                Edit::Stage(StageEdit::AddProp(Prop {
                    name: name.clone(),
                    shape: shape.clone(),
                    place: PropPlace {
                        at: [at.0, at.1, at.2],
                        rotation: [rotation.0, rotation.1, rotation.2],
                    },
                    mass: *mass,
                })),
                SETTLE,
                format!("add prop {name}"),
            ),
            Step::Grip {
                prop,
                figure,
                site,
                frame,
            } => edit(
                Edit::Stage(StageEdit::Grip {
                    prop: prop.clone(),
                    figure: figure.clone(),
                    site: site.clone(),
                    frame: *frame,
                }),
                SETTLE,
                format!("grip {prop} with {figure}: {site} at frame {frame}"),
            ),
            Step::KeyProp(prop) => edit(
                Edit::Stage(StageEdit::KeyProp(prop.clone())),
                SETTLE,
                format!("key prop {prop}"),
            ),
            Step::RemovePropKey { prop, frame } => edit(
                Edit::Stage(StageEdit::RemovePropKey {
                    prop: prop.clone(),
                    frame: *frame,
                }),
                SETTLE,
                format!("remove {prop}'s key at frame {frame}"),
            ),
            Step::RemoveHold { prop, frame } => edit(
                Edit::Stage(StageEdit::RemoveHold {
                    prop: prop.clone(),
                    frame: *frame,
                }),
                SETTLE,
                format!("remove {prop}'s grip or release at frame {frame}"),
            ),
            Step::ReleaseProp { prop, frame } => edit(
                Edit::Stage(StageEdit::Release {
                    prop: prop.clone(),
                    frame: *frame,
                }),
                SETTLE,
                format!("release {prop} at frame {frame}"),
            ),
            other => return Err(format!("{other:?} is not a stage step")),
        })
    }
}
