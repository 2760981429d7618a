//! The stacked IK system a solver works on: the goals' error vector e and Jacobian J over the
//! chain's columns, weighted rows, per-column stiffness, joint limits, all in buffers sized once.
//!
//! The driver ([`crate::solve`]) calls [`System::evaluate`] and hands the system to a solver's
//! `step`; the solver proposes Δq and applies it with [`System::apply_step`], which enforces the
//! limits. Targets can be changed between frames ([`System::goals_mut`]) without reallocating.

use std::ops::Range;

use marionette_skeleton::{Chain, DofId, Fk, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{DMatrix, DVector};

use crate::goal::{Goal, GoalScratch};
use crate::preference::Preference;

/// Goals, chain and workspaces for one skeleton.
#[derive(Debug, Clone)]
pub struct System<'s> {
    skeleton: &'s Skeleton,
    goals: Vec<Goal>,
    rows: Vec<Range<usize>>,
    chain: Chain,
    fk: Fk,
    /// Stacked, weighted error (target − current), one block per goal.
    pub e: DVector<f64>,
    /// Stacked, weighted Jacobian: rows as `e`, one column per chain entry.
    pub j: DMatrix<f64>,
    scratch: GoalScratch,
    stiffness: Vec<f64>,
    goal_errors: Vec<f64>,
    limit_hits: Vec<bool>,
    /// Whether a goal reads the centre of mass (otherwise forward kinematics skips it).
    needs_com: bool,
    /// The joints forward kinematics computes, ascending (`None`: every joint).
    fk_joints: Option<Vec<JointId>>,
    /// Per goal, the chain columns allowed to serve it (empty: all of them). A goal's Jacobian
    /// rows are zero in the other columns, so only its own chain moves to meet it, while the
    /// union of every goal's chain moves (a lock kept by its limb while a drag moves the body).
    goal_columns: Vec<Vec<bool>>,
    /// The pull towards the bend hints in the goals' null space and its workspaces: made when
    /// a weight is first set (or a stall escape needs the projection), so systems without it
    /// (one per editor frame) allocate nothing for it.
    preference: Option<Box<Preference>>,
}

