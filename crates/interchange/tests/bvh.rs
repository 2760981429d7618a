//! BVH round trips: what we write, read back by our own reader, puts every joint where our
//! forward kinematics does on every frame (random skeletons with any hinge axes, slides and
//! fixed orientations; the humanoid through the singularity of its channel order); a file
//! imported and exported again puts every joint where the original did; broken files are
//! refused with their line.

use marionette_interchange::bvh::import::import;
use marionette_interchange::bvh::parse::parse;
use marionette_interchange::bvh::write::to_bvh;
use marionette_skeleton::{Fk, Pose, Skeleton, builtin, testing};
use nalgebra::Vector3;
use proptest::prelude::*;

/// Every joint's world position by our forward kinematics.
fn world_positions(skeleton: &Skeleton, q: &[f64]) -> Vec<Vector3<f64>> {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, q);
    skeleton.joint_ids().map(|j| fk.joint_position(j)).collect()
}

/// The largest distance between our FK's joints and the file's, over every frame.
fn worst_gap(skeleton: &Skeleton, frames: &[Vec<f64>], text: &str) -> f64 {
    let bvh = parse(text).expect("our own file reads").bvh;
    assert_eq!(bvh.frames.len(), frames.len());
    assert_eq!(bvh.joints.len(), skeleton.joints().len());
    let mut worst = 0.0f64;
    for (f, q) in frames.iter().enumerate() {
        let ours = world_positions(skeleton, q);
        let theirs = bvh.world_positions(f);
        for (a, b) in ours.iter().zip(&theirs) {
            worst = worst.max((a - b).norm());
        }
    }
    worst
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_skeleton_exports_to_joints_where_our_fk_puts_them(
        (skeleton, pose) in testing::skeleton_and_pose(),
        draws in proptest::collection::vec(0.0..1.0f64, 4 * 64),
    ) {
        // Four frames: the pose drawn, then three more from the draws.
        let n = skeleton.dof_count();
        let mut frames = vec![pose.q.clone()];
        for k in 0..3 {
            let u: Vec<f64> = (0..n).map(|i| draws[(k * n + i) % draws.len()]).collect();
            frames.push(testing::pose_from_unit(&skeleton, &u, [0.1 * k as f64, -0.2, 0.3]).q);
        }
        let text = to_bvh(&skeleton, &frames, 30.0).to_text();
        let gap = worst_gap(&skeleton, &frames, &text);
        prop_assert!(gap < 1e-9, "a joint is {gap} m off");
    }
}

#[test]
fn a_spin_through_every_channel_order_s_singularity_stays_continuous() {
    // The pelvis turns about X through ±90° (Z X Y's singularity) and about Y all the way round:
    // the channels must not jump between frames, and the joints land where FK puts them.
    let s = builtin::humanoid();
    let pelvis = s
        .joint_dofs(s.root())
        .map(|d| d.state_index())
        .collect::<Vec<_>>();
    let frames: Vec<Vec<f64>> = (0..=120)
        .map(|f| {
            let mut q = builtin::standing(&s).q;
            let t = f as f64 / 120.0;
            q[pelvis[0]] = marionette_skeleton::angles::wrap_angle(std::f64::consts::PI * t * 1.5);
            q[pelvis[1]] = marionette_skeleton::angles::wrap_angle(std::f64::consts::TAU * t);
            q
        })
        .collect();
    let bvh = to_bvh(&s, &frames, 24.0);
    let text = bvh.to_text();
    assert!(worst_gap(&s, &frames, &text) < 1e-9);
    let back = parse(&text).expect("reads").bvh;
    for pair in back.frames.windows(2) {
        let jump = pair[0]
            .iter()
            .zip(&pair[1])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(jump < 30.0, "a channel jumps {jump}° between frames");
    }
    assert!(text.contains("Frame Time: 0.041666666666666664"));
    assert!(
        text.contains("JOINT right_shoulder"),
        "whitespace becomes _"
    );
}

