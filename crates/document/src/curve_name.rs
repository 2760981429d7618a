//! A curve's name, as the curve editor's legend shows it and as files and replay scripts write
//! it: "left elbow 1" is the first DOF of the joint "left elbow" (DOFs counted from 1, in the
//! order of the joint's `dofs` list), "root x", "root y", "root z" the root translation's
//! coordinates. A joint's DOFs are numbers and the root's coordinates letters, so a joint named
//! "root" reads the same way ("root 1").

use marionette_skeleton::{ROOT_STATE_LEN, Skeleton};

/// The root translation's coordinates, in state order.
const AXES: [&str; ROOT_STATE_LEN] = ["x", "y", "z"];

/// The name of state index `state` of `skeleton`.
pub fn curve_name(skeleton: &Skeleton, state: usize) -> String {
    match skeleton.dof_at_state(state) {
        Some(d) => format!(
            "{} {}",
            skeleton.joint(skeleton.dof(d).joint).name,
            skeleton.dof(d).index_in_joint + 1
        ),
        None if state < ROOT_STATE_LEN => format!("root {}", AXES[state]),
        None => format!("state {state}"),
    }
}

/// The state index of the curve named `name` in `skeleton`, or what is wrong with the name.
pub fn curve_state(skeleton: &Skeleton, name: &str) -> Result<usize, String> {
    if let Some(axis) = name.strip_prefix("root ")
        && let Some(i) = AXES.iter().position(|a| *a == axis)
    {
        return Ok(i);
    }
    let form = "a curve is \"JOINT N\", the joint's Nth DOF counted from 1, or \"root x\", \"root y\", \"root z\"";
    let Some((joint, place)) = name.rsplit_once(' ') else {
        return Err(format!("\"{name}\" names no curve ({form})"));
    };
    let Ok(place) = place.parse::<usize>() else {
        return Err(format!("\"{name}\" names no curve ({form})"));
    };
    let j = skeleton.joint_by_name(joint).ok_or_else(|| {
        format!(
            "\"{name}\": skeleton \"{}\" has no joint \"{joint}\"",
            skeleton.name()
        )
    })?;
    let count = skeleton.joint_dofs(j).len();
    place
        .checked_sub(1)
        .and_then(|i| skeleton.joint_dofs(j).nth(i))
        .map(|d| d.state_index())
        .ok_or_else(|| format!("\"{joint}\" has no DOF {place} (it has {count}, counted from 1)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    #[test]
    fn names_read_back_as_their_curves() {
        let s = builtin::humanoid();
        for state in 0..s.state_len() {
            assert_eq!(curve_state(&s, &curve_name(&s, state)), Ok(state));
        }
        assert_eq!(curve_name(&s, 1), "root y");
        assert!(
            curve_state(&s, "left shoulder 4").is_err_and(|e| e.contains("has no DOF 4 (it has 3"))
        );
        assert!(curve_state(&s, "left shoulder 0").is_err());
        assert!(curve_state(&s, "left shoulder").is_err_and(|e| e.contains("names no curve")));
        assert!(curve_state(&s, "left shoulderblade 1").is_err_and(|e| e.contains("no joint")));
        assert!(curve_state(&s, "root w").is_err());
    }
}
