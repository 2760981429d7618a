//! Forward kinematics into preallocated buffers.
//!
//! A joint's frame is parent · translate(offset) · orientation · D1(q1) · D2(q2) · … and the root's
//! parent frame is translate(root translation) (`docs/skeleton-format.md`, Conventions). While walking
//! the DOFs, each DOF's world axis and pivot are recorded: they are exactly what the Jacobian
//! columns need (Buss 2009, §2: a revolute column is axis × (effector − pivot), a prismatic one is
//! the axis itself), so Jacobians cost no second pass over the chain.
//!
//! [`Fk::update`] allocates nothing; one [`Fk`] per skeleton is reused for every pose.

use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

use crate::model::{AxisKind, DofKind, JointId, ROOT_STATE_LEN, SiteId, Skeleton};

/// World transforms of a skeleton in one pose, plus what the Jacobians need.
#[derive(Debug, Clone, PartialEq)]
pub struct Fk {
    pub(crate) joint_rotation: Vec<Matrix3<f64>>,
    pub(crate) joint_position: Vec<Vector3<f64>>,
    pub(crate) dof_axis: Vec<Vector3<f64>>,
    pub(crate) dof_pivot: Vec<Vector3<f64>>,
    pub(crate) site_position: Vec<Vector3<f64>>,
    /// Σ mᵢ·cᵢ over each joint's subtree (world), for the centre-of-mass Jacobian.
    pub(crate) subtree_moment: Vec<Vector3<f64>>,
    pub(crate) com: Vector3<f64>,
    /// Per DOF, the bits of the last angle and its (sine, cosine): most updates move few DOFs
    /// (a dragged chain, a limb whose wrist is kept), and the others reuse their trigonometry,
    /// which dominates the cost of a pass. The cached values are the same function of the same
    /// bits, so results are identical.
    trig: TrigMemo,
}

/// The last angle of each DOF (its bits) with its sine and cosine, in separate arrays: the C
/// library's `sincos` stores each result on its own, and reading both back as one 16-byte load
/// (what a tuple array becomes) cannot be forwarded from those stores and stalls.
#[derive(Debug, Clone)]
struct TrigMemo {
    bits: Vec<u64>,
    sin: Vec<f64>,
    cos: Vec<f64>,
}

/// A cache: two forward kinematics that hold the same transforms are equal whatever their memos
/// remember.
impl PartialEq for TrigMemo {
    fn eq(&self, _other: &TrigMemo) -> bool {
        true
    }
}

/// Right-multiplies `r` by a rotation about a coordinate axis or a general unit axis: of the
/// angle whose (sine, cosine) is `sin_cos` for a coordinate axis, of `angle` for a general one.
#[inline]
fn rotate_local(
    r: &mut Matrix3<f64>,
    kind: AxisKind,
    axis: &Vector3<f64>,
    angle: f64,
    (s, c): (f64, f64),
) {
    // A rotation about −k by θ is the rotation about +k by −θ (sin(−θ) = −sin θ exactly).
    match kind {
        AxisKind::X => rotate_columns::<1, 2>(r, (s, c)),
        AxisKind::Y => rotate_columns::<2, 0>(r, (s, c)),
        AxisKind::Z => rotate_columns::<0, 1>(r, (s, c)),
        AxisKind::NegX => rotate_columns::<1, 2>(r, (-s, c)),
        AxisKind::NegY => rotate_columns::<2, 0>(r, (-s, c)),
        AxisKind::NegZ => rotate_columns::<0, 1>(r, (-s, c)),
        AxisKind::General => {
            let rot = Rotation3::from_axis_angle(&Unit::new_unchecked(*axis), angle);
            *r *= rot.matrix();
        }
    }
}

