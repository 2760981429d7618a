//! Rigged glTF characters (`tests/data/characters`, with their licences; SimpleSkin from the
//! Debian package assimp-testmodels): each imports as a skeleton whose rest pose puts every
//! joint where the file's nodes are; a recognised humanoid's arms and legs are limbs the
//! analytic solver reaches every reachable target with; the character exported with a pose or a
//! sequence passes the Khronos validator, reads back (with a reader of this test's own) with
//! every joint where our forward kinematics puts it, and imports again as the same skeleton.

use std::path::{Path, PathBuf};
use std::process::Command;

use marionette_ik::analytic::limb::Limb;
use marionette_ik::{Goal, GoalKind, Settings, SolverKind, System, solve};
use marionette_interchange::character::export::character_glb;
use marionette_interchange::character::{Character, open_as_gltf};
use marionette_interchange::file_kind::FileKind;
use marionette_interchange::gltf::read::GltfFile;
use marionette_interchange::open::open;
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};
use nalgebra::{Matrix4, Quaternion, UnitQuaternion, Vector3};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/characters")
        .join(name)
}

/// Every character file the tests read: the sample models, the characters authored in Blender
/// (`scripts/make-test-characters.py`, as glTF and two as FBX), SimpleSkin, and the skinned FBX
/// files of assimp's test models.
fn characters() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [data(""), data("authored")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("the characters folder"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "gltf" || e == "glb" || e == "vrm" || e == "fbx")
        })
        // An FBX file with no skin is an animation, not a character (as every front end tells).
        .filter(|p| open(p, Default::default()).is_ok_and(|o| o.kind() == FileKind::Character))
        .collect();
    files.sort();
    files.push(PathBuf::from(
        "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf",
    ));
    for fbx in ["huesitos.fbx", "animation_with_skeleton.fbx"] {
        files.push(Path::new("/usr/share/assimp/models/FBX").join(fbx));
    }
    files
}

fn import(path: &Path) -> (Character, Skeleton) {
    let c = Character::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let s = c
        .import("figure", "figure.glb")
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .skeleton;
    (c, s)
}

/// The node of each skeleton joint.
fn nodes_of(s: &Skeleton) -> Vec<usize> {
    let skin = s.skin().expect("the skeleton names its skin");
    s.joint_ids()
        .map(|j| {
            skin.nodes
                .iter()
                .find(|(id, _)| *id == j)
                .map(|&(_, n)| n as usize)
                .expect("every joint has its node")
        })
        .collect()
}

#[test]
fn every_character_s_rest_pose_puts_the_joints_where_the_file_s_nodes_are() {
    for path in characters() {
        let (c, s) = import(&path);
        let world = c.file.world_matrices();
        let mut fk = Fk::new(&s);
        fk.update(&s, &Pose::rest(&s).q);
        let mut worst = 0.0f64;
        for (j, node) in s.joint_ids().zip(nodes_of(&s)) {
            let theirs = Vector3::new(
                world[node][(0, 3)],
                world[node][(1, 3)],
                world[node][(2, 3)],
            );
            worst = worst.max((fk.joint_position(j) - theirs).norm());
            // Joints keep their node's name (a node without one is called by its number).
            let expected = c.file.nodes[node]
                .name
                .clone()
                .unwrap_or_else(|| format!("node {node}"));
            assert_eq!(s.joint(j).name, expected, "{}", path.display());
        }
        assert!(worst < 1e-6, "{}: a joint is {worst} m off", path.display());
        // Every joint rotates as three hinges or (a humanoid's elbows and knees) one.
        for j in s.joint_ids() {
            let n = s.joint(j).dofs.len();
            assert!(n == 3 || n == 1, "{}: {} DOFs", s.joint(j).name, n);
        }
    }
}

