//! A whole stage as one glb (`marionette export STAGE --format glb`): three figures (two
//! humanoids hand in hand and an imported character, RiggedFigure, with its own skin) and four
//! props (a cylinder handed over, a box, a sphere and a mesh file, a cup the character grips).
//! The file passes the Khronos validator with no errors, and read back by our own glTF reader,
//! its animation played key by key, puts every figure's joints where that figure's JSON export
//! does and every prop where the bake does (within 1e-5 m and 1e-5 rad).

use std::path::PathBuf;
use std::process::{Command, Output};

use super::{marionette, repo};

use marionette_interchange::gltf::GltfFile;
use marionette_interchange::gltf::read::decompose;
use nalgebra::{Matrix3, Matrix4, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;

fn ok(o: Output) -> Output {
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The character figure and the props added to the test stage of two dancers.
const FIGURE_C: &str = r#"        Figure(
            name: "C",
            skeleton: "skeletons/rigged.ron",
            at: (1.5, 0.5),
            facing: 90.0,
            sequences: [
                Sequence(
                    name: "sway",
                    fps: 24.0,
                    rotation: Slerp,
                    root: CatmullRom,
                    keys: [
                        Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {})),
                        Key(frame: 24, pose: Pose(root: (0.1, -0.05, 0.2), joints: {"arm_joint_R_1": [40.0, 10.0, 0.0], "torso_joint_2": [0.0, 20.0, 0.0]})),
                        Key(frame: 48, pose: Pose(root: (0.0, 0.0, 0.4), joints: {"arm_joint_R_1": [-30.0, 0.0, 20.0]})),
                    ],
                ),
            ],
        ),
    ],
    props: ["#;

const MORE_PROPS: &str = r#"
        Prop(name: "crate", shape: Box(size: (0.4, 0.3, 0.5)), at: (-1.0, 0.15, 0.5), rotation: (0.0, 30.0, 0.0)),
        Prop(name: "ball", shape: Sphere(radius: 0.11), at: (1.0, 0.11, -0.5)),
        Prop(name: "cup", shape: Mesh("cup.glb"), at: (1.3, 1.0, 0.5)),"#;

/// A scratch folder holding the stage, its skeletons, the imported character and the cup.
fn rich_stage() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp");
    let at = |p: &str| dir.path().join(p);
    std::fs::create_dir_all(at("skeletons")).expect("dir");
    std::fs::copy(
        repo().join("skeletons/humanoid.ron"),
        at("skeletons/humanoid.ron"),
    )
    .expect("copy");
    std::fs::copy(repo().join("assets/props/cup.glb"), at("cup.glb")).expect("copy");
    std::fs::copy(
        repo().join("crates/interchange/tests/data/characters/RiggedFigure.gltf"),
        at("RiggedFigure.gltf"),
    )
    .expect("copy");
    ok(marionette(&[
        "import",
        at("RiggedFigure.gltf").to_str().expect("path"),
        "--skeleton-out",
        at("skeletons/rigged.ron").to_str().expect("path"),
        "--doc-out",
        at("rigged.marionette.ron").to_str().expect("path"),
    ]));
    let text =
        std::fs::read_to_string(repo().join("crates/motion/tests/data/two-dancers.marionette.ron"))
            .expect("stage")
            .replace("../../../../skeletons/", "skeletons/")
            .replacen("    ],\n    props: [", FIGURE_C, 1)
            .replacen("rotation: (0.0, 0.0, 90.0)),", &format!("rotation: (0.0, 0.0, 90.0)),{MORE_PROPS}"), 1)
            .replacen(
                "Release(prop: \"stick\", frame: 40),",
                "Release(prop: \"stick\", frame: 40),\n                Grip(prop: \"cup\", figure: \"C\", site: \"right hand\", frame: 6),",
                1,
            );
    let path = at("rich.marionette.ron");
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

/// Every node's world transform at key `k` of the file's one animation.
fn world_at(file: &GltfFile, k: usize) -> Vec<Matrix4<f64>> {
    let mut posed = file.clone();
    let animation = &file.json["animations"][0];
    for channel in animation["channels"].as_array().expect("channels") {
        let node = channel["target"]["node"].as_u64().expect("node") as usize;
        let sampler =
            &animation["samplers"][channel["sampler"].as_u64().expect("sampler") as usize];
        let output = sampler["output"].as_u64().expect("output") as usize;
        let (r, t, s) = decompose(&posed.nodes[node].local).expect("TRS");
        let (r, t) = match channel["target"]["path"].as_str() {
            Some("translation") => {
                let v = &file.read_accessor(output, 3).expect("keys")[k];
                (r, Vector3::new(v[0], v[1], v[2]))
            }
            Some("rotation") => {
                let v = &file.read_accessor(output, 4).expect("keys")[k];
                let q = UnitQuaternion::from_quaternion(Quaternion::new(v[3], v[0], v[1], v[2]));
                (*q.to_rotation_matrix().matrix(), t)
            }
            other => panic!("unexpected channel {other:?}"),
        };
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&(r * s));
        m.fixed_view_mut::<3, 1>(0, 3).copy_from(&t);
        posed.nodes[node].local = m;
    }
    posed.world_matrices()
}

