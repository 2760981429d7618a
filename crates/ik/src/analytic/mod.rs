//! The analytic limb solver of Tolani, Goswami & Badler (2000): exact, repeatable, and
//! independent of the start pose, for chains that form a human limb ([`limb::Limb`]).
//!
//! Status: position and position + orientation goals on the limb's wrist; both elbow families and
//! both shoulder and wrist families; with joint limits, the swivel intervals in closed form
//! ([`intervals`]) and φ chosen as the middle of the widest or the valid angle nearest a desired
//! one ([`SwivelPolicy`]). Not yet: aiming and partial-orientation goals, a desired elbow position,
//! and the paper's constrained optimisation for goals reachable only outside the limits (those are
//! solved with the best family clamped to the limits).

pub mod euler;
pub mod intervals;
pub mod limb;

use marionette_skeleton::Skeleton;
use nalgebra::{Matrix3, Vector3};

use crate::goal::GoalKind;
use crate::solver::{Solver, StepInfo, SwivelReport};
use crate::system::System;
use limb::{Limb, LimbGoal, Swivel};

/// How the swivel angle is chosen among the valid ones (Tolani §3.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SwivelPolicy {
    /// The middle of the widest valid interval: clear of the limits, and a function of the goal
    /// alone.
    #[default]
    Widest,
    /// The valid angle nearest to `Swivel::angle` (an animator's chosen swivel, or the current one
    /// for continuity while dragging).
    Nearest,
}

/// The analytic limb solver.
#[derive(Debug, Clone, Default)]
pub struct AnalyticLimb {
    /// The swivel angle to use (with [`SwivelPolicy::Nearest`]; and on unlimited limbs) and what
    /// it is measured from.
    pub swivel: Swivel,
    /// How the swivel angle is chosen when the limb has limits.
    pub policy: SwivelPolicy,
    /// A world point the elbow should come nearest to (Tolani §3.2.2): when set, the swivel is
    /// the valid angle nearest to the one that points the elbow there.
    pub elbow_target: Option<Vector3<f64>>,
    work: Workspace,
    /// The last limb detection, successful or not, and the skeleton (by address) and chain it was
    /// made for, so `supports` and `step` detect once per system.
    detection: Option<Result<Limb, String>>,
    detected_for: (usize, Vec<usize>),
}

/// Buffers reused from step to step, and what the last step chose.
#[derive(Debug, Clone, Default)]
struct Workspace {
    start: Vec<f64>,
    scratch: Vec<f64>,
    arcs: [Vec<intervals::Arc>; 4],
    last_arcs: Vec<intervals::Arc>,
    last_swivel: Option<f64>,
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
        match self.detect(system) {
            Ok(limb) => limb_goal(system.skeleton(), limb, system).map(|_| ()),
            Err(why) => Err(why.clone()),
        }
    }

    fn prepare(&mut self, _rows: usize, _columns: usize) {}

    fn needs_jacobian(&self) -> bool {
        false
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        let skeleton = system.skeleton();
        self.detect(system);
        let (Some(Ok(limb)), work, swivel, policy, elbow_target) = (
            &self.detection,
            &mut self.work,
            self.swivel,
            self.policy,
            self.elbow_target,
        ) else {
            return StepInfo::default();
        };
        let Ok(goal) = limb_goal(skeleton, limb, system) else {
            return StepInfo::default();
        };
        let dofs = skeleton.dofs();
        let limits: [Option<(f64, f64)>; 7] = std::array::from_fn(|k| {
            let d = &dofs[limb.columns[k] - marionette_skeleton::ROOT_STATE_LEN];
            (!d.unlimited).then_some((d.min, d.max))
        });
        // A position goal keeps the wrist angles (Tolani §3.2.3); if the target is out of reach
        // that way, the wrist is straightened (all its angles 0: the longest reach), then folded
        // so forearm and hand match the upper arm (the shortest reach). The fallback starts are
        // built only when needed, in a reused buffer.
        let attempts = if goal.orientation.is_none() { 3 } else { 1 };
        let mut fallback: Option<[f64; 7]> = None;
        work.last_arcs.clear();
        work.last_swivel = None;
        let mut buffer = std::mem::take(&mut work.start);
        let mut chosen = None;
        for attempt in 0..attempts {
            if attempt > 0 {
                buffer.clear();
                buffer.extend_from_slice(q);
                let wrist = match attempt {
                    1 => Some([0.0; 3]),
                    _ => limb.folded_wrist(&goal.point),
                };
                let Some(wrist) = wrist else { continue };
                for (&c, v) in limb.columns[4..].iter().zip(wrist) {
                    buffer[c] = dofs[c - marionette_skeleton::ROOT_STATE_LEN].clamp(v);
                }
            }
            let start: &[f64] = if attempt == 0 { q } else { &buffer };
            let (swivel, policy) = match elbow_target {
                Some(point) => {
                    let g = limb.geometry(skeleton, system.fk(), start, &goal, 0);
                    let angle = limb.swivel_toward(&g, &swivel.reference, &point);
                    (Swivel { angle, ..swivel }, SwivelPolicy::Nearest)
                }
                None => (swivel, policy),
            };
            chosen = work.choose(
                limb,
                system,
                start,
                &goal,
                (&limits, swivel, policy),
                &mut fallback,
            );
            if chosen.is_some() {
                break;
            }
        }
        work.start = buffer;
        // Reachable only outside the limits, or not at all: the best family, clamped.
        if let Some(angles) = chosen.or(fallback) {
            for (c, v) in angles.iter().enumerate() {
                system.set_column(q, c, *v);
            }
        }
        StepInfo::default()
    }

    fn swivel_report(&self) -> Option<SwivelReport> {
        self.work.last_swivel.map(|angle| SwivelReport {
            angle,
            intervals: self
                .work
                .last_arcs
                .iter()
                .map(|a| (a.start, a.end))
                .collect(),
        })
    }
}

