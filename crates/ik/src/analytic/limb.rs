//! A human limb as Tolani, Goswami & Badler (2000, §3) solve it analytically: three hinges at one
//! joint (shoulder or hip), one hinge at the next (elbow or knee), three at the one after (wrist or
//! ankle), any axes with consecutive ones perpendicular, any offsets and fixed orientations.
//!
//! In the shoulder's frame before its DOFs (R_pre, origin S), the elbow sits at t_a after the
//! shoulder rotation R1 and the elbow's fixed rotation R_a, the wrist at t_b after the elbow angle
//! θ4 and the wrist's fixed rotation R_b. Solving a goal:
//! 1. the wrist centre W follows from the goal (position: the site itself with the wrist angles
//!    kept, folded into t_b; pose: p − R_g·t_e);
//! 2. θ4 from ‖t_a + R_a R(a₄,θ4) t_b‖ = ‖W − S‖, an equation A cos θ4 + B sin θ4 = C for any elbow
//!    axis (§3.2.1), two solutions (the elbow families);
//! 3. the elbow on its circle about S→W at swivel angle φ, measured from the projection of a
//!    reference direction (§3.2.2);
//! 4. R1 maps the rest triangle (S, E, W) onto the goal triangle (S, E(φ), W) (§3.2.3, eq. 7);
//!    R2 = (R1 R_a R4 R_b)⁻¹ R_g; their angles in the chain's own axes, two families each.

use marionette_skeleton::{DofKind, Fk, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

use super::euler::AxisTriple;

mod arcs;
mod circle;

pub use circle::ElbowCircle;

/// The limb found in a chain.
#[derive(Debug, Clone, PartialEq)]
pub struct Limb {
    /// Shoulder (or hip), elbow (or knee), wrist (or ankle).
    pub joints: [JointId; 3],
    /// The 7 state indices, shoulder first.
    pub columns: [usize; 7],
    shoulder_axes: AxisTriple,
    elbow_axis: Vector3<f64>,
    wrist_axes: AxisTriple,
    t_a: Vector3<f64>,
    r_a: Matrix3<f64>,
    t_b: Vector3<f64>,
    r_b: Matrix3<f64>,
    /// ‖t_a‖, the upper arm's length.
    la: f64,
    /// R_aᵀ t_a: the upper arm seen from the elbow's frame (the law of cosines for θ4).
    ta_elbow: Vector3<f64>,
    /// The rest triangle's frame when the limb is straight: the upper arm and R_a (a₄ × t_a).
    rest_fallback: Vector3<f64>,
}

/// What a limb solve aims at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimbGoal {
    /// World target of a point fixed in the wrist frame.
    pub position: Vector3<f64>,
    /// That point, in the wrist frame (a site's offset; zero for the wrist centre).
    pub point: Vector3<f64>,
    /// World target rotation of the wrist frame, for a pose goal; `None` keeps the wrist angles.
    pub orientation: Option<Matrix3<f64>>,
}

/// An aiming goal (Tolani §4.3): the ray from a point of the wrist frame along an axis of the
/// wrist frame passes through a world point; the wrist angles are kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AimGoal {
    /// The ray's origin, in the wrist frame (a site's offset).
    pub point: Vector3<f64>,
    /// The ray's unit direction, in the wrist frame.
    pub axis: Vector3<f64>,
    /// The world point to aim at.
    pub at: Vector3<f64>,
}

/// The swivel angle and the direction it is measured from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Swivel {
    /// φ in radians.
    pub angle: f64,
    /// World direction whose projection on the elbow circle is φ = 0 (the paper's â). When it is
    /// parallel to the shoulder–wrist line, +Z and then +X are used instead.
    pub reference: Vector3<f64>,
}

impl Default for Swivel {
    /// φ = 0 measured from straight down: elbows hang low; a leg hanging along −Y falls back to +Z,
    /// so knees point forward.
    fn default() -> Self {
        Swivel {
            angle: 0.0,
            reference: -Vector3::y(),
        }
    }
}

