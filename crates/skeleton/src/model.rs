//! The skeleton model: flat arrays in hierarchy order (parents before children), typed ids.
//!
//! Joints are stored in depth-first pre-order, so a joint's descendants are exactly the joints
//! `id+1 .. subtree_end`; "is `a` an ancestor of `b`" is two comparisons, which keeps the Jacobian
//! loops branch-light. DOFs are stored in the same order, and the state vector is
//! `q = [root translation (3)] ++ [every DOF value]` (`docs/skeleton-format.md`, Conventions).

use std::collections::HashMap;
use std::ops::Range;

use nalgebra::{Matrix3, Vector3};

use crate::format::{JointDef, Node};

/// Number of state entries before the first DOF: the global root translation.
pub const ROOT_STATE_LEN: usize = 3;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub(crate) usize);

        impl $name {
            /// The position in the skeleton's array.
            pub fn index(self) -> usize {
                self.0
            }
        }
    };
}

typed_id!(
    /// A joint, by its position in hierarchy order (the root is 0).
    JointId
);
typed_id!(
    /// A degree of freedom, by its position among all DOFs (state index = `ROOT_STATE_LEN + index`).
    DofId
);
typed_id!(
    /// A site, by its position in the skeleton's site list (file order).
    SiteId
);
typed_id!(
    /// A group, by its position in hierarchy order.
    GroupId
);

impl DofId {
    /// This DOF's index in the state vector q.
    pub fn state_index(self) -> usize {
        ROOT_STATE_LEN + self.0
    }
}

/// Whether a DOF rotates or translates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DofKind {
    /// Rotation about the axis (radians inside the program, degrees in files).
    Hinge,
    /// Translation along the axis (metres).
    Slide,
}

/// A DOF axis recognised as a (possibly negated) coordinate axis, for cheaper forward kinematics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AxisKind {
    X,
    Y,
    Z,
    NegX,
    NegY,
    NegZ,
    General,
}

/// One degree of freedom, in program units (radians for hinges, metres for slides).
#[derive(Debug, Clone, PartialEq)]
pub struct Dof {
    /// The joint this DOF belongs to.
    pub joint: JointId,
    /// Position in its joint's `dofs` list.
    pub index_in_joint: usize,
    /// Rotation or translation.
    pub kind: DofKind,
    /// Unit axis in the joint frame as moved by the DOFs before it.
    pub axis: Vector3<f64>,
    pub(crate) axis_kind: AxisKind,
    /// Lower limit (radians or metres).
    pub min: f64,
    /// Upper limit (radians or metres).
    pub max: f64,
    /// A hinge whose limits span a full turn or more: it has no limits (`-180, 180` in files).
    pub unlimited: bool,
    /// Rest value (radians or metres).
    pub rest: f64,
    /// The bend hint (radians or metres): the value the IK pulls this DOF towards where the
    /// goals leave it free. The file's `preferred` value, else the rest value moved a quarter of
    /// the range (30° at most) inside a limit it sits at, else the rest value.
    pub preferred: f64,
}

/// Degrees that read back ([`f64::to_radians`]) as exactly `radians`: the plain conversion
/// rounded to 12 significant digits, the plain conversion, or its nearest neighbours (a few
/// units in the last place away); `None` when none does.
fn degrees_reading_back_as(radians: f64) -> Option<f64> {
    let plain = radians.to_degrees();
    let tidy = crate::ron_io::tidy(plain, 12);
    if tidy.to_radians() == radians {
        return Some(tidy);
    }
    let (mut up, mut down) = (plain, plain);
    for _ in 0..4 {
        if up.to_radians() == radians {
            return Some(up);
        }
        if down.to_radians() == radians {
            return Some(down);
        }
        (up, down) = (up.next_up(), down.next_down());
    }
    None
}

impl Dof {
    /// Converts a value in program units to file units (degrees for hinges, metres for slides).
    pub fn to_file_units(&self, value: f64) -> f64 {
        match self.kind {
            DofKind::Hinge => value.to_degrees(),
            DofKind::Slide => value,
        }
    }

    /// The value in file units as files write it: a hinge's degrees rounded to 12 significant
    /// digits when that reads back ([`Dof::from_file_units`]) as the same radians, so 30° is
    /// written `30` rather than `29.999999999999996` and nothing is lost; else the degrees
    /// nearest the plain conversion that read back as the same radians. A few radians no
    /// degrees read back as (the conversion skips them) are written as the radians the plain
    /// conversion reads back as, so what is written once is written again unchanged after it
    /// is read: a file saved, opened and saved is the same bytes.
    pub fn to_written_units(&self, value: f64) -> f64 {
        if self.kind == DofKind::Slide || !value.is_finite() {
            return self.to_file_units(value);
        }
        if let Some(degrees) = degrees_reading_back_as(value) {
            return degrees;
        }
        let near = value.to_degrees().to_radians();
        degrees_reading_back_as(near).unwrap_or_else(|| value.to_degrees())
    }