/// The rotation about the third axis k of the cyclic triple (A, B, k), applied on the right:
/// new column A = c·r_A + s·r_B, new column B = −s·r_A + c·r_B. The column indices are constants
/// so that the update compiles to straight-line code.
#[inline]
fn rotate_columns<const A: usize, const B: usize>(r: &mut Matrix3<f64>, (s, c): (f64, f64)) {
    for row in 0..3 {
        let (ra, rb) = (r[(row, A)], r[(row, B)]);
        r[(row, A)] = ra * c + rb * s;
        r[(row, B)] = rb * c - ra * s;
    }
}

/// `r · axis` for a DOF axis: a column of `r` (or its negation) for a coordinate axis.
#[inline]
fn world_axis(r: &Matrix3<f64>, kind: AxisKind, axis: &Vector3<f64>) -> Vector3<f64> {
    match kind {
        AxisKind::X => r.column(0).into_owned(),
        AxisKind::Y => r.column(1).into_owned(),
        AxisKind::Z => r.column(2).into_owned(),
        AxisKind::NegX => -r.column(0),
        AxisKind::NegY => -r.column(1),
        AxisKind::NegZ => -r.column(2),
        AxisKind::General => r * axis,
    }
}

impl TrigMemo {
    /// (sin, cos) of `value`, the value of DOF `k`: remembered when its bits are unchanged.
    #[inline]
    fn sin_cos(&mut self, k: usize, value: f64) -> (f64, f64) {
        if self.bits[k] == value.to_bits() {
            return (self.sin[k], self.cos[k]);
        }
        let (s, c) = value.sin_cos();
        self.bits[k] = value.to_bits();
        self.sin[k] = s;
        self.cos[k] = c;
        (s, c)
    }
}

impl Fk {
    /// Buffers sized for `skeleton`, holding its rest pose.
    pub fn new(skeleton: &Skeleton) -> Fk {
        let n = skeleton.joints().len();
        let d = skeleton.dof_count();
        let mut fk = Fk {
            joint_rotation: vec![Matrix3::identity(); n],
            joint_position: vec![Vector3::zeros(); n],
            dof_axis: vec![Vector3::zeros(); d],
            dof_pivot: vec![Vector3::zeros(); d],
            site_position: vec![Vector3::zeros(); skeleton.sites().len()],
            subtree_moment: vec![Vector3::zeros(); n],
            com: Vector3::zeros(),
            trig: TrigMemo {
                bits: vec![0.0f64.to_bits(); d],
                sin: vec![0.0; d],
                cos: vec![1.0; d],
            },
        };
        fk.update(skeleton, &crate::Pose::rest(skeleton).q);
        fk
    }

    /// Computes every world transform, site and the centre of mass for state `q`.
    ///
    /// # Panics
    /// If `q.len() != skeleton.state_len()` or the buffers were made for another skeleton.
    pub fn update(&mut self, skeleton: &Skeleton, q: &[f64]) {
        self.update_transforms(skeleton, q);
        self.update_mass_moments(skeleton);
    }

    /// Computes every world transform and site for `q`, but not the centre of mass (nor its
    /// Jacobian's moments), which keep the values of the last [`Fk::update`]: for callers that
    /// have no centre-of-mass goal.
    ///
    /// # Panics
    /// As [`Fk::update`].
    pub fn update_transforms(&mut self, skeleton: &Skeleton, q: &[f64]) {
        assert_eq!(q.len(), skeleton.state_len(), "state vector length");
        for id in 0..skeleton.joints().len() {
            self.update_joint(skeleton, q, id);
        }
        for (i, site) in skeleton.sites().iter().enumerate() {
            let j = site.joint.0;
            self.site_position[i] = self.joint_position[j] + self.joint_rotation[j] * site.offset;
        }
    }

    /// Computes the world transforms of `joints` (ascending, each joint's parent listed before
    /// it or current already) and of the sites on them, for `q`; everything else keeps its last
    /// value. For a system whose goals read a small part of a large skeleton.
    ///
    /// # Panics
    /// As [`Fk::update`], or if a joint is not a joint of `skeleton`.
    pub fn update_joints(&mut self, skeleton: &Skeleton, q: &[f64], joints: &[JointId]) {
        assert_eq!(q.len(), skeleton.state_len(), "state vector length");
        for j in joints {
            self.update_joint(skeleton, q, j.0);
        }
        for (i, site) in skeleton.sites().iter().enumerate() {
            if joints.binary_search(&site.joint).is_ok() {
                let j = site.joint.0;
                self.site_position[i] =
                    self.joint_position[j] + self.joint_rotation[j] * site.offset;
            }
        }
    }

