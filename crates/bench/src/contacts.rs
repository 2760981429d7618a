//! Issue 35's numbers: every capture the machine has (CMU's 01_01, 01_03 and Boxing_Toes from
//! Debian's assimp-testmodels) put onto every humanoid the repository has (the built-in
//! humanoid, Welman's stick figure, every humanoid test character), its foot contacts found and
//! held (`clean_feet`: the hips lowered where a leg cannot reach, raised where a foot would go
//! below the floor, floor locks where a rolling foot would sink). Per pair: the contacts found
//! and held within 2 mm, the largest change of the hips, the deepest a foot point is below its
//! height at rest afterwards, and the cleanup's time per 1 000 frames (best of `runs`); beside
//! the cleanup's own figures, the independent planted-feet rule of [`crate::planted`].

use std::path::Path;

use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget_imported;
use marionette_motion::{BakeSettings, clean_feet};
use marionette_skeleton::{Pose, Skeleton};

use crate::interchange::best_ms;
use crate::table::Table;

/// The captures.
pub const CAPTURES: [&str; 3] = [
    "/usr/share/assimp/models/BVH/01_01.bvh",
    "/usr/share/assimp/models/BVH/01_03.bvh",
    "/usr/share/assimp/models/BVH/Boxing_Toes.bvh",
];

/// The table's columns.
const COLUMNS: [&str; 11] = [
    "capture",
    "figure",
    "frames",
    "contacts",
    "held ≤ 2 mm",
    "planted runs ≤ 5 mm",
    "runs worse > 2 mm",
    "hips down / up mm",
    "hips step mm",
    "below floor mm",
    "ms / 1000 frames",
];

/// The figures: those of the retarget table and the stick figure (the pairs of the table are
/// every capture on every figure).
pub fn figures() -> Vec<(String, Skeleton)> {
    let stickman = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/stickman.ron");
    let mut out: Vec<(String, Skeleton)> = Vec::new();
    for (name, skeleton) in crate::retarget::figures() {
        if let Ok(s) = skeleton {
            out.push((name, s));
        }
        if out.len() == 1
            && let Ok(s) = Skeleton::load(&stickman)
        {
            out.push(("stickman".to_owned(), s));
        }
    }
    out
}

/// The contacts table; `every` takes every n-th frame of the captures (1: all).
pub fn table(runs: usize, every: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Foot contacts on every figure: each capture retargeted, then cleaned; best of {runs}{}",
            if every > 1 {
                format!(" (every {every}th frame)")
            } else {
                String::new()
            }
        ),
        &COLUMNS,
    );
    let figures = figures();
    for path in CAPTURES {
        let capture = match read_capture(Path::new(path), CaptureScale::Times(0.01), every) {
            Ok(c) => c,
            Err(e) => {
                table.note(format!("{path}: {e} (install assimp-testmodels)"));
                continue;
            }
        };
        for (name, target) in &figures {
            let rest = Pose::rest(target).q;
            let mut row = vec![capture.name.clone(), name.clone()];
            let Ok(result) = retarget_imported(&capture.imported, (target, &rest), &[], "take")
            else {
                row.push("not a humanoid".into());
                row.resize(COLUMNS.len(), "—".into());
                table.row(row);
                continue;
            };
            let Ok(points) = foot_points(target) else {
                row.push("no feet".into());
                row.resize(COLUMNS.len(), "—".into());
                table.row(row);
                continue;
            };
            let (ms, cleaned) = best_ms(runs, || {
                clean_feet(
                    target,
                    &result.sequence,
                    &[],
                    &points,
                    BakeSettings::default(),
                )
            });
            let Ok(c) = cleaned else {
                row.push("could not be cleaned".into());
                row.resize(COLUMNS.len(), "—".into());
                table.row(row);
                continue;
            };
            let held = c.contacts.iter().filter(|c| c.held()).count();
            let found = c.contacts.len();
            // The independent rule (crate::planted), on its own bakes.
            let planted =
                crate::planted::measure_cleanup(target, &result.sequence, (&c.sequence, &c.locks))
                    .map(|runs| crate::planted::Summary::of(&runs));
            row.extend([
                c.frames.to_string(),
                found.to_string(),
                format!(
                    "{held} ({:.0} %)",
                    100.0 * held as f64 / found.max(1) as f64
                ),
                planted.as_ref().map_or_else(
                    |e| e.clone(),
                    |p| format!("{} of {} ({:.0} %)", p.held, p.runs, p.held_percent()),
                ),
                planted.as_ref().map_or_else(
                    |_| "—".to_owned(),
                    |p| format!("{} (most {:+.1} mm)", p.worse, p.most_worse * 1e3),
                ),
                format!(
                    "{:.0} / {:.0}",
                    c.most_lowered() * 1e3,
                    c.most_raised() * 1e3
                ),
                format!("{:.1}", c.steepest_pelvis_step() * 1e3),
                format!("{:.1}", c.below_floor * 1e3),
                format!("{:.0}", ms * 1000.0 / c.frames.max(1) as f64),
            ]);
            table.row(row);
        }
    }
    table.note(
        "planted runs: the independent rule of crate::planted (issue 48), not the cleanup's \
         detector: a foot joint (ankle or toes) within 3 cm of its lowest and slower than 0.25 m/s \
         across the ground for 6 frames or more in the retargeted take is planted; ≤ 5 mm: its \
         slide after the cleanup (largest distance across the ground from its mean, two frames \
         left out at each end); worse: runs sliding more than 2 mm beyond their slide before",
    );
    table.note(
        "held: the cleanup's own measure of each contact's slide over its frames (the test \
         interchange/tests/cleanup.rs measures it again with its own bake); below floor: the \
         deepest any heel, toe tip, ankle or toes joint is under its height at rest after the \
         cleanup",
    );
    table
}
