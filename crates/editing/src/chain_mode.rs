//! Which joints a drag moves (issue 5's chain modes, after Welman's editor, ch. 6): the picked
//! part alone, up to the nearest branch (the default), up to a named joint or group, or the whole
//! body.

use marionette_skeleton::{Chain, ChainError, GroupId, JointId, Skeleton};

/// How far up the hierarchy a drag reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChainMode {
    /// Only the picked part's own joint rotates.
    SelectedPart,
    /// From the picked joint up to, not including, the nearest joint with several children (the
    /// spine for an arm, the pelvis for a leg), or to the root.
    #[default]
    NearestBranch,
    /// From the picked joint up to this joint, included.
    UpToJoint(JointId),
    /// From the picked joint up to the top joint of this group, included.
    UpToGroup(GroupId),
    /// Every DOF and the root translation.
    WholeBody,
}

/// The chain a drag on `picked` moves in `mode`.
pub fn chain_for(
    skeleton: &Skeleton,
    picked: JointId,
    mode: ChainMode,
) -> Result<Chain, ChainError> {
    match mode {
        ChainMode::SelectedPart => Ok(Chain::from_joints(skeleton, [picked])),
        ChainMode::NearestBranch => Ok(Chain::limb(skeleton, picked)),
        ChainMode::UpToJoint(base) => Chain::between(skeleton, base, picked),
        ChainMode::UpToGroup(group) => {
            let top = skeleton
                .group(group)
                .joints
                .first()
                .copied()
                .unwrap_or(picked);
            Chain::between(skeleton, top, picked)
        }
        ChainMode::WholeBody => Ok(Chain::whole(skeleton, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    fn names(s: &Skeleton, chain: &Chain) -> Vec<String> {
        chain
            .joints(s)
            .into_iter()
            .map(|j| s.joint(j).name.clone())
            .collect()
    }

    #[test]
    fn each_mode_reaches_as_far_as_it_says() {
        let s = builtin::humanoid();
        let forearm = s.joint_by_name("right elbow").expect("elbow");
        let part = chain_for(&s, forearm, ChainMode::SelectedPart).expect("chain");
        assert_eq!(names(&s, &part), ["right elbow"]);
        let branch = chain_for(&s, forearm, ChainMode::NearestBranch).expect("chain");
        assert_eq!(
            names(&s, &branch),
            ["right clavicle", "right shoulder", "right elbow"]
        );
        let spine = s.joint_by_name("lower spine").expect("spine");
        let up = chain_for(&s, forearm, ChainMode::UpToJoint(spine)).expect("chain");
        assert_eq!(names(&s, &up)[0], "lower spine");
        let arm_group = s.group_by_name("Right arm").expect("group");
        let group = chain_for(&s, forearm, ChainMode::UpToGroup(arm_group)).expect("chain");
        assert_eq!(names(&s, &group), names(&s, &branch));
        let whole = chain_for(&s, forearm, ChainMode::WholeBody).expect("chain");
        assert_eq!(whole.len(), s.state_len());
        let shin = s.joint_by_name("left knee").expect("knee");
        let leg = chain_for(&s, shin, ChainMode::NearestBranch).expect("chain");
        assert_eq!(names(&s, &leg), ["left hip", "left knee"]);
    }

    #[test]
    fn a_base_off_the_path_is_an_error() {
        let s = builtin::humanoid();
        let forearm = s.joint_by_name("right elbow").expect("elbow");
        let other = s.joint_by_name("left hip").expect("hip");
        assert!(chain_for(&s, forearm, ChainMode::UpToJoint(other)).is_err());
    }
}
