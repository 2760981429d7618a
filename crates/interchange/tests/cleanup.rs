//! Foot-skate cleanup of captures retargeted onto other figures: every contact found is held
//! within 2 mm, or its leg is at a limit or out of reach where it slides most (reported by name
//! and amount); where a lock takes or lets a foot go, the cleanup adds to the foot's step
//! between two frames no more than the capture's own largest step. The captures and figures are the retarget test's.

mod common;

use common::{CAPTURES, capture, targets};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget;
use marionette_motion::cleanup::HELD_WITHIN;
use marionette_motion::{BakeSettings, clean_feet};

#[test]
fn contacts_are_held_or_their_legs_are_at_a_limit() {
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
}
