//! Foot-skate cleanup of captures retargeted onto other figures. The test bakes the cleaned
//! sequence itself (the sequence with the locks the cleanup made) and measures, with its own
//! forward kinematics, how far each contact's point moves over the contact's frames: at least
//! the fraction of contacts in [`HELD_AT_LEAST`] stay within 2 mm on each capture and figure (a
//! test that fails when fewer are held), every contact not held is named with its reason by the
//! report, the report's slide agrees with the test's, and where a lock takes or lets a foot go the
//! cleanup adds to the foot's step between two frames no more than the capture's own largest
//! step. The captures and figures are the retarget test's, with CMU's 01_03 besides.

mod common;
/// The independent planted-feet rule (issue 48), the benchmark's own module: not the cleanup's
/// detector.
#[path = "../../bench/src/planted.rs"]
#[allow(
    dead_code,
    reason = "the benchmark's entry point bakes the take again; the test has its own bake"
)]
mod planted;

use common::{CAPTURES, capture, targets};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget;
use marionette_motion::cleanup::{ContactPoint, HELD_WITHIN};
use marionette_motion::{BakeSettings, Baker, bake_with_threads, clean_feet};
use marionette_skeleton::{Fk, JointId, Pose, Skeleton};
use nalgebra::Vector3;

/// Per capture and figure: contacts held within 2 mm at least (held, found), and the most an
/// ankle or toe joint may go below its height at rest after the cleanup (mm), as measured on
/// 2026-11-28 with the feet retargeted flat and the floor locks on level planes (plus 0.5 mm);
/// a change that holds fewer or sinks a foot deeper fails here. Issue 35 asks for ≥ 95 % held and
/// no joint more than 10 mm below, which every pair meets and the test checks. (On Boxing_Toes
/// the humanoid's right heel lets go 11 frames early in a deep crouch, so that the ball of the
/// foot stays above the floor: the one contact not held there.)
const HELD_AT_LEAST: [(&str, &str, usize, usize, f64); 21] = [
    ("01_01", "humanoid", 71, 72, 2.5),
    ("01_01", "stickman", 39, 39, 0.5),
    ("01_01", "RiggedFigure.gltf", 73, 73, 0.5),
    ("01_01", "authored/mixamo_apose.glb", 108, 108, 0.5),
    ("01_01", "authored/rigify_tpose.glb", 108, 108, 0.5),
    ("01_01", "authored/ue_armsdown_tail.glb", 108, 108, 0.5),
    ("01_01", "authored/vroid_tpose.vrm", 108, 108, 0.5),
    ("Boxing_Toes", "humanoid", 129, 130, 1.6),
    ("Boxing_Toes", "stickman", 13, 13, 3.5),
    ("Boxing_Toes", "RiggedFigure.gltf", 126, 126, 2.4),
    ("Boxing_Toes", "authored/mixamo_apose.glb", 105, 105, 1.3),
    ("Boxing_Toes", "authored/rigify_tpose.glb", 105, 105, 1.3),
    (
        "Boxing_Toes",
        "authored/ue_armsdown_tail.glb",
        105,
        105,
        1.3,
    ),
    ("Boxing_Toes", "authored/vroid_tpose.vrm", 105, 105, 1.3),
    ("01_03", "humanoid", 86, 88, 4.6),
    ("01_03", "stickman", 27, 27, 0.5),
    ("01_03", "RiggedFigure.gltf", 99, 99, 4.4),
    ("01_03", "authored/mixamo_apose.glb", 84, 85, 6.4),
    ("01_03", "authored/rigify_tpose.glb", 84, 85, 6.4),
    ("01_03", "authored/ue_armsdown_tail.glb", 84, 85, 6.4),
    ("01_03", "authored/vroid_tpose.vrm", 84, 85, 6.4),
];

