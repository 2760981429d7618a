//! Grips and releases ([`Hold`]s) of props in the shown sequence's cue: a prop held by a
//! figure's site from a frame, let go at a later one; kept in frame order, one per frame per
//! prop, a release only while the prop is held. Each is a stage edit of its own
//! ([`super::edits`]), one undo step.

use marionette_document::{Cue, Hold};

use super::refused;
use crate::history::UndoStep;
use crate::{Document, EditError};

impl Document {
    /// Adds `hold` to the cue of the shown sequence, refusing one out of order for its prop.
    fn add_hold(&mut self, hold: Hold, label: String) -> Result<(), EditError> {
        let sequence = self.timed_in_shown(&label, "grip")?;
        let prop = hold.prop();
        let frame = hold.frame();
        let existing: Vec<Hold> = self
            .stage
            .cues
            .iter()
            .find(|c| c.sequence == sequence)
            .map(|c| {
                c.holds
                    .iter()
                    .filter(|h| h.prop() == prop)
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        if let Some(link) = self.stage.links.iter().find(
            |l| matches!(l.b, marionette_document::LinkTarget::Prop { prop: p, .. } if p == prop),
        ) {
            return Err(refused(format!(
                "{label}: link \"{}\" holds a site to prop \"{}\": a prop a site is held to \
                 cannot also be carried (remove the link first)",
                link.name, self.stage.props[prop].name
            )));
        }
        if existing.iter().any(|h| h.frame() == frame) {
            return Err(refused(format!(
                "{label}: prop \"{}\" already has a grip or release at frame {frame}",
                self.stage.props[prop].name
            )));
        }
        let held_before = existing
            .iter()
            .rfind(|h| h.frame() < frame)
            .is_some_and(|h| matches!(h, Hold::Grip { .. }));
        if matches!(hold, Hold::Release { .. }) && !held_before {
            return Err(refused(format!(
                "{label}: prop \"{}\" is not gripped before frame {frame}",
                self.stage.props[prop].name
            )));
        }
        let before = self.stage.layout();
        let holds = &mut self.stage.cue_mut(sequence).holds;
        let at = holds.partition_point(|h| h.frame() <= frame);
        holds.insert(at, hold);
        self.record_stage(label, before, UndoStep::New);
        Ok(())
    }

    /// From `frame` of the shown sequence, `figure`'s `site` holds `prop` (a hand-over when
    /// another site holds it then).
    pub(crate) fn grip(
        &mut self,
        prop: &str,
        figure: &str,
        site: &str,
        frame: i64,
    ) -> Result<(), EditError> {
        let p = self.prop_named(prop)?;
        let by = self.site_ref(figure, site)?;
        self.add_hold(
            Hold::Grip { prop: p, by, frame },
            format!("Grip {prop} with {figure} {site} at frame {frame}"),
        )
    }

    /// From `frame` of the shown sequence, `prop` stays where it is.
    pub(crate) fn release(&mut self, prop: &str, frame: i64) -> Result<(), EditError> {
        let p = self.prop_named(prop)?;
        self.add_hold(
            Hold::Release { prop: p, frame },
            format!("Release {prop} at frame {frame}"),
        )
    }
}

impl Document {
    /// Removes `prop`'s grip or release at `frame` of the shown sequence; a release no grip
    /// comes before any more goes with it (one undo step).
    pub(crate) fn remove_hold(&mut self, prop: &str, frame: i64) -> Result<(), EditError> {
        let p = self.prop_named(prop)?;
        let label = format!("Remove {prop}'s grip or release at frame {frame}");
        let sequence = self.timed_in_shown(&label, "grip")?;
        let Some(k) = self.stage.cues.iter().position(|c| {
            c.sequence == sequence && c.holds.iter().any(|h| h.prop() == p && h.frame() == frame)
        }) else {
            return Err(refused(format!(
                "prop \"{prop}\" has no grip or release at frame {frame} of sequence \"{sequence}\""
            )));
        };
        let before = self.stage.layout();
        let holds = &mut self.stage.cues[k].holds;
        holds.retain(|h| !(h.prop() == p && h.frame() == frame));
        let mut held = false;
        holds.retain(|h| {
            if h.prop() != p {
                return true;
            }
            let keep = matches!(h, Hold::Grip { .. }) || held;
            held = matches!(h, Hold::Grip { .. });
            keep
        });
        self.record_stage(label, before, UndoStep::New);
        Ok(())
    }
}

/// Drops the holds by figure `k` from a cue, and renumbers the later figures'.
pub(super) fn remove_holds_of(cue: &mut Cue, k: usize) {
    cue.holds
        .retain(|h| !matches!(h, Hold::Grip { by, .. } if by.figure == k));
    for h in &mut cue.holds {
        if let Hold::Grip { by, .. } = h
            && by.figure > k
        {
            by.figure -= 1;
        }
    }
}
