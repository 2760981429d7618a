//! Sequences on the humanoid: interpolation as docs/file-formats.md defines it, a walk whose foot
//! locks hold on every frame, and bakes that do not depend on the number of threads.

use marionette_document::{
    GoalSet, Key, KeyInterpolation, Lock, LockKind, LockPart, RootInterpolation,
    RotationInterpolation, Sequence,
};
use marionette_ik::{Settings, SolverKind, solve};
use marionette_motion::frames_file::frames_text;
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::joint_rotation::JointRotations;
use marionette_skeleton::{Fk, Pose, Skeleton, builtin};
use nalgebra::Vector3;
use proptest::prelude::*;

fn sequence(keys: Vec<Key>, rotation: RotationInterpolation, root: RootInterpolation) -> Sequence {
    Sequence {
        name: "test".into(),
        fps: 24.0,
        rotation,
        root,
        hold_locks: true,
        keys,
    }
}

fn state(s: &Skeleton, joint: &str, k: usize) -> usize {
    let j = s.joint_by_name(joint).expect(joint);
    s.joint_dofs(j).nth(k).expect("dof").state_index()
}

/// A walk of three steps: the left heel planted on frames 0–16, the right one 0.4 m ahead on
/// frames 16–32, the left again 0.8 m ahead on 32–48; keys every 8 frames, the pelvis moving
/// forward 12.5 mm a frame, each key solved against the locks active on its frame (as the
/// editor's keys are: the pose the user saw, locks held).
fn walk() -> (Skeleton, Vec<Lock>, Sequence) {
    let s = builtin::humanoid();
    let standing = builtin::standing(&s);
    let mut fk = Fk::new(&s);
    fk.update(&s, &standing.q);
    let heel = |name: &str, lock: &str, ahead: f64, frames: (i64, i64)| {
        let site = s.site_by_name(name).expect(name);
        let mut l = Lock::at_current(&s, &fk, lock, LockPart::Site(site), LockKind::Position)
            .expect("lock");
        assert!(l.move_target(&Vector3::new(0.0, 0.0, ahead)));
        l.set_frames(Some(frames)).expect("frames");
        l
    };
    let locks = vec![
        heel("left heel", "left step 1", 0.0, (0, 16)),
        heel("right heel", "right step", 0.4, (16, 32)),
        heel("left heel", "left step 2", 0.8, (32, 48)),
    ];
    let stiffness: Vec<f64> = s.joints().iter().map(|j| j.stiffness).collect();
    let keys = (0..=6)
        .map(|k| {
            let frame = k * 8;
            let mut q = standing.q.clone();
            q[1] -= 0.04;
            q[2] += 0.0125 * frame as f64;
            // The swinging leg a little bent, on its way forward.
            let swing = if (8..=24).contains(&frame) {
                "right"
            } else {
                "left"
            };
            q[state(&s, &format!("{swing} knee"), 0)] = 0.5;
            let set = GoalSet::with_locks(&locks, Some(frame));
            let mut system = set.system(&s, &stiffness);
            let mut solver = SolverKind::DampedLeastSquares.build();
            let report = solve(
                solver.as_mut(),
                &mut system,
                &mut q,
                Settings {
                    tolerance: 1e-8,
                    max_iterations: 500,
                },
            );
            assert!(report.converged, "key {frame}: {report:?}");
            Key::new(frame, Pose { q })
        })
        .collect();
    let seq = sequence(
        keys,
        RotationInterpolation::Slerp,
        RootInterpolation::CatmullRom,
    );
    (s, locks, seq)
}

