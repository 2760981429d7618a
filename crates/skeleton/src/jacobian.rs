//! Analytic Jacobians of a point, a joint frame's orientation and the centre of mass.
//!
//! Columns follow Buss ("Introduction to inverse kinematics with Jacobian transpose, pseudoinverse and damped least squares methods", 2009, §2) and Welman (1993, ch. 4,
//! "Computing the Jacobian"): for a revolute DOF with world axis a and pivot
//! p, the column of a point x is a × (x − p) and the angular column is a; for a prismatic DOF the
//! point column is a and the angular column is 0; the root translation moves every point by the
//! identity. A DOF moves a point only when its joint is the point's joint or an ancestor of it.
//!
//! Each function writes 3 rows (`row .. row + 3`) of `out`, one column per entry of `columns`
//! (state indices, as [`crate::Chain::columns`] gives them or `0..state_len` for the whole
//! state), so goals can stack their rows into one solver matrix. Nothing is allocated.

use nalgebra::{DMatrix, Vector3};

use crate::fk::Fk;
use crate::model::{DofKind, JointId, ROOT_STATE_LEN, SiteId, Skeleton};

/// Writes a column's 3 entries into `out[row..row+3, col]`.
#[inline]
fn put(out: &mut DMatrix<f64>, row: usize, col: usize, v: &Vector3<f64>) {
    out[(row, col)] = v.x;
    out[(row + 1, col)] = v.y;
    out[(row + 2, col)] = v.z;
}

impl Fk {
    /// Jacobian of a world point rigidly attached to `joint` (e.g. a site, or a picked point).
    pub fn point_jacobian(
        &self,
        skeleton: &Skeleton,
        joint: JointId,
        point: &Vector3<f64>,
        columns: &[usize],
        out: &mut DMatrix<f64>,
        row: usize,
    ) {
        let dofs = skeleton.dofs();
        for (col, &state) in columns.iter().enumerate() {
            let v = if state < ROOT_STATE_LEN {
                Vector3::ith(state, 1.0)
            } else {
                let k = state - ROOT_STATE_LEN;
                let dof = &dofs[k];
                if !skeleton.is_ancestor_or_self(dof.joint, joint) {
                    Vector3::zeros()
                } else {
                    match dof.kind {
                        DofKind::Hinge => self.dof_axis[k].cross(&(point - self.dof_pivot[k])),
                        DofKind::Slide => self.dof_axis[k],
                    }
                }
            };
            put(out, row, col, &v);
        }
    }

    /// Jacobian of a site's world position.
    pub fn site_jacobian(
        &self,
        skeleton: &Skeleton,
        site: SiteId,
        columns: &[usize],
        out: &mut DMatrix<f64>,
        row: usize,
    ) {
        let joint = skeleton.site(site).joint;
        let point = self.site_position[site.0];
        self.point_jacobian(skeleton, joint, &point, columns, out, row);
    }

    /// Angular-velocity Jacobian of a joint frame: ω = J·q̇ (zero columns for slides and the root).
    pub fn orientation_jacobian(
        &self,
        skeleton: &Skeleton,
        joint: JointId,
        columns: &[usize],
        out: &mut DMatrix<f64>,
        row: usize,
    ) {
        let dofs = skeleton.dofs();
        for (col, &state) in columns.iter().enumerate() {
            let v = match state.checked_sub(ROOT_STATE_LEN) {
                Some(k)
                    if dofs[k].kind == DofKind::Hinge
                        && skeleton.is_ancestor_or_self(dofs[k].joint, joint) =>
                {
                    self.dof_axis[k]
                }
                _ => Vector3::zeros(),
            };
            put(out, row, col, &v);
        }
    }

    /// Jacobian of the centre of mass. A DOF moves the mass of its joint's subtree, so its column
    /// is a × (Sⱼ − Mⱼ·p) / M for a hinge and a·Mⱼ/M for a slide, where Sⱼ is the subtree's mass
    /// moment, Mⱼ its mass and M the total: O(1) per column.
    pub fn com_jacobian(
        &self,
        skeleton: &Skeleton,
        columns: &[usize],
        out: &mut DMatrix<f64>,
        row: usize,
    ) {
        let dofs = skeleton.dofs();
        let total = skeleton.subtree_mass[0];
        for (col, &state) in columns.iter().enumerate() {
            let v = if state < ROOT_STATE_LEN {
                Vector3::ith(state, 1.0)
            } else {
                let k = state - ROOT_STATE_LEN;
                let j = dofs[k].joint.0;
                let mass = skeleton.subtree_mass[j];
                match dofs[k].kind {
                    DofKind::Hinge => {
                        self.dof_axis[k].cross(&(self.subtree_moment[j] - self.dof_pivot[k] * mass))
                            / total
                    }
                    DofKind::Slide => self.dof_axis[k] * (mass / total),
                }
            };
            put(out, row, col, &v);
        }
    }
}