#[test]
fn an_imported_file_exports_to_the_same_joint_positions() {
    let s = builtin::humanoid();
    let frames: Vec<Vec<f64>> = (0..10)
        .map(|f| {
            let u: Vec<f64> = (0..s.dof_count())
                .map(|i| ((i * 7 + f * 3) % 11) as f64 / 11.0)
                .collect();
            testing::pose_from_unit(&s, &u, [0.01 * f as f64, 0.0, 0.02]).q
        })
        .collect();
    let original = parse(&to_bvh(&s, &frames, 30.0).to_text())
        .expect("reads")
        .bvh;
    for scale in [1.0, 0.01] {
        let imported = import(&original, scale, 1, "take").expect("imports");
        assert_eq!(imported.sequence.keys.len(), 10);
        assert!((imported.sequence.fps - 30.0).abs() < 1e-9);
        let again: Vec<Vec<f64>> = imported
            .sequence
            .keys
            .iter()
            .map(|k| k.pose.q.clone())
            .collect();
        for q in &again {
            assert!(Pose { q: q.clone() }.within_limits(&imported.skeleton));
        }
        let text = to_bvh(&imported.skeleton, &again, imported.sequence.fps).to_text();
        let round = parse(&text).expect("reads").bvh;
        for f in 0..frames.len() {
            let (a, b) = (original.world_positions(f), round.world_positions(f));
            assert_eq!(a.len(), b.len());
            for (x, y) in a.iter().zip(&b) {
                assert!(
                    (x * scale - y).norm() < 1e-6,
                    "frame {f}: {x} × {scale} vs {y}"
                );
            }
        }
    }
}

#[test]
fn broken_files_are_refused_with_their_line() {
    let s = builtin::stickman();
    let good = to_bvh(&s, &[Pose::rest(&s).q], 24.0).to_text();
    let lines: Vec<&str> = good.lines().collect();
    let motion = lines.iter().position(|l| *l == "MOTION").expect("MOTION");
    let mut cases: Vec<(String, &str)> = vec![
        (String::new(), "HIERARCHY"),
        (good[..good.len() / 2].to_owned(), "ends"),
        (
            good.replacen("OFFSET 0 1 0", "OFFSET 0 one 0", 1),
            "not a finite number",
        ),
        (
            good.replacen("CHANNELS 6", "CHANNELS 7", 1),
            "0 to 6 channels",
        ),
        (
            good.replacen("CHANNELS 3", "CHANNELS 2", 1),
            "wrong channel count",
        ),
        (
            good.replacen("CHANNELS 3 Z", "CHANNELS 3 W", 1),
            "not a channel",
        ),
        (
            good.replacen("Frames: 1", "Frames: 2", 1),
            "ends after 1 rows",
        ),
        (
            lines[..motion].join("\n") + "\nMOTION\nFrames: 1\nFrame Time: 0\n0\n",
            "Frame Time",
        ),
        (good.replacen("{", "", 1), "expected \"{\""),
    ];
    // Deeper or wider than a skeleton may be: refused while reading, before anything is built.
    let nested = |depth: usize, wide: usize| {
        let mut text = String::from("HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 0\n");
        for i in 0..depth {
            text += &format!("JOINT d{i}\n{{\nOFFSET 0 1 0\nCHANNELS 0\n");
        }
        text += &"}\n".repeat(depth);
        for i in 0..wide {
            text += &format!("JOINT w{i}\n{{\nOFFSET 0 1 0\nCHANNELS 0\n}}\n");
        }
        text + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n\n"
    };
    let limit = marionette_skeleton::MAX_DEPTH;
    let deep = nested(limit, 0);
    let wide = nested(0, marionette_skeleton::MAX_JOINTS);
    cases.push((deep, "is nested 201 deep; a skeleton holds at most 200"));
    cases.push((wide, "is one more than the 1024 joints"));
    let last = lines.len() - 1;
    let mut short = lines.clone();
    let row = short[last].rsplit_once(' ').expect("values").0.to_owned();
    short[last] = &row;
    cases.push((short.join("\n"), "values"));
    for (text, what) in cases {
        let err = parse(&text).expect_err(what);
        assert!(err.to_string().contains(what), "{err} (expected {what})");
        assert!(err.line >= 1);
    }
}

#[test]
fn real_files_are_tolerated_tabs_crlf_and_extra_rows() {
    let s = builtin::stickman();
    let good = to_bvh(&s, &[Pose::rest(&s).q, Pose::rest(&s).q], 24.0).to_text();
    let messy = good.replace("  ", "\t").replace('\n', " \r\n")
        + good.lines().last().expect("row")
        + "\r\n";
    let parsed = parse(&messy).expect("messy but valid");
    assert_eq!(parsed.bvh.frames.len(), 2);
    assert_eq!(parsed.extra_rows, 1);
}

/// The motion-capture files of Debian's `assimp-testmodels` (CMU's captures, converted to BVH
/// by B. Hahne; see `01_nn.bvh.source.txt` there for their terms), which
/// `scripts/ensure-system-packages.sh` installs.
const CAPTURES: &str = "/usr/share/assimp/models/BVH";

