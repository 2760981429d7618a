//! Goals: what a solve should achieve. Each goal is a small function block in Welman's sense
//! (1993, ch. 5, "handles" and "constraints"): it writes its error vector e = target − current and
//! the Jacobian rows ∂current/∂q into its slice of the stacked system, and reports its error in
//! metres or radians. Solvers only ever see the stacked rows, so a new goal kind needs no solver
//! change.
//!
//! Direction goals (partial orientation, aim) drive the difference of unit vectors u − d to zero,
//! whose Jacobian is exact: ∂u/∂q = −\[u\]× J_ω, and for aiming ∂d/∂q = −(I − d dᵀ) J_p / ‖t − p‖.
//! Full orientation uses the rotation vector of R_target · R_currentᵀ with the angular-velocity
//! Jacobian J_ω (exact at the solution, the usual choice).

use marionette_skeleton::{Fk, JointId, SiteId, Skeleton};
use nalgebra::{DMatrix, DVector, Matrix3, Rotation3, Vector3};

/// One goal with its weight (rows are scaled by √weight) and priority level (0 = highest).
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// What to achieve.
    pub kind: GoalKind,
    /// Relative importance in weighted solvers; > 0.
    pub weight: f64,
    /// Priority level for the task-priority solver (0 = highest); other solvers ignore it.
    pub priority: u32,
}

impl Goal {
    /// A goal of weight 1 at priority 0.
    pub fn new(kind: GoalKind) -> Goal {
        Goal {
            kind,
            weight: 1.0,
            priority: 0,
        }
    }
}

/// The goal kinds of docs/file-formats.md.
#[derive(Debug, Clone, PartialEq)]
pub enum GoalKind {
    /// A site reaches a world point.
    Position {
        /// The site.
        site: SiteId,
        /// World target.
        target: Vector3<f64>,
    },
    /// A point fixed in a joint's frame reaches a world point: what dragging a picked spot on a
    /// body does (no site needed).
    Point {
        /// The joint carrying the point.
        joint: JointId,
        /// The point in the joint's frame.
        offset: Vector3<f64>,
        /// World target.
        target: Vector3<f64>,
        /// Whether the target is that point, or the line or plane through it.
        shape: TargetShape,
    },
    /// A joint frame's axes line up with a target frame's: all three (full orientation) or one
    /// (Welman's partial lock, e.g. only the Y axis direction is held).
    Orientation {
        /// The joint.
        joint: JointId,
        /// World target rotation.
        target: Matrix3<f64>,
        /// Which joint-frame axes are held (x, y, z); two or three mean the full orientation.
        axes: [bool; 3],
    },
    /// A local axis at a site points at a world point.
    Aim {
        /// The site.
        site: SiteId,
        /// Unit axis in the site's joint frame.
        axis: Vector3<f64>,
        /// World point to aim at.
        at: Vector3<f64>,
    },
    /// A site lies on a plane.
    Plane {
        /// The site.
        site: SiteId,
        /// A point of the plane.
        point: Vector3<f64>,
        /// Unit normal.
        normal: Vector3<f64>,
    },
    /// A site lies on a line.
    Line {
        /// The site.
        site: SiteId,
        /// A point of the line.
        point: Vector3<f64>,
        /// Unit direction.
        direction: Vector3<f64>,
    },
    /// Two sites meet.
    Coincide {
        /// First site.
        a: SiteId,
        /// Second site.
        b: SiteId,
    },
    /// Two sites meet and their joints keep a relative orientation (two hands clasped, each
    /// turned to the other as they were): site a at site b, a's joint frame at b's turned by
    /// `relative` (R_a = R_b · relative). Rows 0–2 are the position's, 3–5 the orientation's
    /// rotation vector; its error is the larger of the distance (metres) and the angle
    /// (radians).
    CoincidePose {
        /// First site.
        a: SiteId,
        /// Second site.
        b: SiteId,
        /// a's joint frame in b's joint frame.
        relative: Matrix3<f64>,
    },
    /// A site's position and its joint's whole orientation at once (a planted foot): rows 0–2
    /// are the position's, rows 3–5 the orientation's rotation vector; its error is the larger
    /// of the position error (metres) and the angle (radians).
    Pose {
        /// The site.
        site: SiteId,
        /// World target of the site.
        target: Vector3<f64>,
        /// World target rotation of the site's joint frame.
        rotation: Matrix3<f64>,
    },
    /// The centre of mass matches a target on the chosen world axes.
    CenterOfMass {
        /// World target.
        target: Vector3<f64>,
        /// Which world axes count (x, y, z).
        axes: [bool; 3],
    },
}

