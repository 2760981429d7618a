//! glTF export: the Khronos validator finds no error (npm `gltf-validator`, locked in
//! `tools/gltf-validator`); our own reading of the file (its nodes' rest transforms, the
//! animation sampled at each key) puts every joint where our forward kinematics does on every
//! frame; quaternion keys never change hemisphere.

use std::path::{Path, PathBuf};
use std::process::Command;

use marionette_interchange::gltf::to_glb;
use marionette_skeleton::{Fk, Skeleton, builtin, testing};
use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;

/// The JSON and binary chunks of a GLB.
fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[..4], b"glTF");
    let u32_at =
        |i: usize| u32::from_le_bytes([glb[i], glb[i + 1], glb[i + 2], glb[i + 3]]) as usize;
    assert_eq!(u32_at(8), glb.len());
    let json_len = u32_at(12);
    assert_eq!(&glb[16..20], b"JSON");
    let json = serde_json::from_slice(&glb[20..20 + json_len]).expect("JSON chunk");
    let bin_at = 20 + json_len;
    let bin_len = u32_at(bin_at);
    assert_eq!(&glb[bin_at + 4..bin_at + 8], b"BIN\0");
    (json, glb[bin_at + 8..bin_at + 8 + bin_len].to_vec())
}

/// An accessor's floats.
fn floats(json: &Value, bin: &[u8], accessor: usize) -> Vec<f32> {
    let a = &json["accessors"][accessor];
    let view = &json["bufferViews"][a["bufferView"].as_u64().expect("view") as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().expect("length") as usize;
    bin[start..start + len]
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Every joint node's world position at each key, as a glTF reader composes them.
fn world_positions(
    json: &Value,
    bin: &[u8],
    joints: usize,
    frames: usize,
) -> Vec<Vec<Vector3<f64>>> {
    let nodes = json["nodes"].as_array().expect("nodes");
    // Per node, per frame: rotation and translation (rest unless animated).
    let mut rotation: Vec<Vec<UnitQuaternion<f64>>> = Vec::new();
    let mut translation: Vec<Vec<Vector3<f64>>> = Vec::new();
    for node in &nodes[..joints] {
        let r: Vec<f64> = node["rotation"]
            .as_array()
            .expect("r")
            .iter()
            .map(|v| v.as_f64().expect("f"))
            .collect();
        let t: Vec<f64> = node["translation"]
            .as_array()
            .expect("t")
            .iter()
            .map(|v| v.as_f64().expect("f"))
            .collect();
        let q = UnitQuaternion::new_normalize(Quaternion::new(r[3], r[0], r[1], r[2]));
        rotation.push(vec![q; frames]);
        translation.push(vec![Vector3::new(t[0], t[1], t[2]); frames]);
    }
    let animation = &json["animations"][0];
    for channel in animation["channels"].as_array().expect("channels") {
        let node = channel["target"]["node"].as_u64().expect("node") as usize;
        let sampler = &animation["samplers"][channel["sampler"].as_u64().expect("s") as usize];
        let out = floats(json, bin, sampler["output"].as_u64().expect("out") as usize);
        match channel["target"]["path"].as_str().expect("path") {
            "rotation" => {
                for f in 0..frames {
                    let c = &out[f * 4..f * 4 + 4];
                    let q = Quaternion::new(c[3] as f64, c[0] as f64, c[1] as f64, c[2] as f64);
                    if f > 0 {
                        let p = rotation[node][f - 1].into_inner();
                        assert!(
                            p.coords.dot(&q.coords) >= 0.0,
                            "node {node} frame {f}: the key changes hemisphere"
                        );
                    }
                    rotation[node][f] = UnitQuaternion::new_normalize(q);
                }
            }
            "translation" => {
                for f in 0..frames {
                    let c = &out[f * 3..f * 3 + 3];
                    translation[node][f] = Vector3::new(c[0] as f64, c[1] as f64, c[2] as f64);
                }
            }
            other => panic!("unexpected path {other}"),
        }
    }
    let mut parent = vec![None; joints];
    for (i, node) in nodes[..joints].iter().enumerate() {
        for c in node["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().expect("child") as usize] = Some(i);
        }
    }
    (0..frames)
        .map(|f| {
            let mut world: Vec<(Matrix3<f64>, Vector3<f64>)> = Vec::with_capacity(joints);
            for j in 0..joints {
                let (r, t) = (
                    rotation[j][f].to_rotation_matrix().into_inner(),
                    translation[j][f],
                );
                world.push(match parent[j] {
                    Some(p) => (world[p].0 * r, world[p].1 + world[p].0 * t),
                    None => (r, t),
                });
            }
            world.into_iter().map(|(_, t)| t).collect()
        })
        .collect()
}

fn worst_gap(s: &Skeleton, frames: &[Vec<f64>], glb: &[u8]) -> f64 {
    let (json, bin) = chunks(glb);
    let read = world_positions(&json, &bin, s.joints().len(), frames.len());
    let mut fk = Fk::new(s);
    let mut worst = 0.0f64;
    for (q, theirs) in frames.iter().zip(&read) {
        fk.update(s, q);
        for (j, p) in s.joint_ids().zip(theirs) {
            worst = worst.max((fk.joint_position(j) - p).norm());
        }
    }
    worst
}

fn validator() -> PathBuf {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    assert!(
        tool.join("node_modules/gltf-validator").exists(),
        "the validator is not installed: npm ci --prefix tools/gltf-validator (scripts/test.sh does)"
    );
    tool.join("validate.mjs")
}

#[test]
fn a_humanoid_spin_passes_the_validator_and_reads_back_where_fk_puts_it() {
    let s = builtin::humanoid();
    let pelvis: Vec<usize> = s.joint_dofs(s.root()).map(|d| d.state_index()).collect();
    let frames: Vec<Vec<f64>> = (0..=48)
        .map(|f| {
            let mut q = builtin::standing(&s).q;
            let t = f as f64 / 48.0;
            q[0] = 0.3 * t;
            q[pelvis[1]] = marionette_skeleton::angles::wrap_angle(std::f64::consts::TAU * 1.5 * t);
            q[pelvis[0]] = 0.4 * (t * 9.0).sin();
            q
        })
        .collect();
    let glb = to_glb(&s, &frames, 24.0, None).0;
    let gap = worst_gap(&s, &frames, &glb);
    // The file stores 32-bit floats: measured 3e-8 m.
    assert!(gap < 1e-6, "a joint is {gap} m off");
    let dir = tempfile_dir("spin");
    let file = dir.join("spin.glb");
    std::fs::write(&file, &glb).expect("write");
    let o = Command::new("node")
        .arg(validator())
        .arg(&file)
        .output()
        .expect("node");
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(report.contains("\"errors\":0"), "{report}");
}

#[test]
fn random_skeletons_read_back_where_fk_puts_them() {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..32 {
        let (s, pose) = testing::skeleton_and_pose()
            .new_tree(&mut runner)
            .expect("tree")
            .current();
        let frames = vec![pose.q.clone(), Pose::rest(&s).q];
        let glb = to_glb(&s, &frames, 30.0, None).0;
        let gap = worst_gap(&s, &frames, &glb);
        assert!(gap < 1e-6, "a joint is {gap} m off");
    }
}

use marionette_skeleton::Pose;

fn tempfile_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("marionette-gltf-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[test]
fn mesh_bodies_are_skinned_with_their_own_triangles() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editor/tests/data");
    let s = Skeleton::load(data.join("mesh_stickman.ron")).expect("the stickman with glTF hands");
    let frames = vec![Pose::rest(&s).q];
    let (with, warnings) = to_glb(&s, &frames, 24.0, Some(&data.join("assets")));
    assert!(warnings.is_empty(), "{warnings:?}");
    let (without, warnings) = to_glb(&s, &frames, 24.0, None);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].contains("drawn as a sphere"), "{}", warnings[0]);
    // The hands' blocks (12 triangles each) instead of two spheres.
    let triangles = |glb: &[u8]| {
        let (json, _) = chunks(glb);
        let p = &json["meshes"][0]["primitives"][0];
        json["accessors"][p["indices"].as_u64().expect("indices") as usize]["count"]
            .as_u64()
            .expect("count")
            / 3
    };
    assert_ne!(triangles(&with), triangles(&without));
    let dir = tempfile_dir("mesh");
    let file = dir.join("mesh.glb");
    std::fs::write(&file, &with).expect("write");
    let o = Command::new("node")
        .arg(validator())
        .arg(&file)
        .output()
        .expect("node");
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && report.contains("\"errors\":0"),
        "{report}"
    );
}