#[test]
fn every_shipped_capture_imports_and_exports_to_the_same_joint_positions() {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(CAPTURES)
        .unwrap_or_else(|e| {
            panic!("{CAPTURES}: {e} (run scripts/ensure-system-packages.sh: assimp-testmodels)")
        })
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bvh"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let original = parse(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .bvh;
        // Centimetre captures in metres.
        let scale = 0.01;
        let imported = import(&original, scale, 1, "take").expect("imports");
        assert_eq!(imported.sequence.keys.len(), original.frames.len());
        let frames: Vec<Vec<f64>> = imported
            .sequence
            .keys
            .iter()
            .map(|k| k.pose.q.clone())
            .collect();
        let round = parse(&to_bvh(&imported.skeleton, &frames, imported.sequence.fps).to_text())
            .expect("reads")
            .bvh;
        let mut worst = 0.0f64;
        for f in 0..frames.len() {
            for (x, y) in original
                .world_positions(f)
                .iter()
                .zip(&round.world_positions(f))
            {
                worst = worst.max((x * scale - y).norm());
            }
        }
        assert!(worst < 1e-6, "{}: a joint is {worst} m off", file.display());
    }
}

/// A capture of more frames than a sequence may span is refused (before a key is made), one of
/// exactly as many is imported; a frame time beyond the frame-rate limits and a root beyond the
/// largest coordinate are refused too.
#[test]
fn captures_beyond_the_limits_are_refused() {
    use marionette_document::MAX_SPAN;
    use marionette_interchange::bvh::import::ImportError;
    let text = |frames: usize, time: &str, x: &str| {
        let mut t = format!(
            "HIERARCHY\nROOT hips\n{{\n OFFSET 0 0 0\n CHANNELS 1 Xposition\n End Site\n \
             {{\n  OFFSET 0 1 0\n }}\n}}\nMOTION\nFrames: {frames}\nFrame Time: {time}\n"
        );
        for _ in 0..frames {
            t.push_str(x);
            t.push('\n');
        }
        t
    };
    let read = |t: &str| parse(t).expect("parses").bvh;
    let many = read(&text(MAX_SPAN as usize + 1, "0.01", "0"));
    let e = import(&many, 1.0, 1, "many").expect_err("too many frames");
    assert!(matches!(e, ImportError::TooLong { .. }), "{e}");
    assert!(e.to_string().contains("1000001 frames"), "{e}");
    let as_many = read(&text(MAX_SPAN as usize, "0.01", "0"));
    let imported = import(&as_many, 1.0, 1000, "as many").expect("the most frames");
    assert_eq!(
        imported.sequence.keys.last().map(|k| k.frame),
        Some(MAX_SPAN - 1)
    );
    for (time, x, why) in [
        ("1e-308", "0", "fps"),
        ("1e308", "0", "fps"),
        ("0.01", "1e300", "root"),
    ] {
        let bvh = read(&text(2, time, x));
        let e = import(&bvh, 1.0, 1, "edge").expect_err(why);
        assert!(e.to_string().contains(why), "{time} {x}: {e}");
    }
}

/// An import writes the capture's numbers as the file gives them, without the noise of its
/// arithmetic: 12.3 cm at × 0.01 is 0.123 m (not 0.12300000000000001), 30° stays 30 (not
/// 29.999999999999996), a frame time of 0.0083333 s is 120.000480002 fps.
#[test]
fn an_imported_capture_is_written_without_float_noise() {
    let text = "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 4 Xposition Yposition Zposition Xrotation\n \
        JOINT knee\n {\n  OFFSET 1.1 12.3 0\n  CHANNELS 1 Zrotation\n  End Site\n  {\n   OFFSET 0 3.3 0\n  }\n }\n}\n\
        MOTION\nFrames: 2\nFrame Time: .0083333\n12.3 1.1 0 30 30\n0 0 0 0 17.3\n";
    let bvh = parse(text).expect("parses").bvh;
    let imported = import(&bvh, 0.01, 1, "noise").expect("imports");
    let skeleton = marionette_skeleton::ron_io::to_pretty("Skeleton", &imported.skeleton_file)
        .expect("written");
    assert!(
        skeleton.contains("offset: (0.011, 0.123, 0.0)"),
        "{skeleton}"
    );
    assert!(skeleton.contains("(0.0, 0.033, 0.0)"), "{skeleton}");
    let doc = imported
        .document(std::path::PathBuf::from("noise.skeleton.ron"))
        .to_ron_string(std::path::Path::new("noise.ron"))
        .expect("written");
    assert!(doc.contains("fps: 120.000480002"), "{doc}");
    assert!(doc.contains("root: (0.123, 0.011, 0.0)"), "{doc}");
    assert!(doc.contains("[30.0]") && doc.contains("[17.3]"), "{doc}");
    for noisy in ["00000000000", "99999999999"] {
        assert!(
            !doc.contains(noisy) && !skeleton.contains(noisy),
            "{noisy} in\n{doc}\n{skeleton}"
        );
    }
}