fn node(file: &GltfFile, name: &str) -> usize {
    file.nodes
        .iter()
        .position(|n| n.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no node {name}"))
}

fn point(v: &Value) -> Vector3<f64> {
    Vector3::new(
        v[0].as_f64().expect("number"),
        v[1].as_f64().expect("number"),
        v[2].as_f64().expect("number"),
    )
}

#[test]
fn a_stage_exports_as_one_glb_with_every_figure_and_prop_where_the_bake_puts_them() {
    let (dir, stage) = rich_stage();
    let stage_arg = stage.to_str().expect("path");
    let glb = dir.path().join("stage.glb");
    let o = ok(marionette(&[
        "export",
        stage_arg,
        "--sequence",
        "sway",
        "--format",
        "glb",
        "--out",
        glb.to_str().expect("path"),
    ]));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("(3 figures, 4 props)"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The Khronos validator: no errors.
    let tool = repo().join("tools/gltf-validator");
    assert!(
        tool.join("node_modules/gltf-validator").exists(),
        "the validator is not installed: npm ci --prefix tools/gltf-validator (scripts/test.sh does)"
    );
    let report = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .arg(&glb)
        .output()
        .expect("node runs");
    let report: Value = serde_json::from_slice(&report.stdout).expect("validator JSON");
    assert_eq!(report["errors"], 0, "{report}");

    let file = GltfFile::open(&glb).expect("our reader reads it");
    let mut checked = 0;
    for figure in ["A", "B", "C"] {
        let json_out = dir.path().join(format!("{figure}.json"));
        ok(marionette(&[
            "export",
            stage_arg,
            "--sequence",
            "sway",
            "--figure",
            figure,
            "--format",
            "json",
            "--out",
            json_out.to_str().expect("path"),
        ]));
        let frames: Value =
            serde_json::from_str(&std::fs::read_to_string(&json_out).expect("json")).expect("JSON");
        for (k, frame) in frames["frames"]
            .as_array()
            .expect("frames")
            .iter()
            .enumerate()
        {
            let world = world_at(&file, k);
            for (joint, at) in frame["joints_world"].as_object().expect("joints") {
                let n = node(&file, &format!("{figure}/{joint}"));
                let got = world[n].fixed_view::<3, 1>(0, 3).into_owned();
                let gap = (got - point(at)).norm();
                assert!(gap < 1e-5, "{figure}/{joint} at frame {k}: {gap} m");
                checked += 1;
            }
            if figure != "A" {
                continue;
            }
            for (prop, place) in frame["props"].as_object().expect("props") {
                let w = world[node(&file, prop)];
                let gap =
                    (w.fixed_view::<3, 1>(0, 3).into_owned() - point(&place["position"])).norm();
                assert!(gap < 1e-5, "prop {prop} at frame {k}: {gap} m");
                let r: Matrix3<f64> = w.fixed_view::<3, 3>(0, 0).into_owned();
                let q = &place["rotation"];
                let want = UnitQuaternion::from_quaternion(Quaternion::new(
                    q[3].as_f64().expect("number"),
                    q[0].as_f64().expect("number"),
                    q[1].as_f64().expect("number"),
                    q[2].as_f64().expect("number"),
                ));
                let got = UnitQuaternion::from_matrix(&r);
                let angle = got.angle_to(&want);
                assert!(angle < 1e-5, "prop {prop} at frame {k}: {angle} rad");
            }
        }
    }
    // 49 frames of 22 + 22 + 19 joints.
    assert_eq!(checked, 49 * (22 + 22 + 19));
    // The character keeps its own skin and mesh.
    assert!(
        file.nodes
            .iter()
            .any(|n| n.skin.is_some() && n.name.as_deref() == Some("C/Proxy"))
    );
}

#[test]
fn a_stage_pose_exports_as_one_glb_and_a_figure_is_not_asked_for() {
    let (dir, stage) = rich_stage();
    let stage_arg = stage.to_str().expect("path");
    let glb = dir.path().join("pose.glb");
    ok(marionette(&[
        "export",
        stage_arg,
        "--format",
        "glb",
        "--out",
        glb.to_str().expect("path"),
    ]));
    let file = GltfFile::open(&glb).expect("reads");
    let world = file.world_matrices();
    // B stands at (0, 1), turned half round: its own +x is the stage's -x.
    let b = world[node(&file, "B")];
    assert!((b[(0, 3)] - 0.0).abs() < 1e-12 && (b[(2, 3)] - 1.0).abs() < 1e-12);
    assert!((b[(0, 0)] + 1.0).abs() < 1e-12);
    let crate_node = world[node(&file, "crate")];
    assert!(
        (crate_node.fixed_view::<3, 1>(0, 3).into_owned() - Vector3::new(-1.0, 0.15, 0.5)).norm()
            < 1e-12
    );

    let out = dir.path().join("one.glb");
    let o = marionette(&[
        "export",
        stage_arg,
        "--format",
        "glb",
        "--figure",
        "A",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("a glb holds the whole stage"), "{err}");
    assert!(!out.exists());
}
