//! Foot-skate cleanup of captures retargeted onto other figures. The test bakes the cleaned
//! sequence itself (the sequence with the locks the cleanup made) and measures, with its own
//! forward kinematics, how far each contact's point moves over the contact's frames: at least
//! the fraction of contacts in [`HELD_AT_LEAST`] stay within 2 mm on each capture and figure (a
//! test that fails when fewer are held), every contact not held is named with its reason by the
//! report, the report's slide agrees with the test's, and where a lock takes or lets a foot go the
//! cleanup adds to the foot's step between two frames no more than the capture's own largest
//! step. The captures and figures are the retarget test's.

mod common;

use common::{CAPTURES, capture, targets};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget;
use marionette_motion::cleanup::{ContactPoint, HELD_WITHIN};
use marionette_motion::{BakeSettings, Baker, bake_with_threads, clean_feet};
use marionette_skeleton::{Fk, Skeleton};

/// Contacts held within 2 mm at least, per capture and figure (held, found), as measured on
/// 2026-11-26; a change that holds fewer fails here. (Issue 35 is about raising these.)
const HELD_AT_LEAST: [(&str, &str, usize, usize); 14] = [
    ("01_01", "humanoid", 70, 74),
    ("01_01", "stickman", 39, 39),
    ("01_01", "RiggedFigure.gltf", 53, 73),
    ("01_01", "authored/mixamo_apose.glb", 104, 108),
    ("01_01", "authored/rigify_tpose.glb", 104, 108),
    ("01_01", "authored/ue_armsdown_tail.glb", 104, 108),
    ("01_01", "authored/vroid_tpose.vrm", 104, 108),
    ("Boxing_Toes", "humanoid", 75, 77),
    ("Boxing_Toes", "stickman", 15, 15),
    ("Boxing_Toes", "RiggedFigure.gltf", 27, 33),
    ("Boxing_Toes", "authored/mixamo_apose.glb", 100, 109),
    ("Boxing_Toes", "authored/rigify_tpose.glb", 100, 109),
    ("Boxing_Toes", "authored/ue_armsdown_tail.glb", 100, 109),
    ("Boxing_Toes", "authored/vroid_tpose.vrm", 100, 109),
];

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
    for path in CAPTURES {
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
                &result.sequence,
                &cleaned.locks,
                BakeSettings::default(),
            );
            let baked = bake_with_threads(&baker, 0, &|| {}).expect("bakes");
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
                "{what}: the test's own bake holds {held_here} of {found} contacts within {} mm",
                HELD_WITHIN * 1e3
            );
            let capture_name = std::path::Path::new(path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let least = HELD_AT_LEAST
                .iter()
                .find(|(c, f, _, _)| *c == capture_name && *f == target.name())
                .map(|&(_, _, held, of)| (held, of));
            measured_rows.push(format!(
                "(\"{capture_name}\", \"{}\", {held_here}, {found}),",
                target.name()
            ));
            let Some((least_held, least_of)) = least else {
                missing.push(what.clone());
                continue;
            };
            assert!(
                held_here * least_of >= least_held * found,
                "{what}: {held_here} of {found} contacts held, fewer than {least_held} of {least_of}"
            );
            checked += 1;
            let not_held: Vec<_> = cleaned.not_held().collect();
            for c in &not_held {
                assert!(
                    c.gave_way_to.is_some()
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
                "{what}: {} contacts on {} points; slide before up to {:.1} mm; {} held (≤ {:.2} mm), {} not (up to {:.1} mm; {} of them not locked, the foot holding another; the rest with the leg at a limit); edge steps up to {:.1} mm ({:+.1} mm over the capture's step there), the capture's largest {:.1} mm",
                cleaned.contacts.len(),
                points.len(),
                slide(|c| c.slide_before),
                cleaned.contacts.len() - not_held.len(),
                held_most * 1e3,
                not_held.len(),
                slide(|c| c.slide_after),
                not_held.iter().filter(|c| c.gave_way_to.is_some()).count(),
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
    assert_eq!(
        checked,
        HELD_AT_LEAST.len(),
        "every expected pair was checked"
    );
}
