//! The Document file (docs/file-formats.md, version 1): the format page's example loads, saves and
//! loads again unchanged; every kind of broken document is refused with the file and the culprit
//! named; saving is atomic even when the writer is killed mid-save.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use marionette_document::{BodySex, DocumentError, DocumentFile, RootInterpolation};

fn skeletons() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons")
}

/// The example of docs/file-formats.md (Document), with the skeleton path made to point at ours.
fn example(skeleton: &Path) -> String {
    format!(
        r#"Document(
    version: 1,                                   // required
    skeleton: "{}",
    pose: Some(Pose(root: (0.0, 0.0, 0.0), joints: {{"right knee": [40.0]}})),
    locks: [
        Lock(
            name: "left foot",
            goal: Position(site: "left heel", target: (0.09, 0.0, 0.05)),
            enabled: true,
            frames: Some((0, 24)),
            base: None,
        ),
    ],
    sequences: [
        Sequence(
            name: "crouch",
            fps: 24.0,
            rotation: Slerp,
            root: Linear,
            hold_locks: true,
            keys: [
                Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {{}})),
                Key(frame: 24, pose: Pose(root: (0.0, -0.12, 0.0), joints: {{"left knee": [50.0]}})),
            ],
        ),
    ],
)
"#,
        skeleton.display()
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn the_format_example_round_trips() {
    let dir = tempfile::tempdir().expect("dir");
    let path = write(
        dir.path(),
        "crouch.ron",
        &example(&skeletons().join("humanoid.ron")),
    );
    let doc = DocumentFile::load(&path).expect("the example loads");
    assert_eq!(doc.locks.len(), 1);
    assert_eq!(doc.locks[0].frames(), Some((0, 24)));
    assert_eq!(doc.sequences[0].keys.len(), 2);
    assert_eq!(doc.sequences[0].root, RootInterpolation::Linear);
    // Saved in another folder: the skeleton path is rewritten relative to it.
    let sub = dir.path().join("work/shots");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let again = sub.join("crouch.ron");
    doc.save(&again).expect("save");
    let text = std::fs::read_to_string(&again).expect("read");
    assert!(text.starts_with("Document("), "{text}");
    assert!(text.contains("version: 1"), "{text}");
    let reloaded = DocumentFile::load(&again).expect("reload");
    assert_eq!(reloaded.pose, doc.pose);
    assert_eq!(reloaded.locks, doc.locks);
    assert_eq!(reloaded.sequences, doc.sequences);
    // Saving what was loaded gives the same bytes: nothing drifts from save to save.
    reloaded.save(&again).expect("save again");
    assert_eq!(std::fs::read_to_string(&again).expect("read"), text);
    // A lock's blend (an optional field, written only when not 0) round-trips.
    assert!(!text.contains("blend"), "{text}");
    let mut blended = reloaded.clone();
    blended.locks[0].set_blend(6).expect("blend");
    blended.save(&again).expect("save");
    let text = std::fs::read_to_string(&again).expect("read");
    assert!(text.contains("blend: 6"), "{text}");
    assert_eq!(
        DocumentFile::load(&again).expect("reload").locks[0].blend(),
        6
    );
    let negative = text.replace("blend: 6", "blend: -2");
    let err = DocumentFile::from_ron_str(&negative, &again).expect_err("refused");
    assert!(err.to_string().contains("blend -2"), "{err}");
}

