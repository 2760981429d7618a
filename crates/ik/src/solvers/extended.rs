//! Šoch & Lórencz's extended Jacobian, in its published planar form (Acta Polytechnica 45(2),
//! 2005, §2): a serial chain of parallel hinges is treated as overlapping "basic elements", pairs
//! of consecutive segments i : i+2, each described by the vector from its first joint to its end.
//! Two rows per element (the derivatives of that vector by its two angles, in the element's own
//! frame) are added under the two rows of the main link (base to effector), giving a 2n × n
//! Jacobian of full rank n even where the plain Jacobian is singular. The displacement of each
//! element is set to zero ("we minimise the movement of the inner parts"), and the extended system
//! is solved in the least-squares sense. Its steps stay small where the pseudo-inverse jumps.
//!
//! Applies to one position goal on a planar serial chain of hinges; [`Solver::supports`] says why
//! anything else is refused.

use marionette_skeleton::{DofKind, ROOT_STATE_LEN};
use nalgebra::{DMatrix, DVector, Vector3};

use crate::goal::GoalKind;
use crate::linalg::cholesky_solve_in_place;
use crate::solver::{Solver, StepInfo};
use crate::system::System;

/// The extended-Jacobian solver.
#[derive(Debug, Clone)]
pub struct ExtendedJacobian {
    /// Weight of the basic elements' rows relative to the main link's.
    pub inner_weight: f64,
    normal: DMatrix<f64>,
    rhs: DVector<f64>,
    rows: DMatrix<f64>,
    points: Vec<Vector3<f64>>,
}

impl Default for ExtendedJacobian {
    fn default() -> Self {
        ExtendedJacobian {
            inner_weight: 1.0,
            normal: DMatrix::zeros(0, 0),
            rhs: DVector::zeros(0),
            rows: DMatrix::zeros(0, 0),
            points: Vec::new(),
        }
    }
}

/// Unit vectors spanning the plane perpendicular to `axis`.
fn plane_basis(axis: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let helper = if axis.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let b1 = axis.cross(&helper).normalize();
    (b1, axis.cross(&b1))
}

impl Solver for ExtendedJacobian {
    fn name(&self) -> &'static str {
        "extended"
    }

    fn supports(&mut self, system: &System<'_>) -> Result<(), String> {
        let skeleton = system.skeleton();
        let [goal] = system.goals() else {
            return Err("the extended Jacobian takes exactly one goal".into());
        };
        let GoalKind::Position { site, .. } = goal.kind else {
            return Err("the extended Jacobian takes a position goal".into());
        };
        let fk = system.fk();
        let mut axis: Option<Vector3<f64>> = None;
        let mut previous = None;
        for &state in system.chain().columns() {
            let Some(k) = state.checked_sub(ROOT_STATE_LEN) else {
                return Err("the extended Jacobian does not move the root".into());
            };
            let dof = &skeleton.dofs()[k];
            let name = &skeleton.joint(dof.joint).name;
            if dof.kind != DofKind::Hinge {
                return Err(format!(
                    "joint \"{name}\" slides; the extended Jacobian needs hinges"
                ));
            }
            let a = fk.dof_axis(skeleton.dof_at_state(state).ok_or("bad column")?);
            match axis {
                Some(first) if first.cross(&a).norm() > 1e-9 => {
                    return Err(format!(
                        "joint \"{name}\" is not parallel to the others: the chain is not planar"
                    ));
                }
                None => axis = Some(a),
                _ => {}
            }
            if let Some(p) = previous
                && !skeleton.is_ancestor_or_self(p, dof.joint)
            {
                return Err(format!(
                    "joint \"{name}\" is not below the previous one: the chain is not serial"
                ));
            }
            previous = Some(dof.joint);
        }
        if system.chain().len() < 2 {
            return Err("the extended Jacobian needs at least two joints".into());
        }
        match previous {
            Some(p) if skeleton.is_ancestor_or_self(p, skeleton.site(site).joint) => Ok(()),
            _ => Err("the goal's site is not at the end of the chain".into()),
        }
    }

    fn prepare(&mut self, _rows: usize, columns: usize) {
        self.normal = DMatrix::zeros(columns, columns);
        self.rhs = DVector::zeros(columns);
        self.rows = DMatrix::zeros(2 * columns, columns);
        self.points = vec![Vector3::zeros(); columns + 1];
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        if self.supports(system).is_err() {
            return StepInfo::default();
        }
        let n = system.shape().1;
        if self.normal.nrows() != n {
            self.prepare(0, n);
        }
        let skeleton = system.skeleton();
        let fk = system.fk();
        let GoalKind::Position { site, .. } = system.goals()[0].kind else {
            return StepInfo::default();
        };
        let first = skeleton
            .dof_at_state(system.chain().columns()[0])
            .expect("a DOF column");
        let axis = fk.dof_axis(first);
        let (b1, b2) = plane_basis(&axis);
        for (c, &state) in system.chain().columns().iter().enumerate() {
            self.points[c] = fk.dof_pivot(skeleton.dof_at_state(state).expect("a DOF column"));
        }
        self.points[n] = fk.site_position(site);
        // Rows 0–1: the main link (the goal's rows projected on the plane); e as the same projection.
        self.rows.fill(0.0);
        let e3 = Vector3::new(system.e[0], system.e[1], system.e[2]);
        let dx = [b1.dot(&e3), b2.dot(&e3)];
        for c in 0..n {
            let col = Vector3::new(system.j[(0, c)], system.j[(1, c)], system.j[(2, c)]);
            self.rows[(0, c)] = b1.dot(&col);
            self.rows[(1, c)] = b2.dot(&col);
        }
        // Two rows per basic element i : i+2 (the last element ends at the effector).
        let w = self.inner_weight;
        for i in 0..n - 1 {
            let end = self.points[(i + 2).min(n)];
            let by_first = axis.cross(&(end - self.points[i]));
            let by_second = axis.cross(&(end - self.points[i + 1]));
            let r = 2 + 2 * i;
            self.rows[(r, i)] = w * b1.dot(&by_first);
            self.rows[(r + 1, i)] = w * b2.dot(&by_first);
            self.rows[(r, i + 1)] = w * b1.dot(&by_second);
            self.rows[(r + 1, i + 1)] = w * b2.dot(&by_second);
        }
        // Least squares: (JᵀJ) Δq = Jᵀ [dx; 0].
        let rows = 2 * n;
        for a in 0..n {
            for b in 0..=a {
                let s: f64 = (0..rows)
                    .map(|r| self.rows[(r, a)] * self.rows[(r, b)])
                    .sum();
                self.normal[(a, b)] = s;
                self.normal[(b, a)] = s;
            }
            self.rhs[a] = self.rows[(0, a)] * dx[0] + self.rows[(1, a)] * dx[1];
        }
        if !cholesky_solve_in_place(&mut self.normal, &mut self.rhs) {
            return StepInfo::default();
        }
        system.apply_step(q, &self.rhs);
        StepInfo::default()
    }
}
