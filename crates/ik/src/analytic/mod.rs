//! The analytic limb solver of Tolani, Goswami & Badler (2000): exact, repeatable, and
//! independent of the start pose, for chains that form a human limb ([`limb::Limb`]).
//!
//! Goals on the limb's wrist: position (the wrist angles kept, then straightened or folded when
//! that is out of reach), position + orientation, position + one held axis (the twist ψ about it
//! searched, §4.2), and aiming (the elbow kept or searched, §4.3–4.4); a desired swivel angle or
//! elbow position (§3.2.2). Both elbow families and both shoulder and wrist families. With joint
//! limits the valid swivel intervals are found in closed form ([`intervals`]) and φ is the middle
//! of the widest or the valid angle nearest the desired one ([`SwivelPolicy`]). A goal reachable
//! only outside the limits first gets the family and swivel with the least limit excess, clamped,
//! and one out of reach the closest stretch; the following updates refine either by a bounded
//! optimisation within the limits, as the paper does (`refine`). Each solve reports which case it
//! was ([`Reach`]).

pub use marionette_skeleton::euler;
pub mod intervals;
pub mod limb;
pub mod ranges;
mod refine;

use marionette_skeleton::Skeleton;
use nalgebra::{Matrix3, Vector3};

use crate::goal::{GoalKind, TargetShape};
use crate::solver::{Needs, Reach, Solver, StepInfo, SwivelReport};
use crate::system::System;
use limb::{AimGoal, Geometry, KeptWrist, Limb, LimbGoal, Placement, Swivel};
use ranges::LimbLimits;

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

/// How an aiming goal treats the elbow angle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AimElbow {
    /// θ4 is chosen with φ to keep the joints nearest the middle of their ranges.
    #[default]
    Free,
    /// θ4 stays as it is; only the swivel (and the shoulder) move.
    Keep,
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
    /// For aiming goals: keep the current elbow angle, or choose it (Tolani §4.4).
    pub aim_elbow: AimElbow,
    work: Workspace,
    /// The last limb detection, successful or not, and the skeleton (by address) and chain it was
    /// made for, so `supports` and `step` detect once per system.
    detection: Option<Result<Limb, String>>,
    detected_for: (usize, Vec<usize>),
    /// The detected limb's joint limits (made with the detection).
    limits: LimbLimits,
    refinement: refine::Refinement,
}

/// Buffers reused from step to step, and what the last step chose.
#[derive(Debug, Clone, Default)]
struct Workspace {
    start: Vec<f64>,
    scratch: Vec<f64>,
    arcs: [Vec<intervals::Arc>; 4],
    last_arcs: Vec<intervals::Arc>,
    last_swivel: Option<f64>,
    last_reach: Option<Reach>,
    /// The kept wrist angles' work, reused while they stay (reset with the limb).
    kept: KeptWrist,
}

impl AnalyticLimb {
    /// The limb of the system's chain (detected once and cached), or why there is none.
    fn detect(&mut self, system: &System<'_>) -> &Result<Limb, String> {
        let key = std::ptr::from_ref(system.skeleton()) as usize;
        let columns = system.chain().columns();
        let same_columns = crate::linalg::same_words(&self.detected_for.1, columns);
        if self.detection.is_none() || self.detected_for.0 != key || !same_columns {
            self.detection = Some(Limb::detect(system.skeleton(), columns));
            self.work.kept = KeptWrist::default();
            if let Some(Ok(limb)) = &self.detection {
                self.limits = LimbLimits::of(system.skeleton(), &limb.columns);
            }
            self.detected_for.0 = key;
            self.detected_for.1.clear();
            self.detected_for.1.extend_from_slice(columns);
        }
        self.detection.get_or_insert_with(|| Err("no limb".into()))
    }
}

/// What the system's goals ask of the limb.
enum Target {
    /// A position goal, with an optional orientation; the held axis (index in the wrist frame)
    /// when the orientation holds only one axis.
    Reach(LimbGoal, Option<usize>),
    /// An aiming goal alone.
    Aim(AimGoal),
}

/// The limb target the system's goals describe, if they describe one.
fn limb_target(skeleton: &Skeleton, limb: &Limb, system: &System<'_>) -> Result<Target, String> {
    let wrist = limb.joints[2];
    if let [goal] = system.goals()
        && let GoalKind::Aim { site, axis, at } = &goal.kind
        && skeleton.site(*site).joint == wrist
    {
        return Ok(Target::Aim(AimGoal {
            point: skeleton.site(*site).offset,
            axis: *axis,
            at: *at,
        }));
    }
    limb_goal(skeleton, limb, system).map(|(g, held)| Target::Reach(g, held))
}

