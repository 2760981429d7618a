//! Captures retargeted onto other figures: every mapped bone of the target points where the
//! capture's does (the angle between the two segments, on every frame where none of the bone's
//! own DOFs is at a limit: most of them, asserted; a foot as its own bone pointed at rest,
//! turned to the capture foot's heading, then turned as the capture's foot turned from its
//! rest, so a foot flat in the capture is flat on the figure), within the target's limits, and
//! the hips' vertical motion is the capture's scaled by the ratio of hip heights.
//! The captures are CMU's 01_01 and Boxing_Toes (Debian's assimp-testmodels); the targets the
//! built-in humanoid and every humanoid test character.

use std::path::Path;

mod common;

use common::{CAPTURES, capture, targets};
use marionette_interchange::character::humanoid::HumanBone;
use marionette_interchange::retarget::{Retargeted, retarget};
use marionette_skeleton::{Fk, Pose, Skeleton};
use nalgebra::{Matrix3, Rotation3, Vector3};

/// Whether a DOF of joint `j` is at one of its limits in pose `q` (the test's own reading).
fn at_limit(s: &Skeleton, j: marionette_skeleton::JointId, q: &[f64]) -> bool {
    s.joint_dofs(j).any(|d| {
        let dof = s.dof(d);
        let v = q[d.state_index()];
        !dof.unlimited && (v <= dof.min + 1e-6 || v >= dof.max - 1e-6)
    })
}

/// One bone's segment angles: its name, the angles (degrees) on the frames where none of its
/// own DOFs is at a limit, the number of frames where one is, and whether its capture segment
/// is one joint (the next mapped joint is the capture bone's child: the bone's rotation alone
/// makes its direction, which is what the retarget carries over).
type BoneAngles = (String, Vec<f64>, usize, bool);

/// Per mapped bone that points at another mapped bone, the angles between the target's and the
/// capture's segments ([`BoneAngles`]).
fn angles(
    capture: &Skeleton,
    frames: &[Vec<f64>],
    target: &Skeleton,
    result: &Retargeted,
) -> Vec<BoneAngles> {
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
    // A foot keeps its own pitch (both figures stand flat-footed at rest): it should point as
    // its own rest direction, turned about the vertical to the capture's foot's heading, then
    // turned as the capture's foot turned from its rest.
    let flat = |v: &Vector3<f64>| Vector3::new(v.x, 0.0, v.z);
    let feet: Vec<Option<(Matrix3<f64>, Vector3<f64>)>> = {
        fc.update(capture, &Pose::rest(capture).q);
        ft.update(target, &Pose::rest(target).q);
        pairs
            .iter()
            .map(|(m, n)| {
                if !matches!(m.bone, HumanBone::LeftFoot | HumanBone::RightFoot) {
                    return None;
                }
                let dc = fc.joint_position(n.capture) - fc.joint_position(m.capture);
                let dt = ft.joint_position(n.target) - ft.joint_position(m.target);
                let heading = Rotation3::rotation_between(&flat(&dt), &flat(&dc))
                    .unwrap_or_else(Rotation3::identity);
                Some((*fc.joint_rotation(m.capture), heading * dt))
            })
            .collect()
    };
    let mut out: Vec<BoneAngles> = pairs
        .iter()
        .map(|(m, n)| {
            let direct = capture.joint(n.capture).parent == Some(m.capture);
            (format!("{:?}", m.bone), Vec::new(), 0, direct)
        })
        .collect();
    for (frame, key) in frames.iter().zip(&result.sequence.keys) {
        fc.update(capture, frame);
        ft.update(target, &key.pose.q);
        for (k, (m, n)) in pairs.iter().enumerate() {
            if at_limit(target, m.target, &key.pose.q) {
                out[k].2 += 1;
                continue;
            }
            let dc = fc.joint_position(n.capture) - fc.joint_position(m.capture);
            let dt = ft.joint_position(n.target) - ft.joint_position(m.target);
            let dc = match &feet[k] {
                Some((rest_rotation, turned)) => {
                    fc.joint_rotation(m.capture) * rest_rotation.transpose() * turned
                }
                None => dc,
            };
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
            let what = format!("{path} → {}", target.name());
            // Every bone points as the capture's does on the frames where no limit of its own
            // holds it (read from the retargeted pose, frame by frame).
            let (mut free, mut held) = (Vec::new(), 0);
            for (bone, mut a, at_limits, direct) in angles(&cs, &frames, &target, &result) {
                held += at_limits;
                if a.is_empty() {
                    continue;
                }
                let (median, p95) = (percentile(&mut a, 0.5), percentile(&mut a, 0.95));
                println!(
                    "{what}: {bone}: {} frames free ({at_limits} at a limit), median {median:.1}°, p95 {p95:.1}°{}",
                    a.len(),
                    if direct {
                        ""
                    } else {
                        " (the capture bends between it and its next mapped bone: reported)"
                    }
                );
                if !direct {
                    // The capture's segment bends at joints the figure lacks (a stick figure's
                    // one torso for a capture's three spine joints): the bone carries its own
                    // joint's rotation, not the bends above it.
                    continue;
                }
                assert!(
                    median <= 5.0 && p95 <= 15.0,
                    "{what}: {bone} median {median}°, p95 {p95}° over its {} free frames",
                    a.len()
                );
                free.extend(a);
            }
            let checked = free.len();
            let (free_median, free_p95) = (percentile(&mut free, 0.5), percentile(&mut free, 0.95));
            println!(
                "{what}: {} bones mapped, segment angles median {free_median:.1}°, p95 {free_p95:.1}° over {checked} bone-frames free of limits ({held} at a limit); hips × {:.3}; held by limits: {:?}",
                result.map.len(),
                result.hip_ratio,
                result.limited
            );
            // Most of the motion is checked: no figure passes by having every bone held.
            assert!(
                checked >= 2 * held.max(1) / 3 && checked > 10 * frames.len().min(100),
                "{what}: only {checked} bone-frames checked, {held} at a limit"
            );
            assert!(
                // The required bones (the stick figure has no hands or feet: 4 fewer).
                result.map.len() >= if target.name() == "stickman" { 11 } else { 15 },
                "{what}: {} bones mapped",
                result.map.len()
            );
            assert!(
                free_median <= 5.0 && free_p95 <= 15.0,
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

/// The scale a capture is read at does not change what a retarget makes of it: the root's
/// motion is scaled by the ratio of hip heights and the bones' turns do not depend on lengths.
/// CMU 01_01 read as centimetres (the old guess) and at the guess that makes its performer a
/// person's height (CMU's unit) puts the same keys onto the humanoid.
#[test]
fn a_retarget_is_the_same_whatever_scale_the_capture_was_read_at() {
    use marionette_interchange::capture::{CaptureScale, read_capture};
    use marionette_interchange::retarget::retarget_imported;
    let path = Path::new("/usr/share/assimp/models/BVH/01_01.bvh");
    let target = marionette_skeleton::builtin::humanoid();
    let rest = Pose::rest(&target).q;
    let onto = |scale| {
        let c = read_capture(path, scale, 40).expect("reads");
        retarget_imported(&c.imported, (&target, &rest), &[], "01_01")
            .expect("retargets")
            .sequence
    };
    let (centimetres, guessed) = (onto(CaptureScale::Times(0.01)), onto(CaptureScale::Guess));
    assert_eq!(centimetres.keys.len(), guessed.keys.len());
    let worst = centimetres
        .keys
        .iter()
        .zip(&guessed.keys)
        .flat_map(|(a, b)| a.pose.q.iter().zip(&b.pose.q).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f64::max);
    assert!(worst < 1e-9, "{worst}");
}