#[test]
fn the_figure_is_a_humanoid_the_fox_and_the_cylinders_are_not() {
    let (figure, s) = import(&data("RiggedFigure.gltf"));
    let h = figure
        .humanoid
        .as_ref()
        .expect("RiggedFigure is a humanoid");
    assert!(h.missing().is_empty());
    for site in ["left hand", "right hand", "left foot", "right foot", "head"] {
        assert!(s.site_by_name(site).is_some(), "no site {site}");
    }
    for group in [
        "Torso",
        "Head",
        "Left arm",
        "Right arm",
        "Left leg",
        "Right leg",
    ] {
        assert!(s.group_by_name(group).is_some(), "no group {group}");
    }
    // Left is +X (the glTF convention; the names' L and R agree).
    let left_hip = h
        .joint(marionette_interchange::character::humanoid::HumanBone::LeftUpperLeg)
        .expect("left leg");
    assert_eq!(figure.rig.joints[left_hip].name, "leg_joint_L_1");
    for file in ["Fox.glb", "RiggedSimple.gltf"] {
        let (c, s) = import(&data(file));
        assert!(c.humanoid.is_err(), "{file} is no humanoid");
        assert!(
            s.sites().iter().all(|site| site.name.ends_with(" end")),
            "{file}: a site at each leaf"
        );
        assert!(
            c.report().iter().any(|l| l.contains("not a humanoid")),
            "{file}: the report says so"
        );
    }
}

/// RiggedFigure's end sites (the hands', feet's and head's ends) lie on its skin: within the
/// mesh's own bounds, read from its POSITION accessor (the mesh is Z up under the `Z_UP` node,
/// its soles at z = 0), the head's end at the mesh's top and the feet's on its floor. A foot's
/// end placed along a steep ankle–toe bone instead lands 5.7 cm below the soles.
#[test]
fn the_figure_s_end_sites_lie_on_its_skin() {
    let path = data("RiggedFigure.gltf");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read"))
        .expect("RiggedFigure is JSON");
    let position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .expect("a POSITION accessor");
    let accessor = &json["accessors"][position as usize];
    let (low, high) = (
        numbers(&accessor["min"]).expect("min"),
        numbers(&accessor["max"]).expect("max"),
    );
    let (_, s) = import(&path);
    let mut fk = Fk::new(&s);
    fk.update(&s, &Pose::rest(&s).q);
    let at = |name: &str| fk.site_position(s.site_by_name(name).expect(name));
    let within = 1e-4;
    for site in s.site_ids() {
        let p = fk.site_position(site);
        let name = &s.site(site).name;
        // The figure's +Y is the mesh's +Z; its X is the mesh's X.
        assert!(
            (low[2] - within..=high[2] + within).contains(&p.y)
                && (low[0] - within..=high[0] + within).contains(&p.x),
            "{name} at {p:?}, outside the mesh's {low:?}..{high:?}"
        );
    }
    assert!((at("head").y - high[2]).abs() < within, "{:?}", at("head"));
    for foot in ["left foot", "right foot"] {
        assert!((at(foot).y - low[2]).abs() < 0.01, "{foot} {:?}", at(foot));
    }
}

#[test]
fn every_humanoid_s_arms_and_legs_are_limbs_the_analytic_solver_solves() {
    let mut humanoids = 0;
    for path in characters() {
        let (c, s) = import(&path);
        if c.humanoid.is_err() {
            continue;
        }
        humanoids += 1;
        limbs_are_solved(&path, &s);
    }
    assert_eq!(
        humanoids, 8,
        "RiggedFigure, the four authored figures, two of them as binary FBX and one as ASCII"
    );
}

