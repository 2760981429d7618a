//! Skeletons shipped inside the program, so the editor and the command line work without files.

use crate::model::Skeleton;
use crate::pose::Pose;

/// The RON text of the built-in humanoid (`skeletons/humanoid.ron`).
pub const HUMANOID_RON: &str = include_str!("../../../skeletons/humanoid.ron");

/// The RON text of Welman's stick figure (`skeletons/stickman.ron`).
pub const STICKMAN_RON: &str = include_str!("../../../skeletons/stickman.ron");

/// Parses a built-in skeleton. The files are checked by this crate's tests, so a failure here is
/// a build defect, reported with the loader's message.
fn parse_builtin(text: &str, name: &str) -> Skeleton {
    match Skeleton::from_ron_str(text, name) {
        Ok(s) => s,
        Err(e) => panic!("built-in skeleton is invalid: {e}"),
    }
}

/// The built-in adult humanoid.
pub fn humanoid() -> Skeleton {
    parse_builtin(HUMANOID_RON, "<built-in humanoid.ron>")
}

/// Welman's stick figure.
pub fn stickman() -> Skeleton {
    parse_builtin(STICKMAN_RON, "<built-in stickman.ron>")
}

/// A standing start: the rest pose with both elbows bent 20° and both knees 10° (their first DOF,
/// clamped to its limits), so no limb starts straight, a singular configuration for the numeric
/// solvers. Joints the skeleton does not have are left alone.
pub fn standing(skeleton: &Skeleton) -> Pose {
    let mut pose = Pose::rest(skeleton);
    for (joint, degrees) in [
        ("right elbow", 20.0),
        ("left elbow", 20.0),
        ("right knee", 10.0),
        ("left knee", 10.0),
    ] {
        let Some(j) = skeleton.joint_by_name(joint) else {
            continue;
        };
        if let Some(dof) = skeleton.joint_dofs(j).next() {
            pose.q[dof.state_index()] = skeleton.dof(dof).clamp(f64::to_radians(degrees));
        }
    }
    pose
}

#[cfg(test)]
mod tests {
    #[test]
    fn built_in_skeletons_load() {
        assert!(super::humanoid().dof_count() >= 40);
        assert_eq!(super::stickman().name(), "stickman");
    }
}
