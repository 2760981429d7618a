//! Test helpers for this crate and the crates built on it (feature `testing`): random skeletons
//! and poses as proptest strategies, and an independent forward kinematics written straight from
//! the format page.

use crate::format::{AxisDef, BodyDef, DofDef, JointDef, Node, SiteDef, SkeletonFile};
use crate::ordered_map::OrderedMap;
use crate::{Pose, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Matrix4, Rotation3, Translation3, Unit, Vector3};
use proptest::prelude::*;

/// The repository's `skeletons/` folder.
pub fn skeletons_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons")
}

/// A skeleton from the repository's `skeletons/` folder, by file name.
///
/// # Panics
/// When the file does not load (a test fixture is broken).
pub fn load(name: &str) -> Skeleton {
    Skeleton::load(skeletons_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// A small seeded generator (xorshift64) of numbers in [0, 1), for deterministic test loops.
#[derive(Debug, Clone)]
pub struct UnitRng(u64);

impl UnitRng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> UnitRng {
        UnitRng(seed.max(1))
    }

    /// The next number in [0, 1).
    pub fn next_unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Every `.ron` file in `skeletons/`, sorted.
pub fn skeleton_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(skeletons_dir())
        .expect("skeletons/ exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

fn vec3(range: f64) -> impl Strategy<Value = [f64; 3]> {
    [-range..range, -range..range, -range..range]
}

fn axis() -> impl Strategy<Value = AxisDef> {
    prop_oneof![
        Just(AxisDef::X),
        Just(AxisDef::Y),
        Just(AxisDef::Z),
        Just(AxisDef::Axis(-1.0, 0.0, 0.0)),
        Just(AxisDef::Axis(0.0, 0.0, -1.0)),
        vec3(1.0)
            .prop_filter("non-zero axis", |v| v.iter().map(|c| c * c).sum::<f64>()
                > 1e-3)
            .prop_map(|[x, y, z]| AxisDef::Axis(x, y, z)),
    ]
}

fn dof() -> impl Strategy<Value = DofDef> {
    prop_oneof![
        3 => (axis(), -180.0..0.0f64, 0.0..180.0f64).prop_map(|(a, lo, hi)| DofDef::Hinge(a, lo, hi)),
        1 => axis().prop_map(|a| DofDef::Hinge(a, -180.0, 180.0)),
        1 => (axis(), -0.5..0.0f64, 0.0..0.5f64).prop_map(|(a, lo, hi)| DofDef::Slide(a, lo, hi)),
    ]
}

fn body() -> impl Strategy<Value = Option<BodyDef>> {
    prop_oneof![
        Just(None),
        (0.01..0.2f64, 0.05..0.6f64, vec3(0.2)).prop_map(|(radius, length, at)| Some(
            BodyDef::Capsule {
                radius,
                length,
                at,
                axis: None
            }
        )),
        (
            0.01..0.2f64,
            0.05..0.6f64,
            vec3(1.0).prop_filter("non-zero axis", |v| v.iter().any(|c| c.abs() > 1e-3))
        )
            .prop_map(|(radius, length, axis)| Some(BodyDef::Capsule {
                radius,
                length,
                at: [0.0; 3],
                axis: Some(axis)
            })),
        ([0.01..0.5f64, 0.01..0.5, 0.01..0.5], vec3(0.3))
            .prop_map(|(size, at)| Some(BodyDef::Box { size, at })),
        (0.01..0.3f64, vec3(0.3)).prop_map(|(radius, at)| Some(BodyDef::Sphere { radius, at })),
    ]
}

fn joint_def() -> impl Strategy<Value = JointDef> {
    (
        vec3(1.0),
        vec3(180.0),
        prop::collection::vec(dof(), 0..4),
        body(),
        0.0..5.0f64,
        0.05..1.0f64,
    )
        .prop_map(
            |(offset, orientation, dofs, object, mass, stiffness)| JointDef {
                offset,
                orientation,
                dofs,
                object,
                mass,
                stiffness,
                ..JointDef::default()
            },
        )
}

/// Builds the hierarchy node of joint `i` from parent indices, wrapping some children in groups.
fn node(i: usize, parents: &[usize], grouped: &[bool]) -> Node {
    let children = (i + 1..parents.len())
        .filter(|&c| parents[c] == i)
        .map(|c| {
            let n = node(c, parents, grouped);
            if grouped[c] {
                Node::Group(format!("g{c}"), vec![n])
            } else {
                n
            }
        })
        .collect();
    Node::Joint(format!("j{i}"), children)
}

/// Random valid skeleton files: 1–8 joints, hinges (limited and unlimited, coordinate, negated and
/// general axes) and slides, bodies, groups, masses and sites.
pub fn skeleton_file() -> impl Strategy<Value = SkeletonFile> {
    (1usize..9)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(joint_def(), n),
                (0..n).map(|i| 0..i.max(1)).collect::<Vec<_>>(),
                prop::collection::vec(any::<bool>(), n),
                prop::collection::vec((0..n, vec3(0.5)), 1..4),
            )
        })
        .prop_map(|(defs, parents, grouped, sites)| SkeletonFile {
            version: 1,
            name: "random".into(),
            hierarchy: node(0, &parents, &grouped),
            joints: OrderedMap(
                defs.into_iter()
                    .enumerate()
                    .map(|(i, d)| (format!("j{i}"), d))
                    .collect(),
            ),
            sites: OrderedMap(
                sites
                    .into_iter()
                    .enumerate()
                    .map(|(i, (j, offset))| {
                        (
                            format!("s{i}"),
                            SiteDef {
                                joint: format!("j{j}"),
                                offset,
                            },
                        )
                    })
                    .collect(),
            ),
            skin: None,
        })
}

