//! A prop's keys in the shown sequence (issue 32, part 1: a prop has a pose and keys): a key at
//! the current frame from where the prop is now, a key removed, and the prop moved on a frame
//! of a sequence in which it has keys (its handles, its numbers) keying it there rather than
//! moving where it rests. Where a prop is now is [`Document::prop_place_now`]: its keys at the
//! current frame of the shown sequence, else where it rests. Each edit is one undo step.

use marionette_document::{PropKey, PropPlace, PropTrack};
use marionette_motion::stage::props::keyed_place;

use super::refused;
use crate::history::UndoStep;
use crate::{Document, EditError};

/// A rigid motion as a prop's place (position, Rx·Ry·Rz degrees).
fn as_place(iso: &nalgebra::Isometry3<f64>) -> PropPlace {
    let t = iso.translation.vector;
    PropPlace {
        at: [t.x, t.y, t.z],
        rotation: marionette_skeleton::rotation::degrees_from_orientation(
            &iso.rotation.to_rotation_matrix().into_inner(),
        ),
    }
}

impl Document {
    /// The shown sequence's cue's track of prop `p`, if it has keys there.
    fn shown_track(&self, p: usize) -> Option<&PropTrack> {
        let name = self.shown_name()?;
        self.stage
            .cues
            .iter()
            .find(|c| c.sequence == name)?
            .tracks
            .iter()
            .find(|t| t.prop == p && !t.keys.is_empty())
    }

    /// Where prop `p` is now, as its handles and numbers show it: at its keys' place on the
    /// current frame where the shown sequence keys it, else where it rests.
    pub fn prop_place_now(&self, p: usize) -> PropPlace {
        match self.shown_track(p) {
            Some(track) => match track.keys.iter().find(|k| k.frame == self.frame) {
                Some(key) => key.place,
                None => as_place(&keyed_place(&track.keys, self.frame)),
            },
            None => self.stage.props[p].place,
        }
    }

    /// The keys of prop `p` in the shown sequence (frames ascending).
    pub fn prop_keys(&self, p: usize) -> &[PropKey] {
        self.shown_track(p).map_or(&[], |t| t.keys.as_slice())
    }

    /// Sets prop `name`'s key at the current frame of the shown sequence to `place` (made if
    /// there is none), as `undo` says.
    fn set_prop_key(
        &mut self,
        name: &str,
        p: usize,
        place: PropPlace,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        let frame = self.frame;
        let label = format!("Key prop {name} at frame {frame}");
        let sequence = self.timed_in_shown(&label, "key")?;
        let before = self.stage.layout();
        let tracks = &mut self.stage.cue_mut(sequence).tracks;
        let t = match tracks.iter().position(|t| t.prop == p) {
            Some(t) => t,
            None => {
                tracks.push(PropTrack {
                    prop: p,
                    keys: Vec::new(),
                });
                tracks.len() - 1
            }
        };
        let keys = &mut tracks[t].keys;
        match keys.binary_search_by_key(&frame, |k| k.frame) {
            Ok(k) => keys[k].place = place,
            Err(k) => keys.insert(k, PropKey { frame, place }),
        }
        self.record_stage(label, before, undo);
        Ok(())
    }

    /// Keys prop `name` at the current frame of the shown sequence where it is now.
    pub(crate) fn key_prop(&mut self, name: &str) -> Result<(), EditError> {
        let p = self.prop_named(name)?;
        let place = self.prop_place_now(p);
        self.set_prop_key(name, p, place, UndoStep::New)
    }

    /// Removes prop `name`'s key at `frame` of the shown sequence (its track goes with its last
    /// key).
    pub(crate) fn remove_prop_key(&mut self, name: &str, frame: i64) -> Result<(), EditError> {
        let p = self.prop_named(name)?;
        let found = self.shown_name().and_then(|n| {
            let c = self.stage.cues.iter().position(|c| c.sequence == n)?;
            let t = self.stage.cues[c].tracks.iter().position(|t| t.prop == p)?;
            let k = self.stage.cues[c].tracks[t]
                .keys
                .iter()
                .position(|k| k.frame == frame)?;
            Some((c, t, k))
        });
        let Some((c, t, k)) = found else {
            return Err(refused(format!(
                "prop \"{name}\" has no key at frame {frame} of the shown sequence"
            )));
        };
        let before = self.stage.layout();
        let tracks = &mut self.stage.cues[c].tracks;
        tracks[t].keys.remove(k);
        if tracks[t].keys.is_empty() {
            tracks.remove(t);
        }
        self.record_stage(
            format!("Remove prop {name}'s key at frame {frame}"),
            before,
            UndoStep::New,
        );
        Ok(())
    }

    /// Moves prop `p` (named `name`) to `place`: on a frame of a sequence that keys it, its key
    /// there (made if needed); else where it rests. True when it keyed.
    pub(super) fn move_or_key_prop(
        &mut self,
        name: &str,
        p: usize,
        place: PropPlace,
        undo: UndoStep,
    ) -> Result<bool, EditError> {
        if self.shown_track(p).is_some() {
            self.set_prop_key(name, p, place, undo)?;
            return Ok(true);
        }
        Ok(false)
    }
}