#[test]
fn key_interpolation_ease_and_the_pose_library_round_trip_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().expect("dir");
    let text = example(&skeletons().join("humanoid.ron"))
        .replace(
            "Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {}))",
            "Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {}), interpolation: \
             Some(Step))",
        )
        .replace(
            "    ],\n)",
            "    ],\n    library: [LibraryPose(name: \"bent\", pose: Pose(root: (0.0, 0.0, 0.0), \
             joints: {\"left knee\": [30.0]}))],\n)",
        );
    let path = write(dir.path(), "keys.ron", &text);
    let doc = DocumentFile::load(&path).expect("loads");
    let keys = &doc.sequences[0].keys;
    assert_eq!(
        keys[0].interpolation,
        Some(marionette_document::KeyInterpolation::Step)
    );
    assert_eq!((keys[1].interpolation, keys[1].ease), (None, 0.0));
    assert_eq!(doc.library.len(), 1);
    let mut eased = doc.clone();
    eased.sequences[0].keys[1].ease = 0.25;
    eased.sequences[0].keys[1].interpolation = Some(marionette_document::KeyInterpolation::Smooth);
    eased.save(&path).expect("saves");
    let saved = std::fs::read_to_string(&path).expect("read");
    assert!(saved.contains("interpolation: Some(Smooth)") && saved.contains("ease: 0.25"));
    let back = DocumentFile::load(&path).expect("reloads");
    assert_eq!(back.sequences, eased.sequences);
    assert_eq!(back.library, eased.library);
    // Out of range, unknown, twice: refused, named.
    let m = refused(
        dir.path(),
        "ease.ron",
        &saved.replace("ease: 0.25", "ease: 1.5"),
    );
    assert!(
        m.contains("key at frame 24") && m.contains("ease 1.5"),
        "{m}"
    );
    let m = refused(
        dir.path(),
        "kind.ron",
        &saved.replace("Some(Smooth)", "Some(Bouncy)"),
    );
    assert!(m.contains("Bouncy"), "{m}");
    let twice = saved.replace(
        "library: [",
        "library: [LibraryPose(name: \"bent\", pose: Pose(root: (0.0, 0.0, 0.0), joints: {})), ",
    );
    let m = refused(dir.path(), "twice.ron", &twice);
    assert!(
        m.contains("library pose \"bent\"") && m.contains("more than once"),
        "{m}"
    );
    let joint = text.replace("\"left knee\": [30.0]", "\"left kneecap\": [30.0]");
    let m = refused(dir.path(), "joint.ron", &joint);
    assert!(
        m.contains("library pose \"bent\"") && m.contains("left kneecap"),
        "{m}"
    );
}

fn refused(dir: &Path, name: &str, text: &str) -> String {
    let path = write(dir, name, text);
    let err: DocumentError = DocumentFile::load(&path).expect_err(name);
    let message = err.to_string();
    assert!(message.contains(name), "names the file: {message}");
    message
}