/// What a [`GoalKind::Point`] goal's point must reach: its target itself, or a line or plane
/// through it, the goal's error then the distance from it, and moving along it costing nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetShape {
    /// The target point.
    Point,
    /// The line through the target along this unit direction (a drag's view ray). Direct
    /// methods take the target itself (the point of the ray nearest the grip when the frame
    /// began).
    Line(Vector3<f64>),
    /// The plane through the target with this unit normal (a foot's point held up to the
    /// floor): one row, the signed distance along the normal.
    Plane(Vector3<f64>),
}

impl TargetShape {
    /// The part of `r` (from the point to the target) that counts: all of it for a point, the
    /// part across a line, the part along a plane's normal.
    pub fn counted(&self, r: &Vector3<f64>) -> Vector3<f64> {
        match self {
            TargetShape::Point => *r,
            TargetShape::Line(d) => r - d * d.dot(r),
            TargetShape::Plane(n) => n * n.dot(r),
        }
    }
}

/// Scratch rows shared by the goals of one system (3 rows each, one column per chain entry).
#[derive(Debug, Clone)]
pub struct GoalScratch {
    pub(crate) a: DMatrix<f64>,
    pub(crate) b: DMatrix<f64>,
}

impl GoalScratch {
    /// Scratch for `columns` Jacobian columns.
    pub fn new(columns: usize) -> GoalScratch {
        GoalScratch {
            a: DMatrix::zeros(3, columns),
            b: DMatrix::zeros(3, columns),
        }
    }
}

fn full_orientation(axes: &[bool; 3]) -> bool {
    axes.iter().filter(|&&a| a).count() >= 2
}

fn single_axis(axes: &[bool; 3]) -> usize {
    axes.iter().position(|&a| a).unwrap_or(1)
}

/// −\[u\]× · m, written into `out` rows `row..row+3` (the rotation of a unit vector u).
fn minus_cross_rows(u: &Vector3<f64>, m: &DMatrix<f64>, out: &mut DMatrix<f64>, row: usize) {
    for c in 0..m.ncols() {
        let w = Vector3::new(m[(0, c)], m[(1, c)], m[(2, c)]);
        let v = w.cross(u);
        out[(row, c)] = v.x;
        out[(row + 1, c)] = v.y;
        out[(row + 2, c)] = v.z;
    }
}

/// out rows = p · m for a 3×3 `p`.
fn project_rows(p: &Matrix3<f64>, m: &DMatrix<f64>, out: &mut DMatrix<f64>, row: usize) {
    for c in 0..m.ncols() {
        let v = p * Vector3::new(m[(0, c)], m[(1, c)], m[(2, c)]);
        out[(row, c)] = v.x;
        out[(row + 1, c)] = v.y;
        out[(row + 2, c)] = v.z;
    }
}

fn put3(e: &mut DVector<f64>, row: usize, v: &Vector3<f64>) {
    e[row] = v.x;
    e[row + 1] = v.y;
    e[row + 2] = v.z;
}

/// The rotation vector (axis × angle) of a rotation matrix, robust where `acos` of the trace is
/// not: the angle is atan2(‖sin θ · axis‖, cos θ) from the skew part and the trace, and near
/// θ = π, where the skew part vanishes, the axis comes from the quaternion.
pub fn rotation_vector(m: &Matrix3<f64>) -> Vector3<f64> {
    let skew = Vector3::new(
        m[(2, 1)] - m[(1, 2)],
        m[(0, 2)] - m[(2, 0)],
        m[(1, 0)] - m[(0, 1)],
    ) * 0.5;
    let cos = ((m.trace() - 1.0) * 0.5).clamp(-1.0, 1.0);
    let sin = skew.norm();
    if sin > 1e-6 || cos > 0.0 {
        let angle = sin.atan2(cos);
        return if sin > 0.0 {
            skew * (angle / sin)
        } else {
            Vector3::zeros()
        };
    }
    let q = nalgebra::UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(*m));
    // q and −q are the same rotation: take the one with w ≥ 0, so the angle is in [0, π].
    let sign = if q.scalar() < 0.0 { -1.0 } else { 1.0 };
    let (w, v) = (q.scalar() * sign, q.vector() * sign);
    match v.try_normalize(0.0) {
        Some(axis) => axis * (2.0 * v.norm().atan2(w)),
        None => Vector3::zeros(),
    }
}