/// The goal of a limb solve, plus the held axis (index in the wrist frame) when the orientation
/// goal holds only one axis (position + partial orientation).
fn limb_goal(
    skeleton: &Skeleton,
    limb: &Limb,
    system: &System<'_>,
) -> Result<(LimbGoal, Option<usize>), String> {
    let wrist = limb.joints[2];
    let mut position: Option<(Vector3<f64>, Vector3<f64>)> = None;
    let mut orientation: Option<Matrix3<f64>> = None;
    let mut held: Option<usize> = None;
    for g in system.goals() {
        match &g.kind {
            GoalKind::Position { site, target }
                if skeleton.site(*site).joint == wrist && position.is_none() =>
            {
                position = Some((*target, skeleton.site(*site).offset));
            }
            GoalKind::Point {
                joint,
                offset,
                target,
                shape,
            } if *joint == wrist
                && position.is_none()
                && !matches!(shape, TargetShape::Plane(_)) =>
            {
                position = Some((*target, *offset));
            }
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } if *joint == wrist && orientation.is_none() => {
                orientation = Some(*target);
                if axes.iter().filter(|&&a| a).count() == 1 {
                    held = axes.iter().position(|&a| a);
                }
            }
            other => {
                return Err(format!(
                    "the analytic limb solver takes a position goal on the wrist joint's sites with an optional full or one-axis orientation of the wrist, or one aiming goal, not a {} goal here",
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
    Ok((
        LimbGoal {
            position,
            point,
            orientation,
        },
        held,
    ))
}

/// A step on a system that is not one limb with goals on its wrist.
const UNSUPPORTED: StepInfo = StepInfo {
    min_singular_value: None,
    unsupported: true,
};

impl Solver for AnalyticLimb {
    fn name(&self) -> &'static str {
        "analytic"
    }

    fn supports(&mut self, system: &System<'_>) -> Result<(), String> {
        match self.detect(system) {
            Ok(limb) => limb_target(system.skeleton(), limb, system).map(|_| ()),
            Err(why) => Err(why.clone()),
        }
    }

    fn prepare(&mut self, _rows: usize, _columns: usize) {}

    fn needs(&self) -> Needs {
        Needs::Goals
    }

    fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> StepInfo {
        if self.refinement.continues(system, q) {
            self.refinement.step(system, q);
            return StepInfo::default();
        }
        self.detect(system);
        if let Some(Ok(limb)) = &self.detection {
            system.update_ancestors(q, limb.joints[0]);
        }
        let skeleton = system.skeleton();
        let (Some(Ok(limb)), work, swivel, policy, elbow_target, aim_elbow) = (
            &self.detection,
            &mut self.work,
            self.swivel,
            self.policy,
            self.elbow_target,
            self.aim_elbow,
        ) else {
            return UNSUPPORTED;
        };
        let Ok(target) = limb_target(skeleton, limb, system) else {
            return UNSUPPORTED;
        };
        let choice = Choice {
            limits: self.limits,
            swivel,
            policy,
            elbow_target,
        };
        let angles = match target {
            Target::Reach(goal, Some(axis)) if goal.orientation.is_some() => {
                let frame = goal.orientation.unwrap_or_else(Matrix3::identity);
                work.solve_partial(limb, system, q, &goal, axis, frame, &choice)
            }
            Target::Reach(goal, _) => work
                .solve_goal(limb, system, q, &goal, &choice)
                .map(|(angles, _)| angles),
            Target::Aim(aim) => work.solve_aim(limb, system, q, &aim, aim_elbow, &choice),
        };
        if let Some(angles) = angles {
            for (c, v) in angles.iter().enumerate() {
                system.set_column(q, c, *v);
            }
            let exact = work.last_reach.is_none_or(|r| r == Reach::WithinLimits);
            self.refinement.answered(system, q, exact);
        }
        StepInfo::default()
    }

    fn swivel_report(&self, out: &mut Option<SwivelReport>) {
        let (Some(reach), Some(angle)) = (self.work.last_reach, self.work.last_swivel) else {
            *out = None;
            return;
        };
        let report = out.get_or_insert_with(|| SwivelReport {
            angle,
            reach,
            intervals: Vec::new(),
        });
        report.angle = angle;
        report.reach = reach;
        report.intervals.clear();
        report
            .intervals
            .extend(self.work.last_arcs.iter().map(|a| (a.start, a.end)));
    }
}

/// What the swivel choice depends on.
#[derive(Debug, Clone, Copy)]
struct Choice {
    limits: LimbLimits,
    swivel: Swivel,
    policy: SwivelPolicy,
    elbow_target: Option<Vector3<f64>>,
}

impl Workspace {
    /// Solves one goal: the angles, and whether they respect the limits (false: the best
    /// family clamped, for goals reachable only outside the limits or not at all).
    ///
    /// A position goal keeps the wrist angles (Tolani §3.2.3); if the target is out of reach
    /// that way, the wrist is straightened (all its angles 0: the longest reach), then folded so
    /// forearm and hand match the upper arm (the shortest reach). The fallback starts are built
    /// only when needed, in a reused buffer.
    fn solve_goal(
        &mut self,
        limb: &Limb,
        system: &System<'_>,
        q: &[f64],
        goal: &LimbGoal,
        choice: &Choice,
    ) -> Option<([f64; 7], bool)> {
        let skeleton = system.skeleton();
        let dofs = skeleton.dofs();
        let attempts = if goal.orientation.is_none() { 3 } else { 1 };
        let mut fallback: Option<(Geometry, Swivel)> = None;
        let first = limb.place(skeleton, system.fk(), q, goal, &mut self.kept);
        self.last_arcs.clear();
        self.last_swivel = None;
        let mut buffer = std::mem::take(&mut self.start);
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
            let other;
            let placement = if attempt == 0 {
                &first
            } else {
                other = limb.place(skeleton, system.fk(), &buffer, goal, &mut self.kept);
                &other
            };
            let (swivel, policy) = match choice.elbow_target {
                Some(point) => {
                    let g = limb.geometry_of(placement, 0);
                    let angle = limb.swivel_toward(&g, &choice.swivel.reference, &point);
                    (
                        Swivel {
                            angle,
                            ..choice.swivel
                        },
                        SwivelPolicy::Nearest,
                    )
                }
                None => (choice.swivel, choice.policy),
            };
            chosen = self.choose(
                limb,
                placement,
                (&choice.limits, swivel, policy),
                &mut fallback,
            );
            if chosen.is_some() {
                break;
            }
        }
        self.start = buffer;
        if let Some(angles) = chosen {
            self.last_reach = Some(Reach::WithinLimits);
            return Some((angles, true));
        }
        // Not within the limits: reachable at all? Then the solution nearest to the limits.
        let geometries = [0, 1].map(|elbow| {
            let g = limb.geometry_of(&first, elbow);
            g.reachable.then_some(g)
        });
        if geometries.iter().any(Option::is_some) {
            self.last_reach = Some(Reach::OutsideLimits);
            self.last_arcs.clear();
            let (angles, phi) =
                least_violation(limb, &geometries, &choice.limits.bounds, &choice.swivel);
            self.last_swivel = Some(phi);
            return Some((angles, false));
        }
        self.last_reach = Some(Reach::Unreachable);
        self.last_swivel = Some(choice.swivel.angle);
        self.last_arcs.clear();
        fallback.map(|(g, sw)| (limb.angles(&g, &sw, 0, 0), false))
    }

    /// Position + one held axis of the wrist frame (Tolani §4.2): a second free angle ψ turns the
    /// target frame about the held world axis; each ψ is a pose goal solved exactly, and ψ is
    /// chosen, as the paper does numerically, to keep the joints nearest the middle of their
    /// ranges (F = Σ ((θᵢ − θᵢ*) / half-rangeᵢ)², unlimited joints measured against 0 and π):
    /// a scan in 10° steps, then a golden-section search around the best step.
    #[allow(
        clippy::too_many_arguments,
        reason = "the goal, its held axis and the swivel choice"
    )]
    fn solve_partial(
        &mut self,
        limb: &Limb,
        system: &System<'_>,
        q: &[f64],
        goal: &LimbGoal,
        axis: usize,
        target: Matrix3<f64>,
        choice: &Choice,
    ) -> Option<[f64; 7]> {
        let held = target.column(axis).into_owned();
        let cost = |angles: &[f64; 7]| mid_range_cost(angles, &choice.limits.bounds);
        let evaluate = |work: &mut Workspace, psi: f64| -> Option<(f64, [f64; 7], bool)> {
            let turned =
                nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(held), psi)
                    .into_inner()
                    * target;
            let g = LimbGoal {
                orientation: Some(turned),
                ..*goal
            };
            let (angles, valid) = work.solve_goal(limb, system, q, &g, choice)?;
            // Valid solutions always beat clamped ones.
            Some((cost(&angles) + if valid { 0.0 } else { 1e6 }, angles, valid))
        };
        let step = 10f64.to_radians();
        let scan = (0..36).map(|k| -std::f64::consts::PI + step * k as f64);
        let (psi, angles) =
            scan_then_golden(scan, step, (f64::NEG_INFINITY, f64::INFINITY), |psi| {
                evaluate(self, psi).map(|(c, angles, _)| (c, angles))
            })?;
        // Leave the swivel report describing the chosen solution.
        let _ = evaluate(self, psi);
        Some(angles)
    }

    /// The solution for one placed goal (a start's wrist angles), or `None` when it is out of
    /// reach or has no valid swivel; `fallback` keeps the best clamped candidate seen.
    fn choose(
        &mut self,
        limb: &Limb,
        placement: &Placement,
        (limits, swivel, policy): (&LimbLimits, Swivel, SwivelPolicy),
        fallback: &mut Option<(Geometry, Swivel)>,
    ) -> Option<[f64; 7]> {
        let unlimited = limits.unlimited();
        let mut geometries = [None, None];
        for (elbow, slot) in geometries.iter_mut().enumerate() {
            let g = limb.geometry_of(placement, elbow);
            if g.reachable && unlimited {
                // Every swivel is valid: the first family at the requested one (no fallback
                // needed, so none is kept).
                return Some(self.at_any_swivel(limb, &g, swivel));
            }
            if fallback.is_none() || g.reachable {
                *fallback = Some((g, swivel));
            }
            if g.reachable {
                *slot = Some(g);
            }
        }
        self.choose_among(limb, &geometries, limits, swivel, policy)
    }

    /// The answer on an unlimited limb, where every swivel is valid: the first shoulder and
    /// wrist families at the requested swivel.
    fn at_any_swivel(&mut self, limb: &Limb, g: &Geometry, swivel: Swivel) -> [f64; 7] {
        self.last_swivel = Some(swivel.angle);
        self.last_arcs.clear();
        self.last_arcs.push(intervals::Arc {
            start: -std::f64::consts::PI,
            end: std::f64::consts::PI,
        });
        limb.angles(g, &swivel, 0, 0)
    }

    /// The best (family, swivel) over the given geometries: the first one as it is on an
    /// unlimited limb; otherwise the widest valid arc's middle, or the valid angle nearest to the
    /// desired one.
    fn choose_among(
        &mut self,
        limb: &Limb,
        geometries: &[Option<Geometry>],
        limits: &LimbLimits,
        swivel: Swivel,
        policy: SwivelPolicy,
    ) -> Option<[f64; 7]> {
        let unlimited = limits.unlimited();
        // (score, φ, geometry, shoulder, wrist) of the best choice so far.
        let mut best: Option<(f64, f64, usize, usize, usize)> = None;
        for (index, g) in geometries.iter().enumerate() {
            let Some(g) = g else { continue };
            if unlimited {
                return Some(self.at_any_swivel(limb, g, swivel));
            }
            let wrist_families = if g.has_orientation() { 2 } else { 1 };
            limb.swivel_arcs_all(
                g,
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
                            best = Some((score, phi, index, shoulder, wrist));
                            self.last_arcs.clone_from(arcs);
                        }
                    }
                }
            }
        }
        let (_, phi, index, shoulder, wrist) = best?;
        let g = geometries[index].as_ref()?;
        self.last_swivel = Some(phi);
        Some(limb.angles(
            g,
            &Swivel {
                angle: phi,
                reference: swivel.reference,
            },
            shoulder,
            wrist,
        ))
    }

    /// Aiming (Tolani §4.3–4.4): with the elbow kept, the swivel is chosen as for any goal; with
    /// it free, θ4 is searched (a scan over its range in 5° steps, then a golden-section search)
    /// for the joints nearest the middle of their ranges, each θ4 solved exactly.
    fn solve_aim(
        &mut self,
        limb: &Limb,
        system: &System<'_>,
        q: &[f64],
        aim: &AimGoal,
        elbow: AimElbow,
        choice: &Choice,
    ) -> Option<[f64; 7]> {
        let skeleton = system.skeleton();
        let at = |work: &mut Workspace, theta4: f64| -> Option<[f64; 7]> {
            let g = limb.aim_geometry(skeleton, system.fk(), q, aim, theta4)?;
            work.choose_among(
                limb,
                &[Some(g)],
                &choice.limits,
                choice.swivel,
                choice.policy,
            )
        };
        let current = q[limb.columns[3]];
        self.last_reach = Some(Reach::Unreachable);
        if elbow == AimElbow::Keep {
            let angles = at(self, current);
            if angles.is_some() {
                self.last_reach = Some(Reach::WithinLimits);
            }
            return angles;
        }
        let (lo, hi) = limb.elbow_range(skeleton);
        let steps = (((hi - lo) / 5f64.to_radians()).ceil() as usize).max(2);
        let scan = (0..=steps).map(|k| lo + (hi - lo) * k as f64 / steps as f64);
        let width = (hi - lo) / steps as f64;
        let (theta4, angles) = scan_then_golden(scan, width, (lo, hi), |theta4| {
            at(self, theta4).map(|angles| (mid_range_cost(&angles, &choice.limits.bounds), angles))
        })?;
        // Leave the swivel report describing the chosen solution.
        let _ = at(self, theta4);
        self.last_reach = Some(Reach::WithinLimits);
        Some(angles)
    }
}

