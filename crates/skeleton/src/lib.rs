//! Marionette's skeleton core: the RON skeleton format (`docs/skeleton-format.md`), the skeleton model
//! in flat arrays, poses and the Pose file (`docs/file-formats.md`), forward kinematics and Jacobians.
//!
//! No Bevy and no egui here: plain data in, plain data out, so the IK solvers, the command line
//! and the editor share one model.
//!
//! ```
//! use marionette_skeleton::prelude::*;
//!
//! let skeleton = marionette_skeleton::builtin::stickman();
//! let mut fk = Fk::new(&skeleton);
//! let mut pose = Pose::rest(&skeleton);
//! let elbow = skeleton.joint_by_name("right hand").unwrap();
//! let k = skeleton.joint(elbow).dofs.start;
//! pose.q[ROOT_STATE_LEN + k] = 90f64.to_radians();
//! fk.update(&skeleton, &pose.q);
//! let tip = fk.site_position(skeleton.site_by_name("right fingertips").unwrap());
//! assert!(tip.z < -0.3); // the forearm now points backwards (+X hinge, figure faces +Z)
//! ```

pub mod angles;
pub mod builtin;
pub mod chain;
pub mod error;
pub mod euler;
pub mod fk;
pub mod format;
mod jacobian;
pub mod joint_rotation;
mod load;
pub mod mirror;
pub mod model;
pub mod ordered_map;
pub mod pose;
pub mod random;
pub mod ron_io;
pub mod rotation;
mod save;
pub mod sides;
pub mod symmetry;
#[cfg(feature = "testing")]
pub mod testing;
mod validate;

pub use chain::{Chain, ChainError};
pub use error::{Defect, FileError, SkeletonError};
pub use fk::Fk;
pub use format::assets_folder;
pub use format::{MAX_DEPTH, MAX_JOINTS};
pub use model::{
    Dof, DofId, DofKind, Group, GroupId, Joint, JointId, ROOT_STATE_LEN, Shape, Site, SiteId,
    Skeleton, Skin,
};
pub use pose::{Pose, PoseDefect, PoseError, PoseFile};
pub use rotation::{degrees_from_orientation, orientation_from_degrees};

/// The largest coordinate or length a file may give, either way from 0 (metres): offsets, slide
/// limits, bodies, root translations, goal and lock targets. Beyond it no file format Marionette
/// writes for other tools can carry the figure (glTF holds 32-bit floats, whose largest value is
/// about 3.4e38, and a skeleton of 1 024 joints adds up its offsets), and nothing a figure editor
/// places is a thousand kilometres away.
pub const MAX_COORDINATE: f64 = 1.0e6;

/// Whether `v` is a finite number within ±[`MAX_COORDINATE`].
pub fn coordinate_in_range(v: f64) -> bool {
    v.is_finite() && v.abs() <= MAX_COORDINATE
}

/// The types most users need.
pub mod prelude {
    pub use crate::{
        Chain, Dof, DofId, DofKind, Fk, JointId, Pose, ROOT_STATE_LEN, SiteId, Skeleton,
        SkeletonError,
    };
}
