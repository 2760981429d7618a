//! Lock edits on the [`Document`] (issue 10): add, remove, rename, enable, weight, priority,
//! frame range, base, and moving a lock's target by its marker. Each is checked first (a refused
//! edit changes nothing) and recorded as one undo step together with the pose the limbs followed
//! to; a marker drag stays one step ([`History::record_continuing`](crate::History)).

use marionette_document::{Lock, LockKind, LockPart};
use marionette_skeleton::{JointId, SiteId};
use nalgebra::Vector3;

use crate::history::{Change, UndoStep};
use crate::solve::IkRunner;
use crate::{Document, EditError};

/// Updates the limbs may take to follow a lock change (a frame's budget is too small for a lock
/// switched on far from where its part is).
pub(crate) const SETTLE_UPDATES: usize = 200;

impl Document {
    /// `name`, or `name 2`, `name 3`… whichever no lock has yet.
    pub fn unique_lock_name(&self, name: &str) -> String {
        let taken = |n: &str| self.locks.iter().any(|l| l.name == n);
        if !taken(name) {
            return name.to_owned();
        }
        (2..)
            .map(|k| format!("{name} {k}"))
            .find(|n| !taken(n))
            .unwrap_or_else(|| name.to_owned())
    }

    /// Applies `change` to a copy of the locks; if it succeeds, the copy replaces them, the
    /// limbs follow (with `runner`, when given) and one undo step is recorded (or the last
    /// extended, as `undo` says).
    pub(crate) fn edit_locks(
        &mut self,
        label: String,
        undo: UndoStep,
        runner: Option<(&mut IkRunner, usize)>,
        change: impl FnOnce(&mut Vec<Lock>) -> Result<(), EditError>,
    ) -> Result<(), EditError> {
        let mut locks = self.locks.clone();
        change(&mut locks)?;
        let before = (std::mem::replace(&mut self.locks, locks), self.pose.clone());
        if let Some((runner, budget)) = runner {
            let q = self.settle(runner, budget);
            self.pose = q;
            self.fk.update(&self.skeleton, &self.pose);
        }
        let step = Change::Locks {
            label,
            before,
            after: (self.locks.clone(), self.pose.clone()),
        };
        self.history.record_as(step, undo);
        Ok(())
    }

    fn check_index(&self, index: usize) -> Result<(), EditError> {
        if index < self.locks.len() {
            Ok(())
        } else {
            Err(EditError::NoSuchLock(index))
        }
    }

    /// Adds `lock` (its name must be new); the limbs follow it. Returns its index.
    pub(crate) fn add_lock(
        &mut self,
        lock: Lock,
        runner: &mut IkRunner,
    ) -> Result<usize, EditError> {
        if self.locks.iter().any(|l| l.name == lock.name) {
            return Err(EditError::DuplicateLock(lock.name));
        }
        let label = format!("Lock {}", lock.name);
        self.edit_locks(
            label,
            UndoStep::New,
            Some((runner, SETTLE_UPDATES)),
            |locks| {
                locks.push(lock);
                Ok(())
            },
        )?;
        Ok(self.locks.len() - 1)
    }

    /// Locks `part` as `kind` where it is now, named after the part and the kind. Returns the
    /// new lock's index.
    pub(crate) fn lock_part(
        &mut self,
        part: LockPart,
        kind: LockKind,
        runner: &mut IkRunner,
    ) -> Result<usize, EditError> {
        let part_name = match part {
            LockPart::Site(s) => self.skeleton.site(s).name.clone(),
            LockPart::Point(j, _) => self.skeleton.joint(j).name.clone(),
        };
        let name = match kind {
            LockKind::CenterOfMass => self.unique_lock_name("centre of mass"),
            _ => self.unique_lock_name(&format!("{part_name} {}", kind.label())),
        };
        let lock = Lock::at_current(&self.skeleton, &self.fk, name, part, kind)?;
        self.add_lock(lock, runner)
    }

    /// Locks two sites together (they keep touching). Returns the new lock's index.
    pub(crate) fn lock_together(
        &mut self,
        a: SiteId,
        b: SiteId,
        runner: &mut IkRunner,
    ) -> Result<usize, EditError> {
        let name = self.unique_lock_name(&format!(
            "{} + {}",
            self.skeleton.site(a).name,
            self.skeleton.site(b).name
        ));
        let lock = Lock::together(&self.skeleton, name, a, b)?;
        self.add_lock(lock, runner)
    }