/// 400 random reachable hand and foot targets, each reached exactly by the analytic solver.
fn limbs_are_solved(path: &Path, s: &Skeleton) {
    use proptest::strategy::{Strategy, ValueTree};
    let s = s.clone();
    let limbs = Limb::find_all(&s);
    assert_eq!(limbs.len(), 4, "{}: two arms and two legs", path.display());
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let rest = Pose::rest(&s).q;
    let mut fk = Fk::new(&s);
    let (mut solved, mut tried) = (0, 0);
    for (site_name, limb) in [
        ("left hand", 0),
        ("right hand", 1),
        ("left foot", 2),
        ("right foot", 3),
    ] {
        let site = s.site_by_name(site_name).expect("site");
        let limb = limbs
            .iter()
            .find(|l| l.joints.contains(&s.site(site).joint))
            .unwrap_or(&limbs[limb]);
        let chain = Chain::between(&s, limb.joints[0], limb.joints[2]).expect("chain");
        for round in 0..100 {
            // A reachable target: where a random pose of the limb within its limits puts the
            // site (a position goal keeps the wrist's angles, so half the rounds turn only the
            // shoulder and elbow; the other half turn all seven and ask for the wrist's
            // orientation too).
            let with_orientation = round % 2 == 1;
            let mut target_q = rest.clone();
            let turned = if with_orientation { 7 } else { 4 };
            for &c in &chain.columns()[..turned] {
                let d = s.dof(s.dof_at_state(c).expect("a DOF"));
                let u = (0.0..1.0f64).new_tree(&mut runner).expect("u").current();
                target_q[c] = d.min + (d.max - d.min) * u;
            }
            fk.update(&s, &target_q);
            let target = fk.site_position(site);
            let wrist = s.site(site).joint;
            let rotation = *fk.joint_rotation(wrist);
            let mut goals = vec![Goal::new(GoalKind::Position { site, target })];
            if with_orientation {
                goals.push(Goal::new(GoalKind::Orientation {
                    joint: wrist,
                    target: rotation,
                    axes: [true; 3],
                }));
            }
            let mut system = System::new(&s, goals, chain.clone());
            let mut q = rest.clone();
            let mut solver = SolverKind::AnalyticLimb.build();
            solver.supports(&system).expect("the limb solver serves it");
            solve(
                solver.as_mut(),
                &mut system,
                &mut q,
                Settings {
                    tolerance: 1e-9,
                    max_iterations: 1,
                },
            );
            fk.update(&s, &q);
            tried += 1;
            let miss = (fk.site_position(site) - target).norm();
            let turn = marionette_ik::goal::rotation_vector(
                &(rotation * fk.joint_rotation(wrist).transpose()),
            )
            .norm();
            if miss < 1e-6 && (!with_orientation || turn < 1e-6) {
                solved += 1;
            } else {
                eprintln!("{site_name}: {miss} m, {turn} rad off");
            }
            assert!(
                Pose { q }.within_limits(&s),
                "{site_name}: limits respected"
            );
        }
    }
    assert_eq!(
        solved,
        tried,
        "{}: every reachable target is reached",
        path.display()
    );
}

/// The JSON and binary chunks of a GLB.
fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[..4], b"glTF");
    let u32_at =
        |i: usize| u32::from_le_bytes([glb[i], glb[i + 1], glb[i + 2], glb[i + 3]]) as usize;
    assert_eq!(u32_at(8), glb.len());
    let json_len = u32_at(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).expect("JSON chunk");
    let bin_at = 20 + json_len;
    let bin_len = u32_at(bin_at);
    (json, glb[bin_at + 8..bin_at + 8 + bin_len].to_vec())
}

fn floats(json: &Value, bin: &[u8], accessor: u64) -> Vec<f64> {
    let a = &json["accessors"][accessor as usize];
    let view = &json["bufferViews"][a["bufferView"].as_u64().expect("view") as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize
        + a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = a["count"].as_u64().expect("count") as usize;
    let width = match a["type"].as_str().expect("type") {
        "SCALAR" => 1,
        "VEC3" => 3,
        _ => 4,
    };
    bin[start..start + 4 * width * count]
        .chunks(4)
        .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect()
}

fn numbers(v: &Value) -> Option<Vec<f64>> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_f64().expect("number")).collect())
}