/// Per capture and figure, by the independent planted-feet rule ([`planted`]): the runs
/// planted in the retargeted take, how many slide at most 5 mm after the cleanup at least, and
/// how many slide more than 2 mm beyond their slide before at most, as measured on 2026-11-28
/// (an imported figure's end sites and leaf bodies at its skin's farthest vertex)
/// (issue 48 asks for 95 % held and none worse; these are where the cleanup stands, so that a
/// change that holds fewer or makes more worse fails here).
const PLANTED: [(&str, &str, usize, usize, usize); 21] = [
    ("01_01", "humanoid", 38, 65, 23),
    ("01_01", "stickman", 7, 11, 1),
    ("01_01", "RiggedFigure.gltf", 44, 71, 3),
    ("01_01", "authored/mixamo_apose.glb", 50, 56, 3),
    ("01_01", "authored/rigify_tpose.glb", 50, 56, 3),
    ("01_01", "authored/ue_armsdown_tail.glb", 50, 56, 3),
    ("01_01", "authored/vroid_tpose.vrm", 50, 56, 3),
    ("Boxing_Toes", "humanoid", 7, 13, 1),
    ("Boxing_Toes", "stickman", 9, 10, 0),
    ("Boxing_Toes", "RiggedFigure.gltf", 12, 18, 4),
    ("Boxing_Toes", "authored/mixamo_apose.glb", 22, 36, 8),
    ("Boxing_Toes", "authored/rigify_tpose.glb", 22, 36, 8),
    ("Boxing_Toes", "authored/ue_armsdown_tail.glb", 22, 36, 8),
    ("Boxing_Toes", "authored/vroid_tpose.vrm", 22, 36, 8),
    ("01_03", "humanoid", 45, 63, 12),
    ("01_03", "stickman", 9, 10, 2),
    ("01_03", "RiggedFigure.gltf", 76, 126, 28),
    ("01_03", "authored/mixamo_apose.glb", 63, 80, 9),
    ("01_03", "authored/rigify_tpose.glb", 63, 80, 9),
    ("01_03", "authored/ue_armsdown_tail.glb", 63, 80, 9),
    ("01_03", "authored/vroid_tpose.vrm", 63, 80, 9),
];