    /// Converts a value in file units (degrees or metres) to program units.
    pub fn from_file_units(&self, value: f64) -> f64 {
        match self.kind {
            DofKind::Hinge => value.to_radians(),
            DofKind::Slide => value,
        }
    }

    /// The value clamped into the limits; unlimited hinges are returned unchanged.
    pub fn clamp(&self, value: f64) -> f64 {
        if self.unlimited {
            value
        } else {
            value.clamp(self.min, self.max)
        }
    }

    /// True when `value` respects the limits (always for an unlimited hinge).
    pub fn within_limits(&self, value: f64) -> bool {
        self.unlimited || (self.min <= value && value <= self.max)
    }
}

/// A joint's rigid body, placed in the joint frame (program units).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A capsule around the segment `start`–`end`.
    Capsule {
        /// Radius in metres.
        radius: f64,
        /// Start of the axis segment.
        start: Vector3<f64>,
        /// End of the axis segment.
        end: Vector3<f64>,
    },
    /// An axis-aligned box.
    Box {
        /// Half the size along each axis.
        half_extents: Vector3<f64>,
        /// Centre.
        center: Vector3<f64>,
    },
    /// A sphere.
    Sphere {
        /// Radius in metres.
        radius: f64,
        /// Centre.
        center: Vector3<f64>,
    },
    /// A glTF mesh.
    Mesh {
        /// Path relative to `assets/`.
        path: String,
        /// Where the mesh's origin sits.
        origin: Vector3<f64>,
    },
}

impl Shape {
    /// The body's centre, where its joint's mass sits (`docs/skeleton-format.md`, `Body`).
    pub fn center(&self) -> Vector3<f64> {
        match self {
            Shape::Capsule { start, end, .. } => (start + end) * 0.5,
            Shape::Box { center, .. } | Shape::Sphere { center, .. } => *center,
            Shape::Mesh { origin, .. } => *origin,
        }
    }
}

/// One joint of the skeleton, with its definition and what is derived from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Unique name.
    pub name: String,
    /// Parent joint; `None` for the root.
    pub parent: Option<JointId>,
    /// Direct children in hierarchy order.
    pub children: Vec<JointId>,
    /// Origin in the parent frame (metres).
    pub offset: Vector3<f64>,
    /// Fixed rotation Rx·Ry·Rz of the joint frame.
    pub orientation: Matrix3<f64>,
    /// True when `orientation` is exactly the identity (most joints), so FK can skip it.
    pub(crate) orientation_is_identity: bool,
    /// This joint's DOFs, as a range of [`DofId`] indices.
    pub dofs: Range<usize>,
    /// One past the last descendant: the subtree is `id .. subtree_end`.
    pub subtree_end: usize,
    /// Welman's stiffness weight w_i in (0, 1].
    pub stiffness: f64,
    /// Mass in kilograms.
    pub mass: f64,
    /// The body, placed in the joint frame.
    pub shape: Option<Shape>,
    /// Where the mass sits in the joint frame (body centre, or the origin without a body).
    pub mass_center: Vector3<f64>,
    /// The definition as written (after mirroring), kept so that saving is exact.
    pub def: JointDef,
    /// The joint whose `mirror` produced this definition, if any.
    pub mirrored_from: Option<JointId>,
}

/// A named point fixed in a joint's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    /// Unique name.
    pub name: String,
    /// The joint carrying the site.
    pub joint: JointId,
    /// Position in the joint frame.
    pub offset: Vector3<f64>,
}

/// A named set of joints from the hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Unique name.
    pub name: String,
    /// The nearest enclosing joint (the group's children hang from it).
    pub joint: JointId,
    /// The enclosing group, if any.
    pub parent: Option<GroupId>,
    /// Every joint inside the group, descendants included, in hierarchy order.
    pub joints: Vec<JointId>,
}

/// A loaded, validated skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    pub(crate) name: String,
    pub(crate) hierarchy: Node,
    pub(crate) skin: Option<Skin>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) dofs: Vec<Dof>,
    pub(crate) sites: Vec<Site>,
    pub(crate) groups: Vec<Group>,
    pub(crate) joint_names: HashMap<String, JointId>,
    pub(crate) site_names: HashMap<String, SiteId>,
    pub(crate) group_names: HashMap<String, GroupId>,
    /// Mass used for the centre of mass per joint (all 1 when the figure's total mass is 0).
    pub(crate) com_mass: Vec<f64>,
    /// Sum of `com_mass` over each joint's subtree.
    pub(crate) subtree_mass: Vec<f64>,
    pub(crate) total_mass: f64,
}

