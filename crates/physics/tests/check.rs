//! The physics check on real captures (Debian's assimp-testmodels), against references of the
//! test's own: CMU 01_01's flights as `scripts/physics-spans.py` finds them from the exported
//! world positions alone (see that script), de Leva-free facts about falling bodies (g), and
//! the balance and unit figures issue 50 asks for.

use std::path::{Path, PathBuf};

use marionette_interchange::capture::{CaptureScale, read_take};
use marionette_physics::check::{Report, check};
use marionette_physics::flight::{G, SpanKind};
use marionette_physics::supports::SupportRule;
use marionette_physics::track::Track;
use marionette_physics::{MassModel, MassSettings};

fn capture(name: &str) -> PathBuf {
    let path = Path::new("/usr/share/assimp/models/BVH").join(name);
    assert!(
        path.exists(),
        "{} is missing: scripts/ensure-system-packages.sh installs assimp-testmodels",
        path.display()
    );
    path
}

/// The check of a capture read at `scale`.
fn checked(name: &str, scale: CaptureScale) -> (Report, Track, f64) {
    let c = read_take(&capture(name), scale, 1, None).expect("reads");
    let skeleton = &c.imported.skeleton;
    let model = MassModel::of(skeleton, MassSettings::default()).expect("masses");
    let sequence = &c.imported.sequence;
    let poses = sequence.keys.iter().map(|k| k.pose.q.as_slice());
    let track = Track::of(skeleton, &model, poses, sequence.fps);
    (check(&track, &SupportRule::default(), &[]), track, c.scale)
}

/// CMU 01_01's ten flights, first and last frame with no support, as
/// `scripts/physics-spans.py` prints them (its command line in its own text).
const FLIGHTS: [(usize, usize); 10] = [
    (229, 273),
    (431, 470),
    (597, 643),
    (782, 835),
    (1287, 1338),
    (1549, 1593),
    (1778, 1825),
    (2217, 2263),
    (2433, 2482),
    (2632, 2683),
];

#[test]
fn cmu_01_01_flies_its_ten_jumps_at_g() {
    let (report, _, _) = checked("01_01.bvh", CaptureScale::Times(0.05644));
    let spans: Vec<(usize, usize)> = report.spans.iter().map(|s| (s.from, s.to)).collect();
    assert_eq!(spans, FLIGHTS);
    let mut g: Vec<f64> = Vec::new();
    for s in &report.spans {
        assert_eq!(s.kind, SpanKind::Ballistic, "{s:?}");
        assert!((s.g - G).abs() <= 0.10 * G, "{s:?}");
        g.push(s.g);
    }
    g.sort_by(f64::total_cmp);
    let median = (g[4] + g[5]) / 2.0;
    assert!((median - G).abs() <= 0.03 * G, "median g {median}");
    let across: f64 = report.spans.iter().map(|s| s.horizontal_accel).sum::<f64>() / 10.0;
    assert!(across <= 0.2, "mean horizontal acceleration {across} m/s²");
    // Every quiet frame stands over its support.
    let b = &report.balance;
    assert!(b.quiet_frames > 50, "{b:?}");
    assert_eq!(
        b.inside,
        b.quiet_frames,
        "{:?}",
        report.flagged_poses().collect::<Vec<_>>()
    );
    assert!(!report.flagged());
}

#[test]
fn cmu_01_03_hangs_are_supported_not_flights() {
    let (report, track, _) = checked("01_03.bvh", CaptureScale::Times(0.05644));
    assert!(
        report.spans.iter().all(|s| s.kind == SpanKind::Supported),
        "{:?}",
        report.spans
    );
    let long: Vec<_> = report
        .spans
        .iter()
        .filter(|s| (s.to - s.from + 1) as f64 / track.fps >= 1.0)
        .collect();
    assert!(long.len() >= 3, "{:?}", report.spans);
    assert!(long.iter().all(|s| s.g.abs() < 0.25 * G), "{long:?}");
}

#[test]
fn boxing_stands_over_its_support_and_is_read_in_centimetres() {
    let (report, _, scale) = checked("Boxing_Toes.bvh", CaptureScale::Guess);
    assert_eq!(scale, 0.01);
    let b = &report.balance;
    assert!(b.quiet_frames > 100, "{b:?}");
    let share = b.inside as f64 / b.quiet_frames as f64;
    assert!(share >= 0.98, "{} of {}", b.inside, b.quiet_frames);
}

#[test]
fn a_wrong_unit_is_told_by_the_flights_agreeing_on_another_g() {
    // Read as centimetres, 01_01's performer is 27 cm tall and falls at about 1.7 m/s².
    let (report, _, _) = checked("01_01.bvh", CaptureScale::Times(0.01));
    assert!(report.spans.iter().all(|s| s.kind == SpanKind::Supported));
    let (factor, g) = report.unit_hint.expect("a unit hint");
    let scale = 0.01 * factor;
    assert!(
        (scale - 0.05644).abs() < 0.1 * 0.05644,
        "{scale} ({g} m/s²)"
    );
    // Read right, no hint.
    let (right, _, _) = checked("01_01.bvh", CaptureScale::Times(0.05644));
    assert_eq!(right.unit_hint, None);
}
