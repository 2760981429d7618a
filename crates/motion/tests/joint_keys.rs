//! Keys on some joints (issue 34): an arm wave with follow-through (the forearm two frames
//! behind the upper arm, the hand four) made with three keys per joint bakes, on every frame, to
//! what an independent per-joint slerp of each joint's own keys gives (nalgebra's slerp, within
//! 1e-9 rad), with a heel lock held as for whole-pose keys; and a document holding such keys
//! saves and loads back the same.

use marionette_document::{Key, KeyedParts, Lock, LockKind, LockPart, Sequence};
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_skeleton::joint_rotation::JointRotations;
use marionette_skeleton::{Fk, JointId, Pose, Skeleton, builtin};
use nalgebra::UnitQuaternion;

/// A joint's keys: (frame, degrees on each of its DOFs).
type JointKeys = Vec<(i64, Vec<f64>)>;

/// The arm joints and their keys.
fn wave(s: &Skeleton) -> Vec<(JointId, JointKeys)> {
    let joint = |n: &str| s.joint_by_name(n).expect(n);
    let dofs = |j: JointId| s.joint_dofs(j).count();
    let values = |j: JointId, degrees: [f64; 3]| degrees[..dofs(j)].to_vec();
    let (shoulder, elbow, wrist) = (
        joint("left shoulder"),
        joint("left elbow"),
        joint("left wrist"),
    );
    // The same three poses per joint, each two frames after the one above it.
    let keys = |j: JointId, delay: i64, poses: [[f64; 3]; 3]| {
        (
            j,
            poses
                .iter()
                .enumerate()
                .map(|(i, p)| (10 * i as i64 + delay, values(j, *p)))
                .collect::<Vec<_>>(),
        )
    };
    vec![
        keys(
            shoulder,
            0,
            [[20.0, 10.0, 10.0], [70.0, 40.0, -10.0], [30.0, 15.0, 5.0]],
        ),
        keys(
            elbow,
            2,
            [[20.0, 0.0, 0.0], [90.0, 0.0, 0.0], [40.0, 0.0, 0.0]],
        ),
        keys(
            wrist,
            4,
            [[10.0, -20.0, 5.0], [-30.0, 25.0, -10.0], [15.0, 0.0, 0.0]],
        ),
    ]
}

/// The wave as a sequence: a key at frame 0 holding every part but the forearm and the hand
/// (the upper arm's first key), then each joint's other keys on it alone.
fn sequence(s: &Skeleton) -> Sequence {
    let standing = builtin::standing(s);
    let arm = wave(s);
    let mut seq = Sequence {
        name: "wave".into(),
        fps: 24.0,
        rotation: Default::default(),
        root: Default::default(),
        hold_locks: true,
        keys: vec![Key::new(0, standing.clone())],
    };
    let late: Vec<JointId> = arm[1..].iter().map(|(j, _)| *j).collect();
    seq.keys[0].only = Some(KeyedParts::new(
        s.joint_ids().filter(|j| !late.contains(j)),
        true,
    ));
    for (joint, keys) in &arm {
        for (frame, degrees) in keys {
            let mut pose = standing.clone();
            for (d, v) in s.joint_dofs(*joint).zip(degrees) {
                pose.q[d.state_index()] = s.dof(d).clamp(v.to_radians());
            }
            seq.set_parts_key(s, *frame, &pose, &KeyedParts::new([*joint], false))
                .expect("keyed");
        }
    }
    seq
}