#[test]
fn broken_documents_name_the_file_and_the_culprit() {
    let dir = tempfile::tempdir().expect("dir");
    let good = example(&skeletons().join("humanoid.ron"));
    let newer = good.replace("version: 1,", "version: 3,\n    takes: [],");
    let m = refused(dir.path(), "newer.ron", &newer);
    assert!(m.contains("version 3 is newer"), "{m}");
    let missing = example(&skeletons().join("nobody.ron"));
    let m = refused(dir.path(), "missing.ron", &missing);
    assert!(m.contains("nobody.ron"), "{m}");
    let site = good.replace("site: \"left heel\"", "site: \"left hoof\"");
    let m = refused(dir.path(), "site.ron", &site);
    assert!(
        m.contains("lock \"left foot\"") && m.contains("left hoof"),
        "{m}"
    );
    let base = good.replace("base: None", "base: Some(\"right elbow\")");
    let m = refused(dir.path(), "base.ron", &base);
    assert!(m.contains("not below base joint \"right elbow\""), "{m}");
    let twice = good.replace(
        "    ],\n    sequences",
        "        Lock(name: \"left foot\", goal: CenterOfMass(target: (0.0, 0.0, 0.0), axes: [X, Z])),\n    ],\n    sequences",
    );
    let m = refused(dir.path(), "twice.ron", &twice);
    assert!(m.contains("\"left foot\" appears more than once"), "{m}");
    let keys = good.replace("Key(frame: 24", "Key(frame: 0");
    let m = refused(dir.path(), "keys.ron", &keys);
    assert!(
        m.contains("sequence \"crouch\"") && m.contains("strictly increasing"),
        "{m}"
    );
    let joint = good.replace("\"left knee\": [50.0]", "\"left kneecap\": [50.0]");
    let m = refused(dir.path(), "key_joint.ron", &joint);
    assert!(
        m.contains("key at frame 24") && m.contains("left kneecap"),
        "{m}"
    );
    let only = |parts: &str| {
        good.replace(
            "Key(frame: 24, pose: Pose(root: (0.0, -0.12, 0.0), joints: {\"left knee\": [50.0]}))",
            &format!(
                "Key(frame: 24, pose: Pose(root: (0.0, -0.12, 0.0), joints: {{\"left knee\": [50.0]}}), only: Some(Only({parts})))"
            ),
        )
    };
    let path = write(
        dir.path(),
        "only.ron",
        &only("joints: [\"left knee\"], root: true"),
    );
    let doc = DocumentFile::load(&path).expect("keys on some joints load");
    let knee = doc.skeleton.joint_by_name("left knee").expect("knee");
    assert_eq!(
        doc.sequences[0].keys[1].only,
        Some(marionette_document::KeyedParts::new([knee], true))
    );
    let m = refused(
        dir.path(),
        "only_joint.ron",
        &only("joints: [\"left kneecap\"]"),
    );
    assert!(
        m.contains("key at frame 24") && m.contains("`only` names no joint \"left kneecap\""),
        "{m}"
    );
    let m = refused(dir.path(), "only_nothing.ron", &only("joints: []"));
    assert!(
        m.contains("key at frame 24") && m.contains("holds no joint and not the root"),
        "{m}"
    );
    let syntax = good.replace("fps: 24.0,", "fps: 24.0,,");
    let m = refused(dir.path(), "syntax.ron", &syntax);
    assert!(m.contains("syntax.ron:"), "{m}");
}

