//! The physics ghost accepted ([`crate::Edit::AcceptGhost`]): its frames written as keys on
//! each of them, and the frames from the whole-pose keys before and after them as keys holding
//! the poses the sequence had there, so the frames outside do not change (with linear and
//! slerp interpolation exactly; a spline's tangents at those keys see their new neighbours);
//! when a flight's length changes (an apex), later keys and the frames of later locks move
//! with it. One undo step; refused when the sequence changed since the ghost was made.

use marionette_document::{Key, Lock, Sequence};
use marionette_motion::interpolate::Interpolator;
use marionette_skeleton::Pose;

use crate::Document;
use crate::document::history::Change;
use crate::edit_error::EditError;
use crate::physics_ghost::Ghost;

impl Document {
    /// Writes `ghost` into its sequence, as one undo step (the sequence and, when a flight's
    /// length changed, the later locks).
    pub(crate) fn accept_ghost(&mut self, ghost: &Ghost) -> Result<String, EditError> {
        let (index, made_from) = &ghost.sequence;
        let stale = || {
            EditError::Ghost(
                "the sequence changed since the ghost was made; make the ghost again".into(),
            )
        };
        if self.sequences().get(*index) != Some(made_from) {
            return Err(stale());
        }
        let (a, b) = (ghost.request.from, ghost.request.to);
        let (lo, hi, written) = self.ghost_keys(ghost, made_from);
        let shift = ghost.shift();
        let mut sequence = made_from.clone();
        let (before, rest): (Vec<Key>, Vec<Key>) =
            (made_from.keys.iter().cloned()).partition(|k| k.frame < lo);
        let after = rest.into_iter().filter(|k| k.frame > hi).map(|mut k| {
            k.frame += shift;
            k
        });
        sequence.keys = before.into_iter().chain(written).chain(after).collect();
        let locks = moved_locks(&self.locks, b, shift)?;
        self.end_drag();
        let label = format!(
            "Accept the physics ghost of frames {a}–{b} of {}",
            made_from.name
        );
        let sequences_before = self.sequences.clone();
        self.sequences[*index] = sequence;
        let mut steps = Vec::new();
        if locks != self.locks {
            let before = std::mem::replace(&mut self.locks, locks);
            steps.push(Change::Locks {
                label: label.clone(),
                before: (before, self.pose.clone()),
                after: (self.locks.clone(), self.pose.clone()),
            });
        }
        steps.push(Change::Sequences {
            label: label.clone(),
            before: sequences_before,
            after: self.sequences.clone(),
        });
        self.history.record(Change::Steps {
            label: label.clone(),
            steps,
        });
        self.show_frame();
        Ok(label)
    }

    /// The keys replacing those of the frames `lo ..= hi` (the whole-pose keys nearest before
    /// the ghost's first frame and after its last, or the sequence's ends): a key on every
    /// frame, the ghost's own its poses, the others the sequence's own poses, so that the
    /// frames outside interpolate as before.
    fn ghost_keys(&self, ghost: &Ghost, sequence: &Sequence) -> (i64, i64, Vec<Key>) {
        let (a, b) = (ghost.request.from, ghost.request.to);
        let whole = || {
            sequence
                .keys
                .iter()
                .filter(|k| k.only.is_none())
                .map(|k| k.frame)
        };
        let first = sequence.keys.first().map_or(a, |k| k.frame);
        let last = sequence.keys.last().map_or(b, |k| k.frame);
        let lo = whole().filter(|&f| f < a).max().unwrap_or(first).min(a);
        let hi = whole().filter(|&f| f > b).min().unwrap_or(last).max(b);
        let interpolator = Interpolator::new(&self.skeleton, sequence);
        let own = |frame: i64| {
            let mut q = Vec::new();
            interpolator.pose_at(&self.skeleton, frame, &mut q);
            Pose { q }
        };
        let poses = (lo..a)
            .map(own)
            .chain(ghost.poses.iter().map(|q| Pose { q: q.clone() }))
            .chain((b + 1..=hi).map(own));
        let keys = (lo..)
            .zip(poses)
            .map(|(k, pose)| Key::new(k, pose))
            .collect();
        (lo, hi, keys)
    }
}

/// `locks` with the frames of those after frame `last` moved by `shift` (a lock reaching past
/// it from before keeps its start and moves its end).
fn moved_locks(locks: &[Lock], last: i64, shift: i64) -> Result<Vec<Lock>, EditError> {
    let mut moved = locks.to_vec();
    if shift == 0 {
        return Ok(moved);
    }
    for lock in &mut moved {
        let Some((start, end)) = lock.frames() else {
            continue;
        };
        let frames = if start > last {
            (start + shift, end + shift)
        } else if end > last {
            (start, end + shift)
        } else {
            continue;
        };
        lock.set_frames(Some(frames))?;
    }
    Ok(moved)
}
