//! A figure's work, without Bevy: the locks that hold parts of the body in place ([`lock`]), the
//! one goal set a frame solves ([`goal_set`]: the locks enabled on that frame and the drag or
//! other edit, each goal served by its own chain), the sequences as data ([`sequence`]) and their key edits ([`key_edits`]) and the
//! Document file of docs/file-formats.md ([`file`]: version 1, atomic saves, errors that name the file
//! and the culprit). The editor, the command line and the benchmarks all build their IK systems
//! through [`GoalSet`], so a drag, a swivel change, "solve until satisfied" and a bake ask for the
//! same thing.

pub mod body;
pub mod curve_name;
mod dof_keys;
pub mod file;
pub mod goal_set;
mod joint_keys;
mod key_edits;
mod key_file;
pub mod lock;
pub mod sequence;
pub mod stage;
mod version_probe;

pub use body::{Body, BodySex};
pub use curve_name::{curve_name, curve_state};
pub use file::{
    DocumentDefect, DocumentError, DocumentFile, FORMAT_VERSION, LibraryPose, STAGE_VERSION,
    relative_path,
};
pub use goal_set::{GoalSet, Owner};
pub use key_edits::{Clip, KeyEditError};
pub use lock::{Lock, LockError, LockKind, LockPart, Violation};
pub use sequence::{
    FreeHandles, Key, KeyInterpolation, KeyedParts, MAX_FPS, MAX_FRAME, MAX_HANDLE_VALUE, MAX_SPAN,
    MIN_FPS, RootInterpolation, RotationInterpolation, Sequence, frame_in_range,
};
pub use stage::check::StageDefect;
pub use stage::file::{StageError, StageFile};
pub use stage::{
    Cue, Hold, Link, LinkTarget, Placement, Prop, PropContact, PropKey, PropPlace, PropShape,
    PropTrack, SiteRef, Stage, StageFigure,
};