/// Keys on one DOF and free handles round-trip byte for byte (degrees in the file, radians
/// inside), and what names no DOF, a DOF the key does not hold, or a handle pointing the wrong
/// way is refused, naming the key.
#[test]
fn dof_keys_and_free_handles_round_trip_and_bad_ones_are_named() {
    let dir = tempfile::tempdir().expect("dir");
    let good = example(&skeletons().join("humanoid.ron"));
    let key = |rest: &str| {
        good.replace(
            "Key(frame: 24, pose: Pose(root: (0.0, -0.12, 0.0), joints: {\"left knee\": [50.0]}))",
            &format!(
                "Key(frame: 12, pose: Pose(root: (0.0, -0.12, 0.0), joints: {{\"left shoulder\": [10.0, 20.0, 30.0]}}){rest}),\n                Key(frame: 24, pose: Pose(root: (0.0, -0.12, 0.0), joints: {{\"left knee\": [50.0]}}))"
            ),
        )
    };
    let text = key(
        ", only: Some(Only(joints: [], dofs: [\"left shoulder 2\"], root: true)), handles: [Handle(curve: \"left shoulder 2\", before: (-3.0, -12.5), after: (4.0, 7.25)), Handle(curve: \"root y\", before: (-2.0, 0.01), after: (2.0, -0.01))]",
    );
    let path = write(dir.path(), "dof.ron", &text);
    let doc = DocumentFile::load(&path).expect("a DOF key with handles loads");
    let s = &doc.skeleton;
    let shoulder = s.joint_by_name("left shoulder").expect("shoulder");
    let d = s.joint_dofs(shoulder).nth(1).expect("DOF 2");
    let k = doc.sequences[0].key_at(12).expect("key at 12");
    assert!(k.holds_dof(shoulder, d) && !k.holds_joint(shoulder) && k.holds_root());
    let h = k.handles_of(d.state_index()).expect("handles");
    assert_eq!(h.before[0], -3.0);
    assert!((h.before[1] - (-12.5f64).to_radians()).abs() < 1e-15);
    assert!((h.after[1] - 7.25f64.to_radians()).abs() < 1e-15);
    // The root's handles in metres, as the pose's root.
    assert_eq!(k.handles_of(1).map(|h| h.before), Some([-2.0, 0.01]));
    let saved = dir.path().join("saved.ron");
    doc.save(&saved).expect("saved");
    let again = DocumentFile::load(&saved).expect("read back");
    assert_eq!(again.sequences, doc.sequences);
    let twice = dir.path().join("twice.ron");
    again.save(&twice).expect("saved again");
    assert_eq!(
        std::fs::read_to_string(&saved).expect("saved"),
        std::fs::read_to_string(&twice).expect("twice")
    );
    assert!(
        std::fs::read_to_string(&saved)
            .expect("saved")
            .contains("dofs: [\"left shoulder 2\"]")
    );
    // Every DOF of the shoulder listed: the key holds the joint.
    let all = key(
        ", only: Some(Only(dofs: [\"left shoulder 1\", \"left shoulder 2\", \"left shoulder 3\"]))",
    );
    let doc = DocumentFile::load(write(dir.path(), "all.ron", &all)).expect("loads");
    let k = doc.sequences[0].key_at(12).expect("key at 12");
    assert!(k.holds_joint(shoulder));
    for (name, rest, says) in [
        (
            "dof_zero.ron",
            ", only: Some(Only(dofs: [\"left shoulder 0\"]))",
            "\"left shoulder\" has no DOF 0 (it has 3, counted from 1)",
        ),
        (
            "dof_four.ron",
            ", only: Some(Only(dofs: [\"left shoulder 4\"]))",
            "has no DOF 4",
        ),
        (
            "dof_joint.ron",
            ", only: Some(Only(dofs: [\"left shoulderblade 1\"]))",
            "has no joint \"left shoulderblade\"",
        ),
        (
            "dof_root.ron",
            ", only: Some(Only(dofs: [\"root y\"]))",
            "\"root y\" is the root translation's, which `root: true` holds",
        ),
        (
            "not_held.ron",
            ", only: Some(Only(dofs: [\"left shoulder 1\"])), handles: [Handle(curve: \"left shoulder 2\", before: (-1.0, 0.0), after: (1.0, 0.0))]",
            "a handle on \"left shoulder 2\", which the key does not hold",
        ),
        (
            "root_not_held.ron",
            ", only: Some(Only(dofs: [\"left shoulder 1\"])), handles: [Handle(curve: \"root x\", before: (-1.0, 0.0), after: (1.0, 0.0))]",
            "a handle on \"root x\", which the key does not hold",
        ),
        (
            "backwards.ron",
            ", handles: [Handle(curve: \"left shoulder 2\", before: (1.0, 0.0), after: (1.0, 0.0))]",
            "`before` at or before the key",
        ),
        (
            "huge.ron",
            ", handles: [Handle(curve: \"left shoulder 2\", before: (-1.0, 1e300), after: (1.0, 0.0))]",
            "the handles on \"left shoulder 2\" must be finite",
        ),
        (
            "twice.ron",
            ", handles: [Handle(curve: \"left shoulder 2\", before: (-1.0, 0.0), after: (1.0, 0.0)), Handle(curve: \"left shoulder 2\", before: (-1.0, 0.0), after: (1.0, 0.0))]",
            "two handles on one curve",
        ),
        (
            "no_curve.ron",
            ", handles: [Handle(curve: \"left shoulder\", before: (-1.0, 0.0), after: (1.0, 0.0))]",
            "\"left shoulder\" names no curve",
        ),
    ] {
        let m = refused(dir.path(), name, &key(rest));
        assert!(
            m.contains("key at frame 12") && m.contains(says),
            "{name}: {m}"
        );
    }
}

