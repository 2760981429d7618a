//! [`Step::resolve`] of the steps on the timeline: frames, keys, curves, trails, playback.

use super::action::{Action, DragGrip, ReplayContext, Window};
use super::names::Names;
use super::resolve::{SETTLE, edit, on_stage};
use super::step::Step;
use crate::Edit;
use crate::beside::BesideChange;
use crate::curve_edits::shown_scale;
use crate::document::Document;

impl Step {
    /// [`Step::resolve`] of a step on the timeline, its keys, curves and trails.
    pub(super) fn resolve_timeline(
        &self,
        document: &Document,
        context: ReplayContext<'_>,
    ) -> Result<Action, String> {
        let find = Names(document);
        Ok(match self {
            Step::SetFrame(frame) => edit(
                Edit::GoToFrame(*frame),
                SETTLE,
                format!("go to frame {frame}"),
            ),
            Step::SetKey => edit(Edit::SetKey, SETTLE, "set a key".into()),
            Step::DeleteKey => edit(Edit::DeleteKey, SETTLE, "delete the key".into()),
            Step::ShowTrail { site, from, to } => Action::Beside(BesideChange::ShowTrail {
                of: find.site_or_joint(site)?,
                from: *from,
                to: *to,
            }),
            Step::DragTrail {
                site,
                frame,
                to,
                frames,
            } => {
                let of = find.site_or_joint(site)?;
                if !context.beside.trails.of(document).any(|t| t.of == of) {
                    return Err(format!(
                        "DragTrail: no trail of \"{site}\" is shown (ShowTrail first)"
                    ));
                }
                let (site_id, joint) = match of {
                    crate::Grip::Site(s) => (Some(s), document.skeleton().site(s).joint),
                    crate::Grip::Joint(j) => (None, j),
                    crate::Grip::Body { joint, .. } => (None, joint),
                };
                let drag = Action::Drag {
                    grip: DragGrip::Trail {
                        site: site_id,
                        joint,
                        frame: *frame,
                    },
                    to: on_stage(document, *to),
                    frames: (*frames).max(1),
                };
                // The dot at the current frame is the figure's own (a press there drags the
                // figure): first step off it.
                if document.frame() == *frame {
                    Action::Then(vec![
                        edit(
                            Edit::GoToFrame(frame + 1),
                            SETTLE,
                            "step off the frame".into(),
                        ),
                        drag,
                    ])
                } else {
                    drag
                }
            }
            Step::ShowCurves => Action::Show(Window::Curves),
            Step::KeySelectedJoints => edit(
                Edit::KeyJoints(context.selected.to_vec()),
                SETTLE,
                "key the selected joints".into(),
            ),
            Step::MoveKeys { joint, from, to } => edit(
                Edit::MoveJointKeys(vec![(find.joint(joint)?, *from, *to)]),
                SETTLE,
                format!("move {joint}'s key from frame {from} to {to}"),
            ),
            Step::KeyDof {
                curve,
                frame,
                value,
            } => {
                let state = find.curve(curve)?;
                let value = value / shown_scale(document.skeleton(), state);
                edit(
                    Edit::KeyDofs(vec![(*frame, state, value)]),
                    SETTLE,
                    format!("key {curve} at frame {frame}"),
                )
            }
            Step::SetHandles {
                curve,
                frame,
                before,
                after,
            } => {
                let state = find.curve(curve)?;
                let scale = shown_scale(document.skeleton(), state);
                let handles = ([before.0, before.1 / scale], [after.0, after.1 / scale]);
                edit(
                    Edit::SetHandles(vec![(*frame, state, Some(handles))]),
                    SETTLE,
                    format!("set {curve}'s handles at key {frame}"),
                )
            }
            Step::AutoHandles { curve, frame } => edit(
                Edit::SetHandles(vec![(*frame, find.curve(curve)?, None)]),
                SETTLE,
                format!("give {curve}'s key {frame} its auto handles"),
            ),
            Step::DragCurvePoints { points, by } => {
                let points = points
                    .iter()
                    .map(|(c, f)| find.curve(c).map(|s| (s, *f)))
                    .collect::<Result<Vec<_>, String>>()?;
                let what = format!("drag {} curve points by {by:?}", points.len());
                edit(
                    Edit::DragCurvePoints {
                        points,
                        frames: by.0,
                        by: by.1,
                    },
                    SETTLE,
                    what,
                )
            }
            Step::FindFootContacts => edit(
                Edit::FindFootContacts(Default::default()),
                SETTLE,
                "find the foot contacts".into(),
            ),
            Step::Play { frames } => Action::Play((*frames).max(1)),
            other => return Err(format!("{other:?} is not a timeline step")),
        })
    }
}
