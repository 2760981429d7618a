//! The analytic limb solver of Tolani, Goswami & Badler (2000): exact, repeatable, and
//! independent of the start pose, for chains that form a human limb ([`limb::Limb`]).
//!
//! Status: position and position + orientation goals on the limb's wrist, swivel angle chosen by
//! the caller ([`limb::Swivel`]), both elbow families and both shoulder and wrist families. Joint
//! limits choose among the eight family combinations at the requested swivel angle; the analytic
//! swivel intervals of the paper (§3.2.4) and the aiming and partial-orientation goals are not
//! implemented yet, so a goal reachable within limits only at another swivel angle is solved
//! with the DOFs clamped.

pub mod euler;
pub mod limb;

use marionette_skeleton::Skeleton;
use nalgebra::{Matrix3, Vector3};

use crate::goal::GoalKind;
use crate::solver::{Solver, StepInfo};
use crate::system::System;
use limb::{Limb, LimbGoal, Swivel};

/// The analytic limb solver.
#[derive(Debug, Clone, Default)]
pub struct AnalyticLimb {
    /// The swivel angle to use and what it is measured from.
    pub swivel: Swivel,
    /// The last limb detection, successful or not, and the skeleton (by address) and chain it was
    /// made for, so `supports` and `step` detect once per system.
    detection: Option<Result<Limb, String>>,
    detected_for: (usize, Vec<usize>),
    start: Vec<f64>,
}

impl AnalyticLimb {
    /// The limb of the system's chain (detected once and cached), or why there is none.
    fn detect(&mut self, system: &System<'_>) -> &Result<Limb, String> {
        let key = std::ptr::from_ref(system.skeleton()) as usize;
        let columns = system.chain().columns();
        if self.detection.is_none()
            || self.detected_for.0 != key
            || self.detected_for.1[..] != columns[..]
        {
            self.detection = Some(Limb::detect(system.skeleton(), columns));
            self.detected_for.0 = key;
            self.detected_for.1.clear();
            self.detected_for.1.extend_from_slice(columns);
        }
        self.detection.get_or_insert_with(|| Err("no limb".into()))
    }
}

/// The limb goal the system's goals describe, if they describe one.
fn limb_goal(skeleton: &Skeleton, limb: &Limb, system: &System<'_>) -> Result<LimbGoal, String> {
    let wrist = limb.joints[2];
    let mut position: Option<(Vector3<f64>, Vector3<f64>)> = None;
    let mut orientation: Option<Matrix3<f64>> = None;
    for g in system.goals() {
        match &g.kind {
            GoalKind::Position { site, target }
                if skeleton.site(*site).joint == wrist && position.is_none() =>
            {
                position = Some((*target, skeleton.site(*site).offset));
            }
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } if *joint == wrist
                && axes.iter().filter(|&&a| a).count() >= 2
                && orientation.is_none() =>
            {
                orientation = Some(*target);
            }
            other => {
                return Err(format!(
                    "the analytic limb solver takes a position goal on the wrist joint's sites and an optional full orientation of the wrist, not a {} goal here",
                    other.label()
                ));
            }
        }
    }
    let Some((position, point)) = position else {
        return Err(
            "the analytic limb solver needs a position goal on a site of the limb's last joint"
                .into(),
        );
    };
    Ok(LimbGoal {
        position,
        point,
        orientation,
    })
}

impl Solver for AnalyticLimb {
    fn name(&self) -> &'static str {
        "analytic"
    }

    fn supports(&mut self, system: &System<'_>) -> Result<(), String> {
        let limb = self.detect(system).clone()?;
        limb_goal(system.skeleton(), &limb, system).map(|_| ())
    }

    fn prepare(&mut self, _rows: usize, _columns: usize) {}

    fn needs_jacobian(&self) -> bool {
        false
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let skeleton = system.skeleton();
        let Ok(limb) = self.detect(system) else {
            return StepInfo::default();
        };
        let limb = limb.clone();
        let limb = &limb;
        let Ok(goal) = limb_goal(skeleton, limb, system) else {
            return StepInfo::default();
        };
        let dofs = skeleton.dofs();
        let within = |angles: &[f64; 7]| {
            limb.columns
                .iter()
                .zip(angles)
                .all(|(&c, &v)| dofs[c - marionette_skeleton::ROOT_STATE_LEN].within_limits(v))
        };
        // A position goal keeps the wrist angles (Tolani §3.2.3); if the target is out of reach
        // that way, the wrist is straightened (all its angles 0: the longest reach), then folded
        // so forearm and hand match the upper arm (the shortest reach). The fallback starts are
        // built only when needed, in a reused buffer.
        let attempts = if goal.orientation.is_none() { 3 } else { 1 };
        let mut best: Option<limb::LimbSolution> = None;
        'attempts: for attempt in 0..attempts {
            if attempt > 0 {
                self.start.clear();
                self.start.extend_from_slice(q);
                let wrist = match attempt {
                    1 => Some([0.0; 3]),
                    _ => limb.folded_wrist(&goal.point),
                };
                let Some(wrist) = wrist else { continue };
                for (&c, v) in limb.columns[4..].iter().zip(wrist) {
                    self.start[c] = dofs[c - marionette_skeleton::ROOT_STATE_LEN].clamp(v);
                }
            }
            let start: &[f64] = if attempt == 0 { q } else { &self.start };
            for elbow in 0..2 {
                for shoulder in 0..2 {
                    for wrist in 0..2 {
                        let s = limb.solve(
                            skeleton,
                            system.fk(),
                            start,
                            &goal,
                            &self.swivel,
                            elbow,
                            shoulder,
                            wrist,
                        );
                        let better = match &best {
                            None => true,
                            Some(b) => {
                                (s.reachable && !b.reachable)
                                    || (s.reachable == b.reachable
                                        && within(&s.angles)
                                        && !within(&b.angles))
                            }
                        };
                        if better {
                            best = Some(s);
                        }
                        if s.reachable && within(&s.angles) {
                            break 'attempts;
                        }
                    }
                }
            }
        }
        if let Some(solution) = best {
            for (c, v) in solution.angles.iter().enumerate() {
                system.set_column(q, c, *v);
            }
        }
        StepInfo::default()
    }
}
