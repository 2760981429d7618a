//! The document's list of sequences: a new one, renamed, duplicated, deleted, and one made
//! elsewhere added (an import's or a retarget's), each one undo step, names kept unique.

use marionette_document::{Key, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::Pose;

use crate::{Document, EditError};

impl Document {
    /// A new sequence named `name` (made unique), keyed at frame 0 with the current pose, and
    /// shown. Returns its index.
    pub(crate) fn new_sequence(&mut self, name: &str) -> usize {
        let before = self.sequences.clone();
        let name = self.unique_sequence_name(name.trim());
        self.sequences.push(Sequence {
            name: name.clone(),
            fps: 24.0,
            rotation: RotationInterpolation::Slerp,
            root: RootInterpolation::Linear,
            hold_locks: true,
            keys: vec![Key::new(
                0,
                Pose {
                    q: self.pose.clone(),
                },
            )],
        });
        self.record_sequences(format!("New sequence {name}"), before);
        let index = self.sequences.len() - 1;
        self.sequence = Some(index);
        self.frame = 0;
        index
    }

    /// Renames sequence `index`.
    pub(crate) fn rename_sequence(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        self.check_sequence(index)?;
        let name = name.trim();
        let taken = self
            .sequences
            .iter()
            .enumerate()
            .any(|(i, s)| i != index && s.name == name);
        if name.is_empty() || taken {
            return Err(EditError::SequenceName(name.to_owned()));
        }
        let before = self.sequences.clone();
        let old = std::mem::replace(&mut self.sequences[index].name, name.to_owned());
        self.record_sequences(format!("Rename sequence {old} to {name}"), before);
        Ok(())
    }

    /// Duplicates sequence `index` (named "… copy") and shows the copy. Returns its index.
    pub(crate) fn duplicate_sequence(&mut self, index: usize) -> Result<usize, EditError> {
        self.check_sequence(index)?;
        let before = self.sequences.clone();
        let mut copy = self.sequences[index].clone();
        copy.name = self.unique_sequence_name(&format!("{} copy", copy.name));
        let label = format!("Duplicate sequence {}", self.sequences[index].name);
        self.sequences.push(copy);
        self.record_sequences(label, before);
        let new = self.sequences.len() - 1;
        self.sequence = Some(new);
        Ok(new)
    }

    /// Deletes sequence `index`.
    pub(crate) fn delete_sequence(&mut self, index: usize) -> Result<(), EditError> {
        self.check_sequence(index)?;
        let before = self.sequences.clone();
        let removed = self.sequences.remove(index);
        self.sequence = match self.sequence {
            Some(i) if i == index => None,
            Some(i) if i > index => Some(i - 1),
            other => other,
        };
        self.record_sequences(format!("Delete sequence {}", removed.name), before);
        Ok(())
    }

    /// `name`, or `name 2`, `name 3` … if taken.
    pub fn unique_sequence_name(&self, name: &str) -> String {
        let name = if name.is_empty() { "Sequence" } else { name };
        let taken = |n: &str| self.sequences.iter().any(|s| s.name == n);
        if !taken(name) {
            return name.to_owned();
        }
        (2..)
            .map(|k| format!("{name} {k}"))
            .find(|n| !taken(n))
            .expect("some number is free")
    }

    /// Adds `sequence` (made elsewhere: an import, a retarget) under a free name, the shown
    /// sequence unchanged, as one undo step; refused when it does not fit the figure (its keys'
    /// values, joints, DOFs and handles) or could not be saved (its own defects).
    pub(crate) fn add_sequence(&mut self, mut sequence: Sequence) -> Result<String, EditError> {
        let s = &self.skeleton;
        let fits = |k: &Key| {
            k.pose.q.len() == s.state_len()
                && k.only.as_ref().is_none_or(|o| {
                    o.joints.iter().all(|j| j.index() < s.joints().len())
                        && o.dofs.iter().all(|d| d.index() < s.dofs().len())
                })
                && k.handles.iter().all(|h| h.state < s.state_len())
        };
        if let Some(k) = sequence.keys.iter().find(|k| !fits(k)) {
            return Err(EditError::SequenceValue {
                sequence: sequence.name.clone(),
                what: format!("its key at frame {} is another figure's", k.frame),
            });
        }
        if let Some(defect) = sequence.defects().into_iter().next() {
            return Err(EditError::SequenceValue {
                sequence: sequence.name.clone(),
                what: defect,
            });
        }
        sequence.name = self.unique_sequence_name(sequence.name.trim());
        let said = format!(
            "Added sequence {} ({} keys)",
            sequence.name,
            sequence.keys.len()
        );
        let before = self.sequences.clone();
        self.sequences.push(sequence);
        self.record_sequences(said.clone(), before);
        Ok(said)
    }
}
