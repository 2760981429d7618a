//! The editor's logic without Bevy (docs/architecture.md: a pure core under thin plugins): the
//! document every edit goes through ([`document`], its locks in [`lock_edits`], its files and
//! recovery in [`document_io`], BVH, glTF and JSON files for other tools in [`exchange`]), which joints a drag moves ([`chain_mode`]),
//! what a drag pulls at ([`drag`]), the solver run each frame ([`ik_frame`]), the outliner and
//! DOF sliders ([`outliner`]), undo ([`history`]), the swivel gizmo's geometry
//! ([`swivel_gizmo`]), the timeline's keys, frames and sequences ([`timeline`]) and the scripts that replay a session through the window ([`replay`]).
//! The Bevy editor (issue 5) copies ECS state into these, calls them, and writes the result back;
//! its ray casts come from Bevy's picking, turned into a [`drag::Ray`].

pub mod chain_mode;
pub mod document;
pub mod document_io;
pub mod drag;
pub mod exchange;
pub mod history;
pub mod ik_frame;
pub mod lock_edits;
pub mod outliner;
pub mod replay;
pub mod swivel;
pub mod swivel_gizmo;
pub mod timeline;

pub use chain_mode::{ChainMode, chain_for};
pub use document::{Document, EditError};
pub use drag::{Drag, Ray};
pub use history::{Change, Edited, History};
pub use ik_frame::{FrameOutcome, Ghost, IkRunner, IkSettings};
pub use replay::{ReplayError, Script, Step, View};