/// Every node's world position at key `frame` of the first animation (or at rest), as a glTF
/// reader composes them.
fn node_positions(json: &Value, bin: &[u8], frame: Option<usize>) -> Vec<Vector3<f64>> {
    let nodes = json["nodes"].as_array().expect("nodes");
    let mut local: Vec<Matrix4<f64>> = nodes
        .iter()
        .map(|n| {
            if let Some(m) = numbers(&n["matrix"]) {
                return Matrix4::from_column_slice(&m);
            }
            let t = numbers(&n["translation"]).unwrap_or_else(|| vec![0.0; 3]);
            let r = numbers(&n["rotation"]).unwrap_or_else(|| vec![0.0, 0.0, 0.0, 1.0]);
            let s = numbers(&n["scale"]).unwrap_or_else(|| vec![1.0; 3]);
            Matrix4::new_translation(&Vector3::new(t[0], t[1], t[2]))
                * UnitQuaternion::new_normalize(Quaternion::new(r[3], r[0], r[1], r[2]))
                    .to_homogeneous()
                * Matrix4::new_nonuniform_scaling(&Vector3::new(s[0], s[1], s[2]))
        })
        .collect();
    if let Some(f) = frame {
        let animation = &json["animations"][0];
        let mut trs: Vec<(Vector3<f64>, UnitQuaternion<f64>, Vector3<f64>)> = nodes
            .iter()
            .map(|n| {
                let t = numbers(&n["translation"]).unwrap_or_else(|| vec![0.0; 3]);
                let r = numbers(&n["rotation"]).unwrap_or_else(|| vec![0.0, 0.0, 0.0, 1.0]);
                let s = numbers(&n["scale"]).unwrap_or_else(|| vec![1.0; 3]);
                (
                    Vector3::new(t[0], t[1], t[2]),
                    UnitQuaternion::new_normalize(Quaternion::new(r[3], r[0], r[1], r[2])),
                    Vector3::new(s[0], s[1], s[2]),
                )
            })
            .collect();
        let mut animated = vec![false; nodes.len()];
        for channel in animation["channels"].as_array().expect("channels") {
            let node = channel["target"]["node"].as_u64().expect("node") as usize;
            let sampler = &animation["samplers"][channel["sampler"].as_u64().expect("s") as usize];
            let out = floats(json, bin, sampler["output"].as_u64().expect("output"));
            animated[node] = true;
            match channel["target"]["path"].as_str().expect("path") {
                "rotation" => {
                    let c = &out[f * 4..f * 4 + 4];
                    trs[node].1 =
                        UnitQuaternion::new_normalize(Quaternion::new(c[3], c[0], c[1], c[2]));
                }
                "translation" => {
                    let c = &out[f * 3..f * 3 + 3];
                    trs[node].0 = Vector3::new(c[0], c[1], c[2]);
                }
                other => panic!("unexpected path {other}"),
            }
        }
        for (n, (t, r, s)) in trs.into_iter().enumerate() {
            if animated[n] {
                local[n] = Matrix4::new_translation(&t)
                    * r.to_homogeneous()
                    * Matrix4::new_nonuniform_scaling(&s);
            }
        }
    }
    let mut parent = vec![None; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for c in node["children"].as_array().into_iter().flatten() {
            parent[c.as_u64().expect("child") as usize] = Some(i);
        }
    }
    (0..nodes.len())
        .map(|n| {
            let mut m = local[n];
            let mut at = parent[n];
            while let Some(p) = at {
                m = local[p] * m;
                at = parent[p];
            }
            Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)])
        })
        .collect()
}

