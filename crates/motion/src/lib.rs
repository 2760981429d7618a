//! Sequences in time, without Bevy: the pose at any frame from a sequence's keys
//! ([`interpolate`]: slerp or squad per joint, the hinge values read back from the rotation; the
//! root along its [`root_curve`]), every frame re-solved against the locks enabled on it and
//! baked in parallel, bit-identically whatever the number of threads ([`bake`]), and the baked
//! frames as docs/file-formats.md's JSON ([`frames_file`]).
//!
//! ```
//! use marionette_document::{Key, RootInterpolation, RotationInterpolation, Sequence};
//! use marionette_motion::{BakeSettings, Baker};
//! use marionette_skeleton::{Pose, builtin};
//!
//! let skeleton = builtin::humanoid();
//! let mut bent = Pose::rest(&skeleton);
//! let knee = skeleton.joint_by_name("left knee").unwrap();
//! bent.q[skeleton.joint_dofs(knee).next().unwrap().state_index()] = 1.0;
//! let sequence = Sequence {
//!     name: "bend".into(),
//!     fps: 24.0,
//!     rotation: RotationInterpolation::Slerp,
//!     root: RootInterpolation::Linear,
//!     hold_locks: true,
//!     keys: vec![
//!         Key::new(0, Pose::rest(&skeleton)),
//!         Key::new(10, bent),
//!     ],
//! };
//! let baker = Baker::new(&skeleton, &sequence, &[], BakeSettings::default());
//! let frames = baker.bake(&|| {});
//! assert_eq!(frames.len(), 11);
//! let k = skeleton.joint_dofs(knee).next().unwrap().state_index();
//! assert!((frames[5].q[k] - 0.5).abs() < 1e-12); // a single hinge: exactly halfway
//! ```

pub mod bake;
pub mod channel;
pub mod cleanup;
pub mod contacts;
pub mod curve_handles;
pub mod frames_file;
pub mod interpolate;
pub mod root_curve;
pub mod stage;

pub use bake::{BakeSettings, BakedFrame, Baker, bake_with_threads, lock_summary};
pub use cleanup::{Cleaned, ContactPoint, clean_feet};
pub use curve_handles::{CurveHandles, curve_handles};
pub use interpolate::Interpolator;
pub use root_curve::RootCurve;
pub use stage::{StageBake, StageBaker, StageFrame};