impl Workspace {
    /// The solution for one start (wrist angles), or `None` when it is out of reach or has no
    /// valid swivel; `fallback` keeps the best clamped candidate seen.
    fn choose(
        &mut self,
        limb: &Limb,
        system: &System<'_>,
        start: &[f64],
        goal: &LimbGoal,
        (limits, swivel, policy): (&[Option<(f64, f64)>; 7], Swivel, SwivelPolicy),
        fallback: &mut Option<[f64; 7]>,
    ) -> Option<[f64; 7]> {
        let skeleton = system.skeleton();
        let wrist_families = if goal.orientation.is_some() { 2 } else { 1 };
        let unlimited = limits.iter().all(Option::is_none);
        // (width, φ, elbow, shoulder, wrist) of the best choice so far.
        let mut best: Option<(f64, f64, usize, usize, usize)> = None;
        let mut geometries = [None, None];
        for (elbow, slot) in geometries.iter_mut().enumerate() {
            let g = limb.geometry(skeleton, system.fk(), start, goal, elbow);
            if fallback.is_none() || g.reachable {
                *fallback = Some(limb.angles(&g, &swivel, 0, 0));
            }
            if !g.reachable {
                continue;
            }
            if unlimited {
                self.last_swivel = Some(swivel.angle);
                self.last_arcs.clear();
                self.last_arcs.push(intervals::Arc {
                    start: -std::f64::consts::PI,
                    end: std::f64::consts::PI,
                });
                return Some(limb.angles(&g, &swivel, 0, 0));
            }
            limb.swivel_arcs_all(
                &g,
                &swivel.reference,
                limits,
                &mut self.scratch,
                &mut self.arcs,
            );
            for shoulder in 0..2 {
                for wrist in 0..wrist_families {
                    let arcs = &self.arcs[2 * shoulder + wrist];
                    for arc in arcs {
                        let (score, phi) = match policy {
                            SwivelPolicy::Widest => (arc.width(), arc.middle()),
                            SwivelPolicy::Nearest => {
                                let phi = nearest_in(arc, swivel.angle);
                                (-crate::system::wrap_angle(phi - swivel.angle).abs(), phi)
                            }
                        };
                        if best.is_none_or(|b| score > b.0) {
                            best = Some((score, phi, elbow, shoulder, wrist));
                            self.last_arcs.clone_from(arcs);
                        }
                    }
                }
            }
            *slot = Some(g);
        }
        let (_, phi, elbow, shoulder, wrist) = best?;
        let g = geometries[elbow]?;
        self.last_swivel = Some(phi);
        let swivel = Swivel {
            angle: phi,
            reference: swivel.reference,
        };
        Some(limb.angles(&g, &swivel, shoulder, wrist))
    }
}

/// The point of `arc` nearest to `phi`, nudged inside the arc's ends.
fn nearest_in(arc: &intervals::Arc, phi: f64) -> f64 {
    if arc.contains(phi) {
        return phi;
    }
    let inset = 1e-9_f64.min(0.25 * arc.width());
    let (a, b) = (arc.start + inset, arc.end - inset);
    let da = crate::system::wrap_angle(phi - a).abs();
    let db = crate::system::wrap_angle(phi - b).abs();
    crate::system::wrap_angle(if da <= db { a } else { b })
}