/// The angles, over every reachable geometry, family and swivel (scanned in 2° steps), whose
/// joints exceed their limits least (Σ of squared excess), and the swivel angle they use.
fn least_violation(
    limb: &Limb,
    geometries: &[Option<Geometry>; 2],
    limits: &[Option<(f64, f64)>; 7],
    swivel: &Swivel,
) -> ([f64; 7], f64) {
    let excess = |angles: &[f64; 7]| -> f64 {
        angles
            .iter()
            .zip(limits)
            .map(|(v, l)| l.map_or(0.0, |(lo, hi)| (lo - v).max(v - hi).max(0.0).powi(2)))
            .sum()
    };
    let mut best = (f64::INFINITY, [0.0; 7], swivel.angle);
    for g in geometries.iter().flatten() {
        let wrist_families = if g.has_orientation() { 2 } else { 1 };
        for step in 0..180 {
            let phi = -std::f64::consts::PI + step as f64 * 2f64.to_radians();
            let at = Swivel {
                angle: phi,
                ..*swivel
            };
            for shoulder in 0..2 {
                for wrist in 0..wrist_families {
                    let angles = limb.angles(g, &at, shoulder, wrist);
                    let e = excess(&angles);
                    if e < best.0 {
                        best = (e, angles, phi);
                    }
                }
            }
        }
    }
    (best.1, best.2)
}

