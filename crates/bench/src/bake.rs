//! Issue 11's budget: baking a long sequence. The humanoid crouches and stands up again and
//! again, both heels position-locked on every frame; keys every 12 frames alternate standing
//! and crouched (pelvis 8 cm lower, the key solved against the heel locks as the editor's keys
//! are), with squad rotations and a Catmull-Rom root. Every frame is interpolated, then
//! re-solved against both locks ([`marionette_motion::Baker`]), with one thread and with two.

use std::path::Path;
use std::time::Instant;

use marionette_document::{
    DocumentFile, GoalSet, Key, Lock, LockKind, LockPart, RootInterpolation, RotationInterpolation,
    Sequence,
};
use marionette_ik::{Settings, SolverKind, solve};
use marionette_motion::frames_file::frames_text;
use marionette_motion::{BakeSettings, Baker, bake_with_threads, lock_summary};
use marionette_skeleton::{Fk, Pose, Skeleton, builtin};

use crate::table::Table;

/// Frames between keys of the crouch cycle.
const KEY_EVERY: i64 = 12;

/// The humanoid's crouch cycle of `frames` frames (0 ..= frames − 1): the skeleton, both heel
/// locks and the sequence ("crouches").
pub fn crouch_cycle(frames: i64) -> (Skeleton, Vec<Lock>, Sequence) {
    let s = builtin::humanoid();
    let standing = builtin::standing(&s);
    let mut fk = Fk::new(&s);
    fk.update(&s, &standing.q);
    let locks: Vec<Lock> = ["left heel", "right heel"]
        .iter()
        .map(|n| {
            let site = s.site_by_name(n).expect("heel");
            Lock::at_current(&s, &fk, *n, LockPart::Site(site), LockKind::Position).expect("lock")
        })
        .collect();
    let mut crouched = standing.q.clone();
    crouched[1] -= 0.08;
    let stiffness: Vec<f64> = s.joints().iter().map(|j| j.stiffness).collect();
    let mut system = GoalSet::with_locks(&locks, None).system(&s, &stiffness);
    let mut solver = SolverKind::DampedLeastSquares.build();
    let report = solve(
        solver.as_mut(),
        &mut system,
        &mut crouched,
        Settings {
            tolerance: 1e-9,
            max_iterations: 500,
        },
    );
    assert!(report.converged, "the crouched key: {report:?}");
    let last = frames - 1;
    let keys = (0..=last)
        .step_by(KEY_EVERY as usize)
        .chain((last % KEY_EVERY != 0).then_some(last))
        .map(|frame| {
            Key::new(
                frame,
                Pose {
                    q: if (frame / KEY_EVERY) % 2 == 0 {
                        standing.q.clone()
                    } else {
                        crouched.clone()
                    },
                },
            )
        })
        .collect();
    let sequence = Sequence {
        name: "crouches".into(),
        fps: 24.0,
        rotation: RotationInterpolation::Squad,
        root: RootInterpolation::CatmullRom,
        hold_locks: true,
        keys,
    };
    (s, locks, sequence)
}

/// The editor's playback: each frame shown is baked on its own ([`Baker::new`], then
/// [`Baker::frame`], as `Document::go_to_frame` does), here for the crouch cycle with four locks:
/// both heels and both hands held where they stand. Returns (median, largest) µs per frame and
/// the largest lock error.
pub fn playback(frames: i64) -> (f64, f64, f64) {
    let (s, mut locks, sequence) = crouch_cycle(frames);
    let mut fk = Fk::new(&s);
    fk.update(&s, &builtin::standing(&s).q);
    for hand in ["left fingertips", "right fingertips"] {
        let site = s.site_by_name(hand).expect("hand");
        locks.push(
            Lock::at_current(&s, &fk, hand, LockPart::Site(site), LockKind::Position)
                .expect("lock"),
        );
    }
    let mut micros = Vec::with_capacity(frames as usize);
    let mut worst = 0.0f64;
    for f in 0..frames {
        let began = Instant::now();
        let baker = Baker::new(&s, &sequence, &locks, BakeSettings::default());
        let frame = baker.frame(f, &mut fk);
        micros.push(began.elapsed().as_secs_f64() * 1e6);
        worst = frame.lock_errors.iter().map(|e| e.1).fold(worst, f64::max);
    }
    let largest = micros.iter().copied().fold(0.0, f64::max);
    (crate::table::median(&mut micros), largest, worst)
}

/// The crouch cycle as a Document file (skeleton `skeleton_path`), for the command line.
pub fn crouch_cycle_document(frames: i64, skeleton_path: &Path) -> DocumentFile {
    let (s, locks, sequence) = crouch_cycle(frames);
    let pose = builtin::standing(&s);
    let mut doc = DocumentFile::new(skeleton_path.to_path_buf(), s, pose);
    doc.locks = locks;
    doc.sequences = vec![sequence];
    doc
}

/// The bake table: `frames` frames, best of `runs` bakes per thread count.
pub fn table(frames: i64, runs: usize) -> Table {
    let (s, locks, sequence) = crouch_cycle(frames);
    let baker = Baker::new(&s, &sequence, &locks, BakeSettings::default());
    let mut table = Table::new(
        format!(
            "Bake ({frames} frames of the humanoid's crouch cycle, both heels position-locked on every frame, a key every {KEY_EVERY} frames, squad): best of {runs}"
        ),
        &[
            "threads",
            "ms",
            "µs/frame",
            "largest heel error (m)",
            "same JSON bytes as 1 thread",
        ],
    );
    let mut reference = None;
    for threads in [1, 2] {
        let mut best = f64::INFINITY;
        let mut baked = Vec::new();
        for _ in 0..runs {
            let began = Instant::now();
            baked = bake_with_threads(&baker, threads, &|| {}).expect("pool");
            best = best.min(began.elapsed().as_secs_f64());
        }
        let worst = lock_summary(&baked, locks.len())
            .iter()
            .map(|l| l.2)
            .fold(0.0, f64::max);
        let bytes = frames_text(&s, &locks, &sequence.name, 24.0, &baked);
        let same = match &reference {
            None => {
                reference = Some(bytes);
                "—".to_owned()
            }
            Some(r) => (r == &bytes).to_string(),
        };
        table.row(vec![
            threads.to_string(),
            format!("{:.1}", best * 1e3),
            format!("{:.2}", best * 1e6 / frames as f64),
            format!("{worst:.1e}"),
            same,
        ]);
    }
    table.note("issue 11's budget: 10 000 frames ≤ 250 ms on the 2-core machine; the whole `marionette bake` command (load, bake, JSON written) ≤ 0.5 s");
    let (median, largest, worst) = playback(frames.min(2_000));
    table.note(format!(
        "editor playback (each frame baked on its own, four locks: both heels and both hands): median {median:.1} µs, largest {largest:.1} µs per frame over {} frames, largest lock error {worst:.1e}; issue 11's budget ≤ 2 ms",
        frames.min(2_000)
    ));
    table
}
