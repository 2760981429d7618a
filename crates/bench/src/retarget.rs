//! Issue 22's numbers: CMU's capture 01_01 (2 752 frames at 120 fps, Debian's
//! assimp-testmodels) put onto the built-in humanoid and every humanoid test character
//! (`retarget_imported`, from the parsed and imported capture), then its foot contacts found and locked
//! and the sequence baked to measure them (`clean_feet`, two or three bakes of every frame on
//! every core); best of `runs`, with the contacts found and held.

use std::path::Path;

use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_interchange::character::Character;
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget_imported;
use marionette_motion::{BakeSettings, clean_feet};
use marionette_skeleton::{Pose, Skeleton, builtin};

use crate::interchange::{CAPTURE, best_ms};
use crate::table::Table;

/// The figures: the built-in humanoid, then the test characters (a non-humanoid is listed as
/// refused).
pub(crate) fn figures() -> Vec<(String, Result<Skeleton, String>)> {
    let mut out = vec![("humanoid".to_owned(), Ok(builtin::humanoid()))];
    for path in crate::characters::gltf_files() {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let skeleton = Character::open(&path)
            .map_err(|e| e.to_string())
            .and_then(|c| c.import("figure", "figure.glb").map_err(|e| e.to_string()))
            .map(|i| i.skeleton);
        out.push((name, skeleton));
    }
    out
}

/// A row that says why there are no numbers, as wide as the table.
fn padded(name: String, why: &str) -> Vec<String> {
    let mut row = vec![name, why.to_owned()];
    row.resize(COLUMNS.len(), "—".to_owned());
    row
}

/// The table's columns.
const COLUMNS: [&str; 6] = [
    "figure",
    "bones",
    "retarget ms",
    "cleanup ms",
    "contacts",
    "held",
];

/// The retarget table.
pub fn table(runs: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Retarget and cleanup: CMU 01_01 (2 752 frames) onto each figure; best of {runs} (ms)"
        ),
        &COLUMNS,
    );
    let capture = match read_capture(Path::new(CAPTURE), CaptureScale::Times(0.056), 1) {
        Ok(c) => c.imported,
        Err(e) => {
            table.row(padded(format!("{e} (assimp-testmodels)"), ""));
            return table;
        }
    };
    for (name, skeleton) in figures() {
        let Ok(target) = skeleton else {
            continue;
        };
        let rest = Pose::rest(&target).q;
        let (retarget_ms, result) = best_ms(runs, || {
            retarget_imported(&capture, (&target, &rest), &[], "01_01")
        });
        let Ok(result) = result else {
            table.row(padded(name, "not a humanoid"));
            continue;
        };
        let Ok(points) = foot_points(&target) else {
            table.row(padded(name, "no feet"));
            continue;
        };
        let (cleanup_ms, cleaned) = best_ms(runs, || {
            clean_feet(
                &target,
                &result.sequence,
                &[],
                &points,
                BakeSettings::default(),
            )
        });
        let (contacts, held) = cleaned.map_or((0, 0), |c| {
            (
                c.contacts.len(),
                c.contacts.iter().filter(|c| c.held()).count(),
            )
        });
        table.row(vec![
            name,
            result.map.len().to_string(),
            format!("{retarget_ms:.0}"),
            format!("{cleanup_ms:.0}"),
            contacts.to_string(),
            held.to_string(),
        ]);
    }
    table
}
