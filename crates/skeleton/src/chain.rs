//! Which entries of the state vector a solve may move: a chain from a base joint to an effector,
//! the whole body, unions of chains, frozen joints taken out.
//!
//! A chain is just the sorted list of state indices it moves, so Jacobian columns follow it
//! directly and chains of several effectors combine by union.

use thiserror::Error;

use crate::model::{JointId, ROOT_STATE_LEN, Skeleton};

/// A chain that cannot be formed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ChainError {
    /// The base joint is not on the path from the effector's joint to the root.
    #[error("joint \"{base}\" is not an ancestor of \"{tip}\", so no chain runs between them")]
    NotAnAncestor {
        /// The base joint.
        base: String,
        /// The effector's joint.
        tip: String,
    },
}

/// The state indices (root translation 0..3, DOF k at 3 + k) that a solve may move, ascending.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chain {
    columns: Vec<usize>,
}

impl Chain {
    /// Every DOF of the skeleton, with the root translation when `move_root`.
    pub fn whole(skeleton: &Skeleton, move_root: bool) -> Chain {
        let start = if move_root { 0 } else { ROOT_STATE_LEN };
        Chain {
            columns: (start..skeleton.state_len()).collect(),
        }
    }

    /// The DOFs of every joint from `base` down to `tip`, both included.
    pub fn between(skeleton: &Skeleton, base: JointId, tip: JointId) -> Result<Chain, ChainError> {
        if !skeleton.is_ancestor_or_self(base, tip) {
            return Err(ChainError::NotAnAncestor {
                base: skeleton.joint(base).name.clone(),
                tip: skeleton.joint(tip).name.clone(),
            });
        }
        let joints = skeleton
            .path_to_root(tip)
            .take_while(|&j| j != base)
            .chain(std::iter::once(base));
        Ok(Chain::from_joints(skeleton, joints))
    }

    /// The limb of `joint`: its DOFs and its ancestors' up to, not including, the nearest
    /// ancestor with more than one child joint (the spine for an arm, the pelvis for a leg), or
    /// up to the root. What a drag moves by default and what keeps a lock (docs/file-formats.md,
    /// Document: "the lock's limb").
    pub fn limb(skeleton: &Skeleton, joint: JointId) -> Chain {
        let mut base = joint;
        while let Some(parent) = skeleton.joint(base).parent {
            if skeleton.joint(parent).children.len() > 1 {
                break;
            }
            base = parent;
        }
        let joints = skeleton
            .path_to_root(joint)
            .take_while(|&j| j != base)
            .chain(std::iter::once(base));
        Chain::from_joints(skeleton, joints)
    }

    /// Only the root translation.
    pub fn root_translation() -> Chain {
        Chain {
            columns: (0..ROOT_STATE_LEN).collect(),
        }
    }

    /// The DOFs of the given joints (any order, repeats ignored).
    pub fn from_joints(skeleton: &Skeleton, joints: impl IntoIterator<Item = JointId>) -> Chain {
        let mut columns: Vec<usize> = joints
            .into_iter()
            .flat_map(|j| skeleton.joint_dofs(j).map(|d| d.state_index()))
            .collect();
        columns.sort_unstable();
        columns.dedup();
        Chain { columns }
    }

    /// The given state indices (any order, repeats ignored).
    pub fn from_columns(columns: impl IntoIterator<Item = usize>) -> Chain {
        let mut columns: Vec<usize> = columns.into_iter().collect();
        columns.sort_unstable();
        columns.dedup();
        Chain { columns }
    }

    /// The state indices of both chains.
    pub fn union(&self, other: &Chain) -> Chain {
        let mut columns = Vec::with_capacity(self.columns.len() + other.columns.len());
        columns.extend_from_slice(&self.columns);
        columns.extend_from_slice(&other.columns);
        columns.sort_unstable();
        columns.dedup();
        Chain { columns }
    }

    /// This chain with the root translation added.
    pub fn with_root(&self) -> Chain {
        self.union(&Chain {
            columns: (0..ROOT_STATE_LEN).collect(),
        })
    }

    /// This chain without the given state columns (a DOF held where it is).
    pub fn without_columns(&self, fixed: &[usize]) -> Chain {
        Chain {
            columns: self
                .columns
                .iter()
                .copied()
                .filter(|c| !fixed.contains(c))
                .collect(),
        }
    }

    /// This chain without the DOFs of the given joints.
    pub fn without_joints(&self, skeleton: &Skeleton, frozen: &[JointId]) -> Chain {
        let drop = Chain::from_joints(skeleton, frozen.iter().copied());
        Chain {
            columns: self
                .columns
                .iter()
                .copied()
                .filter(|c| drop.columns.binary_search(c).is_err())
                .collect(),
        }
    }

    /// The joints whose DOFs the chain moves, in hierarchy order, each once (the root
    /// translation belongs to no joint).
    pub fn joints(&self, skeleton: &Skeleton) -> Vec<JointId> {
        let mut joints: Vec<JointId> = self
            .columns
            .iter()
            .filter_map(|&c| skeleton.dof_at_state(c))
            .map(|d| skeleton.dof(d).joint)
            .collect();
        joints.dedup();
        joints
    }

    /// The state indices, ascending: the Jacobian's columns.
    pub fn columns(&self) -> &[usize] {
        &self.columns
    }

    /// Number of state entries the chain moves.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// True when the chain moves nothing.
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }

    /// True when the chain moves state entry `index`.
    pub fn contains(&self, index: usize) -> bool {
        self.columns.binary_search(&index).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn a_chain_runs_from_base_to_tip_and_not_beyond() {
        let s = builtin::stickman();
        let torso = s.joint_by_name("torso").expect("torso");
        let hand = s.joint_by_name("right hand").expect("hand");
        let chain = Chain::between(&s, torso, hand).expect("chain");
        let joints: Vec<&str> = chain
            .columns()
            .iter()
            .map(|&c| s.joint(s.dofs()[c - ROOT_STATE_LEN].joint).name.as_str())
            .collect();
        assert_eq!(
            joints,
            [
                "torso",
                "torso",
                "torso",
                "right arm",
                "right arm",
                "right hand"
            ]
        );
    }

    #[test]
    fn a_base_off_the_path_is_an_error_naming_both_joints() {
        let s = builtin::stickman();
        let left = s.joint_by_name("left arm").expect("left arm");
        let hand = s.joint_by_name("right hand").expect("hand");
        let err = Chain::between(&s, left, hand).expect_err("not an ancestor");
        assert!(err.to_string().contains("\"left arm\""));
        assert!(err.to_string().contains("\"right hand\""));
    }

    #[test]
    fn frozen_joints_leave_the_chain_and_unions_are_sorted() {
        let s = builtin::stickman();
        let pelvis = s.root();
        let rh = s.joint_by_name("right hand").expect("rh");
        let lh = s.joint_by_name("left hand").expect("lh");
        let torso = s.joint_by_name("torso").expect("torso");
        let both = Chain::between(&s, pelvis, rh)
            .expect("r")
            .union(&Chain::between(&s, pelvis, lh).expect("l"));
        assert!(both.columns().windows(2).all(|w| w[0] < w[1]));
        let frozen = both.without_joints(&s, &[torso]);
        assert_eq!(frozen.len(), both.len() - 3);
        assert!(!frozen.contains(s.joint_dofs(torso).next().expect("dof").state_index()));
        assert_eq!(frozen.with_root().len(), frozen.len() + 3);
    }
}
