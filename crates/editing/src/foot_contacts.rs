//! Sequence ▸ Find foot contacts, and `marionette cleanup`: a sequence's foot contacts found and
//! held by locks ([`marionette_motion::cleanup`], the feet from the humanoid map or named), the
//! document's earlier contact locks of those feet replaced, as one undo step.

use marionette_interchange::feet::{foot_points, named_points};
use marionette_motion::cleanup::Cleaned;
use marionette_motion::cleanup::floor::raise_keys;
use marionette_motion::{BakeSettings, clean_feet};

pub use crate::document::held::HipsMoved;
use crate::history::Change;
use crate::{Document, EditError};

impl Document {
    /// How the last Find foot contacts moved the shown sequence's hips, while its keys are still
    /// those it wrote (`None` after an undo or another edit of them).
    pub fn hips_moved(&self) -> Option<&HipsMoved> {
        let shown = self.sequences.get(self.sequence?)?;
        let moved = self.hips_moved.as_ref()?;
        let heights = shown.keys.iter().map(|k| k.pose.q[1]);
        (moved.sequence == shown.name && heights.eq(moved.heights.iter().copied())).then_some(moved)
    }
}

/// Whose feet a search finds: which sequence, and which points.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FootSearch {
    /// The sequence, by index (`None`: the shown one).
    pub sequence: Option<usize>,
    /// The foot points, sites or joints by name (empty: each foot's heel and toes from the
    /// humanoid map).
    pub points: Vec<String>,
}

impl Document {
    /// Finds `search`'s sequence's foot contacts and locks them: the cleanup's report, and what
    /// to tell the user (how many were found and held, and those that could not be held).
    pub(crate) fn find_foot_contacts(
        &mut self,
        search: &FootSearch,
    ) -> Result<(Cleaned, String), EditError> {
        let index = match search.sequence {
            Some(i) if i < self.sequences.len() => i,
            Some(i) => return Err(EditError::NoSuchSequence(i)),
            None => self.sequence.filter(|&i| i < self.sequences.len()).ok_or(
                EditError::FootContacts(
                    "show a sequence first (the timeline's sequence list)".into(),
                ),
            )?,
        };
        // Found again on keys the last find moved: from the keys as they were before it, so
        // that finding twice moves the hips as finding once does (not down again each time).
        let mut sequence = self.sequences[index].clone();
        if let Some(moved) = self.hips_moved().filter(|_| self.sequence == Some(index)) {
            let back: Vec<f64> = moved.change.iter().map(|c| -c).collect();
            raise_keys(&mut sequence.keys, moved.first, &back);
        }
        let sequence = &sequence;
        let points = if search.points.is_empty() {
            foot_points(&self.skeleton)
        } else {
            let names: Vec<&str> = search.points.iter().map(String::as_str).collect();
            named_points(&self.skeleton, &names)
        }
        .map_err(EditError::FootContacts)?;
        let cleaned = clean_feet(
            &self.skeleton,
            sequence,
            &self.locks,
            &points,
            BakeSettings::default(),
        )
        .map_err(|e| EditError::FootContacts(e.to_string()))?;
        let label = format!("Find foot contacts of {}", sequence.name);
        let name = sequence.name.clone();
        self.end_drag();
        // The locks and the sequence whose hips moved, as one undo step.
        let sequences_before = self.sequences.clone();
        self.sequences[index].clone_from(&cleaned.sequence);
        let locks_before = std::mem::replace(&mut self.locks, cleaned.locks.clone());
        self.history.record(Change::Steps {
            label: label.clone(),
            steps: vec![
                Change::Locks {
                    label: label.clone(),
                    before: (locks_before, self.pose.clone()),
                    after: (self.locks.clone(), self.pose.clone()),
                },
                Change::Sequences {
                    label,
                    before: sequences_before,
                    after: self.sequences.clone(),
                },
            ],
        });
        let written = &self.sequences[index];
        self.hips_moved = Some(HipsMoved {
            sequence: name.clone(),
            first: written.keys.first().map_or(0, |k| k.frame),
            change: cleaned.pelvis.clone(),
            heights: written.keys.iter().map(|k| k.pose.q[1]).collect(),
        });
        // The current frame as baked with them.
        self.go_to_frame(self.frame);
        let not_held: Vec<String> = cleaned
            .not_held()
            .map(|c| match &c.let_go {
                Some(l) => format!(
                    "{} (let go from frame {} so that its {} stays above the floor)",
                    c.lock, l.from, l.point
                ),
                None => format!("{} ({:.1} mm)", c.lock, c.slide_after * 1e3),
            })
            .collect();
        let found = cleaned.contacts.len();
        let hips = match (cleaned.most_lowered(), cleaned.most_raised()) {
            (l, r) if l > 0.0 || r > 0.0 => format!(
                "; hips lowered up to {:.1} mm, raised up to {:.1} mm",
                l * 1e3,
                r * 1e3
            ),
            _ => String::new(),
        };
        let said = if not_held.is_empty() {
            format!("{name}: {found} foot contacts found and locked, every one held{hips}")
        } else {
            format!(
                "{name}: {found} foot contacts found and locked{hips}; {} could not be held: {}",
                not_held.len(),
                not_held.join(", ")
            )
        };
        Ok((cleaned, said))
    }
}

