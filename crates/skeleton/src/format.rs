//! The serde types of the RON skeleton file, exactly as `docs/skeleton-format.md` (version 1) writes them.
//!
//! These types are the file's syntax only: they accept anything RON can express with the right
//! shape, unknown field names excepted. Every semantic rule (names, limits, finiteness, mirrors) is
//! checked when they are turned into a [`crate::Skeleton`], where each error can name the joint,
//! group or site at fault.

use serde::{Deserialize, Serialize};

use crate::ordered_map::OrderedMap;

/// The most joints and groups a hierarchy may nest, the root counting 1: a file nested deeper
/// would pass RON's nesting limit ([`crate::ron_io::MAX_NESTING`]) when read back.
pub const MAX_DEPTH: usize = 200;

/// The most joints a skeleton may have.
pub const MAX_JOINTS: usize = 1024;

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

fn default_version() -> i64 {
    i64::from(FORMAT_VERSION)
}

/// A whole skeleton file: `Skeleton(version: 1, name: "...", hierarchy: ..., joints: {...}, sites: {...})`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Skeleton", deny_unknown_fields)]
pub struct SkeletonFile {
    /// Format version; an unknown version is an error, not a guess.
    #[serde(default = "default_version")]
    pub version: i64,
    /// The figure's name.
    pub name: String,
    /// The joint tree; its top node must be a joint (the root).
    pub hierarchy: Node,
    /// One definition per joint, in file order (duplicates are kept so they can be reported).
    pub joints: OrderedMap<JointDef>,
    /// Named points on bodies, in file order.
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub sites: OrderedMap<SiteDef>,
    /// The rigged character whose skin this skeleton poses, if it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skin: Option<SkinDef>,
}

/// A rigged character file (glTF 2.0: `.glb`, `.gltf` or `.vrm`) whose meshes the skeleton's
/// joints deform: `Skin(file: "hero.glb", nodes: {"hips": 3, ...})`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Skin", deny_unknown_fields)]
pub struct SkinDef {
    /// The character file, relative to the skeleton file's folder (or absolute).
    pub file: String,
    /// The file's node each joint drives, by joint name (the skin's joints keep their node
    /// names, but names in glTF files need not be unique).
    #[serde(default, skip_serializing_if = "OrderedMap::is_empty")]
    pub nodes: OrderedMap<u32>,
}

/// A node of the hierarchy: a joint with its children, or a named group of nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Node {
    /// `Joint("name", [children])`.
    Joint(String, Vec<Node>),
    /// `Group("name", [children])`: names a set of joints; children hang from the enclosing joint.
    Group(String, Vec<Node>),
}

/// The definition of one joint (`JointDef` in the format page). Angles are in degrees.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointDef {
    /// Joint origin in the parent joint's frame, metres.
    #[serde(default)]
    pub offset: [f64; 3],
    /// Fixed rotation Rx(rx)·Ry(ry)·Rz(rz) of the joint frame, degrees.
    #[serde(default)]
    pub orientation: [f64; 3],
    /// Degrees of freedom, applied in list order.
    #[serde(default)]
    pub dofs: Vec<DofDef>,
    /// The rigid body drawn for this joint's segment and hit by ray casts.
    #[serde(default)]
    pub object: Option<BodyDef>,
    /// Mass in kilograms, at the body's centre (or at `mass_center`).
    #[serde(default = "default_mass")]
    pub mass: f64,
    /// Where the mass is, in the joint's frame (metres), when not at the body's centre (an
    /// imported figure weighed by de Leva's segments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass_center: Option<[f64; 3]>,
    /// Welman's per-joint weight w_i in (0, 1].
    #[serde(default = "default_stiffness")]
    pub stiffness: f64,
    /// Initial DOF values (degrees, metres for slides); empty means all zero.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rest: Vec<f64>,
    /// Bend hints: the DOF values the joint prefers (degrees, metres for slides), like Maya's
    /// preferred angle. The IK pulls towards them where the goals leave freedom, so a straight
    /// limb bends the way it should. Empty means the default of each DOF
    /// ([`crate::Dof::preferred`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preferred: Vec<f64>,
    /// Also defines the named joint as this definition reflected through x = 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirror: Option<String>,
}

