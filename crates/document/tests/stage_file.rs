//! The stage document: a version-2 file reads and writes back byte for byte, a version-1 file
//! reads as a stage of one figure and writes back exactly as the one-figure document does, and
//! every mistake is refused with the document and the culprit named, nothing half-loaded.

use std::path::{Path, PathBuf};

use marionette_document::{DocumentFile, Placement, StageFile};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn stage_text() -> String {
    std::fs::read_to_string(repo().join("crates/motion/tests/data/two-dancers.marionette.ron"))
        .expect("the test stage")
}

/// A scratch folder with the stage's skeleton where the text expects it.
fn folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp");
    std::fs::create_dir_all(dir.path().join("skeletons")).expect("dir");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        dir.path().join("skeletons/humanoid.ron"),
    )
    .expect("copy");
    dir
}

fn here(text: &str) -> String {
    text.replace("../../../../skeletons/", "skeletons/")
}

fn load(dir: &Path, text: &str) -> Result<StageFile, String> {
    let path = dir.join("stage.marionette.ron");
    std::fs::write(&path, text).expect("write");
    StageFile::load(&path).map_err(|e| e.to_string())
}

#[test]
fn a_stage_round_trips_byte_for_byte() {
    let dir = folder();
    let path = dir.path().join("stage.marionette.ron");
    let stage = load(dir.path(), &here(&stage_text())).expect("loads");
    assert_eq!(stage.stage.figures.len(), 2);
    assert_eq!(
        stage.stage.figures[1].placement,
        Placement {
            at: [0.0, 1.0],
            facing: 180.0
        }
    );
    let once = stage.to_ron_string(&path).expect("writes");
    assert!(once.starts_with("Document(\n    version: 2,"), "{once}");
    let again = load(dir.path(), &once)
        .expect("reads back")
        .to_ron_string(&path)
        .expect("writes");
    assert_eq!(once, again);
}

#[test]
fn links_to_a_prop_s_point_plane_line_and_pose_and_a_turned_site_round_trip() {
    let dir = folder();
    let path = dir.path().join("stage.marionette.ron");
    let text = here(&stage_text()).replace(
        r#"Link(name: "hands", a: ("A", "right fingertips"), b: Site("B", "left fingertips")),"#,
        r#"Link(name: "point", a: ("A", "right fingertips"), b: Prop("stick", (0.0, 0.5, 0.0))),
        Link(name: "plane", a: ("B", "right heel"), b: PropPlane("stick", (0.0, 0.0, 0.0), (0.0, 1.0, 0.0))),
        Link(name: "line", a: ("B", "left fingertips"), b: PropLine("stick", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0)), frames: Some((0, 5))),
        Link(name: "grip", a: ("A", "left fingertips"), b: PropPose("stick", (0.0, -0.4, 0.0), (10.0, -90.0, 33.5))),
        Link(name: "clasp", a: ("A", "left heel"), b: SitePose("B", "right fingertips", (0.0, 180.0, -12.25))),
        Link(name: "level", a: ("B", "left heel"), b: PropTurn("stick", (0.0, 0.0, -90.0))),"#,
    );
    let once = load(dir.path(), &text)
        .expect("loads")
        .to_ron_string(&path)
        .expect("writes");
    for piece in [
        "b: Prop(\"stick\"",
        "b: PropPlane(\"stick\"",
        "b: PropLine(\"stick\"",
        "b: PropPose(\"stick\", (0.0, -0.4, 0.0), (10.0, -90.0, 33.5))",
        "b: SitePose(\"B\", \"right fingertips\", (0.0, 180.0, -12.25))",
        "b: PropTurn(\"stick\", (0.0, 0.0, -90.0))",
    ] {
        assert!(once.contains(piece), "{piece} in {once}");
    }
    let again = load(dir.path(), &once)
        .expect("reads back")
        .to_ron_string(&path)
        .expect("writes");
    assert_eq!(once, again);
}

#[test]
fn a_one_figure_document_stays_version_1() {
    let dir = folder();
    let path = dir.path().join("stage.marionette.ron");
    let v1 = r#"Document(
    version: 1,
    skeleton: "skeletons/humanoid.ron",
    locks: [Lock(name: "left foot", goal: Position(site: "left heel", target: (0.09, 0.0, -0.05)))],
)
"#;
    let stage = load(dir.path(), v1).expect("loads");
    assert_eq!(stage.stage.figures[0].name, "humanoid");
    assert!(stage.stage.is_one_figure());
    let as_stage = stage.to_ron_string(&path).expect("writes");
    let as_document = DocumentFile::from_ron_str(v1, &path)
        .expect("loads")
        .to_ron_string(&path)
        .expect("writes");
    assert_eq!(as_stage, as_document);
    // A second figure makes it a stage.
    let mut two = stage.clone();
    let mut b = two.stage.figures[0].clone();
    b.name = "B".into();
    b.placement.at = [1.0, 0.0];
    two.stage.figures.push(b);
    let text = two.to_ron_string(&path).expect("writes");
    assert!(text.contains("version: 2"), "{text}");
    assert_eq!(
        load(dir.path(), &text).expect("reads").stage.figures.len(),
        2
    );
}