/// What a goal fixes before the swivel angle and the shoulder and wrist families are chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    shoulder: Vector3<f64>,
    r_pre: Matrix3<f64>,
    d: Vector3<f64>,
    t_b: Vector3<f64>,
    /// The elbow angle (radians).
    pub theta4: f64,
    r4: Matrix3<f64>,
    wrist_now: [f64; 3],
    orientation: Option<Matrix3<f64>>,
    /// False when the goal is out of reach.
    pub reachable: bool,
}

impl Geometry {
    /// True for a pose goal (the wrist angles follow from the target orientation).
    pub fn has_orientation(&self) -> bool {
        self.orientation.is_some()
    }
}

/// A goal placed in the shoulder's frame: everything of a solution that the elbow family does
/// not change ([`Limb::place`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    shoulder: Vector3<f64>,
    r_pre: Matrix3<f64>,
    /// Shoulder to target, in the shoulder's frame before its DOFs.
    d: Vector3<f64>,
    t_b: Vector3<f64>,
    wrist_now: [f64; 3],
    orientation: Option<Matrix3<f64>>,
}

/// The wrist-frame point of a position goal moved by the kept wrist angles, remembered by the
/// bits of both: while a hand is dragged its wrist angles stay as they are, so every frame after
/// the first reuses the three sines and cosines. Same inputs, same result.
#[derive(Debug, Clone, Default)]
pub struct KeptWrist {
    key: Option<[u64; 6]>,
    moved: Vector3<f64>,
}

impl KeptWrist {
    /// R(a₁,θ₁)·R(a₂,θ₂)·R(a₃,θ₃)·point for the wrist's axes.
    fn moved(&mut self, axes: &AxisTriple, angles: [f64; 3], point: &Vector3<f64>) -> Vector3<f64> {
        let key = [
            angles[0].to_bits(),
            angles[1].to_bits(),
            angles[2].to_bits(),
            point.x.to_bits(),
            point.y.to_bits(),
            point.z.to_bits(),
        ];
        if !self
            .key
            .is_some_and(|k| crate::linalg::same_words(&k, &key))
        {
            self.moved = axes.rotate(angles, point);
            self.key = Some(key);
        }
        self.moved
    }
}

/// One analytic solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimbSolution {
    /// The 7 angles in column order.
    pub angles: [f64; 7],
    /// False when the goal was out of reach and the limb stretched (or folded) towards it.
    pub reachable: bool,
}

fn hinge_axis(skeleton: &Skeleton, state: usize) -> Result<Vector3<f64>, String> {
    let k = state
        .checked_sub(ROOT_STATE_LEN)
        .ok_or("the root translation is not part of a limb")?;
    let dof = &skeleton.dofs()[k];
    if dof.kind != DofKind::Hinge {
        return Err(format!(
            "joint \"{}\" slides: a limb has hinges only",
            skeleton.joint(dof.joint).name
        ));
    }
    Ok(dof.axis)
}

/// The unit vector of the elbow circle's plane (normal n, shoulder frame) at φ = 0: the
/// projection of the world reference, or of world +Z, then +X, when the reference is along n.
fn circle_reference(
    n: &Vector3<f64>,
    r_pre: Matrix3<f64>,
    reference: &Vector3<f64>,
) -> Vector3<f64> {
    [*reference, Vector3::z(), Vector3::x()]
        .into_iter()
        .map(|a| r_pre.tr_mul(&a))
        .find_map(|a| unit(&(a - n * a.dot(n)), 1e-6))
        .unwrap_or_else(|| n.cross(&Vector3::y()).normalize())
}

/// `v` scaled to unit length, or `None` when its length is at most `min` (one division, where
/// `try_normalize` makes three: this runs several times in every limb solve).
#[inline]
fn unit(v: &Vector3<f64>, min: f64) -> Option<Vector3<f64>> {
    let length = v.norm();
    (length > min).then(|| v * (1.0 / length))
}