fn default_mass() -> f64 {
    1.0
}

fn default_stiffness() -> f64 {
    1.0
}

impl Default for JointDef {
    fn default() -> Self {
        Self {
            offset: [0.0; 3],
            orientation: [0.0; 3],
            dofs: Vec::new(),
            object: None,
            mass: default_mass(),
            mass_center: None,
            stiffness: default_stiffness(),
            rest: Vec::new(),
            preferred: Vec::new(),
            mirror: None,
        }
    }
}

/// One degree of freedom: `Hinge(axis, min_deg, max_deg)` or `Slide(axis, min_m, max_m)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum DofDef {
    /// Rotation about an axis of the joint frame, limits in degrees.
    Hinge(AxisDef, f64, f64),
    /// Translation along an axis of the joint frame, limits in metres.
    Slide(AxisDef, f64, f64),
}

/// A DOF axis as written in the file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum AxisDef {
    /// The joint frame's x axis.
    X,
    /// The joint frame's y axis.
    Y,
    /// The joint frame's z axis.
    Z,
    /// Any non-zero vector, normalised on load.
    Axis(f64, f64, f64),
}

impl AxisDef {
    /// The axis as a (not necessarily unit) vector.
    pub fn vector(self) -> [f64; 3] {
        match self {
            AxisDef::X => [1.0, 0.0, 0.0],
            AxisDef::Y => [0.0, 1.0, 0.0],
            AxisDef::Z => [0.0, 0.0, 1.0],
            AxisDef::Axis(x, y, z) => [x, y, z],
        }
    }
}

/// The rigid body of a joint's segment. Optional `at` (and, for a capsule, `axis`) place it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum BodyDef {
    /// A capsule whose axis segment runs `length` metres from `at` along `axis`
    /// (or towards the first child when `axis` is absent).
    Capsule {
        /// Radius in metres.
        radius: f64,
        /// Length of the axis segment in metres.
        length: f64,
        /// Start of the axis segment in the joint frame.
        #[serde(default, skip_serializing_if = "is_origin")]
        at: [f64; 3],
        /// Direction of the axis segment; `None` means towards the first child.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "plain_option"
        )]
        axis: Option<[f64; 3]>,
    },
    /// An axis-aligned box centred at `at`.
    Box {
        /// Full extents along x, y, z in metres.
        size: [f64; 3],
        /// Centre in the joint frame.
        #[serde(default, skip_serializing_if = "is_origin")]
        at: [f64; 3],
    },
    /// A sphere centred at `at`.
    Sphere {
        /// Radius in metres.
        radius: f64,
        /// Centre in the joint frame.
        #[serde(default, skip_serializing_if = "is_origin")]
        at: [f64; 3],
    },
    /// A glTF mesh, path relative to `assets/`, its origin at `at`.
    Mesh {
        /// Path of the `.glb`/`.gltf` file relative to `assets/`.
        path: String,
        /// Where the mesh's origin sits in the joint frame.
        #[serde(default, skip_serializing_if = "is_origin")]
        at: [f64; 3],
    },
}

fn is_origin(v: &[f64; 3]) -> bool {
    *v == [0.0; 3]
}

/// A site: a named point fixed in a joint's frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteDef {
    /// The joint whose frame carries the site.
    pub joint: String,
    /// Position in that joint's frame, metres.
    #[serde(default)]
    pub offset: [f64; 3],
}

/// (De)serialises an `Option<[f64; 3]>` field written as a bare tuple (`axis: (0, 1, 0)`),
/// absence meaning `None`.
mod plain_option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<[f64; 3]>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => v.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[f64; 3]>, D::Error> {
        <[f64; 3]>::deserialize(d).map(Some)
    }
}

/// The folder the paths of mesh bodies are relative to (docs/skeleton-format.md): `assets/`
/// beside the skeleton file's folder (`project/skeletons/x.ron` → `project/assets`), else
/// `./assets`; whichever exists first, or `None`.
pub fn assets_folder(skeleton_file: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
    let beside = skeleton_file
        .and_then(std::path::Path::parent)
        .map(|folder| folder.join("..").join("assets"));
    beside
        .into_iter()
        .chain([std::path::PathBuf::from("assets")])
        .find(|dir| dir.is_dir())
}