/// What no file format can carry is refused on load, naming the document and the field: a key at
/// frame −2⁶³ (whose absolute value overflows: it once passed the ±10⁹ check and crashed a bake),
/// frame rates beyond 0.001–100 000, a root 10³⁰⁰ m away, lock ranges and blends beyond the frame
/// limits.
#[test]
fn numbers_beyond_the_limits_are_refused_with_their_field() {
    let dir = tempfile::tempdir().expect("dir");
    let good = example(&skeletons().join("humanoid.ron"));
    let cases = [
        (
            "min_frame.ron",
            good.replace("Key(frame: 0,", "Key(frame: -9223372036854775808,"),
            "key at frame -9223372036854775808 is beyond ±1000000000",
        ),
        (
            "max_frame.ron",
            good.replace("Key(frame: 24,", "Key(frame: 9223372036854775807,"),
            "is beyond ±1000000000",
        ),
        (
            "slow.ron",
            good.replace("fps: 24.0", "fps: 1e-308"),
            "fps 1e-308 is not a number from 0.001 to 100000",
        ),
        (
            "fast.ron",
            good.replace("fps: 24.0", "fps: 1e308"),
            "is not a number from 0.001 to 100000",
        ),
        (
            "far.ron",
            good.replace(
                "Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0)",
                "Key(frame: 0, pose: Pose(root: (1e300, 0.0, 0.0)",
            ),
            "beyond ±1000000 m",
        ),
        (
            "far_pose.ron",
            good.replace(
                "pose: Some(Pose(root: (0.0, 0.0, 0.0)",
                "pose: Some(Pose(root: (0.0, -2e6, 0.0)",
            ),
            "beyond ±1000000 m",
        ),
        (
            "far_target.ron",
            good.replace("target: (0.09, 0.0, 0.05)", "target: (0.09, 1e300, 0.05)"),
            "target is not a finite vector within ±1000000",
        ),
        (
            "lock_range.ron",
            good.replace(
                "frames: Some((0, 24))",
                "frames: Some((-9223372036854775808, 24))",
            ),
            "passes ±1000000000",
        ),
        (
            "lock_blend.ron",
            good.replace(
                "base: None,",
                "base: None,
            blend: 9223372036854775807,",
            ),
            "is not a number of frames from 0 to 1000000",
        ),
    ];
    for (name, text, why) in cases {
        assert_ne!(text, good, "{name}: the example changed");
        let m = refused(dir.path(), name, &text);
        assert!(m.contains(why), "{name}: {m}");
    }
}

/// A document file larger than a document may be read (64 MiB) is refused before it is read
/// whole; a document that would be written larger is refused before anything is written (it
/// could not be opened again).
#[test]
fn documents_beyond_the_size_limits_are_refused_reading_and_writing() {
    let dir = tempfile::tempdir().expect("dir");
    let limit = marionette_skeleton::ron_io::MAX_FILE_BYTES;
    // Read: a sparse file one byte over (nothing is written to the disk but its length).
    let big = dir.path().join("big.ron");
    let file = std::fs::File::create(&big).expect("a file");
    file.set_len(limit + 1).expect("its length");
    let m = DocumentFile::load(&big).expect_err("too large").to_string();
    assert!(
        m.contains("big.ron") && m.contains("larger than 64 MiB"),
        "{m}"
    );
    // Written: the stick figure's document with enough keys to pass 64 MiB.
    let good = example(&skeletons().join("stickman.ron"));
    let doc_path = write(
        dir.path(),
        "small.ron",
        &good
            .replace("\"right knee\": [40.0]", "")
            .replace("\"left knee\": [50.0]", ""),
    );
    let mut doc = DocumentFile::load(&doc_path).expect("the example on the stick figure");
    let key = doc.sequences[0].keys[0].clone();
    let mut with_keys = |n: i64| {
        doc.sequences[0].keys = (0..n)
            .map(|f| marionette_document::Key {
                frame: f,
                ..key.clone()
            })
            .collect();
        doc.to_ron_string(&doc_path).map(|t| t.len())
    };
    let per_key = with_keys(1000).expect("writes") / 1000;
    let keys = limit as i64 / per_key as i64 + 1000;
    assert!(keys < marionette_document::MAX_SPAN, "{keys} keys");
    let e = with_keys(keys).expect_err("too large to open again");
    let out = dir.path().join("huge.ron");
    assert!(
        e.to_string().contains("documents are read up to 64 MiB"),
        "{e}"
    );
    assert!(doc.save(&out).is_err());
    assert!(!out.exists(), "nothing written");
}