impl Limb {
    /// Finds the limb formed by exactly these chain columns, or says why they are not one.
    pub fn detect(skeleton: &Skeleton, columns: &[usize]) -> Result<Limb, String> {
        let not = |why: &str| Err(format!("not a limb: {why}"));
        let Ok(columns): Result<[usize; 7], _> = columns.try_into() else {
            return not(&format!(
                "a limb moves 7 DOFs, this chain moves {}",
                columns.len()
            ));
        };
        let mut joints = Vec::new();
        for &c in &columns {
            let Some(d) = skeleton.dof_at_state(c) else {
                return not("the root translation moves");
            };
            let j = skeleton.dof(d).joint;
            if joints.last() != Some(&j) {
                joints.push(j);
            }
        }
        let [s, e, w] = joints[..] else {
            return not("the DOFs must belong to three joints (shoulder, elbow, wrist)");
        };
        let counts = [s, e, w].map(|j| skeleton.joint(j).dofs.len());
        if counts != [3, 1, 3] {
            return not(&format!(
                "the joints carry {counts:?} DOFs, a limb has [3, 1, 3]"
            ));
        }
        if skeleton.joint(e).parent != Some(s) || skeleton.joint(w).parent != Some(e) {
            return not("the shoulder, elbow and wrist must follow each other directly");
        }
        let axes: Vec<Vector3<f64>> = columns
            .iter()
            .map(|&c| hinge_axis(skeleton, c))
            .collect::<Result<_, _>>()
            .map_err(|why| format!("not a limb: {why}"))?;
        let shoulder_axes = AxisTriple::new([axes[0], axes[1], axes[2]])
            .map_err(|why| format!("not a limb: shoulder {why}"))?;
        let wrist_axes = AxisTriple::new([axes[4], axes[5], axes[6]])
            .map_err(|why| format!("not a limb: wrist {why}"))?;
        let (elbow, wrist) = (skeleton.joint(e), skeleton.joint(w));
        Ok(Limb {
            joints: [s, e, w],
            columns,
            shoulder_axes,
            elbow_axis: axes[3],
            wrist_axes,
            t_a: elbow.offset,
            r_a: elbow.orientation,
            la: elbow.offset.norm(),
            ta_elbow: elbow.orientation.transpose() * elbow.offset,
            rest_fallback: elbow.orientation * axes[3].cross(&elbow.offset),
            t_b: wrist.offset,
            r_b: wrist.orientation,
        })
    }

    /// Every limb of a skeleton: each joint with three hinges whose child has one and whose
    /// grandchild has three, forming a [`Limb`] (the humanoid's arms and legs), in hierarchy order.
    pub fn find_all(skeleton: &Skeleton) -> Vec<Limb> {
        let mut limbs = Vec::new();
        for s in skeleton.joint_ids() {
            if skeleton.joint(s).dofs.len() != 3 {
                continue;
            }
            for &e in &skeleton.joint(s).children {
                if skeleton.joint(e).dofs.len() != 1 {
                    continue;
                }
                for &w in &skeleton.joint(e).children {
                    let chain = marionette_skeleton::Chain::from_joints(skeleton, [s, e, w]);
                    if let Ok(limb) = Limb::detect(skeleton, chain.columns()) {
                        limbs.push(limb);
                    }
                }
            }
        }
        limbs
    }

    /// The shoulder's world origin and its world rotation before its own DOFs, at the pose `fk` holds.
    /// The shoulder's position and its frame before its own DOFs, from the parent's transform in
    /// `fk` (only the shoulder's ancestors need be current: see [`Fk::update_ancestors`]); a
    /// shoulder at the root hangs from the root translation in `q`.
    fn base_frame(&self, skeleton: &Skeleton, fk: &Fk, q: &[f64]) -> (Vector3<f64>, Matrix3<f64>) {
        let shoulder = skeleton.joint(self.joints[0]);
        let (parent_p, parent_r) = shoulder.parent.map_or_else(
            || (Vector3::new(q[0], q[1], q[2]), Matrix3::identity()),
            |p| (fk.joint_position(p), *fk.joint_rotation(p)),
        );
        (
            parent_p + parent_r * shoulder.offset,
            parent_r * shoulder.orientation,
        )
    }

    /// The parts of a solution that do not depend on the swivel angle nor on the shoulder and
    /// wrist families, for elbow family `elbow` ([`Limb::place`] then [`Limb::geometry_of`]).
    pub fn geometry(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        q: &[f64],
        goal: &LimbGoal,
        elbow: usize,
    ) -> Geometry {
        let placement = self.place(skeleton, fk, q, goal, &mut KeptWrist::default());
        self.geometry_of(&placement, elbow)
    }

