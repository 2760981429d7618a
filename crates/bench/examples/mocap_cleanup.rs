//! The README's cleanup demonstration: a real capture (CMU 01_01 from Debian's
//! assimp-testmodels) imported, each foot locked over the frames where it stands (its ankle
//! low and slow; each lock easing in and out over 8 frames), the sequence re-baked with the
//! locks held; prints how far the planted ankles
//! slide before and after, and writes every frame's ankle height and horizontal speed, before
//! and after, as a table for the plot (`scripts/mocap-cleanup.sh` draws it).
//!
//! ```text
//! cargo run --release -p marionette-bench --example mocap_cleanup -- demo-output/cleanup.tsv
//! ```

use std::fmt::Write as _;

use marionette_document::Lock;
use marionette_ik::{Goal, GoalKind};
use marionette_interchange::bvh::{import::import, parse::parse};
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::{Fk, JointId, Skeleton};
use nalgebra::Vector3;

/// An ankle counts as standing below this height above its lowest (metres)…
const LOW: f64 = 0.06;
/// … and slower than this horizontally (metres per second, over ±2 frames).
const SLOW: f64 = 0.2;
/// A stance ends where the ankle has wandered this far from where it began (metres): a lock
/// asks the leg for no more than this, which it can give without the hips moving.
const WANDER: f64 = 0.025;
/// Stances shorter than this many frames are left alone.
const SHORTEST: usize = 12;
/// Each lock eases in and out over this many frames (67 ms at 120 fps).
const BLEND: i64 = 8;

fn ankle_tracks(s: &Skeleton, frames: &[Vec<f64>], ankles: &[JointId]) -> Vec<Vec<Vector3<f64>>> {
    let mut fk = Fk::new(s);
    let mut out = vec![Vec::with_capacity(frames.len()); ankles.len()];
    for q in frames {
        fk.update(s, q);
        for (track, &a) in out.iter_mut().zip(ankles) {
            track.push(fk.joint_position(a));
        }
    }
    out
}

/// Horizontal speed at every frame (central differences over ±2 frames).
fn speeds(track: &[Vector3<f64>], fps: f64) -> Vec<f64> {
    (0..track.len())
        .map(|f| {
            let (a, b) = (f.saturating_sub(2), (f + 2).min(track.len() - 1));
            let d = track[b] - track[a];
            (d.x * d.x + d.z * d.z).sqrt() * fps / (b - a).max(1) as f64
        })
        .collect()
}

/// Frame ranges (inclusive) where the ankle stands.
fn stances(track: &[Vector3<f64>], speed: &[f64]) -> Vec<(usize, usize)> {
    let floor = track.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let standing: Vec<bool> = track
        .iter()
        .zip(speed)
        .map(|(p, &v)| p.y < floor + LOW && v < SLOW)
        .collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (f, &s) in standing.iter().chain([&false]).enumerate() {
        let wandered =
            start.is_some_and(|a| f < track.len() && (track[f] - track[a]).norm() > WANDER);
        match (s && !wandered, start) {
            (true, None) => start = Some(f),
            (false, Some(a)) => {
                if f - a >= SHORTEST {
                    out.push((a, f - 1));
                }
                start = s.then_some(f);
            }
            _ => {}
        }
    }
    out
}