    /// Removes lock `index`.
    pub(crate) fn remove_lock(&mut self, index: usize) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Delete lock {}", self.locks[index].name);
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks.remove(index);
            Ok(())
        })
    }

    /// Renames lock `index` (the name must be new and not blank).
    pub(crate) fn rename_lock(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        self.check_index(index)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(marionette_document::LockError::EmptyName.into());
        }
        if self
            .locks
            .iter()
            .enumerate()
            .any(|(i, l)| i != index && l.name == name)
        {
            return Err(EditError::DuplicateLock(name.to_owned()));
        }
        let label = format!("Rename lock {}", self.locks[index].name);
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks[index].name = name.to_owned();
            Ok(())
        })
    }

    /// Enables or disables lock `index`; an enabled lock's limb follows it.
    pub(crate) fn set_lock_enabled(
        &mut self,
        index: usize,
        enabled: bool,
        runner: &mut IkRunner,
    ) -> Result<(), EditError> {
        self.check_index(index)?;
        let verb = if enabled { "Enable" } else { "Disable" };
        let label = format!("{verb} lock {}", self.locks[index].name);
        let runner = enabled.then_some((runner, SETTLE_UPDATES));
        self.edit_locks(label, UndoStep::New, runner, |locks| {
            locks[index].enabled = enabled;
            Ok(())
        })
    }

    /// Sets lock `index`'s weight (> 0); [`UndoStep::Extend`] for the steps after the first of
    /// a slider drag.
    pub(crate) fn set_lock_weight(
        &mut self,
        index: usize,
        weight: f64,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Weight of lock {}", self.locks[index].name);
        self.edit_locks(label, undo, None, |locks| {
            locks[index].set_weight(weight).map_err(EditError::from)
        })
    }

    /// Sets lock `index`'s priority level (0 = highest).
    pub(crate) fn set_lock_priority(
        &mut self,
        index: usize,
        priority: u32,
    ) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Priority of lock {}", self.locks[index].name);
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks[index].set_priority(priority);
            Ok(())
        })
    }

    /// Sets lock `index`'s frame range (`None`: every frame).
    pub(crate) fn set_lock_frames(
        &mut self,
        index: usize,
        frames: Option<(i64, i64)>,
    ) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Frames of lock {}", self.locks[index].name);
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks[index].set_frames(frames).map_err(EditError::from)
        })
    }

    /// Sets lock `index`'s blend: the frames over which it eases in before its range and out
    /// after it.
    pub(crate) fn set_lock_blend(&mut self, index: usize, blend: i64) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Blend of lock {}", self.locks[index].name);
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks[index].set_blend(blend).map_err(EditError::from)
        })
    }

    /// Sets the highest joint that moves to keep lock `index` (`None`: its limb).
    pub(crate) fn set_lock_base(
        &mut self,
        index: usize,
        base: Option<JointId>,
    ) -> Result<(), EditError> {
        self.check_index(index)?;
        let label = format!("Base of lock {}", self.locks[index].name);
        let mut rebased = self.locks[index].clone();
        rebased.set_base(&self.skeleton, base)?;
        self.edit_locks(label, UndoStep::New, None, |locks| {
            locks[index] = rebased;
            Ok(())
        })
    }

    /// Moves lock `index`'s target by `delta` (its marker dragged) and lets the limbs follow;
    /// [`UndoStep::Extend`] for the frames after the first of one marker drag, which stays one
    /// undo step. False when the lock has no point to move (orientation, two sites together).
    pub(crate) fn move_lock_target(
        &mut self,
        index: usize,
        delta: &Vector3<f64>,
        runner: &mut IkRunner,
        undo: UndoStep,
    ) -> Result<bool, EditError> {
        self.check_index(index)?;
        let mut probe = self.locks[index].clone();
        if !probe.move_target(delta) {
            return Ok(false);
        }
        let label = format!("Move lock {}", self.locks[index].name);
        let budget = runner.settings().iterations_per_frame;
        self.edit_locks(label, undo, Some((runner, budget)), |locks| {
            locks[index] = probe;
            Ok(())
        })?;
        Ok(true)
    }
}