    /// What a goal fixes before the elbow family is chosen: the shoulder frame, the point the
    /// 4-DOF problem places and where it must go. A position goal keeps the wrist angles of `q`;
    /// `kept` remembers the point they move, for the next goal with the same wrist angles.
    pub fn place(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        q: &[f64],
        goal: &LimbGoal,
        kept: &mut KeptWrist,
    ) -> Placement {
        let (s, r_pre) = self.base_frame(skeleton, fk, q);
        let wrist_now = [q[self.columns[4]], q[self.columns[5]], q[self.columns[6]]];
        // The point the 4-DOF problem places, and where it must go (shoulder-before-DOFs frame).
        let (t_b, target) = match goal.orientation {
            None => (
                self.t_b + self.r_b * kept.moved(&self.wrist_axes, wrist_now, &goal.point),
                goal.position,
            ),
            Some(r_g) => (self.t_b, goal.position - r_g * goal.point),
        };
        Placement {
            shoulder: s,
            r_pre,
            d: r_pre.transpose() * (target - s),
            t_b,
            wrist_now,
            orientation: goal.orientation,
        }
    }

    /// The geometry of a placed goal for elbow family `elbow` (0 or 1): θ4 from the law of
    /// cosines for any elbow axis (Tolani §3.2.1); out of reach, the limb stretched or folded
    /// towards the target.
    pub fn geometry_of(&self, placement: &Placement, elbow: usize) -> Geometry {
        let Placement {
            shoulder: s,
            r_pre,
            mut d,
            t_b,
            wrist_now,
            orientation,
        } = *placement;
        let (la, lb) = (self.la, t_b.norm());
        // θ4: t_a'ᵀ R(a,θ4) t_b = K with t_a' = R_aᵀ t_a, expanded by Rodrigues.
        let a = self.elbow_axis;
        let ta = self.ta_elbow;
        let k = 0.5 * (d.norm_squared() - la * la - lb * lb);
        let big_a = ta.dot(&t_b) - a.dot(&ta) * a.dot(&t_b);
        let big_b = ta.dot(&a.cross(&t_b));
        let big_d = a.dot(&ta) * a.dot(&t_b);
        let r = big_a.hypot(big_b);
        let mut c = if r > 0.0 { (k - big_d) / r } else { 0.0 };
        let reachable = c.abs() <= 1.0 + 1e-12;
        if !reachable {
            // Out of reach: stretch (or fold) as far as the elbow allows, towards the target.
            c = c.clamp(-1.0, 1.0);
            let reach = (la * la + lb * lb + 2.0 * (big_d + r * c)).max(0.0).sqrt();
            d = d.try_normalize(0.0).unwrap_or_else(Vector3::x) * reach;
        }
        // θ4 = β ± acos(c) with (cos β, sin β) = (A, B)/r, taken by its cosine and sine (no
        // acos, and R4 needs no second sine and cosine).
        let (sin_spread, cos_spread) = super::euler::sin_cos_of_acos(c);
        let sin_spread = if elbow == 0 { sin_spread } else { -sin_spread };
        let (cos_beta, sin_beta) = if r > 0.0 {
            (big_a / r, big_b / r)
        } else {
            (1.0, 0.0)
        };
        let cos4 = cos_beta * cos_spread - sin_beta * sin_spread;
        let sin4 = sin_beta * cos_spread + cos_beta * sin_spread;
        Geometry {
            shoulder: s,
            r_pre,
            d,
            t_b,
            theta4: sin4.atan2(cos4),
            r4: super::euler::axis_rotation(&a, cos4, sin4),
            wrist_now,
            orientation,
            reachable,
        }
    }

    /// The swivel angle that puts the elbow nearest to a world point (Tolani §3.2.2, Fig. 3):
    /// the angle, about the shoulder–wrist axis, of the point's projection on the elbow circle's
    /// plane, measured from the same reference as every swivel.
    pub fn swivel_toward(
        &self,
        g: &Geometry,
        reference: &Vector3<f64>,
        elbow: &Vector3<f64>,
    ) -> f64 {
        let n = g.d.try_normalize(1e-12).unwrap_or_else(Vector3::x);
        let u = circle_reference(&n, g.r_pre, reference);
        let v = n.cross(&u);
        let p = g.r_pre.transpose() * (elbow - g.shoulder);
        let p = p - n * p.dot(&n);
        p.dot(&v).atan2(p.dot(&u))
    }