/// A random skeleton and a random pose within its limits (`u` in [0, 1) per state entry).
pub fn skeleton_and_pose() -> impl Strategy<Value = (Skeleton, Pose)> {
    (
        skeleton_file(),
        prop::collection::vec(0.0..1.0f64, 40),
        vec3(2.0),
    )
        .prop_map(|(file, u, root)| {
            let s = Skeleton::from_file(file, "random").expect("generated skeletons are valid");
            let pose = pose_from_unit(&s, &u, root);
            (s, pose)
        })
}

/// A pose with DOF k at fraction `u[k]` between its limits (a full turn either way for unlimited ones).
pub fn pose_from_unit(s: &Skeleton, u: &[f64], root: [f64; 3]) -> Pose {
    let mut pose = Pose::rest(s);
    pose.q[..3].copy_from_slice(&root);
    for (k, d) in s.dofs().iter().enumerate() {
        let f = u[k % u.len()];
        let (lo, hi) = if d.unlimited {
            (-std::f64::consts::PI, std::f64::consts::PI)
        } else {
            (d.min, d.max)
        };
        pose.q[ROOT_STATE_LEN + k] = lo + (hi - lo) * f;
    }
    pose
}

/// World 4×4 transforms of every joint frame, computed directly from the file definitions with
/// homogeneous matrices, independently of the crate's `Fk`: parent · T(offset) · Rx·Ry·Rz · D1 · D2 ….
pub fn independent_joint_frames(s: &Skeleton, q: &[f64]) -> Vec<Matrix4<f64>> {
    let mut frames: Vec<Matrix4<f64>> = Vec::new();
    let mut k = 0;
    for joint in s.joints() {
        let parent = match joint.parent {
            Some(p) => frames[p.index()],
            None => Translation3::new(q[0], q[1], q[2]).to_homogeneous(),
        };
        let def = &joint.def;
        let [rx, ry, rz] = def.orientation.map(f64::to_radians);
        let mut m = parent
            * Translation3::from(Vector3::from(def.offset)).to_homogeneous()
            * Rotation3::from_axis_angle(&Vector3::x_axis(), rx).to_homogeneous()
            * Rotation3::from_axis_angle(&Vector3::y_axis(), ry).to_homogeneous()
            * Rotation3::from_axis_angle(&Vector3::z_axis(), rz).to_homogeneous();
        for d in &def.dofs {
            let value = q[ROOT_STATE_LEN + k];
            k += 1;
            m *= match *d {
                DofDef::Hinge(a, ..) => Rotation3::from_axis_angle(
                    &Unit::new_normalize(Vector3::from(a.vector())),
                    value,
                )
                .to_homogeneous(),
                DofDef::Slide(a, ..) => {
                    Translation3::from(Vector3::from(a.vector()).normalize() * value)
                        .to_homogeneous()
                }
            };
        }
        frames.push(m);
    }
    frames
}

/// The translation part of a homogeneous transform applied to a local point.
pub fn transform_point(m: &Matrix4<f64>, p: &Vector3<f64>) -> Vector3<f64> {
    (m * p.push(1.0)).xyz()
}

/// How far a humanoid (joints named as the built-in one's: `pelvis`, `left hip`, `right hip`)
/// moved between poses `from` and `to` of `s`: its pelvis across the ground (metres) and the
/// turn about the vertical of the line between its hips (radians).
///
/// # Panics
/// When `s` has no joint of those names.
pub fn stance_change(s: &Skeleton, from: &[f64], to: &[f64]) -> (f64, f64) {
    let mut fk = crate::Fk::new(s);
    let mut stance = |q: &[f64]| {
        fk.update(s, q);
        let at = |n: &str| fk.joint_position(s.joint_by_name(n).expect("a humanoid's hips"));
        let across = at("left hip") - at("right hip");
        let pelvis = at("pelvis");
        (
            nalgebra::Vector2::new(pelvis.x, pelvis.z),
            nalgebra::Vector2::new(across.x, across.z),
        )
    };
    let (stood, across) = stance(from);
    let (moved, across_then) = stance(to);
    ((moved - stood).norm(), across.angle(&across_then))
}
