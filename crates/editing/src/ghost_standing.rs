//! The physics ghost's balance ([`balanced`]): on frames the animator marks as standing, the
//! centre of mass is brought over the support polygon, [`COMFORTABLY_INSIDE`] inside it, where
//! it is not. Each such frame is solved again from its baked pose with its locks, every body
//! point that supports it held where it is, and a centre-of-mass goal below them at the point
//! of the polygon nearest it ([`marionette_physics::balance::balance_target`]). Welman's thesis
//! (1993, §2 and its closing chapter) puts balance as a constraint on the figure's centre of
//! mass, a handle computed as the weighted average of the body parts' centres, after
//! Phillips & Badler's balance objective in Jack; Boulic, Mas & Thalmann's inverse kinetics
//! (cited by the multi-effector chapter) solve the same goal below the feet's.
//!
//! The goal moves the skeleton's own centre of mass (its joints' masses), while the check
//! weighs the figure by de Leva; the goal's target is offset by their difference and solved
//! again until de Leva's centre of mass is where it is wanted.

use marionette_document::{GoalSet, Lock, Owner};
use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_motion::bake::{BakeSettings, solve_frame};
use marionette_physics::balance::{POINT_RADIUS, balance_target, margin};
use marionette_physics::supports::supporting_points;
use marionette_physics::track::Track;
use marionette_skeleton::{Chain, Fk, Skeleton};
use nalgebra::{Vector2, Vector3};

use crate::physics_view::{COMFORTABLY_INSIDE, Take, document_rule, held_points};

/// Solves of a frame at most, each correcting the skeleton's centre of mass towards de Leva's.
const ROUNDS: usize = 4;

/// The standing frames balanced.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The poses of the frames, in order.
    pub poses: Vec<Vec<f64>>,
    /// The frames (indices into the take) still outside their support after the fix, with
    /// the margin (m).
    pub unbalanced: Vec<(usize, f64)>,
    /// How many frames were moved.
    pub moved: usize,
}

/// The frames `from..=to` (indices into `take`) of `skeleton` with `locks` balanced; the index
/// of a frame with nothing supporting it is the error.
pub fn balanced(
    skeleton: &Skeleton,
    locks: &[Lock],
    take: &Take,
    (from, to): (usize, usize),
) -> Result<Standing, usize> {
    let model = take.model;
    let track = Track::of(
        skeleton,
        model,
        take.poses.iter().map(Vec::as_slice),
        take.fps,
    );
    let body = supporting_points(&track, &document_rule());
    let held = held_points(skeleton, locks, take.first, take.poses);
    let stiffness: Vec<f64> = skeleton.joints().iter().map(|j| j.stiffness).collect();
    let mut fk = Fk::new(skeleton);
    let mut standing = Standing {
        poses: Vec::with_capacity(to + 1 - from),
        unbalanced: Vec::new(),
        moved: 0,
    };
    for f in from..=to {
        let floor: Vec<Vector2<f64>> = (body[f].iter().map(|&p| track.points[f][p]))
            .chain(held[f].iter().copied())
            .map(|p| Vector2::new(p.x, p.z))
            .collect();
        if floor.is_empty() {
            return Err(f);
        }
        let wanted = COMFORTABLY_INSIDE - POINT_RADIUS;
        let com = |fk: &Fk| {
            let c = model.center_of_mass(fk);
            Vector2::new(c.x, c.z)
        };
        let mut q = take.poses[f].clone();
        fk.update(skeleton, &q);
        if margin(&com(&fk), &floor) < wanted {
            let target = balance_target(&com(&fk), &floor, wanted);
            let mut goals = GoalSet::with_locks(locks, Some(take.first + f as i64));
            let whole = Chain::whole(skeleton, true);
            for &p in &body[f] {
                let point = &model.points[p];
                let kind = GoalKind::Point {
                    joint: point.joint,
                    offset: point.local,
                    target: track.points[f][p],
                    shape: TargetShape::Point,
                };
                goals.push(Goal::new(kind), whole.clone(), Owner::Edit);
            }
            for _ in 0..ROUNDS {
                let offset = fk.center_of_mass() - model.center_of_mass(&fk);
                let goal = GoalKind::CenterOfMass {
                    target: Vector3::new(target.x, 0.0, target.y) + offset,
                    axes: [true, false, true],
                };
                let mut set = goals.clone();
                set.push_edit(Goal::new(goal), &whole);
                solve_frame(skeleton, &stiffness, &set, &mut q, BakeSettings::default());
                fk.update(skeleton, &q);
                if (com(&fk) - target).norm() < 1e-4 {
                    break;
                }
            }
            standing.moved += 1;
            let after = margin(&com(&fk), &floor) + POINT_RADIUS;
            if after < 0.0 {
                standing.unbalanced.push((f, after));
            }
        }
        standing.poses.push(q);
    }
    Ok(standing)
}