    /// The geometry of an aiming goal with the elbow at `theta4` (Tolani §4.3): with the wrist
    /// kept, the ray starts at p and runs along a (both fixed once θ4 is), so the distance λ along
    /// it to the target solves ‖p + λa‖ = ‖g − S‖, and p + λa is then a point to place like a
    /// wrist, with the same swivel circle and triangles. `None` when the target is behind the
    /// ray or nearer the shoulder than the ray ever comes.
    pub fn aim_geometry(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        q: &[f64],
        aim: &AimGoal,
        theta4: f64,
    ) -> Option<Geometry> {
        let (s, r_pre) = self.base_frame(skeleton, fk, q);
        let wrist_now = [q[self.columns[4]], q[self.columns[5]], q[self.columns[6]]];
        let r2 = self.wrist_axes.compose(wrist_now);
        let r4 =
            Rotation3::from_axis_angle(&Unit::new_unchecked(self.elbow_axis), theta4).into_inner();
        let to_elbow_frame = self.r_a * r4;
        let p = self.t_a + to_elbow_frame * (self.t_b + self.r_b * r2 * aim.point);
        let a = to_elbow_frame * self.r_b * r2 * aim.axis;
        let d = r_pre.transpose() * (aim.at - s);
        let pa = p.dot(&a);
        let disc = pa * pa - p.norm_squared() + d.norm_squared();
        if disc < 0.0 {
            return None;
        }
        let lambda = -pa + disc.sqrt();
        if lambda <= 0.0 {
            return None;
        }
        Some(Geometry {
            shoulder: s,
            r_pre,
            d,
            t_b: self.t_b + self.r_b * r2 * (aim.point + aim.axis * lambda),
            theta4: super::euler::wrap(theta4),
            r4,
            wrist_now,
            orientation: None,
            reachable: true,
        })
    }

    /// The elbow's limits or, when unlimited, a full turn.
    pub fn elbow_range(&self, skeleton: &Skeleton) -> (f64, f64) {
        let d = &skeleton.dofs()[self.columns[3] - ROOT_STATE_LEN];
        if d.unlimited {
            (-std::f64::consts::PI, std::f64::consts::PI)
        } else {
            (d.min, d.max)
        }
    }

    /// R1 at swivel `swivel` for a goal geometry.
    pub fn shoulder_rotation(&self, g: &Geometry, swivel: &Swivel) -> Matrix3<f64> {
        let w = self.t_a + self.r_a * (g.r4 * g.t_b);
        self.triangle_rotation(&w, &g.d, self.la, g.t_b.norm(), g.r_pre, swivel)
    }

    /// The seven angles for a goal geometry at a swivel angle, with shoulder and wrist families.
    pub fn angles(&self, g: &Geometry, swivel: &Swivel, shoulder: usize, wrist: usize) -> [f64; 7] {
        let r1 = self.shoulder_rotation(g, swivel);
        let mut angles = [0.0; 7];
        angles[..3].copy_from_slice(&self.shoulder_axes.decompose(&r1, shoulder));
        angles[3] = g.theta4;
        let wrist_angles = match g.orientation {
            None => g.wrist_now,
            Some(r_g) => {
                let r2 = (r1 * self.r_a * g.r4 * self.r_b).transpose() * g.r_pre.transpose() * r_g;
                self.wrist_axes.decompose(&r2, wrist)
            }
        };
        angles[4..].copy_from_slice(&wrist_angles);
        angles
    }