    /// Computes the world transforms of the ancestors of `joint` (not of `joint` itself), root
    /// first, for `q`; everything else keeps its last value. For methods that need only the frame
    /// a limb hangs from, without a whole pass.
    ///
    /// # Panics
    /// As [`Fk::update`], or if `joint` is not a joint of `skeleton`.
    pub fn update_ancestors(&mut self, skeleton: &Skeleton, q: &[f64], joint: JointId) {
        assert_eq!(q.len(), skeleton.state_len(), "state vector length");
        if let Some(parent) = skeleton.joint(joint).parent {
            self.update_ancestors(skeleton, q, parent);
            self.update_joint(skeleton, q, parent.0);
        }
    }

    /// The transform of joint `id` (and its DOF axes and pivots) from its parent's, which must
    /// be current.
    #[inline]
    fn update_joint(&mut self, skeleton: &Skeleton, q: &[f64], id: usize) {
        let joint = &skeleton.joints()[id];
        let (parent_r, parent_p) = match joint.parent {
            Some(p) => (self.joint_rotation[p.0], self.joint_position[p.0]),
            None => (Matrix3::identity(), Vector3::new(q[0], q[1], q[2])),
        };
        let mut p = parent_p + parent_r * joint.offset;
        let mut r = if joint.orientation_is_identity {
            parent_r
        } else {
            parent_r * joint.orientation
        };
        let dofs = skeleton.dofs();
        for k in joint.dofs.clone() {
            let dof = &dofs[k];
            let value = q[ROOT_STATE_LEN + k];
            let world_axis = world_axis(&r, dof.axis_kind, &dof.axis);
            self.dof_axis[k] = world_axis;
            self.dof_pivot[k] = p;
            match dof.kind {
                DofKind::Hinge => {
                    // A general axis takes the angle itself (no memo, nothing to pass); the
                    // values are chosen here rather than behind a closure, which measured
                    // 20 % slower on a wholly new pose.
                    let sin_cos = if dof.axis_kind == AxisKind::General {
                        (f64::NAN, f64::NAN)
                    } else {
                        self.trig.sin_cos(k, value)
                    };
                    rotate_local(&mut r, dof.axis_kind, &dof.axis, value, sin_cos);
                }
                DofKind::Slide => p += world_axis * value,
            }
        }
        self.joint_rotation[id] = r;
        self.joint_position[id] = p;
    }

    fn update_mass_moments(&mut self, skeleton: &Skeleton) {
        let joints = skeleton.joints();
        for (id, joint) in joints.iter().enumerate() {
            let center = self.joint_position[id] + self.joint_rotation[id] * joint.mass_center;
            self.subtree_moment[id] = center * skeleton.com_mass[id];
        }
        for id in (1..joints.len()).rev() {
            if let Some(p) = joints[id].parent {
                let m = self.subtree_moment[id];
                self.subtree_moment[p.0] += m;
            }
        }
        self.com = self.subtree_moment[0] / skeleton.subtree_mass[0];
    }

    /// World position of a joint's origin (its frame after its own DOFs).
    pub fn joint_position(&self, joint: JointId) -> Vector3<f64> {
        self.joint_position[joint.0]
    }

    /// World rotation of a joint's frame (after its own DOFs).
    pub fn joint_rotation(&self, joint: JointId) -> &Matrix3<f64> {
        &self.joint_rotation[joint.0]
    }

    /// World position of a site.
    pub fn site_position(&self, site: SiteId) -> Vector3<f64> {
        self.site_position[site.0]
    }