fn main() -> Result<(), String> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "cleanup.tsv".into());
    let capture = marionette_bench::interchange::CAPTURE;
    let text = std::fs::read_to_string(capture)
        .map_err(|e| format!("{capture}: {e} (install assimp-testmodels)"))?;
    let bvh = parse(&text).map_err(|e| e.to_string())?.bvh;
    let imported = import(&bvh, 0.01, 1, "01_01").map_err(|e| e.to_string())?;
    let (s, sequence) = (&imported.skeleton, &imported.sequence);
    let fps = sequence.fps;
    let ankles: Vec<JointId> = ["LeftFoot", "RightFoot"]
        .iter()
        .map(|n| s.joint_by_name(n).ok_or(format!("no joint {n}")))
        .collect::<Result<_, _>>()?;
    let raw: Vec<Vec<f64>> = sequence.keys.iter().map(|k| k.pose.q.clone()).collect();
    let before = ankle_tracks(s, &raw, &ankles);
    let mut locks = Vec::new();
    let mut ranges = Vec::new();
    for (side, (track, &ankle)) in before.iter().zip(&ankles).enumerate() {
        let speed = speeds(track, fps);
        for (a, b) in stances(track, &speed) {
            let mean = track[a..=b].iter().sum::<Vector3<f64>>() / (b - a + 1) as f64;
            let goal = Goal::new(GoalKind::Point {
                joint: ankle,
                offset: Vector3::zeros(),
                target: mean,
                along: None,
            });
            let name = format!("{} foot {a}–{b}", ["left", "right"][side]);
            let mut lock = Lock::new(s, name, goal, None).map_err(|e| e.to_string())?;
            lock.set_frames(Some((a as i64, b as i64)))
                .map_err(|e| e.to_string())?;
            lock.set_blend(BLEND).map_err(|e| e.to_string())?;
            locks.push(lock);
            ranges.push((side, a, b, mean));
        }
    }
    let began = std::time::Instant::now();
    let baker = Baker::new(s, sequence, &locks, BakeSettings::default());
    let baked = bake_with_threads(&baker, 0, &|| {}).map_err(|e| e.to_string())?;
    let bake_ms = began.elapsed().as_secs_f64() * 1e3;
    for (i, lock) in locks.iter().enumerate() {
        let worst = baked
            .iter()
            .flat_map(|f| f.lock_errors.iter().filter(|e| e.0 == i).map(|e| e.1))
            .fold(0.0f64, f64::max);
        if std::env::var_os("CLEANUP_VERBOSE").is_some() {
            println!("  {}: largest error {:.2} mm", lock.name, worst * 1e3);
        }
    }
    let cleaned: Vec<Vec<f64>> = baked.iter().map(|f| f.q.clone()).collect();
    let after = ankle_tracks(s, &cleaned, &ankles);
    // How far each planted ankle strays from where it stands, before and after.
    let (mut stray_before, mut stray_after, mut planted) = (0.0f64, 0.0f64, 0usize);
    let (mut slide_before, mut slide_after) = (0.0f64, 0.0f64);
    for &(side, a, b, mean) in &ranges {
        let (sb, sa) = (speeds(&before[side], fps), speeds(&after[side], fps));
        for f in a..=b {
            stray_before = stray_before.max((before[side][f] - mean).norm());
            stray_after = stray_after.max((after[side][f] - mean).norm());
            slide_before += sb[f];
            slide_after += sa[f];
            planted += 1;
        }
    }
    // The step an ankle takes between two frames at a lock's edges, beyond the capture's own
    // step there: what easing in and out smooths. The same bake without easing, to compare.
    let edge_steps = |after: &[Vec<Vector3<f64>>]| {
        let mut worst = 0.0f64;
        let reach = BLEND as usize + 1;
        // Only where the foot is taken or let go, not where one stance hands over to the next.
        let free = |side: usize, f: usize| {
            !ranges
                .iter()
                .any(|&(s2, a2, b2, _)| s2 == side && (a2..=b2).contains(&f))
        };
        for &(side, a, b, _) in &ranges {
            let taken = a >= reach && (a - reach..a).all(|f| free(side, f));
            let let_go = (b + 1..=b + reach).all(|f| free(side, f));
            let edges = (a.saturating_sub(reach)..=a)
                .filter(|_| taken)
                .chain((b..=(b + reach)).filter(|_| let_go));
            for f in edges {
                if f == 0 || f >= after[side].len() {
                    continue;
                }
                let ours = (after[side][f] - after[side][f - 1]).norm();
                let theirs = (before[side][f] - before[side][f - 1]).norm();
                if ours - theirs > worst && std::env::var_os("CLEANUP_VERBOSE").is_some() {
                    println!(
                        "  edge step {:.1} mm at frame {f} (side {side}, stance {a}–{b})",
                        (ours - theirs) * 1e3
                    );
                }
                worst = worst.max(ours - theirs);
            }
        }
        worst
    };
    let mut sudden_locks = locks.clone();
    for lock in &mut sudden_locks {
        lock.set_blend(0).map_err(|e| e.to_string())?;
    }
    let sudden = Baker::new(s, sequence, &sudden_locks, BakeSettings::default());
    let sudden: Vec<Vec<f64>> = bake_with_threads(&sudden, 0, &|| {})
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|f| f.q)
        .collect();
    println!(
        "largest extra ankle step at a lock's edges: {:.1} mm letting go at once, {:.1} mm easing over {BLEND} frames",
        edge_steps(&ankle_tracks(s, &sudden, &ankles)) * 1e3,
        edge_steps(&after) * 1e3
    );
    println!(
        "{}: {} frames at {fps} fps; {} stances locked ({planted} foot-frames); re-baked in {bake_ms:.0} ms",
        capture,
        baked.len(),
        locks.len()
    );
    println!(
        "planted ankles: largest distance from where they stand {:.1} mm before, {:.3} mm after; mean horizontal speed {:.1} mm/s before, {:.3} mm/s after",
        stray_before * 1e3,
        stray_after * 1e3,
        slide_before / planted.max(1) as f64 * 1e3,
        slide_after / planted.max(1) as f64 * 1e3
    );
    let mut table = String::from(
        "# time\tleft_h_before\tleft_h_after\tleft_v_before\tleft_v_after\tright_h_before\tright_h_after\tright_v_before\tright_v_after\tleft_locked\tright_locked\n",
    );
    let v: Vec<[Vec<f64>; 2]> = (0..2)
        .map(|side| [speeds(&before[side], fps), speeds(&after[side], fps)])
        .collect();
    for f in 0..baked.len() {
        let locked = |side: usize| {
            ranges
                .iter()
                .any(|&(s, a, b, _)| s == side && (a..=b).contains(&f))
        };
        let _ = writeln!(
            table,
            "{:.4}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{:.5}\t{}\t{}",
            f as f64 / fps,
            before[0][f].y,
            after[0][f].y,
            v[0][0][f],
            v[0][1][f],
            before[1][f].y,
            after[1][f].y,
            v[1][0][f],
            v[1][1][f],
            u8::from(locked(0)),
            u8::from(locked(1)),
        );
    }
    std::fs::write(&out, table).map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}
