//! A joint's rotation made by its hinges, R(q) = Π rot(axisᵢ, qᵢ) in DOF order (after the fixed
//! `orientation`, which does not change and is left out), and the read-back of hinge values from
//! a rotation, as docs/file-formats.md (Document, "Interpolation between two keys") defines it:
//!
//! - a single hinge: the angle about its axis, the 2π-equivalent nearest the reference value;
//! - three hinges with consecutive axes perpendicular (X-Y-Z, Z-Y-Z, every shoulder, hip, wrist
//!   and pelvis of our skeletons): the rotation exactly ([`AxisTriple::decompose`], Tolani,
//!   Goswami & Badler 2000, §3.2.3), the family and the 2π-equivalents nearest the reference so
//!   that a sequence of rotations reads back without branch flips;
//! - any other layout (two hinges, skewed axes): the nearest rotation the hinges can make, by a
//!   few Gauss–Newton steps on the rotation error from the reference, within the limits.
//!
//! Every value is then within its limits. Slides do not rotate: they are left as they are.

use nalgebra::{Matrix3, Rotation3, Unit, UnitQuaternion};

use crate::angles::wrap_angle;
use crate::euler::AxisTriple;
use crate::model::{DofKind, JointId, ROOT_STATE_LEN, Skeleton};

/// How a joint's hinges are read back from a rotation.
#[derive(Debug, Clone, PartialEq)]
pub enum HingeLayout {
    /// No hinge (no DOF, or slides only).
    None,
    /// One hinge, at this state index.
    Single(usize),
    /// Three hinges with consecutive axes perpendicular, at these state indices.
    Triple {
        /// The axes.
        axes: AxisTriple,
        /// State indices, in DOF order.
        states: [usize; 3],
    },
    /// Any other layout: these state indices, in DOF order.
    General(Vec<usize>),
}

/// Every joint's [`HingeLayout`], made once per skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct JointRotations {
    layouts: Vec<HingeLayout>,
}

impl JointRotations {
    /// The layouts of `skeleton`'s joints.
    pub fn new(skeleton: &Skeleton) -> JointRotations {
        let layouts = skeleton
            .joint_ids()
            .map(|j| {
                let hinges: Vec<usize> = skeleton
                    .joint_dofs(j)
                    .filter(|&d| skeleton.dof(d).kind == DofKind::Hinge)
                    .map(|d| d.state_index())
                    .collect();
                let axis = |s: usize| skeleton.dofs()[s - ROOT_STATE_LEN].axis;
                match hinges.as_slice() {
                    [] => HingeLayout::None,
                    [one] => HingeLayout::Single(*one),
                    [a, b, c] => match AxisTriple::new([axis(*a), axis(*b), axis(*c)]) {
                        Ok(axes) => HingeLayout::Triple {
                            axes,
                            states: [*a, *b, *c],
                        },
                        Err(_) => HingeLayout::General(hinges),
                    },
                    _ => HingeLayout::General(hinges),
                }
            })
            .collect();
        JointRotations { layouts }
    }

    /// The layout of `joint`.
    pub fn layout(&self, joint: JointId) -> &HingeLayout {
        &self.layouts[joint.index()]
    }

    /// R(q) of `joint`'s hinges, read from the state vector `q`.
    pub fn rotation(&self, skeleton: &Skeleton, joint: JointId, q: &[f64]) -> UnitQuaternion<f64> {
        hinge_product(skeleton, self.hinges(joint), q)
    }

    /// The state indices of `joint`'s hinges, in DOF order.
    pub fn hinges(&self, joint: JointId) -> &[usize] {
        match &self.layouts[joint.index()] {
            HingeLayout::None => &[],
            HingeLayout::Single(s) => std::slice::from_ref(s),
            HingeLayout::Triple { states, .. } => states,
            HingeLayout::General(states) => states,
        }
    }

