//! Bend hints as a secondary objective that never fights the goals (issue 15).
//!
//! Each DOF that moves a goal is pulled towards its bend hint ([`marionette_skeleton::Dof::preferred`])
//! inside the null space of the goals' Jacobian, Liégeois's gradient projection (Buss 2009, §4;
//! Welman 1993, ch. 3): Δq_h = (I − W Jᵀ (J W Jᵀ)⁻¹ J) W z with z = k (q_preferred − q), so to
//! first order no goal moves. This is what lets a straight limb bend: at a straight elbow every
//! DOF that would bring the hand nearer a target inside its reach moves it, to first order, only
//! along a direction the goal does not care about (the view ray of a drag), so the goals' own
//! step is zero there; the hint bends the elbow while the shoulder compensates, and from the bent
//! pose the goals' step has a gain again.
//!
//! The projection is computed on the Jacobian the solver's step used, with a tiny regularisation
//! (J W Jᵀ + εI), so directions the goals cannot see at all pass unchanged and directions they
//! see are removed. Joints held at a limit by the projected step are left out of it and it is
//! recomputed, so clamping never turns a null-space motion into a goal motion.

use marionette_skeleton::{JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{DMatrix, DVector};

use crate::linalg::cholesky_solve_slices;
use marionette_skeleton::angles::wrap_angle;

/// The largest change of one DOF the pull makes in one update (radians or metres). A null-space
/// step moves the goals only to second order, about (link length)·Δq²: 0.01 rad on a 0.6 m arm
/// is 0.03 mm, below the editor's 0.1 mm tolerance, so the pull never keeps a met goal from
/// counting as met, while ten updates a frame still bend a straight limb by up to 6° a frame.
pub const MAX_STEP: f64 = 0.01;

/// The secondary objective's settings and workspaces. A caller that builds a new [`System`]
/// for every frame (the editor) keeps one and lends it to each ([`System::set_preference_with`],
/// [`System::take_preference`]), so a frame allocates nothing for it.
///
/// [`System`]: crate::System
/// [`System::set_preference_with`]: crate::System::set_preference_with
/// [`System::take_preference`]: crate::System::take_preference
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preference {
    /// Gain k per update: the fraction of the way to the hints one update asks for (0 = off).
    pub(crate) weight: f64,
    /// Per chain column: whether its DOF moves some goal (a joint on a goal's path to the root,
    /// or any DOF for a centre-of-mass goal). Other columns are left alone: a posed arm is not
    /// pulled back to its hints while the other hand is dragged.
    relevant: Vec<bool>,
    /// The indices of the relevant columns: the only ones the projection works on (the others
    /// have no Jacobian entries and no pull).
    active: Vec<usize>,
    /// The chain and goal joints the mask was made for.
    columns: Vec<usize>,
    goal_joints: Vec<JointId>,
    weights: Vec<f64>,
    z: DVector<f64>,
    jz: Vec<f64>,
    a: Vec<f64>,
    /// The step itself, for [`crate::System::apply_step`].
    pub(crate) step: DVector<f64>,
}

impl Preference {
    /// Sizes the workspaces for `goals` (m rows in all) on the chain `columns`, reusing their
    /// storage, and marks the columns that move a goal.
    pub(crate) fn reset(
        &mut self,
        skeleton: &Skeleton,
        columns: &[usize],
        goals: &[crate::Goal],
        rows: usize,
    ) {
        let n = columns.len();
        let before = self.goal_joints.len();
        let mut whole_body = false;
        for g in goals {
            match g.kind.reads_joints(skeleton) {
                Some(joints) => self.goal_joints.extend(joints.into_iter().flatten()),
                None => whole_body = true,
            }
        }
        // The same chain, goal joints and rows as last time (a drag, frame after frame): the
        // mask and the sizes stand.
        let (old, new) = self.goal_joints.split_at(before);
        if !whole_body
            && old == new
            && self.columns == columns
            && self.jz.len() == rows
            && self.z.len() == n
        {
            self.goal_joints.truncate(before);
            self.weights.fill(0.0);
            return;
        }
        self.goal_joints.drain(..before);
        self.columns.clear();
        self.columns.extend_from_slice(columns);
        self.relevant.clear();
        for &state in columns {
            let moves = skeleton.dof_at_state(state).is_some_and(|dof| {
                let owner = skeleton.dof(dof).joint;
                whole_body
                    || self
                        .goal_joints
                        .iter()
                        .any(|&j| skeleton.is_ancestor_or_self(owner, j))
            });
            self.relevant.push(moves);
        }
        self.active.clear();
        self.active.extend((0..n).filter(|&c| self.relevant[c]));
        self.weights.clear();
        self.weights.resize(n, 0.0);
        if self.z.len() != n || self.step.len() != n {
            self.z = DVector::zeros(n);
            self.step = DVector::zeros(n);
        }
        self.jz.resize(rows, 0.0);
        self.a.resize(rows * rows, 0.0);
    }

    /// Writes into `out` the null-space step towards the hints at pose `q`, for the Jacobian `j`
    /// (m×n, weighted rows) and per-column stiffness; false when it is zero (off, or every DOF at
    /// its hint).
    pub(crate) fn step(
        &mut self,
        skeleton: &Skeleton,
        columns: &[usize],
        j: &DMatrix<f64>,
        stiffness: &[f64],
        q: &[f64],
        out: &mut DVector<f64>,
    ) -> bool {
        if self.weight <= 0.0 {
            return false;
        }
        let dofs = skeleton.dofs();
        let mut any = false;
        for &c in &self.active {
            let state = columns[c];
            self.z[c] = state.checked_sub(ROOT_STATE_LEN).map_or(0.0, |k| {
                let dof = &dofs[k];
                let towards = dof.preferred - q[state];
                let towards = if dof.unlimited {
                    wrap_angle(towards)
                } else {
                    towards
                };
                self.weight * towards
            });
            any |= self.z[c] != 0.0;
            self.weights[c] = stiffness[c];
        }
        if !any {
            return false;
        }
        out.fill(0.0);
        // A joint the projection pushes out through its limit drops out (at most 3 passes).
        for _pass in 0..3 {
            for &c in &self.active {
                out[c] = 0.0;
            }
            if !self.project(j, out) {
                out.fill(0.0);
                return false;
            }
            let mut blocked = 0;
            for &c in &self.active {
                if self.weights[c] == 0.0 {
                    continue;
                }
                let Some(k) = columns[c].checked_sub(ROOT_STATE_LEN) else {
                    continue;
                };
                let dof = &dofs[k];
                if dof.unlimited {
                    continue;
                }
                let v = q[columns[c]];
                if (v <= dof.min && out[c] < 0.0) || (v >= dof.max && out[c] > 0.0) {
                    self.weights[c] = 0.0;
                    blocked += 1;
                }
            }
            if blocked == 0 {
                break;
            }
        }
        crate::linalg::clamp_largest(out, MAX_STEP);
        true
    }

    /// Projects `z` onto the goals' null space with the stiffness weights W:
    /// out = W z − W Jᵀ (J W Jᵀ + εI)⁻¹ J W z (the stall escape's probes).
    pub(crate) fn null_space(
        &mut self,
        j: &DMatrix<f64>,
        stiffness: &[f64],
        z: &DVector<f64>,
        out: &mut DVector<f64>,
    ) -> bool {
        for &c in &self.active {
            self.weights[c] = stiffness[c];
        }
        self.z.copy_from(z);
        out.fill(0.0);
        self.project(j, out)
    }

    /// Whether chain column `c` moves some goal.
    pub(crate) fn is_relevant(&self, c: usize) -> bool {
        self.relevant[c]
    }

    /// out = W z − W Jᵀ (J W Jᵀ + εI)⁻¹ J W z with the current weights.
    fn project(&mut self, j: &DMatrix<f64>, out: &mut DVector<f64>) -> bool {
        let m = j.nrows();
        let storage = j.as_slice();
        // Columns outside `active` are zero from `step` (set once per call) and stay so.
        // J W z, and the upper triangle of J W Jᵀ from J's contiguous columns.
        self.jz.fill(0.0);
        self.a.fill(0.0);
        for &c in &self.active {
            let w = self.weights[c];
            if w == 0.0 {
                continue;
            }
            out[c] = w * self.z[c];
            let col = &storage[c * m..(c + 1) * m];
            for (jz, &x) in self.jz.iter_mut().zip(col) {
                *jz += x * out[c];
            }
            for (s, a_col) in self.a.chunks_exact_mut(m).enumerate() {
                let x = w * col[s];
                for (a_rs, c_r) in a_col[..=s].iter_mut().zip(&col[..=s]) {
                    *a_rs += x * c_r;
                }
            }
        }
        let largest = (0..m).map(|r| self.a[r * m + r]).fold(0.0, f64::max);
        // ε: far below any singular value a goal direction has, far above rounding.
        let epsilon = 1e-10 * largest.max(1e-12);
        for r in 0..m {
            self.a[r * m + r] += epsilon;
        }
        if !cholesky_solve_slices(&mut self.a, m, &mut self.jz) {
            return false;
        }
        for &c in &self.active {
            let w = self.weights[c];
            if w == 0.0 {
                continue;
            }
            let col = &storage[c * m..(c + 1) * m];
            let along: f64 = col.iter().zip(&self.jz).map(|(a, b)| a * b).sum();
            out[c] -= w * along;
        }
        self.active.iter().all(|&c| out[c].is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Chain, Fk, Pose, builtin};

    /// The right arm of the humanoid with the hand's position rows of its Jacobian.
    #[test]
    fn the_step_leaves_the_goals_unmoved_to_first_order() {
        let s = builtin::humanoid();
        let hand = s.site_by_name("right fingertips").expect("hand");
        let clavicle = s.joint_by_name("right clavicle").expect("clavicle");
        let chain = Chain::between(&s, clavicle, s.site(hand).joint).expect("chain");
        let q = Pose::rest(&s).q;
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let n = chain.len();
        let mut j = DMatrix::zeros(3, n);
        fk.site_jacobian(&s, hand, chain.columns(), &mut j, 0);
        let goals = [crate::Goal::new(crate::GoalKind::Position {
            site: hand,
            target: fk.site_position(hand),
        })];
        let mut pref = Preference::default();
        pref.reset(&s, chain.columns(), &goals, 3);
        assert!(pref.relevant.iter().all(|&r| r));
        pref.weight = 0.5;
        let mut out = DVector::zeros(n);
        assert!(pref.step(&s, chain.columns(), &j, &vec![1.0; n], &q, &mut out));
        assert!(out.amax() > 1e-3, "the elbow bends towards its hint: {out}");
        let moved = &j * &out;
        assert!(moved.amax() < 1e-9 * out.amax(), "{moved}");
        // Off: nothing.
        pref.weight = 0.0;
        assert!(!pref.step(&s, chain.columns(), &j, &vec![1.0; n], &q, &mut out));
    }
}
