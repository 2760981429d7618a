//! Issue 12's budget: files for other tools. The import of a real capture (CMU 01_01 from
//! Debian's assimp-testmodels: 2 752 frames, 31 joints: reading the BVH and making the skeleton
//! and the sequence) and the export of the 10 000-frame crouch cycle of the bake protocol (baked
//! once, not timed) to each format, in memory; best of `runs`.

use std::path::Path;
use std::time::Instant;

use marionette_interchange::bvh::write::to_bvh;
use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_interchange::json::frames_with_world_positions;
use marionette_motion::{BakeSettings, Baker, bake_with_threads};

use crate::table::Table;

/// Where Debian's assimp-testmodels puts CMU's first capture.
pub const CAPTURE: &str = "/usr/share/assimp/models/BVH/01_01.bvh";

/// The fastest of `runs` calls of `f` in milliseconds, and the last call's result.
pub(crate) fn best_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..runs {
        let began = Instant::now();
        let out = f();
        best = best.min(began.elapsed().as_secs_f64() * 1e3);
        last = Some(out);
    }
    (best, last.expect("at least one run"))
}

/// The interchange table.
pub fn table(frames: i64, runs: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Interchange: import of a capture, export of the {frames}-frame crouch cycle; best of {runs}"
        ),
        &["what", "frames", "ms", "MB"],
    );
    match std::fs::metadata(CAPTURE) {
        Ok(meta) => {
            let (ms, capture) = best_ms(runs, || {
                read_capture(Path::new(CAPTURE), CaptureScale::Times(0.01), 1)
                    .expect("the capture reads")
            });
            let imported = &capture.imported;
            table.row(vec![
                format!(
                    "import CMU 01_01 ({} joints)",
                    imported.skeleton.joints().len()
                ),
                imported.sequence.keys.len().to_string(),
                format!("{ms:.1}"),
                format!("{:.1}", meta.len() as f64 / 1e6),
            ]);
        }
        Err(e) => table.note(format!("{CAPTURE}: {e} (install assimp-testmodels)")),
    }
    let (s, locks, sequence) = crate::bake::crouch_cycle(frames);
    let baker = Baker::new(&s, &sequence, &locks, BakeSettings::default());
    let baked = bake_with_threads(&baker, 0, &|| {}).expect("pool");
    let qs: Vec<Vec<f64>> = baked.iter().map(|f| f.q.clone()).collect();
    let (ms, text) = best_ms(runs, || to_bvh(&s, &qs, sequence.fps).to_text());
    table.row(vec![
        "export BVH (humanoid)".into(),
        baked.len().to_string(),
        format!("{ms:.1}"),
        format!("{:.1}", text.len() as f64 / 1e6),
    ]);
    let (ms, bytes) = best_ms(runs, || {
        let mut out = Vec::new();
        frames_with_world_positions(&mut out, &s, &locks, &sequence.name, sequence.fps, &baked)
            .expect("in memory");
        out
    });
    table.row(vec![
        "export JSON with world positions (humanoid)".into(),
        baked.len().to_string(),
        format!("{ms:.1}"),
        format!("{:.1}", bytes.len() as f64 / 1e6),
    ]);
    let (ms, glb) = best_ms(runs, || {
        marionette_interchange::gltf::to_glb(&s, &qs, sequence.fps, None).0
    });
    table.row(vec![
        "export glTF binary (humanoid)".into(),
        baked.len().to_string(),
        format!("{ms:.1}"),
        format!("{:.1}", glb.len() as f64 / 1e6),
    ]);
    table
}