/// The most any of `joints` is below its height at rest over `frames` (metres, ≥ 0).
fn deepest_below_rest(
    skeleton: &Skeleton,
    frames: &[marionette_motion::BakedFrame],
    joints: &[JointId],
) -> f64 {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &Pose::rest(skeleton).q);
    let rest: Vec<f64> = joints.iter().map(|&j| fk.joint_position(j).y).collect();
    frames
        .iter()
        .map(|f| {
            fk.update(skeleton, &f.q);
            joints
                .iter()
                .zip(&rest)
                .map(|(&j, r)| r - fk.joint_position(j).y)
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

/// The largest step of the root's position between two keys of `sequence`.
fn largest_root_step(sequence: &marionette_document::Sequence) -> f64 {
    sequence
        .keys
        .windows(2)
        .map(|w| {
            (Vector3::from_column_slice(&w[1].pose.q[..3])
                - Vector3::from_column_slice(&w[0].pose.q[..3]))
            .norm()
        })
        .fold(0.0, f64::max)
}

/// How far `point` moves over frames `first..=last` of `frames` (the largest distance from where
/// it is on the first), by forward kinematics.
fn slide(
    skeleton: &Skeleton,
    frames: &[marionette_motion::BakedFrame],
    point: &ContactPoint,
    (first, last): (i64, i64),
) -> f64 {
    let mut fk = Fk::new(skeleton);
    let mut at = |q: &[f64]| {
        fk.update(skeleton, q);
        fk.point(point.joint, &point.offset)
    };
    let start = frames[0].frame;
    let of = |f: i64| &frames[(f - start) as usize].q;
    let planted = at(of(first));
    (first..=last)
        .map(|f| (at(of(f)) - planted).norm())
        .fold(0.0, f64::max)
}

#[test]
fn contacts_are_held_or_their_legs_are_at_a_limit() {
    let mut checked = 0;
    let (mut missing, mut measured_rows) = (Vec::new(), Vec::new());
    let (mut planted_missing, mut planted_rows) = (Vec::new(), Vec::new());
    // With CMU's 01_03 (climbing onto a stool and sitting: the deepest squats of the three).
    for path in CAPTURES
        .into_iter()
        .chain(["/usr/share/assimp/models/BVH/01_03.bvh"])
    {
        let (cs, frames, fps) = capture(path);
        for (target, rest) in targets() {
            let what = format!("{path} → {}", target.name());
            let result =
                retarget(&cs, &frames, fps, (&target, &rest), &[], "take").expect("retargets");
            let points = foot_points(&target).expect("feet");
            let cleaned = clean_feet(
                &target,
                &result.sequence,
                &[],
                &points,
                BakeSettings::default(),
            )
            .expect("cleans");
            assert!(
                cleaned.contacts.len() >= 4,
                "{what}: {:?}",
                cleaned.contacts
            );
            // The test's own bake of the cleaned sequence, and its own measure of each contact.
            let baker = Baker::new(
                &target,
                &cleaned.sequence,
                &cleaned.locks,
                BakeSettings::default(),
            );
            let baked = bake_with_threads(&baker, 0, &|| {}).expect("bakes");
            // The independent rule, on the test's own bakes of the take and the cleaned take.
            let take = planted::baked(&target, &result.sequence, &[]).expect("bakes the take");
            let cleaned_frames: Vec<Vec<f64>> = baked.iter().map(|b| b.q.clone()).collect();
            let runs = planted::measure(&target, result.sequence.fps, &take, &cleaned_frames)
                .expect("measures");
            let rule = planted::Summary::of(&runs);
            println!(
                "{what}: by the independent rule, {} of {} planted runs slide ≤ 5 mm after the cleanup ({:.1} %), {} slide more than 2 mm beyond before (most {:+.1} mm)",
                rule.held,
                rule.runs,
                rule.held_percent(),
                rule.worse,
                rule.most_worse * 1e3
            );
            let mut held_here = 0;
            for c in &cleaned.contacts {
                let point = points
                    .iter()
                    .find(|p| p.name == c.point)
                    .expect("the contact's point");
                let measured = slide(&target, &baked, point, c.frames);
                held_here += usize::from(measured <= HELD_WITHIN);
                // The report measures from the planted point, the test from the point's first
                // frame: by the triangle inequality the test's is at most twice the report's
                // (a report that under-reports fails here).
                assert!(
                    measured <= 2.0 * c.slide_after + 5e-4,
                    "{what}: {}: the test measures {:.2} mm, the report {:.2} mm",
                    c.lock,
                    measured * 1e3,
                    c.slide_after * 1e3
                );
            }
            let found = cleaned.contacts.len();
            println!(
                "{what}: the test's own bake holds {held_here} of {found} contacts within {} mm; hips lowered {:.1} mm raised {:.1} mm steepest {:.1} mm; below floor {:.1} mm",
                HELD_WITHIN * 1e3,
                cleaned.most_lowered() * 1e3,
                cleaned.most_raised() * 1e3,
                cleaned.steepest_pelvis_step() * 1e3,
                cleaned.below_floor * 1e3,
            );
            let capture_name = std::path::Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let least = HELD_AT_LEAST
                .iter()
                .find(|(c, f, _, _, _)| *c == capture_name && *f == target.name())
                .map(|&(_, _, held, of, deepest)| (held, of, deepest));
            // The ankle and toe joints (the feet's contact points' joints), by the test's own
            // forward kinematics of its bake.
            let mut feet: Vec<JointId> = points.iter().map(|p| p.joint).collect();
            feet.extend(points.iter().filter_map(|p| p.leg.and_then(|l| l.foot)));
            feet.sort();
            feet.dedup();
            let below = deepest_below_rest(&target, &baked, &feet);
            // The hips' change between two frames, next to the capture's own root step.
            let change: Vec<f64> = cleaned
                .sequence
                .keys
                .iter()
                .zip(&result.sequence.keys)
                .map(|(a, b)| a.pose.q[1] - b.pose.q[1])
                .collect();
            let steepest = change
                .windows(2)
                .map(|w| (w[1] - w[0]).abs())
                .fold(0.0, f64::max);
            let root_step = largest_root_step(&result.sequence);
            println!(
                "{what}: ankles and toes at most {:.1} mm below their rest heights; hips change at most {:.1} mm between two frames (the capture's root steps up to {:.1} mm)",
                below * 1e3,
                steepest * 1e3,
                root_step * 1e3
            );
            assert!(
                steepest <= root_step + 0.002,
                "{what}: the hips change {:.1} mm between two frames, more than the capture's root step {:.1} mm + 2 mm",
                steepest * 1e3,
                root_step * 1e3
            );
            planted_rows.push(format!(
                "(\"{capture_name}\", \"{}\", {}, {}, {}),",
                target.name(),
                rule.held,
                rule.runs,
                rule.worse
            ));
            match PLANTED
                .iter()
                .find(|(c, f, ..)| *c == capture_name && *f == target.name())
            {
                Some(&(_, _, held, of, worse)) => {
                    assert!(
                        rule.held * of >= held * rule.runs.max(1),
                        "{what}: {} of {} planted runs held by the independent rule, fewer than {held} of {of}",
                        rule.held,
                        rule.runs
                    );
                    assert!(
                        rule.worse <= worse,
                        "{what}: {} planted runs slide more than 2 mm beyond before, more than {worse}",
                        rule.worse
                    );
                }
                None => planted_missing.push(what.clone()),
            }
            measured_rows.push(format!(
                "(\"{capture_name}\", \"{}\", {held_here}, {found}, {:.1}),",
                target.name(),
                below * 1e3
            ));
            let Some((least_held, least_of, deepest_mm)) = least else {
                missing.push(what.clone());
                continue;
            };
            assert!(
                held_here * least_of >= least_held * found,
                "{what}: {held_here} of {found} contacts held, fewer than {least_held} of {least_of}"
            );
            assert!(
                held_here * 100 >= 95 * found,
                "{what}: {held_here} of {found} contacts held, fewer than 95 %"
            );
            assert!(
                below * 1e3 <= deepest_mm,
                "{what}: an ankle or toe joint goes {:.1} mm below its height at rest (at most {deepest_mm} mm before)",
                below * 1e3
            );
            assert!(
                below <= 0.010,
                "{what}: an ankle or toe joint goes {:.1} mm below its height at rest (issue 35: at most 10 mm)",
                below * 1e3
            );
            checked += 1;
            let not_held: Vec<_> = cleaned.not_held().collect();
            for c in &not_held {
                assert!(
                    c.gave_way_to.is_some()
                        || c.let_go.is_some()
                        || !c.at_limits.is_empty()
                        || c.beyond_reach.is_some_and(|b| b > -0.005),
                    "{what}: {} slides {:.2} mm and no joint of its leg is at a limit ({:?} mm beyond reach)",
                    c.lock,
                    c.slide_after * 1e3,
                    c.beyond_reach.map(|b| b * 1e3)
                );
            }
            for c in &cleaned.contacts {
                assert!(
                    c.held() == (c.gave_way_to.is_none() && c.slide_after <= HELD_WITHIN)
                        && c.slide_after.is_finite(),
                    "{what}: {c:?}"
                );
            }
            for s in &cleaned.steps {
                // What the cleanup adds to a step where a lock takes or lets go: never more
                // than the capture's largest step. (The absolute step there can exceed the
                // capture's largest where the capture itself makes it: 01_01's frame 0 is a
                // calibration T-pose, 20 cm from frame 1.)
                assert!(
                    s.largest_extra_at_edges <= s.largest_before,
                    "{what}: {} steps {:.1} mm more than the capture at a lock's edge on frame {} (the capture's largest step {:.1} mm)",
                    s.point,
                    s.largest_extra_at_edges * 1e3,
                    s.largest_extra_frame,
                    s.largest_before * 1e3
                );
            }
            let slide = |f: fn(&marionette_motion::cleanup::ContactReport) -> f64| {
                cleaned.contacts.iter().map(f).fold(0.0, f64::max) * 1e3
            };
            let held_most = cleaned
                .contacts
                .iter()
                .filter(|c| c.held())
                .map(|c| c.slide_after)
                .fold(0.0, f64::max);
            println!(
                "{what}: {} contacts on {} points; slide before up to {:.1} mm; {} held (≤ {:.2} mm), {} not (up to {:.1} mm; {} of them not locked, the foot holding another; {} let go early so that the foot stays above the floor; the rest with the leg at a limit); edge steps up to {:.1} mm ({:+.1} mm over the capture's step there), the capture's largest {:.1} mm",
                cleaned.contacts.len(),
                points.len(),
                slide(|c| c.slide_before),
                cleaned.contacts.len() - not_held.len(),
                held_most * 1e3,
                not_held.len(),
                slide(|c| c.slide_after),
                not_held.iter().filter(|c| c.gave_way_to.is_some()).count(),
                not_held.iter().filter(|c| c.let_go.is_some()).count(),
                cleaned
                    .steps
                    .iter()
                    .map(|s| s.largest_at_edges)
                    .fold(0.0, f64::max)
                    * 1e3,
                cleaned
                    .steps
                    .iter()
                    .map(|s| s.largest_extra_at_edges)
                    .fold(0.0, f64::max)
                    * 1e3,
                cleaned
                    .steps
                    .iter()
                    .map(|s| s.largest_before)
                    .fold(0.0, f64::max)
                    * 1e3,
            );
        }
    }
    assert!(
        missing.is_empty(),
        "no expected count for {missing:?}; as measured now:\n{}",
        measured_rows.join("\n")
    );
    assert!(
        planted_missing.is_empty(),
        "no planted-runs figures for {planted_missing:?}; as measured now:\n{}",
        planted_rows.join("\n")
    );
    assert_eq!(
        checked,
        HELD_AT_LEAST.len(),
        "every expected pair was checked"
    );
}