    /// Writes into `q` the hinge values of `joint` that make `target` (or the nearest rotation
    /// they can make), each within its limits. The values in `q` on entry are the reference:
    /// of the solutions, the one nearest it is taken.
    pub fn read_back(
        &self,
        skeleton: &Skeleton,
        joint: JointId,
        target: &UnitQuaternion<f64>,
        q: &mut [f64],
    ) {
        match &self.layouts[joint.index()] {
            HingeLayout::None => {}
            HingeLayout::Single(s) => {
                let axis = skeleton.dofs()[s - ROOT_STATE_LEN].axis;
                let v = target.as_ref().imag();
                let angle = 2.0 * v.dot(&axis).atan2(target.as_ref().w);
                q[*s] = nearest_within(skeleton, *s, angle, q[*s]);
            }
            HingeLayout::Triple { axes, states } => {
                let r = target.to_rotation_matrix().into_inner();
                let reference = states.map(|s| q[s]);
                let best = (0..2)
                    .map(|family| {
                        let angles = axes.decompose(&r, family);
                        let values: [f64; 3] = std::array::from_fn(|k| {
                            nearest_within(skeleton, states[k], angles[k], reference[k])
                        });
                        (
                            excess(&r, axes, &values, &angles),
                            distance(&values, &reference),
                            values,
                        )
                    })
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)))
                    .expect("two families");
                for (s, v) in states.iter().zip(best.2) {
                    q[*s] = v;
                }
            }
            HingeLayout::General(states) => nearest_rotation(skeleton, states, target, q),
        }
    }
}

/// Π rot(axisᵢ, qᵢ) over the hinges at `states`, in order.
fn hinge_product(skeleton: &Skeleton, states: &[usize], q: &[f64]) -> UnitQuaternion<f64> {
    states.iter().fold(UnitQuaternion::identity(), |r, &s| {
        let axis = Unit::new_unchecked(skeleton.dofs()[s - ROOT_STATE_LEN].axis);
        r * UnitQuaternion::from_axis_angle(&axis, q[s])
    })
}

/// Whether clamping changed the rotation: 0 when `values` are the decomposition's `angles` up to
/// whole turns, else how far the clamped rotation is from `r` (so a family within the limits is
/// preferred to one that had to be clamped).
fn excess(r: &Matrix3<f64>, axes: &AxisTriple, values: &[f64; 3], angles: &[f64; 3]) -> f64 {
    if values
        .iter()
        .zip(angles)
        .all(|(v, a)| wrap_angle(v - a).abs() < 1e-12)
    {
        0.0
    } else {
        (axes.compose(*values) - r).norm()
    }
}

fn distance(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum()
}

/// Of `angle` and its 2π-equivalents, the one within the limits of the DOF at state `s` nearest
/// `reference`; when none is within them, the nearest to `reference`, clamped.
fn nearest_within(skeleton: &Skeleton, s: usize, angle: f64, reference: f64) -> f64 {
    use std::f64::consts::TAU;
    let dof = &skeleton.dofs()[s - ROOT_STATE_LEN];
    let near = reference + wrap_angle(angle - reference);
    if dof.unlimited {
        return near;
    }
    let candidates = [near - TAU, near, near + TAU];
    candidates
        .iter()
        .copied()
        .filter(|&a| dof.within_limits(a))
        .min_by(|a, b| (a - reference).abs().total_cmp(&(b - reference).abs()))
        .unwrap_or_else(|| {
            // Outside: the limit nearest on the circle.
            let gap = |limit: f64| wrap_angle(limit - angle).abs();
            if gap(dof.min) <= gap(dof.max) {
                dof.min
            } else {
                dof.max
            }
        })
}

