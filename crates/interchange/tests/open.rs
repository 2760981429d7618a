//! One door for every file: `open` reads one file of every kind Marionette reads and returns
//! what it holds, each checked against the file's own reader or the file's own text (not against
//! what `open` says of itself): a skeleton's joints as `Skeleton::load` reads them, a pose's
//! joints as its text names them, a version-1 document and a stage as `StageFile::load` reads
//! them, a glTF, a VRM and an FBX character as `Character::open` reads them, a BVH capture's
//! frames as its `Frames:` line declares, and an FBX animation as the take its file holds. An
//! IK problem and a file of no kind are refused, naming the file and the kind.

use std::path::{Path, PathBuf};

use marionette_document::StageFile;
use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::character::Character;
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::open::{OpenError, Opened, open};
use marionette_skeleton::Skeleton;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn opened(path: &Path) -> Opened {
    open(path, CaptureOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_kind_opens_to_what_its_own_reader_reads() {
    let r = repo();
    // A skeleton.
    let path = r.join("skeletons/humanoid.ron");
    let Opened::Skeleton(s) = opened(&path) else {
        panic!("a skeleton")
    };
    let loaded = Skeleton::load(&path).expect("loads");
    assert_eq!(s.to_ron_string().ok(), loaded.to_ron_string().ok());
    assert_eq!(s.joints().len(), 22);
    // A pose: its joints as its text names them.
    let path = r.join("crates/fuzz/seeds/pose-pose.ron");
    let Opened::Pose(pose) = opened(&path) else {
        panic!("a pose")
    };
    let text = std::fs::read_to_string(&path).expect("text");
    for (joint, _) in pose.joints.iter() {
        assert!(text.contains(&format!("\"{joint}\"")), "{joint}");
    }
    // A stage, and (below) a version-1 document.
    let path = r.join("crates/motion/tests/data/two-dancers.marionette.ron");
    let Opened::Document(stage) = opened(&path) else {
        panic!("a stage")
    };
    let loaded = StageFile::load(&path).expect("loads").stage;
    assert_eq!(stage.figures.len(), 2);
    assert_eq!(stage.figures.len(), loaded.figures.len());
    assert_eq!(stage.links, loaded.links);
    let dir = tempfile::tempdir().expect("tmp");
    let one = dir.path().join("one.marionette.ron");
    std::fs::write(
        &one,
        format!(
            "Document(version: 1, skeleton: \"{}\")\n",
            r.join("skeletons/stickman.ron").display()
        ),
    )
    .expect("write");
    let Opened::Document(stage) = opened(&one) else {
        panic!("a version-1 document")
    };
    assert_eq!(stage.figures.len(), 1);
    assert_eq!(stage.figures[0].document.skeleton.name(), "stickman");
    // Characters: glTF, VRM, FBX.
    let characters = r.join("crates/interchange/tests/data/characters");
    for file in [
        "RiggedFigure.gltf",
        "authored/vroid_tpose.vrm",
        "authored/mixamo_apose.fbx",
    ] {
        let path = characters.join(file);
        let Opened::Character(c) = opened(&path) else {
            panic!("a character: {file}")
        };
        let read = Character::open(&path).expect("reads");
        assert_eq!(c.rig.joints.len(), read.rig.joints.len(), "{file}");
    }
    // A BVH capture: every frame its Frames: line declares.
    let bvh = Path::new("/usr/share/assimp/models/BVH/01_01.bvh");
    let declared: usize = std::fs::read_to_string(bvh)
        .expect("assimp-testmodels")
        .lines()
        .find_map(|l| l.strip_prefix("Frames:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Frames: line");
    let Opened::Capture(c) = opened(bvh) else {
        panic!("a capture")
    };
    assert_eq!(c.frames, declared);
    // An FBX animation (no skinned mesh): a capture of its take.
    let Opened::Capture(take) = opened(&characters.join("authored/mixamo_apose_animation.fbx"))
    else {
        panic!("an FBX animation is a capture")
    };
    assert!(take.takes.is_some() && take.frames > 1);
    // An IK problem: its text, once, for the IK crate to read.
    let problem = r.join("crates/fuzz/seeds/problem-reach.ron");
    let Opened::Problem(text) = opened(&problem) else {
        panic!("a problem file")
    };
    assert_eq!(text, std::fs::read_to_string(&problem).expect("read"));
    // RON whose top names no kind: a skeleton, else a pose, else both reasons.
    let stick = marionette_skeleton::builtin::stickman();
    let named = stick.to_ron_string().expect("text");
    let unnamed = dir.path().join("unnamed-skeleton.ron");
    std::fs::write(&unnamed, named.replacen("Skeleton(", "(", 1)).expect("write");
    assert!(
        !std::fs::read_to_string(&unnamed)
            .expect("read")
            .contains("Skeleton(")
    );
    let Opened::Skeleton(s) = opened(&unnamed) else {
        panic!("an unnamed skeleton")
    };
    assert_eq!(*s, stick);
    let unnamed_pose = dir.path().join("unnamed-pose.ron");
    std::fs::write(
        &unnamed_pose,
        "// a pose\n(root: (0.0, 1.0, 0.0), joints: {})",
    )
    .expect("write");
    let Opened::Pose(p) = opened(&unnamed_pose) else {
        panic!("an unnamed pose")
    };
    assert_eq!(p.root, [0.0, 1.0, 0.0]);
    let neither = dir.path().join("neither.ron");
    std::fs::write(&neither, "(colour: \"blue\")").expect("write");
    match open(&neither, CaptureOptions::default()) {
        Err(e @ OpenError::Unnamed { .. }) => {
            let said = e.to_string();
            assert!(
                said.contains("neither.ron")
                    && said.contains("As a skeleton:")
                    && said.contains("As a pose:")
                    && said.contains("colour"),
                "{said}"
            );
        }
        other => panic!("{other:?}"),
    }
    let none = dir.path().join("notes.txt");
    std::fs::write(&none, "shopping list").expect("write");
    assert!(matches!(
        open(&none, CaptureOptions::default()),
        Err(OpenError::NotOpened {
            kind: FileKind::Other,
            ..
        })
    ));
    assert!(matches!(
        open(&dir.path().join("missing.ron"), CaptureOptions::default()),
        Err(OpenError::Read { .. })
    ));
}