/// The stage with `from` replaced by `to` is refused with every `expected` piece in the message.
fn refused(from: &str, to: &str, expected: &[&str]) {
    let dir = folder();
    let text = here(&stage_text());
    assert!(text.contains(from), "{from}");
    let err = load(dir.path(), &text.replacen(from, to, 1))
        .err()
        .unwrap_or_else(|| panic!("{from} → {to} accepted"));
    assert!(err.contains("stage.marionette.ron"), "{err}");
    for piece in expected {
        assert!(err.contains(piece), "{piece} not in: {err}");
    }
}

#[test]
fn every_mistake_is_named() {
    refused(
        r#"b: Site("B", "left fingertips")"#,
        r#"b: Site("C", "left fingertips")"#,
        &["link \"hands\"", "no figure \"C\""],
    );
    refused(
        r#"b: Site("B", "left fingertips")"#,
        r#"b: Site("B", "left thumb")"#,
        &["link \"hands\"", "figure \"B\"", "no site \"left thumb\""],
    );
    refused(r#"name: "B","#, r#"name: "A","#, &["figure \"A\"", "taken"]);
    refused(
        r#"shape: Cylinder(radius: 0.02, length: 1.0)"#,
        r#"shape: Mesh("missing.glb")"#,
        &["prop \"stick\"", "mesh \"missing.glb\"", "cannot be read"],
    );
    refused(
        r#"shape: Cylinder(radius: 0.02, length: 1.0)"#,
        r#"shape: Sphere(radius: -1.0)"#,
        &["prop \"stick\"", "positive"],
    );
    refused(
        r#"Release(prop: "stick", frame: 40)"#,
        r#"Release(prop: "stick", frame: 20)"#,
        &["cue of sequence \"sway\"", "strictly increasing"],
    );
    refused(
        r#"Grip(prop: "stick", figure: "A", site: "left fingertips", frame: 10)"#,
        r#"Grip(prop: "pole", figure: "A", site: "left fingertips", frame: 10)"#,
        &["no prop \"pole\""],
    );
    refused(
        r#"sequence: "sway""#,
        r#"sequence: "waltz""#,
        &["cue of sequence \"waltz\"", "no figure has a sequence"],
    );
    refused(
        r#"Lock(name: "left foot", goal: Position(site: "left heel""#,
        r#"Lock(name: "left foot", goal: Position(site: "left hoof""#,
        &["figure \"A\"", "lock \"left foot\"", "left hoof"],
    );
    refused(
        r#"skeleton: "skeletons/humanoid.ron",
            at:"#,
        r#"skeleton: "skeletons/missing.ron",
            at:"#,
        &["figure \"B\"", "skeleton \"skeletons/missing.ron\""],
    );
    refused(
        r#"Release(prop: "stick", frame: 40)"#,
        r#"Release(prop: "stick", frame: -9223372036854775808)"#,
        &["cue of sequence \"sway\"", "frame beyond"],
    );
    refused(
        r#"Release(prop: "stick", frame: 40)"#,
        r#"Release(prop: "stick", frame: 4000000)"#,
        &["cue of sequence \"sway\"", "more than the 1000000 frames"],
    );
    refused(
        r#"b: Site("B", "left fingertips")"#,
        r#"b: PropPlane("stick", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))"#,
        &[
            "link \"hands\"",
            "plane's normal",
            "not a finite, non-zero vector",
        ],
    );
    refused(
        r#"b: Site("B", "left fingertips")"#,
        r#"b: PropPose("stick", (0.0, 0.0, 0.0), (0.0, inf, 0.0))"#,
        &["link \"hands\"", "not finite degrees"],
    );
    refused("version: 2", "version: 3", &["version 3 is newer"]);
}

#[test]
fn the_one_figure_reader_refuses_a_stage_by_saying_so() {
    let dir = folder();
    let path = dir.path().join("stage.marionette.ron");
    let err = DocumentFile::from_ron_str(&here(&stage_text()), &path)
        .expect_err("a stage is not one figure's document")
        .to_string();
    assert!(err.contains("stage document"), "{err}");
}