/// The hinge values at `states` whose rotation is nearest `target`: Gauss–Newton on the rotation
/// vector of target·R(q)⁻¹ from the values in `q`, each step clamped into the limits.
fn nearest_rotation(
    skeleton: &Skeleton,
    states: &[usize],
    target: &UnitQuaternion<f64>,
    q: &mut [f64],
) {
    const STEPS: usize = 12;
    let n = states.len();
    let mut jac = nalgebra::DMatrix::<f64>::zeros(3, n);
    for _ in 0..STEPS {
        let current = hinge_product(skeleton, states, q);
        let error = (target * current.inverse()).scaled_axis();
        if error.norm() < 1e-13 {
            break;
        }
        // Column k: hinge k's axis in the joint's parent frame, turned by the hinges before it.
        let mut r = Rotation3::identity();
        for (k, &s) in states.iter().enumerate() {
            let axis = skeleton.dofs()[s - ROOT_STATE_LEN].axis;
            jac.set_column(k, &(r * axis));
            r *= Rotation3::from_axis_angle(&Unit::new_unchecked(axis), q[s]);
        }
        let jtj = jac.transpose() * &jac + nalgebra::DMatrix::identity(n, n) * 1e-9;
        let Some(step) = jtj.cholesky().map(|c| c.solve(&(jac.transpose() * error))) else {
            break;
        };
        let mut moved = 0.0f64;
        for (k, &s) in states.iter().enumerate() {
            let dof = &skeleton.dofs()[s - ROOT_STATE_LEN];
            let value = dof.clamp(q[s] + step[k]);
            moved = moved.max((value - q[s]).abs());
            q[s] = value;
        }
        if moved < 1e-14 {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use proptest::prelude::*;

    /// Random values within each DOF's limits, kept 1° inside them (and away from ±180° for
    /// unlimited hinges), from unit-interval draws.
    fn values_within(s: &Skeleton, draws: &[f64]) -> Vec<f64> {
        let mut q = vec![0.0; s.state_len()];
        for (d, (dof, u)) in s.dofs().iter().zip(draws.iter().cycle()).enumerate() {
            let margin = 1f64.to_radians();
            let (lo, hi) = if dof.unlimited {
                (-3.1, 3.1)
            } else {
                (dof.min + margin, dof.max - margin)
            };
            q[ROOT_STATE_LEN + d] = lo + u * (hi - lo);
        }
        q
    }

    proptest! {
        #[test]
        fn every_humanoid_joint_reads_back_its_own_rotation(
            draws in proptest::collection::vec(0.0..1.0f64, 40),
            noise in proptest::collection::vec(-0.05..0.05f64, 40),
        ) {
            let s = builtin::humanoid();
            let rotations = JointRotations::new(&s);
            let q = values_within(&s, &draws);
            for j in s.joint_ids() {
                let target = rotations.rotation(&s, j, &q);
                // The reference: the values themselves, nudged (a neighbouring frame's).
                let mut back = q.clone();
                for (k, &st) in rotations.hinges(j).iter().enumerate() {
                    back[st] = s.dofs()[st - ROOT_STATE_LEN].clamp(q[st] + noise[k]);
                }
                rotations.read_back(&s, j, &target, &mut back);
                let again = rotations.rotation(&s, j, &back);
                prop_assert!(again.angle_to(&target) < 1e-9, "{}", s.joint(j).name);
                if let HingeLayout::Triple { states, axes } = rotations.layout(j) {
                    // Away from the gimbal singularity, the values themselves come back.
                    let spread = (target.to_rotation_matrix() * axes.axes[2]).dot(&axes.axes[0]);
                    if spread.abs() < 0.999 {
                        for &st in states {
                            prop_assert!((back[st] - q[st]).abs() < 1e-9, "{} {} vs {}", s.joint(j).name, back[st], q[st]);
                        }
                    }
                }
                for &st in rotations.hinges(j) {
                    prop_assert!(s.dofs()[st - ROOT_STATE_LEN].within_limits(back[st]));
                }
            }
        }

        #[test]
        fn a_rotation_out_of_reach_reads_back_within_the_limits(
            axis in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
            angle in -3.1..3.1f64,
        ) {
            let Some(axis) = nalgebra::Vector3::from(axis).try_normalize(1e-3) else { return Ok(()) };
            let s = builtin::humanoid();
            let rotations = JointRotations::new(&s);
            let target = UnitQuaternion::from_axis_angle(&Unit::new_unchecked(axis), angle);
            let mut q = crate::Pose::rest(&s).q;
            for j in s.joint_ids() {
                rotations.read_back(&s, j, &target, &mut q);
            }
            let pose = crate::Pose { q };
            prop_assert!(pose.within_limits(&s));
        }
    }

    #[test]
    fn the_humanoid_layouts() {
        let s = builtin::humanoid();
        let rotations = JointRotations::new(&s);
        let layout = |n: &str| rotations.layout(s.joint_by_name(n).expect(n)).clone();
        assert!(matches!(layout("pelvis"), HingeLayout::Triple { .. }));
        assert!(matches!(layout("left hip"), HingeLayout::Triple { .. }));
        assert!(matches!(layout("right elbow"), HingeLayout::Single(_)));
        assert!(matches!(layout("head"), HingeLayout::General(_)));
    }
}
