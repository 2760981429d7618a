//! A stage through the command line: `check`, `bake` and `export --figure` on the two dancers of
//! the motion crate's test stage, read back by the command's own readers; a whole stage as one
//! glb in [`glb`].

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod figure;
mod glb;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The test stage copied into a scratch folder with the skeleton where it expects it.
fn stage_folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp");
    std::fs::create_dir_all(dir.path().join("skeletons")).expect("dir");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        dir.path().join("skeletons/humanoid.ron"),
    )
    .expect("copy");
    let text =
        std::fs::read_to_string(repo().join("crates/motion/tests/data/two-dancers.marionette.ron"))
            .expect("stage")
            .replace("../../../../skeletons/", "skeletons/");
    let path = dir.path().join("two.marionette.ron");
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

fn marionette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("file")).expect("JSON")
}

fn point(v: &Value) -> [f64; 3] {
    [0, 1, 2].map(|i| v[i].as_f64().expect("number"))
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

#[test]
fn bake_writes_every_figure_and_prop_and_holds_the_link() {
    let (dir, stage) = stage_folder();
    let out = dir.path().join("frames.json");
    let o = marionette(&[
        "bake",
        stage.to_str().expect("path"),
        "--sequence",
        "sway",
        "--out",
        out.to_str().expect("path"),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary: Value = serde_json::from_str(&text(&o.stdout)).expect("summary");
    assert_eq!(summary["held"], true);
    assert_eq!(summary["links"][0]["name"], "hands");
    assert_eq!(summary["links"][0]["frames"], 49);
    let frames = json(&out);
    let frames = frames["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 49);
    for f in frames {
        for figure in ["A", "B"] {
            assert!(f["figures"][figure]["pose"]["joints"]["pelvis"].is_array());
            assert!(
                f["figures"][figure]["lock_errors"]["left foot"]
                    .as_f64()
                    .expect("error")
                    < 1e-4
            );
        }
        assert_eq!(
            f["props"]["stick"]["rotation"]
                .as_array()
                .expect("quaternion")
                .len(),
            4
        );
        assert!(f["link_errors"]["hands"].as_f64().expect("error") < 1e-4);
    }
}

#[test]
fn each_figure_exports_on_the_stage_and_their_hands_meet() {
    let (dir, stage) = stage_folder();
    let stage = stage.to_str().expect("path");
    let export = |figure: &str, format: &str| {
        let out = dir.path().join(format!("{figure}.{format}"));
        let o = marionette(&[
            "export",
            stage,
            "--sequence",
            "sway",
            "--format",
            format,
            "--figure",
            figure,
            "--out",
            out.to_str().expect("path"),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        out
    };
    let (a, b) = (json(&export("A", "json")), json(&export("B", "json")));
    let (fa, fb) = (
        a["frames"].as_array().expect("a"),
        b["frames"].as_array().expect("b"),
    );
    assert_eq!(fa.len(), 49);
    for (x, y) in fa.iter().zip(fb) {
        let gap = distance(
            point(&x["sites"]["right fingertips"]),
            point(&y["sites"]["left fingertips"]),
        );
        assert!(gap < 1e-3, "frame {}: {gap}", x["frame"]);
        assert!(x["props"]["stick"]["position"].is_array());
    }
    // B stands a metre away facing back: its left heel is on the stage where its place puts it.
    let heel = point(&fb[0]["sites"]["left heel"]);
    assert!(distance(heel, [-0.09, 0.0, 1.05]) < 1e-6, "{heel:?}");
    // B's BVH, read back by the importer, puts every joint where the JSON says (frame 0).
    let bvh = export("B", "bvh");
    let skeleton = dir.path().join("b.skeleton.ron");
    let doc = dir.path().join("b.marionette.ron");
    let o = marionette(&[
        "import",
        bvh.to_str().expect("path"),
        "--skeleton-out",
        skeleton.to_str().expect("path"),
        "--doc-out",
        doc.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = marionette(&["fk", doc.to_str().expect("path"), "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let fk: Value = serde_json::from_str(&text(&o.stdout)).expect("fk");
    let joints = fb[0]["joints_world"].as_object().expect("joints");
    for (name, p) in joints {
        let read = &fk["joints"][name.replace(' ', "_")];
        assert!(read.is_array(), "{name} not in the BVH: {fk}");
        let d = distance(point(read), point(p));
        assert!(d < 1e-6, "{name}: {d}");
    }
}

#[test]
fn a_stage_export_says_what_it_needs() {
    let (dir, stage) = stage_folder();
    let stage = stage.to_str().expect("path");
    let out = dir.path().join("x.out");
    let out = out.to_str().expect("path");
    for (args, expected) in [
        (vec!["--format", "json"], "--figure NAME"),
        (vec!["--format", "json", "--figure", "C"], "no figure \"C\""),
        (
            vec!["--format", "glb", "--figure", "A"],
            "a glb holds the whole stage",
        ),
    ] {
        let mut all = vec!["export", stage, "--out", out];
        all.extend(args);
        let o = marionette(&all);
        assert_eq!(o.status.code(), Some(1));
        let err = text(&o.stderr);
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!Path::new(out).exists());
    }
}

/// `marionette cleanup --figure B` on a stage: B's sequence gets contact locks for its feet,
/// and the whole stage is written back as it was besides (read back by the stage reader: A's
/// locks, the prop, the link and the cue unchanged). Without `--figure` the first figure is
/// cleaned, and A has no such sequence: refused, naming the sequences A has, nothing written.
#[test]
fn cleanup_cleans_one_figure_of_a_stage_and_writes_the_stage_back() {
    use marionette_document::StageFile;
    let (dir, stage) = stage_folder();
    let out = dir.path().join("clean.marionette.ron");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "cleanup",
            stage.to_str().expect("utf-8"),
            "--sequence",
            "sway",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--doc-out", out.to_str().expect("utf-8")]);
        marionette(&args)
    };
    let refused = run(&[]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stdout));
    assert!(
        text(&refused.stderr).contains("no sequence named \"sway\" (the document has none)"),
        "{}",
        text(&refused.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let wrong = run(&["--figure", "Z"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        text(&wrong.stderr).contains("\"Z\""),
        "{}",
        text(&wrong.stderr)
    );
    assert!(!out.exists(), "nothing written");
    let cleaned = run(&["--figure", "B"]);
    assert!(
        matches!(cleaned.status.code(), Some(0 | 3)),
        "{}{}",
        text(&cleaned.stdout),
        text(&cleaned.stderr)
    );
    let before = StageFile::load(&stage).expect("the test stage").stage;
    let after = StageFile::load(&out).expect("the cleaned stage").stage;
    assert_eq!(after.figures.len(), 2);
    assert_eq!(after.props, before.props);
    assert_eq!(after.links, before.links);
    assert_eq!(after.cues, before.cues);
    let (a, b) = (&after.figures[0], &after.figures[1]);
    assert_eq!((a.name.as_str(), b.name.as_str()), ("A", "B"));
    assert_eq!(
        a.document.locks, before.figures[0].document.locks,
        "A untouched"
    );
    let contacts = b
        .document
        .locks
        .iter()
        .filter(|l| l.name.contains("contact"))
        .count();
    assert!(contacts >= 2, "B's feet are locked: {:?}", b.document.locks);
    assert_eq!(b.placement, before.figures[1].placement);
}