/// Minimises a cost over one variable as the paper's numerical procedures need: the best of the
/// scanned points, then a golden-section search (20 steps) within `width` of it, clamped to
/// `bounds`. `cost` gives `None` where there is no solution; the result carries its value.
fn scan_then_golden<T>(
    points: impl Iterator<Item = f64>,
    width: f64,
    bounds: (f64, f64),
    mut cost: impl FnMut(f64) -> Option<(f64, T)>,
) -> Option<(f64, T)> {
    let mut best: Option<(f64, f64, T)> = None;
    for x in points {
        if let Some((c, value)) = cost(x)
            && best.as_ref().is_none_or(|b| c < b.0)
        {
            best = Some((c, x, value));
        }
    }
    let (mut best_cost, centre, mut best_value) = best?;
    let mut best_x = centre;
    let (mut lo, mut hi) = (
        (centre - width).max(bounds.0),
        (centre + width).min(bounds.1),
    );
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..20 {
        let (a, b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        let (ca, cb) = (cost(a), cost(b));
        let (va, vb) = (
            ca.as_ref().map_or(f64::INFINITY, |c| c.0),
            cb.as_ref().map_or(f64::INFINITY, |c| c.0),
        );
        for (v, c, x) in [(va, ca, a), (vb, cb, b)] {
            if let Some((_, value)) = c
                && v < best_cost
            {
                best_cost = v;
                best_value = value;
                best_x = x;
            }
        }
        if va < vb { hi = b } else { lo = a }
    }
    Some((best_x, best_value))
}

/// Tolani's objective for the numerical searches: Σ ((θᵢ − θᵢ*) / half-rangeᵢ)², with θᵢ* the
/// middle of the range (unlimited joints measured against 0 and π).
fn mid_range_cost(angles: &[f64; 7], limits: &[Option<(f64, f64)>; 7]) -> f64 {
    angles
        .iter()
        .zip(limits)
        .map(|(v, l)| match l {
            Some((lo, hi)) => ((v - 0.5 * (lo + hi)) / (0.5 * (hi - lo)).max(1e-9)).powi(2),
            None => (v / std::f64::consts::PI).powi(2),
        })
        .sum()
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