impl<'s> System<'s> {
    /// A system for `goals` moving the state entries of `chain`.
    pub fn new(skeleton: &'s Skeleton, goals: Vec<Goal>, chain: Chain) -> System<'s> {
        let mut rows = Vec::with_capacity(goals.len());
        let mut m = 0;
        for g in &goals {
            let r = g.kind.rows();
            rows.push(m..m + r);
            m += r;
        }
        let n = chain.len();
        let stiffness = chain
            .columns()
            .iter()
            .map(|&c| {
                c.checked_sub(ROOT_STATE_LEN)
                    .map_or(1.0, |k| skeleton.joint(skeleton.dofs()[k].joint).stiffness)
            })
            .collect();
        let needs_com = goals
            .iter()
            .any(|g| matches!(g.kind, crate::goal::GoalKind::CenterOfMass { .. }));
        System {
            skeleton,
            preference: None,
            goal_errors: vec![0.0; goals.len()],
            goals,
            rows,
            fk: Fk::new(skeleton),
            e: DVector::zeros(m),
            j: DMatrix::zeros(m, n),
            scratch: GoalScratch::new(n),
            stiffness,
            limit_hits: vec![false; n],
            needs_com,
            fk_joints: None,
            goal_columns: Vec::new(),
            chain,
        }
    }

    /// Limits goal `goal` to the chain columns where `columns` is true (one entry per column of
    /// [`System::chain`]): its Jacobian rows are zero elsewhere, so the solvers serve it with
    /// those columns only (its error is still measured at the whole pose). Entries past the end
    /// count as false; an out-of-range `goal` changes nothing.
    pub fn restrict_goal(&mut self, goal: usize, columns: &[bool]) {
        if goal >= self.goals.len() {
            return;
        }
        if self.goal_columns.len() < self.goals.len() {
            self.goal_columns.resize(self.goals.len(), Vec::new());
        }
        let n = self.chain.len();
        self.goal_columns[goal] = (0..n)
            .map(|c| columns.get(c).copied().unwrap_or(false))
            .collect();
    }

    /// Whether chain column `column` may move to serve goal `goal` ([`System::restrict_goal`]).
    pub fn serves(&self, goal: usize, column: usize) -> bool {
        match self.goal_columns.get(goal) {
            Some(mask) if !mask.is_empty() => mask.get(column).copied().unwrap_or(false),
            _ => true,
        }
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &'s Skeleton {
        self.skeleton
    }

    /// The goals.
    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    /// The goals, to move targets between frames (their kinds and count must stay the same).
    pub fn goals_mut(&mut self) -> &mut [Goal] {
        &mut self.goals
    }

    /// The rows of each goal in `e` and `j`.
    pub fn goal_rows(&self) -> &[Range<usize>] {
        &self.rows
    }

    /// The state entries the solve moves (the Jacobian's columns).
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// Forward kinematics at the last evaluated pose (its centre of mass is current only when
    /// a goal reads the centre of mass).
    pub fn fk(&self) -> &Fk {
        &self.fk
    }

    /// Welman's stiffness w_i of each column's joint (1 for the root translation).
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// Replaces the skeleton's stiffness by `by_joint` (one w per joint, in joint order: the
    /// editor's per-joint edits). Columns of joints beyond the slice keep theirs.
    pub fn set_joint_stiffness(&mut self, by_joint: &[f64]) {
        for (w, &c) in self.stiffness.iter_mut().zip(self.chain.columns()) {
            if let Some(k) = c.checked_sub(ROOT_STATE_LEN) {
                let joint = self.skeleton.dofs()[k].joint;
                if let Some(&v) = by_joint.get(joint.index()) {
                    *w = v;
                }
            }
        }
    }

    /// Sets the gain of the pull towards the bend hints ([`marionette_skeleton::Dof::preferred`]):
    /// each update made through [`System::apply_step`] also moves the DOFs that move a goal this
    /// fraction of the way to their hints, inside the goals' null space, so no goal is disturbed
    /// (to first order) and straight limbs bend the way they should. 0 (the default) turns it
    /// off; values are clamped into [0, 1], a non-finite one is taken as 0.
    pub fn set_preference(&mut self, weight: f64) {
        let mut spare = None;
        self.set_preference_with(weight, &mut spare);
    }

    /// [`System::set_preference`] with a workspace kept from an earlier system (taken from
    /// `spare`, reused when there is one): for callers that build a system every frame.
    pub fn set_preference_with(&mut self, weight: f64, spare: &mut Option<Box<Preference>>) {
        let weight = if weight.is_finite() {
            weight.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if weight > 0.0 || self.preference.is_some() {
            if self.preference.is_none() {
                self.install_preference(spare.take().unwrap_or_default());
            }
            self.preference_workspace().weight = weight;
        }
    }

    /// Sizes `workspace` for this system's goals and chain and makes it the preference's.
    fn install_preference(&mut self, mut workspace: Box<Preference>) {
        workspace.reset(
            self.skeleton,
            self.chain.columns(),
            &self.goals,
            self.e.len(),
        );
        self.preference = Some(workspace);
    }

    /// Gives back the preference's workspace (for the next system), leaving the pull off.
    pub fn take_preference(&mut self) -> Option<Box<Preference>> {
        self.preference.take()
    }

    /// The gain of the pull towards the bend hints (0 = off).
    pub fn preference(&self) -> f64 {
        self.preference.as_ref().map_or(0.0, |p| p.weight)
    }

    /// The preference's workspaces, made on first use.
    fn preference_workspace(&mut self) -> &mut Preference {
        if self.preference.is_none() {
            self.install_preference(Box::default());
        }
        self.preference.as_mut().expect("installed above")
    }

    /// The null-space step towards the bend hints at `q` on the Jacobian last evaluated, in the
    /// preference's own buffer (to be given back with [`System::return_hint_buffer`]); `None`
    /// when the pull is off or the step is zero.
    fn hint_step(&mut self, q: &[f64]) -> Option<DVector<f64>> {
        let preference = self.preference.as_mut()?;
        if preference.weight <= 0.0 {
            return None;
        }
        let mut step = std::mem::take(&mut preference.step);
        let columns = self.chain.columns();
        if preference.step(
            self.skeleton,
            columns,
            &self.j,
            &self.stiffness,
            q,
            &mut step,
        ) {
            Some(step)
        } else {
            preference.step = step;
            None
        }
    }

    /// Gives the hint step's buffer back to the preference.
    fn return_hint_buffer(&mut self, step: DVector<f64>) {
        if let Some(p) = self.preference.as_mut() {
            p.step = step;
        }
    }

    /// Number of rows (m) and columns (n).
    pub fn shape(&self) -> (usize, usize) {
        self.j.shape()
    }

    /// Forward kinematics from now on computes only the joints the goals read and their
    /// ancestors (the frames every goal and every chain column that moves a goal need); other
    /// joints and sites keep stale values in [`System::fk`]. For a system on a skeleton much
    /// larger than its goals (several figures of a stage merged for a link between two hands).
    /// Nothing changes when a goal reads the centre of mass.
    pub fn limit_fk_to_goals(&mut self) {
        let mut joints = Vec::new();
        for g in &self.goals {
            let Some(read) = g.kind.joints(self.skeleton) else {
                return;
            };
            for j in read {
                joints.extend(self.skeleton.path_to_root(j));
            }
        }
        joints.sort_unstable();
        joints.dedup();
        self.fk_joints = Some(joints);
    }

    /// Forward kinematics at `q`, the centre of mass only when a goal reads it.
    fn update_fk(&mut self, q: &[f64]) {
        if let Some(joints) = &self.fk_joints {
            self.fk.update_joints(self.skeleton, q, joints);
        } else if self.needs_com {
            self.fk.update(self.skeleton, q);
        } else {
            self.fk.update_transforms(self.skeleton, q);
        }
    }

    /// Forward kinematics of the ancestors of `joint` only (see [`Fk::update_ancestors`]): for
    /// direct methods that need the frame a limb hangs from.
    pub fn update_ancestors(&mut self, q: &[f64], joint: JointId) {
        self.fk.update_ancestors(self.skeleton, q, joint);
    }

    /// Forward kinematics and goal errors at `q`, without the Jacobian.
    pub fn evaluate_errors(&mut self, q: &[f64]) {
        self.update_fk(q);
        for (g, err) in self.goals.iter().zip(self.goal_errors.iter_mut()) {
            *err = g.kind.error(self.skeleton, &self.fk);
        }
    }

    /// Forward kinematics, goal errors, and the weighted e and J at `q`.
    pub fn evaluate(&mut self, q: &[f64]) {
        self.update_fk(q);
        let columns = self.chain.columns();
        for ((g, rows), error) in self
            .goals
            .iter()
            .zip(&self.rows)
            .zip(self.goal_errors.iter_mut())
        {
            g.kind.write_rows(
                self.skeleton,
                &self.fk,
                columns,
                &mut self.e,
                &mut self.j,
                rows.start,
                &mut self.scratch,
            );
            *error = g.kind.error_from_rows(&self.e.as_slice()[rows.clone()]);
            if g.weight != 1.0 {
                let s = g.weight.sqrt();
                for r in rows.clone() {
                    self.e[r] *= s;
                    for c in 0..columns.len() {
                        self.j[(r, c)] *= s;
                    }
                }
            }
        }
        for (mask, rows) in self.goal_columns.iter().zip(&self.rows) {
            for (c, _) in mask.iter().enumerate().filter(|(_, allowed)| !**allowed) {
                for r in rows.clone() {
                    self.j[(r, c)] = 0.0;
                }
            }
        }
    }

    /// Each goal's error (metres or radians) at the last evaluated pose.
    pub fn goal_errors(&self) -> &[f64] {
        &self.goal_errors
    }

    /// The largest goal error: the solve has converged when it is within tolerance. A NaN error
    /// (a bug, never user data) counts as infinite, so it can never pass for convergence.
    pub fn max_error(&self) -> f64 {
        self.goal_errors.iter().fold(0.0, |acc, &e| {
            if e.is_nan() {
                f64::INFINITY
            } else {
                acc.max(e)
            }
        })
    }

    /// Adds `dq` (one entry per chain column) to `q`, then enforces the limits: limited DOFs are
    /// clamped (and the hit recorded), unlimited hinges wrapped into (−π, π]. Non-finite entries
    /// of `dq` are ignored, so no solver can put NaN into a pose. With a preference set
    /// ([`System::set_preference`]) the null-space step towards the bend hints is added, taken
    /// at the same pose and on the same Jacobian as `dq` (the one last evaluated, at `q`), as
    /// Liégeois's Δq = J⁺e + (I − J⁺J)z has it.
    pub fn apply_step(&mut self, q: &mut [f64], dq: &DVector<f64>) {
        match self.hint_step(q) {
            Some(mut step) => {
                for (s, d) in step.iter_mut().zip(dq.iter()) {
                    *s = if d.is_finite() { *s + d } else { *d };
                }
                self.add_to_pose(q, &step);
                self.return_hint_buffer(step);
            }
            None => self.add_to_pose(q, dq),
        }
    }

    /// The null-space step towards the bend hints alone, at `q`, on the Jacobian last evaluated
    /// (which must be at `q`): for methods that evaluate the pose they step to (NLP's line
    /// search) and then add the preference there.
    pub fn apply_preference(&mut self, q: &mut [f64]) {
        if let Some(step) = self.hint_step(q) {
            self.add_to_pose(q, &step);
            self.return_hint_buffer(step);
        }
    }

    /// Whether chain column `c` moves some goal (its DOF is on a goal's path to the root, or a
    /// goal reads the centre of mass).
    pub fn moves_goal(&mut self, c: usize) -> bool {
        self.preference_workspace().is_relevant(c)
    }

    /// Projects `z` (one entry per column) onto the null space of the Jacobian last evaluated,
    /// with the stiffness weights; false when the projection failed (`out` unspecified).
    pub fn null_space(&mut self, z: &DVector<f64>, out: &mut DVector<f64>) -> bool {
        self.preference_workspace();
        let Some(preference) = self.preference.as_mut() else {
            return false;
        };
        preference.null_space(&self.j, &self.stiffness, z, out)
    }

    /// The largest goal error at `q + dq` (limits enforced, no limit hit recorded), computed in
    /// `trial`; the system is left evaluated (errors only) at that pose.
    pub fn probe(&mut self, q: &[f64], dq: &DVector<f64>, trial: &mut [f64]) -> f64 {
        trial.copy_from_slice(q);
        self.step_pose(trial, dq, false);
        self.evaluate_errors(trial);
        self.max_error()
    }

    /// `q += dq` with the limits enforced ([`System::apply_step`] without the preference).
    pub fn add_to_pose(&mut self, q: &mut [f64], dq: &DVector<f64>) {
        self.step_pose(q, dq, true);
    }

    /// `q += dq` with the limits enforced, recording limit hits when `record`.
    fn step_pose(&mut self, q: &mut [f64], dq: &DVector<f64>, record: bool) {
        let dofs = self.skeleton.dofs();
        for (c, &state) in self.chain.columns().iter().enumerate() {
            let step = dq[c];
            if !step.is_finite() {
                continue;
            }
            let value = q[state] + step;
            q[state] = match state.checked_sub(ROOT_STATE_LEN) {
                None => value,
                Some(k) if dofs[k].unlimited => wrap_angle(value),
                Some(k) => {
                    let clamped = dofs[k].clamp(value);
                    if record && clamped != value {
                        self.limit_hits[c] = true;
                    }
                    clamped
                }
            };
        }
    }

    /// Sets to zero the entry of `weights` of every column whose DOF sits at a limit while `dq`
    /// pushes it further out, and returns how many such columns are newly blocked. Solvers then
    /// recompute the step without them: the joint stays at its limit and the others take up the
    /// work, instead of the whole step being spent against the limit.
    pub fn block_outward(&self, q: &[f64], dq: &DVector<f64>, weights: &mut [f64]) -> usize {
        let dofs = self.skeleton.dofs();
        let mut blocked = 0;
        for (c, &state) in self.chain.columns().iter().enumerate() {
            let Some(k) = state.checked_sub(ROOT_STATE_LEN) else {
                continue;
            };
            let dof = &dofs[k];
            if dof.unlimited || weights[c] == 0.0 {
                continue;
            }
            let v = q[state];
            if (v <= dof.min && dq[c] < 0.0) || (v >= dof.max && dq[c] > 0.0) {
                weights[c] = 0.0;
                blocked += 1;
            }
        }
        blocked
    }

    /// Sets one chain column's value with the same limit handling as [`System::apply_step`].
    pub fn set_column(&mut self, q: &mut [f64], column: usize, value: f64) {
        let state = self.chain.columns()[column];
        if !value.is_finite() {
            return;
        }
        q[state] = match state.checked_sub(ROOT_STATE_LEN) {
            None => value,
            Some(k) => {
                let dof = &self.skeleton.dofs()[k];
                if dof.unlimited {
                    wrap_angle(value)
                } else {
                    let clamped = dof.clamp(value);
                    if clamped != value {
                        self.limit_hits[column] = true;
                    }
                    clamped
                }
            }
        };
    }

    /// Clears the record of limit hits (the driver does this at the start of each solve).
    pub fn clear_limit_hits(&mut self) {
        self.limit_hits.fill(false);
    }

    /// The DOFs that hit a limit since the record was last cleared, in chain order.
    pub fn limit_hits(&self) -> Vec<DofId> {
        let mut hits = Vec::new();
        self.limit_hits_into(&mut hits);
        hits
    }

    /// [`System::limit_hits`] into `out` (cleared first; no allocation once it has grown).
    pub fn limit_hits_into(&self, out: &mut Vec<DofId>) {
        out.clear();
        out.extend(
            self.chain
                .columns()
                .iter()
                .zip(&self.limit_hits)
                .filter(|(_, hit)| **hit)
                .filter_map(|(&state, _)| self.skeleton.dof_at_state(state)),
        );
    }
}

pub use marionette_skeleton::angles::wrap_angle;