#[test]
fn a_walk_keeps_its_planted_heels_on_every_frame_without_jumps() {
    let (s, locks, seq) = walk();
    for rotation in [RotationInterpolation::Slerp, RotationInterpolation::Squad] {
        let seq = Sequence {
            rotation,
            ..seq.clone()
        };
        let baker = Baker::new(&s, &seq, &locks, BakeSettings::default());
        let frames = baker.bake(&|| {});
        assert_eq!(frames.len(), 49);
        // Without the solve the heels would slide (millimetres between keys).
        let mut fk = Fk::new(&s);
        let slide = frames
            .iter()
            .flat_map(|f| {
                fk.update(&s, &baker.interpolated(f.frame));
                f.lock_errors
                    .iter()
                    .map(|&(i, _)| locks[i].violation(&s, &fk).largest())
                    .collect::<Vec<_>>()
            })
            .fold(0.0, f64::max);
        assert!(
            slide > 5e-4,
            "{rotation:?}: interpolation alone slides {slide} m"
        );
        for f in &frames {
            let expected = if f.frame == 16 || f.frame == 32 { 2 } else { 1 };
            assert_eq!(f.lock_errors.len(), expected, "frame {}", f.frame);
            for &(i, e) in &f.lock_errors {
                assert!(
                    e < 1e-4,
                    "{rotation:?} frame {}: {} off by {e}",
                    f.frame,
                    locks[i].name
                );
            }
            assert!(
                Pose { q: f.q.clone() }.within_limits(&s),
                "frame {}",
                f.frame
            );
        }
        for pair in frames.windows(2) {
            let jump = pair[0]
                .q
                .iter()
                .zip(&pair[1].q)
                .skip(3)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            assert!(
                jump < 10f64.to_radians(),
                "{rotation:?}: a DOF jumps {:.1}° from frame {} to {}",
                jump.to_degrees(),
                pair[0].frame,
                pair[1].frame
            );
        }
    }
}

#[test]
fn one_thread_and_two_bake_the_same_bytes() {
    let (s, locks, seq) = walk();
    let baker = Baker::new(&s, &seq, &locks, BakeSettings::default());
    let text = |threads: usize| {
        let frames = bake_with_threads(&baker, threads, &|| {}).expect("pool");
        frames_text(&s, &locks, &seq.name, seq.fps, &frames)
    };
    let one = text(1);
    assert_eq!(one, text(2));
    assert_eq!(one, text(2));
}

