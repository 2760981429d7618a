//! The body moves so the feet can stay: where a planted foot is out of its leg's reach with the
//! hips where the retarget put them (a figure whose legs are shorter for its hips than the
//! performer's, a stride wider than its legs), the hips come down by the least amount that
//! brings the ankle's target within the leg's reach, smoothly over the frames around the
//! contact. This is the hip adjustment of MotionBuilder and HumanIK for a leg too short to
//! reach, and the "fulcrum" idea of Cascadeur's cleaning (the supports stay still, the body
//! moves over them); Kovar, Schreiner & Gleicher (SCA 2002, §4) likewise adjust the root before
//! solving each leg.
//!
//! The lowering needed on a frame is exact for a leg of two segments (hip to knee, knee to
//! ankle) with the foot kept turned as it was: the ankle's target is where the planted point
//! is held minus the point's offset from the ankle on that frame, and the hips come down until
//! it is within [`REACH`] of the leg stretched straight. The lowering over the frames is then
//! made smooth and never less than needed: its running maximum over ±2w frames, averaged twice
//! over 2w + 1 frames (each average of values that are all at least the need stays above it),
//! w being [`SMOOTHING_SECONDS`] of frames.

use marionette_skeleton::{Fk, JointId, Skeleton};
use nalgebra::Vector3;

use super::point::ContactPoint;
use crate::contacts::Contact;

/// The share of a leg's straight length it is asked to reach: a knee never quite straight (a
/// solve at full stretch is singular, and a walk's knee is bent a little even at heel strike).
pub const REACH: f64 = 0.998;

/// The half-width of the smoothing of the hips' lowering and raising (seconds).
pub const SMOOTHING_SECONDS: f64 = 0.12;

/// How far the hips must come down (metres, ≥ 0) for the leg carrying `point` to reach
/// `planted` on the frame whose joints `fk` holds.
fn needed(fk: &Fk, rest: &Fk, point: &ContactPoint, planted: &Vector3<f64>) -> f64 {
    let Some(leg) = point.leg else {
        return 0.0;
    };
    let length = |f: &Fk, a: JointId, b: &Vector3<f64>| (f.joint_position(a) - b).norm();
    let knee_rest = rest.joint_position(leg.lower);
    let thigh = length(rest, leg.upper, &knee_rest);
    let (end, shin) = match leg.foot {
        Some(foot) => (fk.joint_position(foot), length(rest, foot, &knee_rest)),
        None => (
            fk.point(point.joint, &point.offset),
            (rest.point(point.joint, &point.offset) - knee_rest).norm(),
        ),
    };
    let reach = REACH * (thigh + shin);
    let at = fk.point(point.joint, &point.offset);
    let d = planted - (at - end) - fk.joint_position(leg.upper);
    if d.norm() <= reach {
        return 0.0;
    }
    let across = (d.x * d.x + d.z * d.z).sqrt();
    // Lowered by δ, the hip is δ lower: d.y grows by δ; the least δ with |d| within reach.
    if across < reach {
        (-d.y - (reach * reach - across * across).sqrt()).max(0.0)
    } else {
        (-d.y).max(0.0)
    }
}

/// Per frame (indices into `frames`), how far the hips must come down for every contact of
/// `found` (point index, contact) to be within its leg's reach, before smoothing.
pub(super) fn lowering_needed(
    skeleton: &Skeleton,
    frames: &[Vec<f64>],
    points: &[ContactPoint],
    found: &[(usize, Contact)],
    rest: &[f64],
) -> Vec<f64> {
    let mut out = vec![0.0; frames.len()];
    let mut rest_fk = Fk::new(skeleton);
    rest_fk.update(skeleton, rest);
    let mut fk = Fk::new(skeleton);
    for &(i, c) in found {
        for f in c.first..=c.last.min(frames.len().saturating_sub(1)) {
            fk.update(skeleton, &frames[f]);
            let need = needed(&fk, &rest_fk, &points[i], &c.planted);
            out[f] = f64::max(out[f], need);
        }
    }
    out
}

/// `values` made smooth and never below them: their running maximum over ±2w, then averaged
/// twice over 2w + 1 (w = `half_width`).
pub fn smooth_at_least(values: &[f64], half_width: usize) -> Vec<f64> {
    let n = values.len();
    let window = |f: usize, w: usize| f.saturating_sub(w)..(f + w + 1).min(n);
    let dilated: Vec<f64> = (0..n)
        .map(|f| {
            values[window(f, 2 * half_width)]
                .iter()
                .copied()
                .fold(0.0, f64::max)
        })
        .collect();
    // Averages over 2w + 1 frames, the frames beyond the ends taken as the ends' values.
    let average = |v: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|f| {
                let w = half_width as i64;
                (-w..=w)
                    .map(|k| v[(f as i64 + k).clamp(0, n as i64 - 1) as usize])
                    .sum::<f64>()
                    / (2 * w + 1) as f64
            })
            .collect()
    };
    average(&average(&dilated))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleanup::Leg;
    use marionette_skeleton::{Pose, builtin};

    #[test]
    fn smoothing_never_goes_below_the_need_and_steps_gently() {
        let mut need = vec![0.0; 200];
        need[100] = 0.1;
        need[101] = 0.08;
        let smooth = smooth_at_least(&need, 10);
        for (f, (s, n)) in smooth.iter().zip(&need).enumerate() {
            assert!(s + 1e-15 >= *n, "frame {f}: {s} under {n}");
        }
        let steepest = smooth
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f64::max);
        // A 10 cm bump spread over about 4w frames each side.
        assert!(steepest <= 0.1 / 21.0 + 1e-12, "{steepest}");
        assert_eq!(smooth[0], 0.0);
        assert_eq!(smooth[199], 0.0);
    }

    #[test]
    fn a_foot_planted_out_of_reach_needs_the_hips_lowered_by_what_brings_it_within() {
        let s = builtin::humanoid();
        let rest = Pose::rest(&s).q;
        let joint = |n: &str| s.joint_by_name(n).expect(n);
        let leg = Leg {
            upper: joint("left hip"),
            lower: joint("left knee"),
            foot: Some(joint("left ankle")),
        };
        let heel = s.site_by_name("left heel").expect("heel");
        let point = ContactPoint::site(&s, heel).on_leg(leg);
        let mut fk = Fk::new(&s);
        fk.update(&s, &rest);
        let at = fk.point(point.joint, &point.offset);
        // Where it stands, the leg straight: the 0.2 % margin of its 0.86 m. 20 cm lower: 20 cm
        // more.
        let straight = needed(&fk, &fk, &point, &at);
        assert!((0.0015..0.002).contains(&straight), "{straight}");
        let low = at - Vector3::new(0.0, 0.2, 0.0);
        let need = needed(&fk, &fk, &point, &low);
        assert!((need - straight - 0.2).abs() < 1e-9, "{need}");
        // Lowered by that, the ankle's target is within the reach, at its edge.
        let mut lowered = rest.clone();
        lowered[1] -= need;
        let mut fk_low = Fk::new(&s);
        fk_low.update(&s, &lowered);
        let target = low
            - (fk_low.point(point.joint, &point.offset)
                - fk_low.joint_position(leg.foot.expect("foot")));
        let thigh = (fk.joint_position(leg.upper) - fk.joint_position(leg.lower)).norm();
        let shin =
            (fk.joint_position(leg.lower) - fk.joint_position(leg.foot.expect("foot"))).norm();
        let distance = (target - fk_low.joint_position(leg.upper)).norm();
        assert!(
            (distance - REACH * (thigh + shin)).abs() < 1e-9,
            "{distance}"
        );
    }
}