    /// Solves `goal` with elbow family `elbow` and shoulder/wrist families `shoulder`, `wrist`
    /// (each 0 or 1). `q` supplies the wrist angles kept by position-only goals and the pose of
    /// everything above the shoulder, which `fk` must hold.
    #[allow(
        clippy::too_many_arguments,
        reason = "the three families and the swivel are the solution's parameters"
    )]
    pub fn solve(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        q: &[f64],
        goal: &LimbGoal,
        swivel: &Swivel,
        elbow: usize,
        shoulder: usize,
        wrist: usize,
    ) -> LimbSolution {
        let g = self.geometry(skeleton, fk, q, goal, elbow);
        LimbSolution {
            angles: self.angles(&g, swivel, shoulder, wrist),
            reachable: g.reachable,
        }
    }

    /// R1 taking the rest triangle (0, t_a, w) onto the goal triangle (0, E(φ), d).
    fn triangle_rotation(
        &self,
        w: &Vector3<f64>,
        d: &Vector3<f64>,
        la: f64,
        lb: f64,
        r_pre: Matrix3<f64>,
        swivel: &Swivel,
    ) -> Matrix3<f64> {
        let length = d.norm();
        let n = if length > 1e-12 {
            d * (1.0 / length)
        } else {
            Vector3::x()
        };
        // The elbow circle (§3.2.2): centre cos α·L_a·n, radius sin α·L_a.
        let cos_alpha = if length > 0.0 && la > 0.0 {
            ((length * length + la * la - lb * lb) / (2.0 * length * la)).clamp(-1.0, 1.0)
        } else {
            1.0
        };
        let sin_alpha = (1.0 - cos_alpha * cos_alpha).sqrt();
        let u = circle_reference(&n, r_pre, &swivel.reference);
        let v = n.cross(&u);
        let (sin, cos) = swivel.angle.sin_cos();
        let radial = u * cos + v * sin;
        // Frames of both triangles (eq. 7), their x axes along the upper arm: in the goal, the
        // unit vector towards E(φ) = L_a (cos α n + sin α radial); a straight limb uses the
        // circle direction instead.
        let frame = |x: Vector3<f64>, w: &Vector3<f64>, fallback: Vector3<f64>| {
            let y = unit(&(w - x * w.dot(&x)), 1e-9).unwrap_or_else(|| {
                unit(&(fallback - x * fallback.dot(&x)), 1e-12)
                    .unwrap_or_else(|| x.cross(&Vector3::z()))
            });
            Matrix3::from_columns(&[x, y, x.cross(&y)])
        };
        let upper_arm = if la > 1e-12 { self.t_a * (1.0 / la) } else { n };
        let rest = frame(upper_arm, w, self.rest_fallback);
        let towards_elbow = if la > 1e-12 {
            n * cos_alpha + radial * sin_alpha
        } else {
            n
        };
        // The goal frame's y axis: d − x(d·x) normalised, which for x = cos α n + sin α radial
        // is sin α n − cos α radial (already unit: n ⊥ radial), so no square root is needed.
        let goal = if la > 1e-12 && sin_alpha > 1e-9 {
            let y = n * sin_alpha - radial * cos_alpha;
            Matrix3::from_columns(&[towards_elbow, y, towards_elbow.cross(&y)])
        } else {
            frame(towards_elbow, d, -radial)
        };
        goal * rest.transpose()
    }

    /// Wrist angles (first and last 0, the middle one solved) that make the forearm-plus-hand
    /// length ‖t_b + R_b R₂ p‖ equal to the upper arm's, so the point `p` of the wrist frame can
    /// come as close to the shoulder as the elbow folds; `None` when no middle angle does.
    /// Same equation as the elbow's: (R_bᵀ t_b)ᵀ R(a₆,θ₆) p = K.
    pub fn folded_wrist(&self, point: &Vector3<f64>) -> Option<[f64; 3]> {
        let a = self.wrist_axes.axes[1];
        let tb = self.r_b.transpose() * self.t_b;
        let k = 0.5 * (self.t_a.norm_squared() - tb.norm_squared() - point.norm_squared());
        let big_a = tb.dot(point) - a.dot(&tb) * a.dot(point);
        let big_b = tb.dot(&a.cross(point));
        let big_d = a.dot(&tb) * a.dot(point);
        let r = big_a.hypot(big_b);
        let c = (k - big_d) / r;
        (r > 0.0 && c.abs() <= 1.0)
            .then(|| [0.0, super::euler::wrap(big_b.atan2(big_a) + c.acos()), 0.0])
    }
}