#[test]
fn slerp_takes_the_shorter_arc() {
    let s = builtin::humanoid();
    let rotations = JointRotations::new(&s);
    let pelvis = s.joint_by_name("pelvis").expect("pelvis");
    let yaw = state(&s, "pelvis", 1);
    let mut a = Pose::rest(&s);
    a.q[yaw] = 170f64.to_radians();
    let mut b = Pose::rest(&s);
    b.q[yaw] = (-169f64).to_radians();
    let seq = sequence(
        vec![Key::new(0, a.clone()), Key::new(7, b)],
        RotationInterpolation::Slerp,
        RootInterpolation::Linear,
    );
    let baker = Baker::new(&s, &seq, &[], BakeSettings::default());
    let start = rotations.rotation(&s, pelvis, &a.q);
    let frames = baker.bake(&|| {});
    for (k, f) in frames.iter().enumerate() {
        let turned = rotations.rotation(&s, pelvis, &f.q).angle_to(&start);
        assert!(
            (turned - (21.0 * k as f64 / 7.0).to_radians()).abs() < 1e-9,
            "frame {}: {:.3}°",
            f.frame,
            turned.to_degrees()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn single_hinges_interpolate_exactly_and_keys_are_kept(
        values in proptest::collection::vec(0.0..1.0f64, 3),
        gaps in proptest::collection::vec(1i64..20, 2),
        squad in any::<bool>(),
    ) {
        let s = builtin::humanoid();
        let knee = state(&s, "left knee", 0);
        let dof = &s.dofs()[knee - 3];
        let at = |u: f64| dof.min + u * (dof.max - dof.min);
        let frames = [0, gaps[0], gaps[0] + gaps[1]];
        let keys: Vec<Key> = frames.iter().zip(&values).map(|(&frame, &u)| {
            let mut pose = builtin::standing(&s);
            pose.q[knee] = at(u);
            pose.q[0] = u; // the root moves too
            Key::new(frame, pose)
        }).collect();
        let rotation = if squad { RotationInterpolation::Squad } else { RotationInterpolation::Slerp };
        let seq = sequence(keys.clone(), rotation, RootInterpolation::KochanekBartels { tension: 0.2, continuity: 0.1, bias: -0.3 });
        let baker = Baker::new(&s, &seq, &[], BakeSettings::default());
        let baked = baker.bake(&|| {});
        for key in &keys {
            let f = &baked[key.frame as usize];
            prop_assert_eq!(&f.q, &key.pose.q, "key frame {}", key.frame);
        }
        if !squad {
            for f in &baked {
                let i = if f.frame < frames[1] { 0 } else { 1 };
                let u = (f.frame - frames[i]) as f64 / (frames[i + 1] - frames[i]) as f64;
                let expected = at(values[i]) + u * (at(values[i + 1]) - at(values[i]));
                prop_assert!((f.q[knee] - expected).abs() < 1e-12, "frame {}", f.frame);
            }
        }
        for f in &baked {
            let pose = Pose { q: f.q.clone() };
            prop_assert!(pose.within_limits(&s));
        }
    }
}

/// The heel locked on frames 8–16 while the body walks 0.2 m forward over 24 frames: without a
/// blend it jumps back to the walk on frame 17; with a blend of 4 frames it eases there.
fn heel_jump(blend: i64) -> (f64, Vec<marionette_motion::BakedFrame>) {
    let s = builtin::humanoid();
    let standing = builtin::standing(&s);
    let mut ahead = standing.clone();
    ahead.q[2] += 0.2;
    let seq = sequence(
        vec![Key::new(0, standing.clone()), Key::new(24, ahead)],
        RotationInterpolation::Slerp,
        RootInterpolation::Linear,
    );
    let heel = s.site_by_name("left heel").expect("heel");
    let mut fk = Fk::new(&s);
    let mut at8 = standing.q.clone();
    at8[2] += 0.2 * 8.0 / 24.0;
    fk.update(&s, &at8);
    let mut lock =
        Lock::at_current(&s, &fk, "heel", LockPart::Site(heel), LockKind::Position).expect("lock");
    lock.set_frames(Some((8, 16))).expect("frames");
    lock.set_blend(blend).expect("blend");
    let locks = vec![lock];
    let baker = Baker::new(&s, &seq, &locks, BakeSettings::default());
    let frames = baker.bake(&|| {});
    let mut worst = 0.0f64;
    let mut previous: Option<Vector3<f64>> = None;
    for f in &frames {
        fk.update(&s, &f.q);
        let p = fk.site_position(heel);
        if let Some(q) = previous {
            worst = worst.max((p - q).norm());
        }
        previous = Some(p);
        assert!(Pose { q: f.q.clone() }.within_limits(&s));
    }
    (worst, frames)
}

#[test]
fn a_lock_with_a_blend_eases_in_and_out_instead_of_jumping() {
    let (sudden, frames) = heel_jump(0);
    let (eased, eased_frames) = heel_jump(4);
    // The body moves 8.3 mm a frame; at the lock's edges the heel catches up 6.7 cm at once.
    assert!(sudden > 0.06, "{sudden}");
    assert!(eased < sudden * 0.5, "{eased} vs {sudden}");
    // Errors are listed on the active frames only, and held there.
    for (a, b) in frames.iter().zip(&eased_frames) {
        let active = (8..=16).contains(&a.frame);
        assert_eq!(a.lock_errors.len(), usize::from(active));
        assert_eq!(b.lock_errors.len(), usize::from(active));
        for &(_, e) in b.lock_errors.iter() {
            assert!(e < 1e-4, "frame {}: {e}", b.frame);
        }
    }
}

/// Three keys of the humanoid: standing, the right arm raised and the knees bent, standing
/// again a little forward.
fn three_keys() -> (Skeleton, Vec<Key>) {
    let s = builtin::humanoid();
    let standing = builtin::standing(&s);
    let mut raised = standing.clone();
    raised.q[state(&s, "right shoulder", 0)] = 1.2;
    raised.q[state(&s, "right shoulder", 1)] = 0.4;
    raised.q[state(&s, "right knee", 0)] = 0.9;
    raised.q[0] += 0.3;
    let mut last = standing.clone();
    last.q[2] += 0.5;
    let keys = vec![
        Key::new(0, standing),
        Key::new(12, raised),
        Key::new(30, last),
    ];
    (s, keys)
}

#[test]
fn a_step_key_holds_its_pose_exactly_until_the_next_key() {
    let (s, mut keys) = three_keys();
    keys[0].interpolation = Some(KeyInterpolation::Step);
    for rotation in [RotationInterpolation::Slerp, RotationInterpolation::Squad] {
        let seq = sequence(keys.clone(), rotation, RootInterpolation::CatmullRom);
        let baker = Baker::new(&s, &seq, &[], BakeSettings::default());
        for frame in 0..12 {
            assert_eq!(baker.interpolated(frame), keys[0].pose.q, "frame {frame}");
        }
        assert_eq!(baker.interpolated(12), keys[1].pose.q);
        // The next span is the sequence's again: it moves.
        assert_ne!(baker.interpolated(13), keys[1].pose.q);
        // Baked (no locks): the same frames.
        let baked = baker.bake(&|| {});
        for frame in baked.iter().take(12) {
            assert_eq!(frame.q, keys[0].pose.q);
        }
    }
}

#[test]
fn a_linear_or_smooth_key_overrides_its_span_and_ease_slows_the_ends() {
    let (s, keys) = three_keys();
    let at = |keys: &[Key], rotation, root, frame| {
        let seq = sequence(keys.to_vec(), rotation, root);
        Baker::new(&s, &seq, &[], BakeSettings::default()).interpolated(frame)
    };
    let (slerp, squad) = (RotationInterpolation::Slerp, RotationInterpolation::Squad);
    let (linear, catmull) = (RootInterpolation::Linear, RootInterpolation::CatmullRom);
    // A Linear key in a squad sequence: its span as a slerp sequence's, the next as squad's.
    let mut overridden = keys.clone();
    overridden[1].interpolation = Some(KeyInterpolation::Linear);
    for frame in 13..30 {
        assert_eq!(
            at(&overridden, squad, catmull, frame),
            at(&keys, slerp, linear, frame)
        );
    }
    for frame in 1..12 {
        assert_eq!(
            at(&overridden, squad, catmull, frame),
            at(&keys, squad, catmull, frame)
        );
    }
    // A Smooth key in a slerp sequence: as a squad / Catmull-Rom sequence on its span.
    let mut smooth = keys.clone();
    smooth[0].interpolation = Some(KeyInterpolation::Smooth);
    for frame in 1..12 {
        assert_eq!(
            at(&smooth, slerp, linear, frame),
            at(&keys, squad, catmull, frame)
        );
    }
    // Ease: the middle of the span where it was, the frames near the keys nearer the keys.
    let mut eased = keys.clone();
    eased[1].ease = 1.0;
    let knee = state(&s, "right knee", 0);
    let (plain, slow) = (at(&keys, slerp, linear, 13), at(&eased, slerp, linear, 13));
    let from = keys[1].pose.q[knee];
    assert!((slow[knee] - from).abs() < (plain[knee] - from).abs() / 5.0);
    let middle = 21;
    let (plain, slow) = (
        at(&keys, slerp, linear, middle),
        at(&eased, slerp, linear, middle),
    );
    assert!((plain[knee] - slow[knee]).abs() < 0.02);
}
