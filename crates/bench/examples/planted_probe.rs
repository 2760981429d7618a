//! The independent planted-feet rule (`marionette_bench::planted`) over the contact benchmark's
//! pairs: `planted_probe [FILTER]` retargets each capture onto each figure whose
//! "capture figure" text contains FILTER, cleans its feet, and prints per pair the runs planted
//! in the take, how many slide at most 5 mm after and how many slide more than 2 mm beyond
//! before, with the worst runs (`PROBE_LOCKS=1`: and the contacts and floor locks of that
//! foot around each).
use std::path::Path;
use std::time::Instant;

use marionette_bench::planted::{Summary, measure_cleanup};
use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget_imported;
use marionette_motion::{BakeSettings, clean_feet};
use marionette_skeleton::Pose;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let mut total = Summary::default();
    for path in marionette_bench::contacts::CAPTURES {
        let capture = read_capture(Path::new(path), CaptureScale::Times(0.01), 1).expect("capture");
        for (name, target) in marionette_bench::contacts::figures() {
            let what = format!("{} {name}", capture.name);
            if !what.contains(&filter) {
                continue;
            }
            let rest = Pose::rest(&target).q;
            let Ok(result) = retarget_imported(&capture.imported, (&target, &rest), &[], "take")
            else {
                println!("{what}: not a humanoid");
                continue;
            };
            let points = foot_points(&target).expect("feet");
            let t = Instant::now();
            let cleaned = clean_feet(
                &target,
                &result.sequence,
                &[],
                &points,
                BakeSettings::default(),
            )
            .expect("cleans");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let runs = measure_cleanup(
                &target,
                &result.sequence,
                (&cleaned.sequence, &cleaned.locks),
            )
            .expect("measures");
            let s = Summary::of(&runs);
            println!(
                "{what}: {} runs, {} held ≤ 5 mm ({:.1} %), {} worse by > 2 mm (most {:+.1} mm); cleanup {ms:.0} ms",
                s.runs,
                s.held,
                s.held_percent(),
                s.worse,
                s.most_worse * 1e3
            );
            let mut bad: Vec<_> = runs.iter().filter(|r| !r.held() || r.worse()).collect();
            bad.sort_by(|a, b| (b.after - b.before).total_cmp(&(a.after - a.before)));
            for r in bad.iter().take(12) {
                println!(
                    "    {} {}–{}: {:.1} → {:.1} mm",
                    r.point,
                    r.frames.0,
                    r.frames.1,
                    r.before * 1e3,
                    r.after * 1e3
                );
                if std::env::var("PROBE_LOCKS").is_ok() {
                    let side = r.point.split(' ').next().unwrap_or("");
                    for c in &cleaned.contacts {
                        let (a, b) = (r.frames.0 as i64, r.frames.1 as i64);
                        if c.point.starts_with(side) && c.frames.0 <= b + 20 && c.frames.1 >= a - 20
                        {
                            println!(
                                "        {} held {} after {:.1} mm lowered {:.1}",
                                c.lock,
                                c.held(),
                                c.slide_after * 1e3,
                                c.lowered * 1e3
                            );
                        }
                    }
                    for l in &cleaned.locks {
                        if let Some((la, lb)) = l.frames()
                            && l.name.contains("floor")
                            && l.name.starts_with(side)
                            && la <= r.frames.1 as i64
                            && lb >= r.frames.0 as i64
                        {
                            println!("        {}", l.name);
                        }
                    }
                    let p0: Vec<String> = cleaned.pelvis[r.frames.0..=r.frames.1]
                        .iter()
                        .step_by(4)
                        .map(|p| format!("{:.0}", p * 1e3))
                        .collect();
                    println!("        pelvis mm: {}", p0.join(" "));
                }
            }
            total.add(&s);
        }
    }
    println!(
        "all: {} runs, {} held ({:.1} %), {} worse (most {:+.1} mm)",
        total.runs,
        total.held,
        total.held_percent(),
        total.worse,
        total.most_worse * 1e3
    );
}
