//! Captures retargeted onto other figures: every mapped bone of the target points where the
//! capture's does (the angle between the two segments, over every frame), within the target's
//! limits, and the hips' vertical motion is the capture's scaled by the ratio of hip heights.
//! The captures are CMU's 01_01 and Boxing_Toes (Debian's assimp-testmodels); the targets the
//! built-in humanoid and every humanoid test character.

use std::path::Path;

mod common;

use common::{CAPTURES, capture, targets};
use marionette_interchange::retarget::{Retargeted, retarget};
use marionette_skeleton::{Fk, Skeleton};

/// Per mapped bone that points at another mapped bone, the angles (degrees) between the
/// target's and the capture's segments over every frame.
fn angles(
    capture: &Skeleton,
    frames: &[Vec<f64>],
    target: &Skeleton,
    result: &Retargeted,
) -> Vec<(String, Vec<f64>)> {
    let mut fc = Fk::new(capture);
    let mut ft = Fk::new(target);
    let pairs: Vec<_> = result
        .map
        .iter()
        .filter_map(|m| {
            let next = result.map.iter().find(|n| {
                target.joint(n.target).parent == Some(m.target)
                    || is_chain_next(target, m.target, n.target)
            })?;
            Some((m, next))
        })
        .collect();
    let mut out: Vec<(String, Vec<f64>)> = pairs
        .iter()
        .map(|(m, _)| (format!("{:?}", m.bone), Vec::new()))
        .collect();
    for (frame, key) in frames.iter().zip(&result.sequence.keys) {
        fc.update(capture, frame);
        ft.update(target, &key.pose.q);
        for (k, (m, n)) in pairs.iter().enumerate() {
            let dc = fc.joint_position(n.capture) - fc.joint_position(m.capture);
            let dt = ft.joint_position(n.target) - ft.joint_position(m.target);
            if dc.norm() > 1e-6 && dt.norm() > 1e-6 {
                out[k].1.push(dc.angle(&dt).to_degrees());
            }
        }
    }
    out
}

/// Whether `b` is below `a` with no mapped joint between (approximated: a descendant).
fn is_chain_next(
    s: &Skeleton,
    a: marionette_skeleton::JointId,
    b: marionette_skeleton::JointId,
) -> bool {
    let mut at = s.joint(b).parent;
    let mut steps = 0;
    while let Some(j) = at {
        if j == a {
            return steps <= 2;
        }
        steps += 1;
        at = s.joint(j).parent;
    }
    false
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

#[test]
fn captures_point_the_same_way_on_every_figure() {
    if !Path::new(CAPTURES[0]).exists() {
        panic!("assimp-testmodels is not installed (scripts/ensure-system-packages.sh does)");
    }
    for path in CAPTURES {
        let (cs, frames, fps) = capture(path);
        for (target, rest) in targets() {
            let result =
                retarget(&cs, &frames, fps, (&target, &rest), &[], "take").expect("retargets");
            let (mut all, mut free) = (Vec::new(), Vec::new());
            for (bone, mut a) in angles(&cs, &frames, &target, &result) {
                // A bone the limits never held points as the capture's does.
                let held = result.limited.iter().any(|l| format!("{:?}", l.0) == bone);
                if !held && !a.is_empty() {
                    let (median, p95) = (percentile(&mut a, 0.5), percentile(&mut a, 0.95));
                    assert!(
                        median <= 5.0 && p95 <= 15.0,
                        "{path} → {}: {bone} median {median}°, p95 {p95}°",
                        target.name()
                    );
                    free.extend(a.iter().copied());
                }
                all.extend(a);
            }
            let (median, p95) = (percentile(&mut all, 0.5), percentile(&mut all, 0.95));
            let (free_median, free_p95) = (percentile(&mut free, 0.5), percentile(&mut free, 0.95));
            let what = format!("{path} → {}", target.name());
            println!(
                "{what}: {} bones mapped, segment angles median {median:.1}°, p95 {p95:.1}° (bones the limits never held: {free_median:.1}°, {free_p95:.1}°); hips × {:.3}; held by limits: {:?}",
                result.map.len(),
                result.hip_ratio,
                result.limited
            );
            assert!(
                // The required bones (the stick figure has no hands or feet: 4 fewer).
                result.map.len() >= if target.name() == "stickman" { 11 } else { 15 },
                "{what}: {} bones mapped",
                result.map.len()
            );
            // Where the target's limits allow it (the stick figure's two-hinge shoulders and
            // hips hold much of a capture; what they hold is reported above).
            // (On the stick figure every bone is held somewhere: nothing to pool.)
            assert!(
                free.is_empty() || (free_median <= 5.0 && free_p95 <= 15.0),
                "{what}: median {free_median}°, p95 {free_p95}°"
            );
            // No limit broken, on any frame.
            for key in &result.sequence.keys {
                for (i, dof) in target
                    .dofs()
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| !d.unlimited)
                {
                    let v = key.pose.q[3 + i];
                    assert!(
                        v >= dof.min - 1e-9 && v <= dof.max + 1e-9,
                        "{what}: frame {} DOF {i} at {v} outside {}..{}",
                        key.frame,
                        dof.min,
                        dof.max
                    );
                }
            }
            // The hips' vertical motion is the capture's times the ratio of hip heights.
            let hips = result
                .map
                .iter()
                .find(|m| format!("{:?}", m.bone) == "Hips")
                .expect("hips");
            let (mut fc, mut ft) = (Fk::new(&cs), Fk::new(&target));
            let mut heights = Vec::new();
            for (frame, key) in frames.iter().zip(&result.sequence.keys) {
                fc.update(&cs, frame);
                ft.update(&target, &key.pose.q);
                heights.push((
                    fc.joint_position(hips.capture).y,
                    ft.joint_position(hips.target).y,
                ));
            }
            let (c0, t0) = heights[0];
            let range = heights.iter().map(|h| (h.0 - c0).abs()).fold(0.0, f64::max);
            let worst = heights
                .iter()
                .map(|h| ((h.1 - t0) - result.hip_ratio * (h.0 - c0)).abs())
                .fold(0.0, f64::max);
            assert!(
                worst <= 0.02 * result.hip_ratio * range,
                "{what}: hips off the scaled motion by {worst} (range {range})"
            );
            // It stands on its ground: on the first frame its ankles (the mapped feet) are as
            // high as at rest (a capture starts standing). Over the take they go where the
            // capture's legs take them, which a figure with other proportions cannot match
            // exactly (printed; the foot contacts' locks hold the feet).
            let feet: Vec<_> = result
                .map
                .iter()
                .filter(|m| matches!(format!("{:?}", m.bone).as_str(), "LeftFoot" | "RightFoot"))
                .map(|m| m.target)
                .collect();
            let lowest = |q: &[f64], fk: &mut Fk| {
                fk.update(&target, q);
                feet.iter()
                    .map(|&j| fk.joint_position(j).y)
                    .fold(f64::INFINITY, f64::min)
            };
            if feet.is_empty() {
                // The stick figure has no foot joints.
                continue;
            }
            let ground = lowest(&rest, &mut ft);
            let first = lowest(&result.sequence.keys[0].pose.q, &mut ft);
            assert!(
                (first - ground).abs() < 1e-3,
                "{what}: the ankles start at {first}, at rest they are at {ground}"
            );
            let low = result
                .sequence
                .keys
                .iter()
                .map(|k| lowest(&k.pose.q, &mut ft))
                .fold(f64::INFINITY, f64::min);
            println!("{what}: ankles lowest over the take {low:.3} m, at rest {ground:.3} m");
        }
    }
}