/// Angle between unit vectors, stable for small and large angles.
fn angle_between(u: &Vector3<f64>, d: &Vector3<f64>) -> f64 {
    u.cross(d).norm().atan2(u.dot(d))
}

impl GoalKind {
    /// Number of rows this goal adds to the stacked system.
    pub fn rows(&self) -> usize {
        match self {
            GoalKind::Plane { .. }
            | GoalKind::Point {
                shape: TargetShape::Plane(_),
                ..
            } => 1,
            GoalKind::CenterOfMass { axes, .. } => axes.iter().filter(|&&a| a).count(),
            GoalKind::Pose { .. } | GoalKind::CoincidePose { .. } => 6,
            _ => 3,
        }
    }

    /// The kind's name as docs/file-formats.md's JSON writes it.
    pub fn label(&self) -> &'static str {
        match self {
            GoalKind::Position { .. } => "position",
            GoalKind::Point {
                shape: TargetShape::Plane(_),
                ..
            } => "plane",
            GoalKind::Point { .. } => "point",
            GoalKind::Orientation { .. } => "orientation",
            GoalKind::Aim { .. } => "aim",
            GoalKind::Plane { .. } => "plane",
            GoalKind::Line { .. } => "line",
            GoalKind::Coincide { .. } => "coincide",
            GoalKind::CoincidePose { .. } => "coincide_pose",
            GoalKind::Pose { .. } => "pose",
            GoalKind::CenterOfMass { .. } => "center_of_mass",
        }
    }

    /// True for goals whose error is an angle (radians); the others are in metres.
    pub fn is_angular(&self) -> bool {
        matches!(self, GoalKind::Orientation { .. } | GoalKind::Aim { .. })
    }

    /// The joints whose frames this goal reads (`None`: the whole body, for the centre of mass).
    pub fn joints(&self, skeleton: &Skeleton) -> Option<Vec<JointId>> {
        let site = |s: &SiteId| skeleton.site(*s).joint;
        Some(match self {
            GoalKind::Position { site: s, .. }
            | GoalKind::Aim { site: s, .. }
            | GoalKind::Plane { site: s, .. }
            | GoalKind::Line { site: s, .. }
            | GoalKind::Pose { site: s, .. } => vec![site(s)],
            GoalKind::Orientation { joint, .. } | GoalKind::Point { joint, .. } => vec![*joint],
            GoalKind::Coincide { a, b } | GoalKind::CoincidePose { a, b, .. } => {
                vec![site(a), site(b)]
            }
            GoalKind::CenterOfMass { .. } => return None,
        })
    }

    /// [`GoalKind::joints`] without allocating: at most two joints (`None`: the whole body).
    pub fn reads_joints(&self, skeleton: &Skeleton) -> Option<[Option<JointId>; 2]> {
        let site = |s: &SiteId| Some(skeleton.site(*s).joint);
        Some(match self {
            GoalKind::Position { site: s, .. }
            | GoalKind::Aim { site: s, .. }
            | GoalKind::Plane { site: s, .. }
            | GoalKind::Line { site: s, .. }
            | GoalKind::Pose { site: s, .. } => [site(s), None],
            GoalKind::Orientation { joint, .. } | GoalKind::Point { joint, .. } => {
                [Some(*joint), None]
            }
            GoalKind::Coincide { a, b } | GoalKind::CoincidePose { a, b, .. } => [site(a), site(b)],
            GoalKind::CenterOfMass { .. } => return None,
        })
    }

    /// The points the goal moves, with the joint that carries each (sites, or the joint origin of
    /// an orientation goal; none for the centre of mass).
    pub fn points(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
    ) -> impl Iterator<Item = (JointId, Vector3<f64>)> + use<> {
        let site = |s: &SiteId| (skeleton.site(*s).joint, fk.site_position(*s));
        let (first, second) = match self {
            GoalKind::Position { site: s, .. }
            | GoalKind::Aim { site: s, .. }
            | GoalKind::Plane { site: s, .. }
            | GoalKind::Line { site: s, .. }
            | GoalKind::Pose { site: s, .. } => (Some(site(s)), None),
            GoalKind::Coincide { a, b } | GoalKind::CoincidePose { a, b, .. } => {
                (Some(site(a)), Some(site(b)))
            }
            GoalKind::Orientation { joint, .. } => {
                (Some((*joint, fk.joint_position(*joint))), None)
            }
            GoalKind::Point { joint, offset, .. } => {
                (Some((*joint, fk.point(*joint, offset))), None)
            }
            GoalKind::CenterOfMass { .. } => (None, None),
        };
        first.into_iter().chain(second)
    }

    /// The goal's error in metres or radians at the pose `fk` holds.
    pub fn error(&self, skeleton: &Skeleton, fk: &Fk) -> f64 {
        match self {
            GoalKind::Position { site, target } => (target - fk.site_position(*site)).norm(),
            GoalKind::Point {
                joint,
                offset,
                target,
                shape,
            } => shape.counted(&(target - fk.point(*joint, offset))).norm(),
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } => {
                let current = fk.joint_rotation(*joint);
                if full_orientation(axes) {
                    rotation_vector(&(target * current.transpose())).norm()
                } else {
                    let k = single_axis(axes);
                    angle_between(
                        &current.column(k).into_owned(),
                        &target.column(k).into_owned(),
                    )
                }
            }
            GoalKind::Aim { site, axis, at } => {
                let joint = skeleton.site(*site).joint;
                let u = fk.joint_rotation(joint) * axis;
                let to = at - fk.site_position(*site);
                match to.try_normalize(1e-12) {
                    Some(d) => angle_between(&u, &d),
                    None => 0.0,
                }
            }
            GoalKind::Plane {
                site,
                point,
                normal,
            } => normal.dot(&(fk.site_position(*site) - point)).abs(),
            GoalKind::Line {
                site,
                point,
                direction,
            } => {
                let r = fk.site_position(*site) - point;
                (r - direction * direction.dot(&r)).norm()
            }
            GoalKind::Coincide { a, b } => (fk.site_position(*a) - fk.site_position(*b)).norm(),
            GoalKind::Pose { .. } | GoalKind::CoincidePose { .. } => {
                let (metres, radians) = self.pose_parts(skeleton, fk).unwrap_or_default();
                metres.max(radians)
            }
            GoalKind::CenterOfMass { target, axes } => {
                let d = target - fk.center_of_mass();
                (0..3)
                    .filter(|&k| axes[k])
                    .map(|k| d[k] * d[k])
                    .sum::<f64>()
                    .sqrt()
            }
        }
    }

    /// A pose goal's two errors at the pose `fk` holds (a [`GoalKind::Pose`] or a
    /// [`GoalKind::CoincidePose`]): the site's distance from its target (metres) and the joint's
    /// angle from its target rotation (radians); `None` for other kinds.
    pub fn pose_parts(&self, skeleton: &Skeleton, fk: &Fk) -> Option<(f64, f64)> {
        let (site, target, rotation) = match self {
            GoalKind::Pose {
                site,
                target,
                rotation,
            } => (*site, *target, *rotation),
            GoalKind::CoincidePose { a, b, relative } => (
                *a,
                fk.site_position(*b),
                fk.joint_rotation(skeleton.site(*b).joint) * relative,
            ),
            _ => return None,
        };
        let current = fk.joint_rotation(skeleton.site(site).joint);
        Some((
            (target - fk.site_position(site)).norm(),
            rotation_vector(&(rotation * current.transpose())).norm(),
        ))
    }

    /// The goal's error from its own (unweighted) rows of e, equal to [`GoalKind::error`] but
    /// without evaluating the goal again: a norm, or for direction goals the angle between unit
    /// vectors u and d from ‖d − u‖ = 2 sin(θ/2).
    pub fn error_from_rows(&self, rows: &[f64]) -> f64 {
        let norm = rows.iter().map(|x| x * x).sum::<f64>().sqrt();
        let chord = |c: f64| 2.0 * (0.5 * c).min(1.0).asin();
        match self {
            GoalKind::Orientation { axes, .. } if !full_orientation(axes) => chord(norm),
            GoalKind::Aim { .. } => chord(norm),
            GoalKind::Pose { .. } | GoalKind::CoincidePose { .. } => {
                let part = |r: &[f64]| r.iter().map(|x| x * x).sum::<f64>().sqrt();
                part(&rows[..3]).max(part(&rows[3..]))
            }
            _ => norm,
        }
    }

    /// Writes e (target − current) into `e[row..]` and ∂current/∂q into `j[row.., ..]` for the
    /// given state columns, at the pose `fk` holds. Allocates nothing.
    #[allow(
        clippy::too_many_arguments,
        reason = "the stacked-system slices a goal writes into"
    )]
    pub fn write_rows(
        &self,
        skeleton: &Skeleton,
        fk: &Fk,
        columns: &[usize],
        e: &mut DVector<f64>,
        j: &mut DMatrix<f64>,
        row: usize,
        scratch: &mut GoalScratch,
    ) {
        match self {
            GoalKind::Position { site, target } => {
                put3(e, row, &(target - fk.site_position(*site)));
                fk.site_jacobian(skeleton, *site, columns, j, row);
            }
            GoalKind::Point {
                joint,
                offset,
                target,
                shape,
            } => {
                let point = fk.point(*joint, offset);
                match shape {
                    TargetShape::Point => {
                        put3(e, row, &(target - point));
                        fk.point_jacobian(skeleton, *joint, &point, columns, j, row);
                    }
                    TargetShape::Plane(n) => {
                        e[row] = n.dot(&(target - point));
                        fk.point_jacobian(skeleton, *joint, &point, columns, &mut scratch.a, 0);
                        for c in 0..columns.len() {
                            j[(row, c)] = n.x * scratch.a[(0, c)]
                                + n.y * scratch.a[(1, c)]
                                + n.z * scratch.a[(2, c)];
                        }
                    }
                    TargetShape::Line(d) => {
                        // Rows: the offset from the line in a basis (u, v) across it; the third
                        // row (along the line) is zero: the depth is free.
                        let u = d
                            .cross(&Vector3::x())
                            .try_normalize(1e-6)
                            .unwrap_or_else(|| d.cross(&Vector3::y()).normalize());
                        let v = d.cross(&u);
                        let across = Matrix3::from_rows(&[
                            u.transpose(),
                            v.transpose(),
                            Vector3::zeros().transpose(),
                        ]);
                        put3(e, row, &(across * (target - point)));
                        fk.point_jacobian(skeleton, *joint, &point, columns, &mut scratch.a, 0);
                        project_rows(&across, &scratch.a, j, row);
                    }
                }
            }
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } => {
                let current = fk.joint_rotation(*joint);
                if full_orientation(axes) {
                    put3(e, row, &rotation_vector(&(target * current.transpose())));
                    fk.orientation_jacobian(skeleton, *joint, columns, j, row);
                } else {
                    let k = single_axis(axes);
                    let u = current.column(k).into_owned();
                    put3(e, row, &(target.column(k) - u));
                    fk.orientation_jacobian(skeleton, *joint, columns, &mut scratch.a, 0);
                    minus_cross_rows(&u, &scratch.a, j, row);
                }
            }
            GoalKind::Aim { site, axis, at } => {
                let joint = skeleton.site(*site).joint;
                let u = fk.joint_rotation(joint) * axis;
                let to = at - fk.site_position(*site);
                let length = to.norm();
                if length < 1e-12 {
                    put3(e, row, &Vector3::zeros());
                    for c in 0..columns.len() {
                        for r in 0..3 {
                            j[(row + r, c)] = 0.0;
                        }
                    }
                    return;
                }
                let d = to / length;
                put3(e, row, &(d - u));
                // ∂(u − d)/∂q = −\\[u\\]× J_ω + (I − d dᵀ) J_p / ‖t − p‖
                fk.orientation_jacobian(skeleton, joint, columns, &mut scratch.a, 0);
                minus_cross_rows(&u, &scratch.a, j, row);
                fk.site_jacobian(skeleton, *site, columns, &mut scratch.b, 0);
                let p = (Matrix3::identity() - d * d.transpose()) / length;
                for c in 0..columns.len() {
                    let v =
                        p * Vector3::new(scratch.b[(0, c)], scratch.b[(1, c)], scratch.b[(2, c)]);
                    for r in 0..3 {
                        j[(row + r, c)] += v[r];
                    }
                }
            }
            GoalKind::Plane {
                site,
                point,
                normal,
            } => {
                e[row] = -normal.dot(&(fk.site_position(*site) - point));
                fk.site_jacobian(skeleton, *site, columns, &mut scratch.a, 0);
                for c in 0..columns.len() {
                    j[(row, c)] = normal.x * scratch.a[(0, c)]
                        + normal.y * scratch.a[(1, c)]
                        + normal.z * scratch.a[(2, c)];
                }
            }
            GoalKind::Line {
                site,
                point,
                direction,
            } => {
                let p = Matrix3::identity() - direction * direction.transpose();
                put3(e, row, &(-(p * (fk.site_position(*site) - point))));
                fk.site_jacobian(skeleton, *site, columns, &mut scratch.a, 0);
                project_rows(&p, &scratch.a, j, row);
            }
            GoalKind::Coincide { a, b } => {
                put3(e, row, &(fk.site_position(*b) - fk.site_position(*a)));
                fk.site_jacobian(skeleton, *a, columns, j, row);
                fk.site_jacobian(skeleton, *b, columns, &mut scratch.a, 0);
                for c in 0..columns.len() {
                    for r in 0..3 {
                        j[(row + r, c)] -= scratch.a[(r, c)];
                    }
                }
            }
            GoalKind::CoincidePose { a, b, relative } => {
                // Position: as Coincide. Orientation: a's frame against b's turned by
                // `relative`, which moves with b: ∂/∂q of the relative turn is J_ω(a) − J_ω(b).
                put3(e, row, &(fk.site_position(*b) - fk.site_position(*a)));
                fk.site_jacobian(skeleton, *a, columns, j, row);
                fk.site_jacobian(skeleton, *b, columns, &mut scratch.a, 0);
                let (joint_a, joint_b) = (skeleton.site(*a).joint, skeleton.site(*b).joint);
                let target = fk.joint_rotation(joint_b) * relative;
                let current = fk.joint_rotation(joint_a);
                put3(
                    e,
                    row + 3,
                    &rotation_vector(&(target * current.transpose())),
                );
                fk.orientation_jacobian(skeleton, joint_a, columns, j, row + 3);
                fk.orientation_jacobian(skeleton, joint_b, columns, &mut scratch.b, 0);
                for c in 0..columns.len() {
                    for r in 0..3 {
                        j[(row + r, c)] -= scratch.a[(r, c)];
                        j[(row + 3 + r, c)] -= scratch.b[(r, c)];
                    }
                }
            }
            GoalKind::Pose {
                site,
                target,
                rotation,
            } => {
                let joint = skeleton.site(*site).joint;
                put3(e, row, &(target - fk.site_position(*site)));
                fk.site_jacobian(skeleton, *site, columns, j, row);
                let current = fk.joint_rotation(joint);
                put3(
                    e,
                    row + 3,
                    &rotation_vector(&(rotation * current.transpose())),
                );
                fk.orientation_jacobian(skeleton, joint, columns, j, row + 3);
            }
            GoalKind::CenterOfMass { target, axes } => {
                let d = target - fk.center_of_mass();
                fk.com_jacobian(skeleton, columns, &mut scratch.a, 0);
                for (r, k) in (row..).zip((0..3).filter(|&k| axes[k])) {
                    e[r] = d[k];
                    for c in 0..columns.len() {
                        j[(r, c)] = scratch.a[(k, c)];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_vector_agrees_with_nalgebra_and_survives_rounding() {
        // Tiny angles keep their size (nalgebra's scaled_axis rounds them to zero).
        let tiny = Rotation3::from_axis_angle(&Vector3::x_axis(), 1e-9);
        assert!((rotation_vector(tiny.matrix()) - Vector3::new(1e-9, 0.0, 0.0)).norm() < 1e-20);
        for (roll, pitch, yaw) in [(0.3, -1.2, 2.0), (3.0, 0.1, -0.4), (0.0, 0.0, 3.1)] {
            let r = Rotation3::from_euler_angles(roll, pitch, yaw);
            let ours = rotation_vector(r.matrix());
            assert!(
                (ours - r.scaled_axis()).norm() < 1e-9,
                "{ours} vs {}",
                r.scaled_axis()
            );
        }
        // R·Rᵀ of a rotation: the identity with rounding noise, trace possibly just above 3.
        let r = Rotation3::from_euler_angles(0.7, -2.1, 1.3).into_inner();
        let near_identity = r * r.transpose();
        assert!(rotation_vector(&near_identity).norm() < 1e-12);
        // Half turns, where the skew part vanishes.
        for axis in [Vector3::x_axis(), Vector3::y_axis(), Vector3::z_axis()] {
            let half = Rotation3::from_axis_angle(&axis, std::f64::consts::PI);
            let v = rotation_vector(half.matrix());
            assert!((v.norm() - std::f64::consts::PI).abs() < 1e-9);
            assert!((v.normalize().dot(&axis).abs() - 1.0).abs() < 1e-9);
        }
    }
}
