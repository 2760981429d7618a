//! Documents whose keys are whole poses bake to the same bits as before keys could hold only
//! some joints (issue 34): every interpolated and baked value of a set of sequences (each
//! rotation and root interpolation, Step/Linear/Smooth spans with eases, an unlimited hinge
//! turning past ±π, and the fuzzer's documents baked with their locks) is hashed bit for bit,
//! and the hashes were recorded with the interpolator of commit fae732b, before the change.

use marionette_document::{
    DocumentFile, Key, KeyInterpolation, RootInterpolation, RotationInterpolation, Sequence,
};
use marionette_motion::{BakeSettings, Baker, Interpolator, bake_with_threads};
use marionette_skeleton::{Pose, Skeleton, builtin};

/// FNV-1a over the bits of `values`.
fn hash(values: impl IntoIterator<Item = f64>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_bits().to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// A pose of `s` made from `seed`: every DOF somewhere inside its limits (an unlimited hinge
/// anywhere in ±3 rad), the root moved.
fn pose(s: &Skeleton, seed: u64) -> Pose {
    let mut p = Pose::rest(s);
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..3 {
        p.q[i] = next() - 0.5;
    }
    for (d, dof) in s.dofs().iter().enumerate() {
        let t = next();
        p.q[3 + d] = if dof.unlimited {
            6.0 * t - 3.0
        } else {
            dof.min + t * (dof.max - dof.min)
        };
    }
    p
}

/// Sequences of whole-pose keys covering every interpolation rule.
fn sequences(s: &Skeleton) -> Vec<Sequence> {
    let roots = [
        RootInterpolation::Linear,
        RootInterpolation::CatmullRom,
        RootInterpolation::KochanekBartels {
            tension: 0.3,
            continuity: -0.2,
            bias: 0.5,
        },
    ];
    let mut out = Vec::new();
    for rotation in [RotationInterpolation::Slerp, RotationInterpolation::Squad] {
        for root in roots {
            let frames = [0, 7, 15, 16, 30, 41];
            let keys = frames
                .iter()
                .enumerate()
                .map(|(i, &f)| {
                    let mut k = Key::new(f, pose(s, i as u64 + 1));
                    k.interpolation = match i % 4 {
                        1 => Some(KeyInterpolation::Step),
                        2 => Some(KeyInterpolation::Smooth),
                        3 => Some(KeyInterpolation::Linear),
                        _ => None,
                    };
                    k.ease = [0.0, 0.5, 1.0][i % 3];
                    k
                })
                .collect();
            out.push(Sequence {
                name: format!("{rotation:?} {root:?}"),
                fps: 24.0,
                rotation,
                root,
                hold_locks: true,
                keys,
            });
        }
    }
    out
}

/// The hashes recorded with the interpolator of commit fae732b.
const RECORDED: &[(&str, u64)] = &[
    ("humanoid Slerp Linear", 0x5777065e47900171),
    ("humanoid Slerp Linear baked", 0x95c21dd127aed17f),
    ("humanoid Slerp CatmullRom", 0xf50fbc9a7397f44e),
    ("humanoid Slerp CatmullRom baked", 0xe3f9db00f1ebc959),
    (
        "humanoid Slerp KochanekBartels { tension: 0.3, continuity: -0.2, bias: 0.5 }",
        0x024073275b64cbff,
    ),
    (
        "humanoid Slerp KochanekBartels { tension: 0.3, continuity: -0.2, bias: 0.5 } baked",
        0xee9f9693889ecf0e,
    ),
    ("humanoid Squad Linear", 0x41735dc9153e7dbb),
    ("humanoid Squad Linear baked", 0x527d1073d992ca56),
    ("humanoid Squad CatmullRom", 0xe23d3fe3b265e1ec),
    ("humanoid Squad CatmullRom baked", 0xde0b6efcc66282b7),
    (
        "humanoid Squad KochanekBartels { tension: 0.3, continuity: -0.2, bias: 0.5 }",
        0x9618c360752bc8cd,
    ),
    (
        "humanoid Squad KochanekBartels { tension: 0.3, continuity: -0.2, bias: 0.5 } baked",
        0x1b7941c68ee7f6e0,
    ),
    (
        "crates/fuzz/seeds/document-crouch.marionette.ron crouch",
        0x3b25f74a864f617f,
    ),
];

#[test]
fn whole_pose_documents_bake_to_the_same_bits_as_before() {
    let mut measured: Vec<(String, u64)> = Vec::new();
    let humanoid = builtin::humanoid();
    // The documents name their skeleton relative to the repository: copied beside it.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("bakes-unchanged-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("skeletons")).expect("temp dir");
    std::fs::copy(
        root.join("skeletons/humanoid.ron"),
        dir.join("skeletons/humanoid.ron"),
    )
    .expect("skeleton");
    let path = "crates/fuzz/seeds/document-crouch.marionette.ron";
    let copy = dir.join("crouch.marionette.ron");
    std::fs::copy(root.join(path), &copy).expect("document");
    let crouch = DocumentFile::load(&copy).expect(path);
    let _ = std::fs::remove_dir_all(&dir);
    let bake = |skeleton: &Skeleton, seq: &Sequence| {
        let baker = Baker::new(skeleton, seq, &crouch.locks, BakeSettings::default());
        let frames = bake_with_threads(&baker, 1, &|| {}).expect("bakes");
        hash(frames.iter().flat_map(|f| f.q.iter().copied()))
    };
    for seq in sequences(&humanoid) {
        let interpolator = Interpolator::new(&humanoid, &seq);
        let mut q = Vec::new();
        let values: Vec<f64> = (-3..=45)
            .flat_map(|f| {
                interpolator.pose_at(&humanoid, f, &mut q);
                q.clone()
            })
            .collect();
        measured.push((format!("humanoid {}", seq.name), hash(values)));
        // Baked with the crouch document's locks (a heel held on every frame, the other on
        // 0–24).
        measured.push((
            format!("humanoid {} baked", seq.name),
            bake(&humanoid, &seq),
        ));
    }
    for seq in &crouch.sequences {
        measured.push((format!("{path} {}", seq.name), bake(&crouch.skeleton, seq)));
    }
    let lines: Vec<String> = measured
        .iter()
        .map(|(n, h)| format!("    (\"{n}\", {h:#018x}),"))
        .collect();
    assert!(
        !measured.is_empty() && measured.len() == RECORDED.len(),
        "measured {} cases, {} recorded:\n{}",
        measured.len(),
        RECORDED.len(),
        lines.join("\n")
    );
    for ((name, h), (recorded_name, recorded)) in measured.iter().zip(RECORDED) {
        assert_eq!(name, recorded_name);
        assert_eq!(
            h, recorded,
            "{name}: the bits changed ({h:#018x}, recorded {recorded:#018x})"
        );
    }
}
