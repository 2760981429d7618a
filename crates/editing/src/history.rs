//! Undo and redo (issue 5): every edit of the pose is one step, a whole drag included. A step
//! records the pose before and after, which a pose (a plain `Vec<f64>`) makes cheap; later
//! document edits (locks, keyframes) add variants to [`Change`].

/// One undoable edit.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The pose changed (a drag, a slider, a solve, a loaded pose file).
    Pose {
        /// What the user did, for the Edit menu ("Drag right elbow").
        label: String,
        /// The pose before.
        before: Vec<f64>,
        /// The pose after.
        after: Vec<f64>,
    },
}

impl Change {
    /// The edit's label.
    pub fn label(&self) -> &str {
        match self {
            Change::Pose { label, .. } => label,
        }
    }
}

/// The undo and redo stacks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
}

impl History {
    /// Records an edit that has been applied; it clears the redo stack. An edit that changed
    /// nothing (a click without a drag) is not recorded.
    pub fn record(&mut self, change: Change) {
        let Change::Pose { before, after, .. } = &change;
        if before == after {
            return;
        }
        self.undo.push(change);
        self.redo.clear();
    }

    /// Undoes the last edit on `pose`; returns its label, or `None` when there is nothing to undo.
    pub fn undo(&mut self, pose: &mut Vec<f64>) -> Option<String> {
        let change = self.undo.pop()?;
        let Change::Pose { before, .. } = &change;
        pose.clone_from(before);
        let label = change.label().to_owned();
        self.redo.push(change);
        Some(label)
    }

    /// Redoes the last undone edit on `pose`.
    pub fn redo(&mut self, pose: &mut Vec<f64>) -> Option<String> {
        let change = self.redo.pop()?;
        let Change::Pose { after, .. } = &change;
        pose.clone_from(after);
        let label = change.label().to_owned();
        self.undo.push(change);
        Some(label)
    }

    /// The label of the edit Undo would revert.
    pub fn next_undo(&self) -> Option<&str> {
        self.undo.last().map(Change::label)
    }

    /// The label of the edit Redo would repeat.
    pub fn next_redo(&self) -> Option<&str> {
        self.redo.last().map(Change::label)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(label: &str, before: f64, after: f64) -> Change {
        Change::Pose {
            label: label.into(),
            before: vec![before],
            after: vec![after],
        }
    }

    #[test]
    fn undo_and_redo_walk_the_edits() {
        let mut h = History::default();
        let mut pose = vec![2.0];
        h.record(change("a", 0.0, 1.0));
        h.record(change("b", 1.0, 2.0));
        assert_eq!(h.undo(&mut pose).as_deref(), Some("b"));
        assert_eq!(pose, [1.0]);
        assert_eq!(h.undo(&mut pose).as_deref(), Some("a"));
        assert_eq!(pose, [0.0]);
        assert_eq!(h.undo(&mut pose), None);
        assert_eq!(h.redo(&mut pose).as_deref(), Some("a"));
        assert_eq!(pose, [1.0]);
        // A new edit drops what could be redone.
        h.record(change("c", 1.0, 5.0));
        assert_eq!(h.next_redo(), None);
        assert_eq!(h.next_undo(), Some("c"));
    }

    #[test]
    fn an_edit_that_changed_nothing_is_not_a_step() {
        let mut h = History::default();
        h.record(change("click", 1.0, 1.0));
        assert_eq!(h.next_undo(), None);
    }
}