/// The writer the kill test runs in a child process: saves two alternating documents into the
/// file named by `MARIONETTE_SAVE_LOOP` until killed. Does nothing in a normal test run.
#[test]
#[ignore = "run by atomic_save_survives_kills as a child process"]
fn save_loop_child() {
    let Ok(target) = std::env::var("MARIONETTE_SAVE_LOOP") else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let source = write(
        dir.path(),
        "source.ron",
        &example(&skeletons().join("humanoid.ron")),
    );
    let mut doc = DocumentFile::load(&source).expect("load");
    let first = doc.clone();
    // A second, longer document: many keys, so a torn write would show.
    let key = doc.sequences[0].keys[1].clone();
    for i in 1..400 {
        let mut k = key.clone();
        k.frame = 24 + i;
        doc.sequences[0].keys.push(k);
    }
    let second = doc;
    std::fs::write(format!("{target}.ready"), "").expect("ready");
    loop {
        for d in [&first, &second] {
            d.save(&target).expect("save");
        }
    }
}

#[test]
fn atomic_save_survives_kills() {
    let dir = tempfile::tempdir().expect("dir");
    let target = dir.path().join("doc.ron");
    let exe = std::env::current_exe().expect("test binary");
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut kills = 0;
    for round in 0..30 {
        let _ = std::fs::remove_file(format!("{}.ready", target.display()));
        let mut child = Command::new(&exe)
            .args(["--exact", "save_loop_child", "--ignored", "--nocapture"])
            .env("MARIONETTE_SAVE_LOOP", &target)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the writer");
        let ready = PathBuf::from(format!("{}.ready", target.display()));
        let mut waited = 0;
        while !ready.exists() && waited < 2000 {
            std::thread::sleep(Duration::from_millis(5));
            waited += 1;
        }
        assert!(ready.exists(), "round {round}: the writer did not start");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(Duration::from_micros(500 + seed % 40_000));
        child.kill().expect("kill");
        child.wait().expect("reap");
        kills += 1;
        if target.exists() {
            let doc = DocumentFile::load(&target)
                .unwrap_or_else(|e| panic!("round {round}: a torn file after a kill: {e}"));
            let keys = doc.sequences[0].keys.len();
            assert!(keys == 2 || keys == 401, "round {round}: {keys} keys");
        }
    }
    assert_eq!(kills, 30);
}

