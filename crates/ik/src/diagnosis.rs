//! Why a goal is unmet after a solve (issue 15): beyond the chain's reach (by how much), held
//! back by joints pressed against their limits (which), still closing in when the update budget
//! ran out, or stalled (which the driver's escape should prevent).

use marionette_skeleton::{DofId, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::Vector3;

use crate::goal::{GoalKind, TargetShape};
use crate::system::System;

/// Why one goal is not met.
#[derive(Debug, Clone, PartialEq)]
pub enum Shortfall {
    /// The target lies beyond what the moving joints can reach: `by` metres further from the
    /// chain's base than the chain can stretch.
    OutOfReach {
        /// How far beyond the reach (metres).
        by: f64,
    },
    /// Joints pressed against a limit, which the goal pulls further out: they hold it back.
    HeldByLimits {
        /// The DOFs at a limit that the goal pulls through it, in chain order.
        dofs: Vec<DofId>,
    },
    /// Still closing in when the update budget ran out (the next frame goes on).
    Converging,
    /// No update gains and no reason above applies.
    Stalled,
}

impl Shortfall {
    /// The word the JSON output uses.
    pub fn label(&self) -> &'static str {
        match self {
            Shortfall::OutOfReach { .. } => "out_of_reach",
            Shortfall::HeldByLimits { .. } => "held_by_limits",
            Shortfall::Converging => "converging",
            Shortfall::Stalled => "stalled",
        }
    }

    /// A short sentence for a status bar, naming joints by the skeleton's names.
    pub fn describe(&self, skeleton: &Skeleton) -> String {
        match self {
            Shortfall::OutOfReach { by } => format!("out of reach by {:.1} mm", by * 1e3),
            Shortfall::HeldByLimits { dofs } => {
                let mut names: Vec<&str> = dofs
                    .iter()
                    .map(|&d| skeleton.joint(skeleton.dof(d).joint).name.as_str())
                    .collect();
                names.dedup();
                format!("held by the limits of {}", names.join(", "))
            }
            Shortfall::Converging => "still moving".into(),
            Shortfall::Stalled => "stalled".into(),
        }
    }
}

/// How far the point `local` of `joint` can be from the origin of the highest joint that moves
/// it, at most: the lengths of the links between them plus the travel of their slides. `None`
/// when the root translation moves it (no bound) or nothing in the chain moves it.
fn reach_bound(
    system: &System<'_>,
    joint: JointId,
    local: &Vector3<f64>,
) -> Option<(JointId, f64)> {
    let s = system.skeleton();
    let mut top: Option<JointId> = None;
    for &state in system.chain().columns() {
        let k = state.checked_sub(ROOT_STATE_LEN)?;
        let owner = s.dofs()[k].joint;
        if s.is_ancestor_or_self(owner, joint) && top.is_none_or(|t| owner < t) {
            top = Some(owner);
        }
    }
    let top = top?;
    let mut bound = local.norm();
    for j in s.path_to_root(joint) {
        for d in s.joint(j).dofs.clone() {
            let dof = &s.dofs()[d];
            if dof.kind == marionette_skeleton::DofKind::Slide {
                bound += 2.0 * dof.min.abs().max(dof.max.abs());
            }
        }
        if j == top {
            break;
        }
        bound += s.joint(j).offset.norm();
    }
    Some((top, bound))
}

/// How far a position-like goal's target lies beyond its chain's reach, if it does.
fn beyond_reach(system: &System<'_>, kind: &GoalKind) -> Option<f64> {
    let s = system.skeleton();
    let (joint, local, target, shape) = match kind {
        GoalKind::Position { site, target } => (
            s.site(*site).joint,
            s.site(*site).offset,
            *target,
            TargetShape::Point,
        ),
        GoalKind::Point {
            joint,
            offset,
            target,
            shape,
        } => (*joint, *offset, *target, *shape),
        _ => return None,
    };
    let (top, bound) = reach_bound(system, joint, &local)?;
    // From the chain's base to the target, or to the nearest point of a drag's line or a
    // floor's plane.
    let r = target - system.fk().joint_position(top);
    let distance = shape.counted(&r).norm();
    let beyond = distance - bound;
    (beyond > 0.0).then_some(beyond)
}

/// The DOFs at a limit that goal `g`'s gradient pulls through it (the system evaluated with
/// its Jacobian at `q`).
fn held_by_limits(system: &System<'_>, g: usize, q: &[f64]) -> Vec<DofId> {
    let s = system.skeleton();
    let rows = system.goal_rows()[g].clone();
    let columns = system.chain().columns();
    let pull = |c: usize| -> f64 { rows.clone().map(|r| system.j[(r, c)] * system.e[r]).sum() };
    let strongest = (0..columns.len())
        .map(|c| pull(c).abs())
        .fold(0.0, f64::max);
    if strongest <= 0.0 {
        return Vec::new();
    }
    columns
        .iter()
        .enumerate()
        .filter_map(|(c, &state)| {
            let dof_id = s.dof_at_state(state)?;
            let dof = s.dof(dof_id);
            if dof.unlimited {
                return None;
            }
            let p = pull(c);
            let outward = (q[state] <= dof.min && p < 0.0) || (q[state] >= dof.max && p > 0.0);
            (outward && p.abs() > 1e-3 * strongest).then_some(dof_id)
        })
        .collect()
}

/// Each goal's shortfall (`None` where the goal is met) at `q`, where `system` is evaluated with
/// its Jacobian; `gaining` tells whether the last update still lowered the largest error.
pub(crate) fn diagnose_into(
    system: &System<'_>,
    q: &[f64],
    tolerance: f64,
    gaining: bool,
    out: &mut Vec<Option<Shortfall>>,
) {
    out.clear();
    for (g, goal) in system.goals().iter().enumerate() {
        let error = system.goal_errors()[g];
        if error <= tolerance {
            out.push(None);
            continue;
        }
        let shortfall = if let Some(by) = beyond_reach(system, &goal.kind) {
            Shortfall::OutOfReach { by }
        } else if gaining {
            Shortfall::Converging
        } else {
            let dofs = held_by_limits(system, g, q);
            if dofs.is_empty() {
                Shortfall::Stalled
            } else {
                Shortfall::HeldByLimits { dofs }
            }
        };
        out.push(Some(shortfall));
    }
}

/// True when every unmet goal lies beyond its chain's reach (no restart can help).
pub(crate) fn all_beyond_reach(system: &System<'_>, tolerance: f64) -> bool {
    system
        .goals()
        .iter()
        .zip(system.goal_errors())
        .filter(|(_, e)| **e > tolerance)
        .all(|(g, _)| beyond_reach(system, &g.kind).is_some())
}