#[test]
fn a_follow_through_wave_bakes_to_each_joints_own_slerp() {
    let s = builtin::humanoid();
    let seq = sequence(&s);
    for (joint, keys) in wave(&s) {
        assert_eq!(
            seq.joint_key_frames(&s, joint).len(),
            3,
            "{}",
            s.joint(joint).name
        );
        assert_eq!(keys.len(), 3);
    }
    let mut fk = Fk::new(&s);
    fk.update(&s, &seq.keys[0].pose.q);
    let heel = s.site_by_name("left heel").expect("heel");
    let lock = Lock::at_current(
        &s,
        &fk,
        "left heel",
        LockPart::Site(heel),
        LockKind::Position,
    )
    .expect("lock");
    let locks = vec![lock];
    let baker = Baker::new(&s, &seq, &locks, BakeSettings::default());
    let frames = bake_with_threads(&baker, 0, &|| {}).expect("bakes");
    assert_eq!(frames.len(), 25);
    let rotations = JointRotations::new(&s);
    let mut largest = 0.0f64;
    for (joint, _) in wave(&s) {
        // The joint's own keys, as rotations, from the sequence's poses.
        let own: Vec<(i64, UnitQuaternion<f64>)> = seq
            .keys
            .iter()
            .filter(|k| k.holds_joint(joint))
            .map(|k| (k.frame, rotations.rotation(&s, joint, &k.pose.q)))
            .collect();
        for f in &frames {
            let expected = match own.iter().position(|(k, _)| *k > f.frame) {
                Some(0) => own[0].1,
                None => own[own.len() - 1].1,
                Some(i) => {
                    let ((fa, a), (fb, b)) = (own[i - 1], own[i]);
                    let b = if a.coords.dot(&b.coords) < 0.0 {
                        UnitQuaternion::new_unchecked(-b.into_inner())
                    } else {
                        b
                    };
                    a.slerp(&b, (f.frame - fa) as f64 / (fb - fa) as f64)
                }
            };
            let baked = rotations.rotation(&s, joint, &f.q);
            let off = baked.angle_to(&expected);
            largest = largest.max(off);
            assert!(
                off < 1e-9,
                "{} at frame {}: {off:e} rad from its own slerp",
                s.joint(joint).name,
                f.frame
            );
        }
    }
    println!("the arm's joints within {largest:e} rad of their own slerps on every frame");
    // The forearm turns on frame 1 only because its own keys say so: it holds its first key
    // until frame 2, while the upper arm has moved.
    let elbow = s.joint_by_name("left elbow").expect("elbow");
    let e = s.joint_dofs(elbow).next().expect("dof").state_index();
    assert_eq!(frames[1].q[e], frames[2].q[e]);
    let shoulder = s.joint_by_name("left shoulder").expect("shoulder");
    let sh = s.joint_dofs(shoulder).next().expect("dof").state_index();
    assert_ne!(frames[0].q[sh], frames[1].q[sh]);
    // The heel's lock holds on every frame, as with whole-pose keys.
    for f in &frames {
        for &(i, err) in &f.lock_errors {
            assert!(
                err < 1e-4,
                "frame {}: {} off by {err}",
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
}

#[test]
fn keys_on_some_joints_save_and_load_back() {
    let s = builtin::humanoid();
    let seq = sequence(&s);
    let dir = std::env::temp_dir().join(format!("joint-keys-{}", std::process::id()));
    let mut doc = marionette_document::DocumentFile::new(
        dir.join("skeletons/humanoid.ron"),
        s.clone(),
        builtin::standing(&s),
    );
    doc.sequences.push(seq.clone());
    std::fs::create_dir_all(dir.join("skeletons")).expect("dir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(
        root.join("skeletons/humanoid.ron"),
        dir.join("skeletons/humanoid.ron"),
    )
    .expect("skeleton");
    let path = dir.join("wave.marionette.ron");
    doc.save(&path).expect("saves");
    let text = std::fs::read_to_string(&path).expect("text");
    assert!(text.contains("joints: [\"left elbow\"],"), "{text}");
    let back = marionette_document::DocumentFile::load(&path).expect("loads");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(back.sequences[0].keys, seq.keys);
}

/// Every baked frame's values, for comparing bakes bit for bit.
fn baked(s: &Skeleton, seq: &Sequence, locks: &[Lock]) -> Vec<(i64, Vec<u64>)> {
    let baker = Baker::new(s, seq, locks, BakeSettings::default());
    bake_with_threads(&baker, 1, &|| {})
        .expect("bakes")
        .into_iter()
        .map(|f| (f.frame, f.q.iter().map(|v| v.to_bits()).collect()))
        .collect()
}

/// The frames whose bake differs between `a` and `b`.
fn changed(a: &[(i64, Vec<u64>)], b: &[(i64, Vec<u64>)]) -> Vec<i64> {
    a.iter()
        .zip(b)
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x.0)
        .collect()
}

#[test]
fn a_key_value_changed_changes_the_bake_only_inside_the_spans_around_it() {
    let s = builtin::humanoid();
    let mut fk = Fk::new(&s);
    fk.update(&s, &builtin::standing(&s).q);
    let heel = s.site_by_name("left heel").expect("heel");
    let locks = vec![
        Lock::at_current(
            &s,
            &fk,
            "left heel",
            LockPart::Site(heel),
            LockKind::Position,
        )
        .expect("lock"),
    ];
    // The forearm's key at 12 (its keys are at 2, 12 and 22).
    let seq = sequence(&s);
    let elbow = s.joint_by_name("left elbow").expect("elbow");
    let e = s.joint_dofs(elbow).next().expect("dof").state_index();
    let mut edited = seq.clone();
    edited
        .set_key_value(&s, 12, e, 1.0)
        .expect("the forearm's key");
    let moved = changed(&baked(&s, &seq, &locks), &baked(&s, &edited, &locks));
    assert!(!moved.is_empty());
    assert!(
        moved.iter().all(|&f| f > 2 && f < 22),
        "frames changed: {moved:?}"
    );
    // Not the upper arm's key, which the key at 12 does not hold.
    let shoulder = s.joint_by_name("left shoulder").expect("shoulder");
    let sh = s.joint_dofs(shoulder).next().expect("dof").state_index();
    assert!(edited.set_key_value(&s, 12, sh, 0.5).is_err());
    // Whole-pose keys at 0, 8, 16, 24: the key at 8 changed moves frames 1–15 only.
    let standing = builtin::standing(&s);
    let mut whole = Sequence {
        keys: [0, 8, 16, 24]
            .iter()
            .map(|&f| Key::new(f, standing.clone()))
            .collect(),
        ..seq.clone()
    };
    let before = baked(&s, &whole, &locks);
    let knee = s.joint_by_name("right knee").expect("knee");
    let k = s.joint_dofs(knee).next().expect("dof").state_index();
    whole.set_key_value(&s, 8, k, 0.8).expect("whole key");
    let moved = changed(&before, &baked(&s, &whole, &locks));
    assert_eq!(moved.first(), Some(&1));
    assert_eq!(moved.last(), Some(&15));
}
