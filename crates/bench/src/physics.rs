//! Issue 50's speed: the physics check of CMU's 01_01 (2 752 frames at 120 fps, Debian's
//! assimp-testmodels), read at CMU's unit: the figure weighed once (de Leva by role), then the
//! take read as physics reads it (centre of mass, body points and angular momentum per frame)
//! and checked (supports, flights fitted, balance), on one thread; and the ballistic fix of a
//! 60-frame span of it, without and with the momentum held; best of `runs`.

use std::path::Path;

use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_physics::check::check;
use marionette_physics::fix::{FixOptions, fix};
use marionette_physics::flight::SpanKind;
use marionette_physics::supports::SupportRule;
use marionette_physics::track::Track;
use marionette_physics::{MassModel, MassSettings};

use crate::interchange::{CAPTURE, best_ms};
use crate::table::Table;

/// The physics table.
pub fn table(runs: usize) -> Table {
    let mut table = Table::new(
        format!("Physics check: CMU 01_01 (2 752 frames), one thread; best of {runs} (ms)"),
        &["step", "ms", "what it found"],
    );
    let capture = match read_capture(Path::new(CAPTURE), CaptureScale::Times(0.05644), 1) {
        Ok(c) => c.imported,
        Err(e) => {
            table.row(vec![
                format!("{e} (assimp-testmodels)"),
                "—".into(),
                "—".into(),
            ]);
            return table;
        }
    };
    let skeleton = &capture.skeleton;
    let (masses_ms, model) = best_ms(runs, || MassModel::of(skeleton, MassSettings::default()));
    let Ok(model) = model else {
        table.row(vec![
            "masses".into(),
            "—".into(),
            "no humanoid roles".into(),
        ]);
        return table;
    };
    let sequence = &capture.sequence;
    let poses = || sequence.keys.iter().map(|k| k.pose.q.as_slice());
    let (track_ms, track) = best_ms(runs, || Track::of(skeleton, &model, poses(), sequence.fps));
    let (check_ms, report) = best_ms(runs, || check(&track, &SupportRule::default(), &[]));
    let (whole_ms, _) = best_ms(runs, || {
        let track = Track::of(skeleton, &model, poses(), sequence.fps);
        check(&track, &SupportRule::default(), &[])
    });
    // The ballistic fix of a 60-frame span (the first flight's, widened to 60 frames).
    let poses_owned: Vec<Vec<f64>> = poses().map(<[f64]>::to_vec).collect();
    let span = (229, 288);
    let fix_with = |options: FixOptions| {
        best_ms(runs, || {
            fix(
                skeleton,
                &model,
                &poses_owned,
                sequence.fps,
                span,
                &options,
                &[],
            )
        })
    };
    let (fix_ms, fixed) = fix_with(FixOptions {
        ballistic: true,
        ..FixOptions::default()
    });
    let (momentum_ms, held) = fix_with(FixOptions {
        ballistic: true,
        momentum: true,
        ..FixOptions::default()
    });
    // The editor's overlays: the measures made when the take changes, and what each drawn
    // frame reads from them (its footing: support polygon and margin).
    let (measure_ms, view) = best_ms(runs, || {
        marionette_editing::physics_view::PhysicsView::of_take(
            skeleton,
            &[],
            0,
            &poses_owned,
            (sequence.fps, MassSettings::default()),
        )
    });
    let per_frame_ms = match &view {
        Ok(view) => {
            let (all_ms, _) = best_ms(runs, || {
                (0..view.com.len())
                    .map(|i| view.footing(i) as usize)
                    .sum::<usize>()
            });
            format!("{:.5}", all_ms / view.com.len() as f64)
        }
        Err(e) => e.to_string(),
    };
    let ballistic = report
        .spans
        .iter()
        .filter(|s| s.kind == SpanKind::Ballistic)
        .count();
    table.row(vec![
        "masses (de Leva by role)".into(),
        format!("{masses_ms:.3}"),
        format!("{} segments", model.segments.len()),
    ]);
    table.row(vec![
        "track (centre of mass, points, momentum)".into(),
        format!("{track_ms:.2}"),
        format!("{} frames", track.len()),
    ]);
    table.row(vec![
        "check (supports, spans, balance)".into(),
        format!("{check_ms:.2}"),
        format!(
            "{ballistic} ballistic of {} spans; {} of {} quiet frames balanced",
            report.spans.len(),
            report.balance.inside,
            report.balance.quiet_frames
        ),
    ]);
    table.row(vec![
        "track and check".into(),
        format!("{whole_ms:.2}"),
        String::new(),
    ]);
    table.row(vec![
        "overlays: measure the take (when it changes)".into(),
        format!("{measure_ms:.2}"),
        String::new(),
    ]);
    table.row(vec![
        "overlays: a drawn frame's footing (polygon, margin)".into(),
        per_frame_ms,
        String::new(),
    ]);
    table.row(vec![
        "ballistic fix of a 60-frame span".into(),
        format!("{fix_ms:.3}"),
        fixed.map_or_else(|e| e.to_string(), |f| format!("{} poses", f.poses.len())),
    ]);
    table.row(vec![
        "ballistic and momentum fix of a 60-frame span".into(),
        format!("{momentum_ms:.3}"),
        held.map_or_else(|e| e.to_string(), |f| format!("{} poses", f.poses.len())),
    ]);
    table
}