fn validator_errors(glb: &[u8], name: &str) -> String {
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    assert!(
        tool.join("node_modules/gltf-validator").exists(),
        "the validator is not installed: npm ci --prefix tools/gltf-validator (scripts/test.sh does)"
    );
    let dir = std::env::temp_dir().join(format!("marionette-characters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(name);
    std::fs::write(&file, glb).expect("write");
    let o = Command::new("node")
        .arg(tool.join("validate.mjs"))
        .arg(&file)
        .output()
        .expect("node");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// How far from the origin the figure's farthest joint is at rest.
fn farthest_joint(s: &Skeleton) -> f64 {
    let mut fk = Fk::new(s);
    fk.update(s, &Pose::rest(s).q);
    s.joint_ids()
        .map(|j| fk.joint_position(j).norm())
        .fold(0.0, f64::max)
}

/// The figure's height at rest.
fn s_height(s: &Skeleton) -> f64 {
    let mut fk = Fk::new(s);
    fk.update(s, &Pose::rest(s).q);
    let ys: Vec<f64> = s.joint_ids().map(|j| fk.joint_position(j).y).collect();
    ys.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - ys.iter().copied().fold(f64::INFINITY, f64::min)
}

/// A few poses of the figure: every DOF turned by a varying share of its range.
fn poses(s: &Skeleton, count: usize) -> Vec<Vec<f64>> {
    (0..count)
        .map(|k| {
            let mut q = Pose::rest(s).q;
            q[1] += 0.01 * k as f64;
            for (i, d) in s.dofs().iter().enumerate() {
                let u = ((i * 7 + k * 3) % 11) as f64 / 10.0;
                let at = marionette_skeleton::ROOT_STATE_LEN + i;
                q[at] = d.clamp((d.min + (d.max - d.min) * u) * 0.5);
            }
            q
        })
        .collect()
}

#[test]
fn characters_export_posed_validate_read_back_and_import_again() {
    let mut with_animations = 0;
    for path in characters() {
        let (character, s) = import(&path);
        let nodes = nodes_of(&s);
        let mut fk = Fk::new(&s);
        let original_animations = character.file.json["animations"]
            .as_array()
            .map_or(0, Vec::len);
        with_animations += usize::from(original_animations > 0);
        for frames in [poses(&s, 1), poses(&s, 12)] {
            let glb = character_glb(&character, &s, &frames, 24.0, "take").expect("exports");
            let report = validator_errors(&glb, "character.glb");
            assert!(
                report.contains("\"errors\":0"),
                "{}: {report}",
                path.display()
            );
            let (json, bin) = chunks(&glb);
            // One animation, ours: a player showing the file's first animation shows the pose
            // or the sequence (the file's own animations are dropped); for a pose, so does one
            // showing the nodes as they stand.
            assert_eq!(
                json["animations"].as_array().map(Vec::len),
                Some(1),
                "{}",
                path.display()
            );
            let mut worst = 0.0f64;
            for (k, q) in frames.iter().enumerate() {
                fk.update(&s, q);
                let keys = if frames.len() == 1 {
                    vec![Some(0), None]
                } else {
                    vec![Some(k)]
                };
                for key in keys {
                    let read = node_positions(&json, &bin, key);
                    for (j, &node) in s.joint_ids().zip(&nodes) {
                        worst = worst.max((fk.joint_position(j) - read[node]).norm());
                    }
                }
            }
            // Keys are 32-bit floats: 1e-6 m on a figure of human size (the fox is 90 units
            // tall: 1e-6 of its size; assimp's animation_with_skeleton lies 36 units from the
            // origin: 1e-6 of that).
            let size = s_height(&s).max(1.0).max(farthest_joint(&s));
            assert!(
                worst < 1e-6 * size,
                "{}: a joint is {worst} m off",
                path.display()
            );
            // The meshes, skins and node names are the file's.
            let original = open_as_gltf(&path).expect("original");
            assert_eq!(json["meshes"], original.json["meshes"]);
            assert_eq!(json["skins"], original.json["skins"]);
            let names = |v: &Value| -> Vec<Option<String>> {
                v["nodes"]
                    .as_array()
                    .expect("nodes")
                    .iter()
                    .map(|n| n["name"].as_str().map(str::to_owned))
                    .collect()
            };
            assert_eq!(names(&json), names(&original.json));
            if frames.len() > 1 {
                // The sequence leaves the rest pose alone: imported again, the same skeleton.
                let again = GltfFile::from_bytes(&glb, Path::new("again.glb")).expect("reads");
                let (_, s2) = {
                    let c = Character::from_file(again).expect("a character");
                    let s2 = c.import("figure", "figure.glb").expect("imports").skeleton;
                    (c, s2)
                };
                assert_eq!(s2.joints().len(), s.joints().len());
                let mut fk2 = Fk::new(&s2);
                fk.update(&s, &Pose::rest(&s).q);
                fk2.update(&s2, &Pose::rest(&s2).q);
                for j in s.joint_ids() {
                    let j2 = s2.joint_by_name(&s.joint(j).name).expect("same joint");
                    assert!(
                        (fk.joint_position(j) - fk2.joint_position(j2)).norm() < 1e-6 * size,
                        "{}: {}",
                        path.display(),
                        s.joint(j).name
                    );
                }
            }
        }
    }
    assert!(
        with_animations >= 3,
        "the exports were checked on {with_animations} characters with animations of their own"
    );
}

/// A VRM character is mapped by the file's own humanoid map, whatever its joints are called:
/// with every node renamed to a number the map still finds every bone on the same nodes, and a
/// map that swaps the hands (which names and shape would not) is followed.
#[test]
fn a_vrm_file_s_humanoid_map_is_what_maps_its_bones() {
    use marionette_interchange::character::humanoid::{HumanBone, Method};
    let path = data("authored/vroid_tpose.vrm");
    let original = Character::open(&path).expect("the VRoid character");
    let found = |c: &Character, bone: HumanBone| {
        let h = c.humanoid.as_ref().expect("a humanoid");
        let joint = h.joint(bone).expect("the bone");
        c.rig.joints[joint].node
    };
    let h = original.humanoid.as_ref().expect("a humanoid");
    assert_eq!(h.method, Method::Vrm);
    // Every node named by its number only.
    let mut file = GltfFile::open(&path).expect("reads");
    for (i, node) in file.nodes.iter_mut().enumerate() {
        node.name = Some(format!("n{i}"));
        file.json["nodes"][i]["name"] = serde_json::json!(format!("n{i}"));
    }
    let renamed = Character::from_file(file.clone()).expect("a character");
    let rh = renamed.humanoid.as_ref().expect("still a humanoid");
    assert_eq!(rh.method, Method::Vrm);
    assert_eq!(rh.bones.len(), h.bones.len());
    for &(bone, _) in &h.bones {
        assert_eq!(found(&renamed, bone), found(&original, bone), "{bone:?}");
    }
    // The hands swapped in the map: the map is followed.
    let bones = &mut file.json["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"];
    let left = bones["leftHand"].clone();
    bones["leftHand"] = bones["rightHand"].clone();
    bones["rightHand"] = left;
    let swapped = Character::from_file(file).expect("a character");
    assert_eq!(
        found(&swapped, HumanBone::LeftHand),
        found(&original, HumanBone::RightHand)
    );
    assert_eq!(
        found(&swapped, HumanBone::RightHand),
        found(&original, HumanBone::LeftHand)
    );
}

/// RiggedFigure's JSON changed by `change`, read as a character.
fn broken(change: impl FnOnce(&mut Value)) -> String {
    let text = std::fs::read_to_string(data("RiggedFigure.gltf")).expect("read");
    let mut json: Value = serde_json::from_str(&text).expect("JSON");
    change(&mut json);
    let bytes = serde_json::to_vec(&json).expect("JSON");
    let read = GltfFile::from_bytes(&bytes, Path::new("broken.gltf"))
        .map_err(|e| e.to_string())
        .and_then(|file| Character::from_file(file).map_err(|e| e.to_string()));
    match read {
        Ok(_) => panic!("a broken file was read as a character"),
        Err(e) => e,
    }
}

#[test]
fn broken_characters_are_refused_naming_the_node() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "no skin",
            broken(|j| {
                j.as_object_mut().expect("object").remove("skins");
                j["nodes"][1].as_object_mut().expect("node").remove("skin");
            }),
            "no skin",
        ),
        (
            "two skins, one character each",
            broken(|j| {
                j["skins"] = serde_json::json!([{"joints": [2, 3, 4]}, {"joints": [11, 12]}]);
            }),
            "two skins",
        ),
        (
            "joints that are not a tree",
            broken(|j| {
                j["skins"][0]["joints"] = serde_json::json!([3, 4, 7, 8]);
            }),
            "not one tree",
        ),
        (
            "a joint scaled differently along its axes",
            broken(|j| {
                j["nodes"][12]["scale"] = serde_json::json!([1.0, 2.0, 1.0]);
            }),
            "node 12 (\"torso_joint_3\"): its scale is not uniform",
        ),
        (
            "a node above the joints scaled differently along its axes",
            broken(|j| {
                j["nodes"][0]["matrix"] =
                    serde_json::json!([1, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
            }),
            "node 0 (\"Z_UP\"): its scale is not uniform",
        ),
        (
            "a missing buffer",
            broken(|j| {
                j["buffers"][0]["uri"] = serde_json::json!("nowhere.bin");
            }),
            "buffer 0",
        ),
        (
            "a buffer shorter than it says",
            broken(|j| {
                j["buffers"][0]["byteLength"] = serde_json::json!(10_000_000);
            }),
            "buffer 0",
        ),
        (
            "a node that is its own ancestor",
            broken(|j| {
                j["nodes"][20]["children"] = serde_json::json!([2]);
            }),
            "node 2 (\"torso_joint_1\")",
        ),
        (
            "a skin joint that is no node",
            broken(|j| {
                j["skins"][0]["joints"][3] = serde_json::json!(999);
            }),
            "joint 999",
        ),
        (
            "more than 256 joints",
            broken(|j| {
                let nodes = j["nodes"].as_array_mut().expect("nodes");
                let first = nodes.len();
                for k in 0..300 {
                    let mut node = serde_json::json!({"name": format!("extra {k}"), "translation": [0.0, 0.01, 0.0]});
                    if k < 299 {
                        node["children"] = serde_json::json!([first + k + 1]);
                    }
                    nodes.push(node);
                }
                j["nodes"][20]["children"] = serde_json::json!([first]);
                let joints = j["skins"][0]["joints"].as_array_mut().expect("joints");
                joints.extend((first..first + 300).map(|n| serde_json::json!(n)));
            }),
            "319 joints; at most 256",
        ),
    ];
    for (what, error, expected) in cases {
        assert!(
            error.starts_with("broken.gltf: ") && error.contains(expected),
            "{what}: {error}"
        );
    }
}

/// Two characters Blender wrote both as glTF and as FBX (`scripts/make-test-characters.py`: the
/// Mixamo figure in centimetres with Y up, the Rigify figure with Z up), and the Mixamo figure's
/// FBX written as ASCII (`scripts/fbx-to-ascii.py`), import as the same skeleton: the same joints with the same names and parents, every joint at rest within 1e-5 m
/// of where the glTF puts it, and the same humanoid map.
#[test]
fn a_character_from_fbx_is_the_one_from_gltf() {
    for (gltf, fbx) in [
        ("mixamo_apose.glb", "mixamo_apose.fbx"),
        ("rigify_tpose.glb", "rigify_tpose_zup.fbx"),
        ("mixamo_apose.glb", "mixamo_apose_ascii.fbx"),
    ] {
        let (gc, g) = import(&data("authored").join(gltf));
        let (fc, f) = import(&data("authored").join(fbx));
        let name = |s: &Skeleton, j| s.joint(j).name.clone();
        let joints = |s: &Skeleton| -> Vec<(String, Option<String>)> {
            s.joint_ids()
                .map(|j| (name(s, j), s.joint(j).parent.map(|p| name(s, p))))
                .collect()
        };
        assert_eq!(joints(&g), joints(&f), "{fbx}: joints and parents");
        let (mut gk, mut fk) = (Fk::new(&g), Fk::new(&f));
        gk.update(&g, &Pose::rest(&g).q);
        fk.update(&f, &Pose::rest(&f).q);
        let worst = g
            .joint_ids()
            .zip(f.joint_ids())
            .map(|(a, b)| (gk.joint_position(a) - fk.joint_position(b)).norm())
            .fold(0.0, f64::max);
        assert!(worst < 1e-5, "{fbx}: a joint is {worst} m from the glTF's");
        let bones = |c: &Character| -> Vec<String> {
            let h = c.humanoid.as_ref().expect("a humanoid");
            h.bones
                .iter()
                .map(|(b, j)| format!("{} {}", b.vrm_name(), c.rig.joints[*j].name))
                .collect()
        };
        assert_eq!(bones(&gc), bones(&fc), "{fbx}: the humanoid map");
    }
}

/// Broken FBX files are refused with a message naming the file, and nothing panics: cut
/// short anywhere, a byte changed, not an FBX at all, no skin.
#[test]
fn broken_fbx_files_are_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp");
    let whole = std::fs::read(data("authored").join("mixamo_apose.fbx")).expect("fbx");
    let refused = |bytes: &[u8], what: &str| {
        let path = dir.path().join("broken.fbx");
        std::fs::write(&path, bytes).expect("write");
        match Character::open(&path) {
            Ok(_) => None,
            Err(e) => {
                let message = e.to_string();
                assert!(message.contains("broken.fbx"), "{what}: {message}");
                Some(message)
            }
        }
    };
    for cut in [20, 27, 100, 1000, whole.len() / 2, whole.len() - 200] {
        let message = refused(&whole[..cut], "cut short");
        assert!(message.is_some(), "cut at byte {cut} of {}", whole.len());
    }
    // A changed byte may still read (a number in a vertex), but never panics.
    for at in (30..whole.len()).step_by(997) {
        let mut bytes = whole.clone();
        bytes[at] ^= 0x5a;
        let _ = refused(&bytes, "a byte changed");
    }
    let message = refused(b"Kaydara FBX Binary  \0\x1a\0", "no content").expect("refused");
    assert!(!message.is_empty());
    // A scene with meshes and no skin (assimp's phong cube) is no character.
    let cube = Path::new("/usr/share/assimp/models/FBX/phong_cube.fbx");
    let message = match Character::open(cube) {
        Ok(_) => panic!("a cube with no skin is taken as a character"),
        Err(e) => e.to_string(),
    };
    assert!(
        message.contains("phong_cube.fbx") && message.contains("no skin"),
        "{message}"
    );
}

/// An FBX material's embedded texture (assimp's ASCII box with a PNG inside) becomes the glTF
/// material's base colour texture, its image carried in the glb; a material without one keeps
/// its colour.
#[test]
fn an_fbx_texture_is_carried_into_the_glb() {
    let boxed = Path::new(
        "/usr/share/assimp/models/FBX/embedded_ascii/box_embedded_texture_fragmented.fbx",
    );
    let glb = marionette_interchange::fbx::fbx_to_glb(boxed).expect("converts");
    let file = GltfFile::from_bytes(&glb, boxed).expect("our reader reads it");
    let images = file.json["images"].as_array().expect("an image");
    assert_eq!(images.len(), 1);
    assert_eq!(images[0]["mimeType"], "image/png");
    let view = images[0]["bufferView"].as_u64().expect("a buffer view") as usize;
    let start = file.json["bufferViews"][view]["byteOffset"]
        .as_u64()
        .unwrap_or(0) as usize;
    assert!(
        file.buffers[0][start..].starts_with(b"\x89PNG"),
        "the PNG's bytes"
    );
    let material = &file.json["materials"][0]["pbrMetallicRoughness"];
    assert_eq!(material["baseColorTexture"]["index"], 0);
    let report = validator_errors(&glb, "textured-box.glb");
    assert!(report.contains("\"errors\":0"), "{report}");
    let plain = marionette_interchange::fbx::fbx_to_glb(&data("authored/mixamo_apose.fbx"))
        .expect("converts");
    let plain = GltfFile::from_bytes(&plain, Path::new("mixamo.glb")).expect("reads");
    assert!(plain.json["images"].is_null());
    assert_eq!(
        plain.json["materials"][0]["pbrMetallicRoughness"]["baseColorFactor"][2]
            .as_f64()
            .map(|b| (b - 0.8).abs() < 1e-6),
        Some(true),
        "the figure's blue"
    );
}
