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

use marionette_skeleton::{ROOT_STATE_LEN, Skeleton};
use nalgebra::{DMatrix, DVector};

use crate::linalg::cholesky_solve_slices;
use crate::system::wrap_angle;

/// The largest change of one DOF the pull makes in one update (radians or metres). A null-space
/// step moves the goals only to second order, about (link length)·Δq²: 0.01 rad on a 0.6 m arm
/// is 0.03 mm, below the editor's 0.1 mm tolerance, so the pull never keeps a met goal from
/// counting as met, while ten updates a frame still bend a straight limb by up to 6° a frame.
pub const MAX_STEP: f64 = 0.01;

/// The secondary objective's settings and workspaces (sized once per system).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Preference {
    /// Gain k per update: the fraction of the way to the hints one update asks for (0 = off).
    pub weight: f64,
    /// Per chain column: whether its DOF moves some goal (a joint on a goal's path to the root,
    /// or any DOF for a centre-of-mass goal). Other columns are left alone: a posed arm is not
    /// pulled back to its hints while the other hand is dragged.
    relevant: Vec<bool>,
    weights: Vec<f64>,
    z: DVector<f64>,
    jz: Vec<f64>,
    a: Vec<f64>,
}

impl Preference {
    /// Workspaces for m rows and the columns of `relevant`, off until a weight is set.
    pub fn new(rows: usize, relevant: Vec<bool>) -> Preference {
        let n = relevant.len();
        Preference {
            weight: 0.0,
            relevant,
            weights: vec![0.0; n],
            z: DVector::zeros(n),
            jz: vec![0.0; rows],
            a: vec![0.0; rows * rows],
        }
    }

    /// Whether the columns of `columns` move a goal reading `goal_joints` (`None`: the whole body).
    pub fn relevant_columns(
        skeleton: &Skeleton,
        columns: &[usize],
        goal_joints: &[Option<Vec<marionette_skeleton::JointId>>],
    ) -> Vec<bool> {
        columns
            .iter()
            .map(|&state| {
                let Some(dof) = skeleton.dof_at_state(state) else {
                    return false;
                };
                let owner = skeleton.dof(dof).joint;
                goal_joints.iter().any(|joints| match joints {
                    None => true,
                    Some(joints) => joints
                        .iter()
                        .any(|&j| skeleton.is_ancestor_or_self(owner, j)),
                })
            })
            .collect()
    }

    /// Writes into `out` the null-space step towards the hints at pose `q`, for the Jacobian `j`
    /// (m×n, weighted rows) and per-column stiffness; false when it is zero (off, or every DOF at
    /// its hint).
    pub fn step(
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
        for (c, &state) in columns.iter().enumerate() {
            self.z[c] = match state.checked_sub(ROOT_STATE_LEN) {
                Some(k) if self.relevant[c] => {
                    let dof = &dofs[k];
                    let towards = dof.preferred - q[state];
                    let towards = if dof.unlimited {
                        wrap_angle(towards)
                    } else {
                        towards
                    };
                    self.weight * towards
                }
                _ => 0.0,
            };
            any |= self.z[c] != 0.0;
        }
        if !any {
            return false;
        }
        self.weights.copy_from_slice(stiffness);
        // A joint the projection pushes out through its limit drops out (at most 3 passes).
        for _pass in 0..3 {
            if !self.project(j, out) {
                out.fill(0.0);
                return false;
            }
            let mut blocked = 0;
            for (c, &state) in columns.iter().enumerate() {
                let Some(k) = state.checked_sub(ROOT_STATE_LEN) else {
                    continue;
                };
                let dof = &dofs[k];
                if dof.unlimited || self.weights[c] == 0.0 {
                    continue;
                }
                let v = q[state];
                if (v <= dof.min && out[c] < 0.0) || (v >= dof.max && out[c] > 0.0) {
                    self.weights[c] = 0.0;
                    blocked += 1;
                }
            }
            if blocked == 0 {
                break;
            }
        }
        crate::solvers::common::clamp_largest(out, MAX_STEP);
        true
    }

    /// Projects `z` onto the goals' null space with the stiffness weights W:
    /// out = W z − W Jᵀ (J W Jᵀ + εI)⁻¹ J W z (the stall escape's probes).
    pub fn null_space(
        &mut self,
        j: &DMatrix<f64>,
        stiffness: &[f64],
        z: &DVector<f64>,
        out: &mut DVector<f64>,
    ) -> bool {
        self.weights.copy_from_slice(stiffness);
        self.z.copy_from(z);
        self.project(j, out)
    }

    /// Whether chain column `c` moves some goal.
    pub fn is_relevant(&self, c: usize) -> bool {
        self.relevant[c]
    }

    /// out = W z − W Jᵀ (J W Jᵀ + εI)⁻¹ J W z with the current weights.
    fn project(&mut self, j: &DMatrix<f64>, out: &mut DVector<f64>) -> bool {
        let (m, n) = j.shape();
        for c in 0..n {
            out[c] = self.weights[c] * self.z[c];
        }
        // J W z, and the upper triangle of J W Jᵀ from J's contiguous columns.
        self.jz.fill(0.0);
        self.a.fill(0.0);
        let mut largest: f64 = 0.0;
        for (c, col) in j.as_slice().chunks_exact(m).take(n).enumerate() {
            let w = self.weights[c];
            if w == 0.0 {
                continue;
            }
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
        for r in 0..m {
            largest = largest.max(self.a[r * m + r]);
        }
        // ε: far below any singular value a goal direction has, far above rounding.
        let epsilon = 1e-10 * largest.max(1e-12);
        for r in 0..m {
            self.a[r * m + r] += epsilon;
        }
        if !cholesky_solve_slices(&mut self.a, m, &mut self.jz) {
            return false;
        }
        for (c, col) in j.as_slice().chunks_exact(m).take(n).enumerate() {
            let w = self.weights[c];
            if w == 0.0 {
                out[c] = 0.0;
                continue;
            }
            let along: f64 = col.iter().zip(&self.jz).map(|(a, b)| a * b).sum();
            out[c] -= w * along;
        }
        out.iter().all(|v| v.is_finite())
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
        let relevant =
            Preference::relevant_columns(&s, chain.columns(), &[Some(vec![s.site(hand).joint])]);
        assert!(relevant.iter().all(|&r| r));
        let mut pref = Preference::new(3, relevant);
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