    /// World position of a point given in a joint's frame.
    pub fn point(&self, joint: JointId, local: &Vector3<f64>) -> Vector3<f64> {
        self.joint_position[joint.0] + self.joint_rotation[joint.0] * local
    }

    /// World centre of mass (every joint's mass at its body centre; equal masses if all are 0).
    pub fn center_of_mass(&self) -> Vector3<f64> {
        self.com
    }

    /// World axis of a DOF in this pose.
    pub fn dof_axis(&self, dof: crate::DofId) -> Vector3<f64> {
        self.dof_axis[dof.0]
    }

    /// World point the DOF rotates about (or slides from) in this pose.
    pub fn dof_pivot(&self, dof: crate::DofId) -> Vector3<f64> {
        self.dof_pivot[dof.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancestors_alone_match_a_whole_pass() {
        let s = crate::builtin::humanoid();
        let mut q = crate::Pose::rest(&s).q;
        for (i, v) in q.iter_mut().enumerate() {
            *v = 0.1 * ((i * 7) % 11) as f64 - 0.4;
        }
        let mut whole = Fk::new(&s);
        whole.update(&s, &q);
        let hand = s.joint_by_name("right wrist").expect("wrist");
        let mut partial = Fk::new(&s);
        partial.update_ancestors(&s, &q, hand);
        let mut ancestor = s.joint(hand).parent;
        let mut count = 0;
        while let Some(a) = ancestor {
            assert_eq!(partial.joint_rotation(a), whole.joint_rotation(a));
            assert_eq!(partial.joint_position(a), whole.joint_position(a));
            ancestor = s.joint(a).parent;
            count += 1;
        }
        assert!(count >= 4, "the wrist hangs from several joints");
        // The joint itself is not updated: it still holds the rest pose.
        assert_ne!(partial.joint_rotation(hand), whole.joint_rotation(hand));
    }

    #[test]
    fn fast_axis_rotations_match_the_general_formula() {
        let base = Rotation3::from_euler_angles(0.3, -0.7, 1.1).into_inner();
        for (kind, axis) in [
            (AxisKind::X, Vector3::x()),
            (AxisKind::Y, Vector3::y()),
            (AxisKind::Z, Vector3::z()),
            (AxisKind::NegX, -Vector3::x()),
            (AxisKind::NegY, -Vector3::y()),
            (AxisKind::NegZ, -Vector3::z()),
        ] {
            let mut fast = base;
            rotate_local(&mut fast, kind, &axis, 0.83, 0.83f64.sin_cos());
            let mut general = base;
            rotate_local(
                &mut general,
                AxisKind::General,
                &axis,
                0.83,
                (f64::NAN, f64::NAN),
            );
            assert!((fast - general).abs().max() < 1e-14, "{kind:?}");
            assert_eq!(world_axis(&base, kind, &axis), base * axis, "{kind:?}");
        }
    }

    #[test]
    fn reused_sines_and_cosines_give_the_same_transforms() {
        let s = crate::builtin::humanoid();
        let mut pose = crate::Pose::rest(&s);
        for (i, v) in pose.q.iter_mut().enumerate().skip(3) {
            *v = 0.05 * ((i % 11) as f64 - 5.0);
        }
        let mut reused = Fk::new(&s);
        reused.update(&s, &pose.q);
        // Move one DOF: every other one reuses its memo, and the result must be bit-identical
        // to a fresh pass.
        pose.q[10] += 0.3;
        reused.update(&s, &pose.q);
        let mut fresh = Fk::new(&s);
        fresh.trig.bits.fill(f64::NAN.to_bits());
        fresh.trig.sin.fill(f64::NAN);
        fresh.trig.cos.fill(f64::NAN);
        fresh.update(&s, &pose.q);
        assert_eq!(reused.joint_rotation, fresh.joint_rotation);
        assert_eq!(reused.site_position, fresh.site_position);
        assert_eq!(reused, fresh, "equal transforms, whatever the memos hold");
    }
}