/// A point held on a plane (what a cleanup's floor lock is, or a plane lock on a picked spot of
/// a body with no site there): written as a `Point` goal with its `normal`, read back the same,
/// only its distance along the normal counted; a zero normal is refused by name.
#[test]
fn a_point_on_a_plane_round_trips_and_only_its_height_counts() {
    use marionette_document::{Lock, LockKind, LockPart};
    use marionette_ik::{GoalKind, TargetShape};
    use marionette_skeleton::{Fk, Pose, Skeleton};

    let dir = tempfile::tempdir().expect("dir");
    let humanoid = skeletons().join("humanoid.ron");
    let plane_lock = r#"Lock(
            name: "left toes floor 3–9",
            goal: Point(joint: "left toes", offset: (0.0, 0.01, 0.02), target: (0.5, 0.03, -0.4), normal: Some((0.0, 1.0, 0.0)), weight: 0.3, priority: 1),
            frames: Some((3, 9)),
        ),"#;
    let text = example(&humanoid).replace(
        "    locks: [\n",
        &format!("    locks: [\n        {plane_lock}\n"),
    );
    let path = write(dir.path(), "floor.ron", &text);
    let doc = DocumentFile::load(&path).expect("loads");
    let lock = &doc.locks[0];
    let GoalKind::Point { shape, target, .. } = &lock.goal().kind else {
        panic!("a point goal: {:?}", lock.goal());
    };
    assert_eq!(*shape, TargetShape::Plane(nalgebra::Vector3::y()));
    assert_eq!((lock.goal().weight, lock.goal().priority), (0.3, 1));
    // Only the height counts: at rest the point is 3 cm below the plane wherever it is across.
    let s = Skeleton::load(&humanoid).expect("humanoid");
    let mut fk = Fk::new(&s);
    fk.update(&s, &Pose::rest(&s).q);
    let toes = s.joint_by_name("left toes").expect("toes");
    let point = fk.point(toes, &nalgebra::Vector3::new(0.0, 0.01, 0.02));
    let error = lock.goal().kind.error(&s, &fk);
    assert!(
        ((target.y - point.y).abs() - error).abs() < 1e-12,
        "{error}"
    );
    // Saved and read again: the same lock, the normal written.
    let again = dir.path().join("again.ron");
    doc.save(&again).expect("save");
    let saved = std::fs::read_to_string(&again).expect("read");
    assert!(saved.contains("normal: Some((0.0, 1.0, 0.0))"), "{saved}");
    assert_eq!(DocumentFile::load(&again).expect("reload").locks, doc.locks);
    // A zero normal is refused, naming it.
    let message = refused(
        dir.path(),
        "flat.ron",
        &text.replace(
            "normal: Some((0.0, 1.0, 0.0))",
            "normal: Some((0.0, 0.0, 0.0))",
        ),
    );
    assert!(message.contains("normal"), "{message}");
    // A plane lock on a spot with no site is such a goal.
    let lock = Lock::at_current(
        &s,
        &fk,
        "on the floor",
        LockPart::Point(toes, nalgebra::Vector3::new(0.0, 0.0, 0.05)),
        LockKind::Plane,
    )
    .expect("a plane lock needs no site");
    assert!(matches!(
        lock.goal().kind,
        GoalKind::Point {
            shape: TargetShape::Plane(_),
            ..
        }
    ));
    assert!(lock.goal().kind.error(&s, &fk) < 1e-12);
}

/// A figure's body (its mass and de Leva's column) reads, saves and reads again; a document
/// without one has none (75 kg, male, where it is weighed); a mass that is not one is refused
/// naming the body.
#[test]
fn a_figures_body_round_trips_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().expect("dir");
    let humanoid = skeletons().join("humanoid.ron");
    let plain = example(&humanoid);
    let weighed = plain.replacen(
        "    sequences: [",
        "    body: Some(Body(mass: 62.5, sex: Female)),\n    sequences: [",
        1,
    );
    let path = write(dir.path(), "weighed.marionette.ron", &weighed);
    let doc = DocumentFile::load(&path).expect("loads");
    let body = doc.body.expect("a body");
    assert_eq!((body.mass, body.sex), (62.5, BodySex::Female));
    let again = dir.path().join("again.marionette.ron");
    doc.save(&again).expect("saves");
    assert_eq!(
        DocumentFile::load(&again).expect("loads again").body,
        doc.body
    );
    let text = std::fs::read_to_string(&again).expect("text");
    assert!(
        text.contains("body: Some(Body(")
            && text.contains("mass: 62.5")
            && text.contains("sex: Female"),
        "{text}"
    );
    let path = write(dir.path(), "plain.marionette.ron", &plain);
    let plain_doc = DocumentFile::load(&path).expect("loads");
    assert_eq!(plain_doc.body, None);
    plain_doc.save(&again).expect("saves");
    assert!(
        !std::fs::read_to_string(&again)
            .expect("text")
            .contains("body")
    );
    for mass in ["0.0", "-3.0", "2000.0", "inf"] {
        let bad = weighed.replace("mass: 62.5", &format!("mass: {mass}"));
        let message = refused(dir.path(), "bad-body.marionette.ron", &bad);
        assert!(
            message.contains("body") && message.contains("kg"),
            "{mass}: {message}"
        );
    }
}