#[cfg(test)]
mod tests {
    use marionette_document::{Key, RootInterpolation, RotationInterpolation, Sequence};
    use marionette_skeleton::{Pose, builtin};

    use crate::Document;
    use crate::edit::{Applied, Edit};
    use crate::solve::Solving;

    #[test]
    fn a_gliding_figure_gets_its_feet_locked_in_one_undo_step() {
        let s = builtin::humanoid();
        let mut doc = Document::new(s.clone(), None);
        // Gliding 5 cm above the floor (a capture whose floor is not the figure's), so that
        // nothing puts the feet back up once the hips come down for the legs' reach.
        let mut above = Pose::rest(&s);
        above.q[1] += 0.05;
        let mut ahead = above.clone();
        ahead.q[2] += 0.1;
        let glide = Sequence {
            name: "glide".into(),
            fps: 24.0,
            rotation: RotationInterpolation::Slerp,
            root: RootInterpolation::Linear,
            hold_locks: true,
            keys: vec![Key::new(0, above), Key::new(48, ahead)],
        };
        let mut solving = Solving::default();
        // Nothing shown: refused, nothing changed.
        assert!(
            doc.apply(Edit::FindFootContacts(Default::default()), &mut solving)
                .is_err()
        );
        let glide_keys = glide.clone();
        doc.sequences = vec![glide];
        doc.sequence = Some(0);
        let applied = doc
            .apply(Edit::FindFootContacts(Default::default()), &mut solving)
            .expect("found");
        let Applied::Cleaned(cleaned, said) = applied else {
            panic!("reports what it found: {applied:?}");
        };
        assert_eq!(cleaned.contacts.len(), 12, "the report is the cleanup's");
        assert!(said.contains("12 foot contacts"), "{said}");
        assert_eq!(doc.locks().len(), 12);
        let found_once = doc.sequences()[0].clone();
        let moved = doc
            .hips_moved()
            .expect("the hips' move is kept for the plot");
        assert!(moved.change.iter().any(|&c| c < 0.0), "{:?}", moved.change);
        assert_ne!(
            found_once, glide_keys,
            "the hips came down where the legs are straight"
        );
        // Again: the same locks replaced, not doubled, the hips where the first find put them
        // (not moved down again from there): nothing changes, and no undo step is added.
        doc.apply(Edit::FindFootContacts(Default::default()), &mut solving)
            .expect("found");
        assert_eq!(doc.locks().len(), 12);
        for (again, once) in doc.sequences()[0].keys.iter().zip(&found_once.keys) {
            assert!(
                (again.pose.q[1] - once.pose.q[1]).abs() < 1e-9,
                "frame {}: the hips at {} after finding twice, {} after once",
                again.frame,
                again.pose.q[1],
                once.pose.q[1]
            );
        }
        assert_eq!(doc.sequences()[0], found_once);
        // Keys edited after a find are found from as they are: a key's root moved by hand, then
        // found again, is one more undo step; undone, both finds' locks and hips go together.
        let mut edited = doc.sequences()[0].clone();
        edited.keys[1].pose.q[1] += 0.02;
        doc.sequences[0] = edited;
        assert!(
            doc.hips_moved().is_none(),
            "keys edited: the move is no longer shown"
        );
        doc.apply(Edit::FindFootContacts(Default::default()), &mut solving)
            .expect("found");
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.locks().len(), 12);
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert!(doc.locks().is_empty());
        assert_eq!(doc.sequences()[0], glide_keys);
        assert!(doc.hips_moved().is_none(), "undone: no longer shown");
    }
}
