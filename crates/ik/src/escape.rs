//! The driver's way out of a stall (issue 15): when an update gains nothing while a goal is
//! unmet, the pose sits where every first-order motion is useless — a straight chain asked to
//! come nearer its base (the gain is second order), or joints pressed against their limits with
//! the goals' gradient pointing through them. The first-order methods cannot see a way out, so
//! the driver looks a step further: it tries, in the goals' null space (so no goal moves to first
//! order), a move towards the bend hints and then a move of each DOF that moves a goal, both
//! ways and at two sizes, evaluates each exactly, and keeps the best one if it improves on the
//! best pose of the solve by at least [`STALL_GAIN`] (by the method's own measure, see
//! `merit.rs`). For a lone goal, [`restart`] is the last resort. Every candidate is tried in a
//! fixed order and the best is kept by a strict comparison, so the same stall always leaves the
//! same way: the same drag twice gives the same pose, bit for bit. The driver tries each at most
//! once per solve, and only while the error is above [`WORTH_ESCAPING`] tolerances.

use marionette_skeleton::ROOT_STATE_LEN;
use marionette_skeleton::random::SplitMix64;
use nalgebra::DVector;

use crate::merit::Merit;
use marionette_skeleton::angles::wrap_angle;

use crate::system::System;

/// An update whose largest goal error falls by less than this fraction has stalled.
pub(crate) const STALL_GAIN: f64 = 1e-3;

/// A stall is left only while the largest goal error is above this many tolerances: near the
/// goals the solver's own updates finish the job over the next frames, and a jump of the pose
/// there would be a visible pop for a fraction of a millimetre.
pub(crate) const WORTH_ESCAPING: f64 = 10.0;

/// The probe sizes: the largest joint change of a candidate move (radians, or metres).
const PROBES: [f64; 2] = [0.2, 0.05];

/// Tries to leave a stall at `q` (evaluated or not); true when `q` moved to a pose whose
/// largest goal error is below `bar` (the best of the solve so far), which is then evaluated
/// (Jacobian included).
pub(crate) fn escape(system: &mut System<'_>, q: &mut [f64], bar: &Merit, tolerance: f64) -> bool {
    system.evaluate(q);
    let n = system.shape().1;
    let mut z = DVector::zeros(n);
    let mut direction = DVector::zeros(n);
    let mut step = DVector::zeros(n);
    let mut trial = q.to_vec();
    let mut merit = bar.clone();
    let mut best: Option<(Merit, DVector<f64>)> = None;
    let mut consider = |system: &mut System<'_>, step: &DVector<f64>, best: &mut Option<_>| {
        system.probe(q, step, &mut trial);
        merit.measure(system, tolerance);
        let to_beat = best.as_ref().map_or(bar, |(m, _)| m);
        if merit.beats(to_beat, STALL_GAIN) {
            *best = Some((merit.clone(), step.clone()));
        }
    };
    // Towards the hints first: the way the limb should bend.
    let skeleton = system.skeleton();
    let columns = system.chain().columns().to_vec();
    for (c, &state) in columns.iter().enumerate() {
        z[c] = match state.checked_sub(ROOT_STATE_LEN) {
            Some(k) if system.moves_goal(c) => {
                let dof = &skeleton.dofs()[k];
                let towards = dof.preferred - q[state];
                if dof.unlimited {
                    wrap_angle(towards)
                } else {
                    towards
                }
            }
            _ => 0.0,
        };
    }
    if system.null_space(&z, &mut direction) && direction.amax() > 1e-9 {
        for size in PROBES {
            step.copy_from(&direction);
            step *= size.min(direction.amax()) / direction.amax();
            consider(system, &step, &mut best);
        }
    }
    if best.is_none() {
        // Then each DOF that moves a goal, both ways, at each size: a second-order search.
        for c in 0..n {
            if !system.moves_goal(c) {
                continue;
            }
            z.fill(0.0);
            z[c] = 1.0;
            if !system.null_space(&z, &mut direction) || direction.amax() < 1e-6 {
                continue;
            }
            let largest = direction.amax();
            for size in PROBES {
                for sign in [1.0, -1.0] {
                    step.copy_from(&direction);
                    step *= sign * size / largest;
                    consider(system, &step, &mut best);
                }
            }
        }
    }
    match best {
        Some((_, step)) => {
            system.add_to_pose(q, &step);
            system.evaluate(q);
            true
        }
        None => {
            system.evaluate(q);
            false
        }
    }
}

/// Poses a restart tries.
const RESTART_SEEDS: usize = 16;
/// Updates of the solver from each restart pose.
const RESTART_UPDATES: usize = 20;

/// The last resort when neither the solver nor [`escape`] gains on a lone goal: a local minimum
/// under the joint limits (a chain whose reachable points on a drag's ray lie on another branch,
/// say). The solver is run for a few updates from each of a fixed set of poses (the DOFs that
/// move a goal spread over their ranges by a fixed sequence, the others as they are) and the
/// best result is kept when it meets the goals or halves the largest error (or `bar`, the best
/// of the solve so far, if lower); `run` makes the solver's updates (the driver's). Deterministic:
/// the poses depend only on the chain. True when `q` moved.
pub(crate) fn restart(
    system: &mut System<'_>,
    q: &mut [f64],
    tolerance: f64,
    bar: &Merit,
    run: &mut dyn FnMut(&mut System<'_>, &mut [f64], usize),
) -> bool {
    // Only a lone goal (a drag): with several goals a stalled solve is most often the best
    // compromise between them, which no restart improves, and a jump of the whole chain to
    // another branch would throw away the pose the other goals hold.
    if system.goals().len() != 1 {
        return false;
    }
    system.evaluate_errors(q);
    if crate::diagnosis::all_beyond_reach(system, tolerance) {
        return false;
    }
    let skeleton = system.skeleton();
    let columns: Vec<usize> = system.chain().columns().to_vec();
    let mut best: Option<(Merit, Vec<f64>)> = None;
    let mut trial = q.to_vec();
    let mut random = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
    for _seed in 0..RESTART_SEEDS {
        trial.copy_from_slice(q);
        for (c, &state) in columns.iter().enumerate() {
            // Drawn for every column, so each seed's pose depends only on the chain.
            let u = random.uniform(0.0, 1.0);
            let Some(k) = state.checked_sub(ROOT_STATE_LEN) else {
                continue;
            };
            if !system.moves_goal(c) {
                continue;
            }
            let dof = &skeleton.dofs()[k];
            trial[state] = if dof.unlimited {
                std::f64::consts::PI * (2.0 * u - 1.0)
            } else {
                dof.min + (dof.max - dof.min) * u
            };
        }
        run(system, &mut trial, RESTART_UPDATES);
        let merit = Merit::of(system, tolerance, bar);
        if best.as_ref().is_none_or(|(m, _)| merit.beats(m, 0.0)) {
            best = Some((merit, trial.clone()));
        }
    }
    match best {
        Some((merit, pose)) if merit.halves(bar) => {
            q.copy_from_slice(&pose);
            true
        }
        _ => false,
    }
}