/// The rigged character a skeleton poses: its file and the node each joint drives.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    /// The character file as the skeleton file writes it (relative to the skeleton file's
    /// folder, or absolute).
    pub file: String,
    /// The node each joint drives (joints not listed drive the node of their own name).
    pub nodes: Vec<(JointId, u32)>,
}

impl Skeleton {
    /// The figure's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rigged character this skeleton poses, if it came from one.
    pub fn skin(&self) -> Option<&Skin> {
        self.skin.as_ref()
    }

    /// The character file of `skin`, found from the skeleton file at `skeleton_path` (a relative
    /// path is relative to that file's folder).
    pub fn skin_path(&self, skeleton_path: Option<&std::path::Path>) -> Option<std::path::PathBuf> {
        let file = std::path::Path::new(&self.skin.as_ref()?.file);
        Some(match skeleton_path.and_then(std::path::Path::parent) {
            Some(folder) if file.is_relative() => folder.join(file),
            _ => file.to_path_buf(),
        })
    }

    /// The hierarchy as written in the file.
    pub fn hierarchy(&self) -> &Node {
        &self.hierarchy
    }

    /// Every joint in hierarchy order (parents before children).
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every DOF in hierarchy order.
    pub fn dofs(&self) -> &[Dof] {
        &self.dofs
    }

    /// Every site, in file order.
    pub fn sites(&self) -> &[Site] {
        &self.sites
    }

    /// Every group, in hierarchy order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// One joint.
    pub fn joint(&self, id: JointId) -> &Joint {
        &self.joints[id.0]
    }

    /// One DOF.
    pub fn dof(&self, id: DofId) -> &Dof {
        &self.dofs[id.0]
    }

    /// One site.
    pub fn site(&self, id: SiteId) -> &Site {
        &self.sites[id.0]
    }

    /// One group.
    pub fn group(&self, id: GroupId) -> &Group {
        &self.groups[id.0]
    }

    /// Ids of every joint, in hierarchy order.
    pub fn joint_ids(&self) -> impl ExactSizeIterator<Item = JointId> + use<> {
        (0..self.joints.len()).map(JointId)
    }

    /// Ids of every site.
    pub fn site_ids(&self) -> impl ExactSizeIterator<Item = SiteId> + use<> {
        (0..self.sites.len()).map(SiteId)
    }

    /// Ids of a joint's DOFs.
    pub fn joint_dofs(&self, id: JointId) -> impl ExactSizeIterator<Item = DofId> + use<> {
        self.joints[id.0].dofs.clone().map(DofId)
    }

    /// The root joint.
    pub fn root(&self) -> JointId {
        JointId(0)
    }

    /// Looks a joint up by name.
    pub fn joint_by_name(&self, name: &str) -> Option<JointId> {
        self.joint_names.get(name).copied()
    }

    /// Looks a site up by name.
    pub fn site_by_name(&self, name: &str) -> Option<SiteId> {
        self.site_names.get(name).copied()
    }

    /// Looks a group up by name.
    pub fn group_by_name(&self, name: &str) -> Option<GroupId> {
        self.group_names.get(name).copied()
    }

    /// Number of DOFs (the state vector is 3 longer).
    pub fn dof_count(&self) -> usize {
        self.dofs.len()
    }

    /// Length of the state vector q: root translation (3) plus every DOF.
    pub fn state_len(&self) -> usize {
        ROOT_STATE_LEN + self.dofs.len()
    }

    /// The DOF at state index `state` (`None` for the root translation or out of range).
    pub fn dof_at_state(&self, state: usize) -> Option<DofId> {
        let k = state.checked_sub(ROOT_STATE_LEN)?;
        (k < self.dofs.len()).then_some(DofId(k))
    }

    /// True when `ancestor` is `joint` or one of its ancestors.
    pub fn is_ancestor_or_self(&self, ancestor: JointId, joint: JointId) -> bool {
        ancestor.0 <= joint.0 && joint.0 < self.joints[ancestor.0].subtree_end
    }

    /// `joint` and all its descendants, in hierarchy order.
    pub fn subtree(&self, joint: JointId) -> impl Iterator<Item = JointId> + use<> {
        (joint.0..self.joints[joint.0].subtree_end).map(JointId)
    }

    /// The joints from `joint` up to the root, `joint` first.
    pub fn path_to_root(&self, joint: JointId) -> impl Iterator<Item = JointId> + '_ {
        std::iter::successors(Some(joint), |j| self.joints[j.0].parent)
    }

    /// Total mass in kilograms (as written; may be 0).
    pub fn total_mass(&self) -> f64 {
        self.total_mass
    }
}
