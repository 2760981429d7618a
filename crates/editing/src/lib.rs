//! The editor's logic without Bevy (docs/architecture.md: a pure core under thin plugins): the
//! document every edit goes through ([`document`]; its drags in [`drag`], its locks in
//! [`lock_edits`], its timeline in [`timeline`], its files and recovery in [`document::io`], BVH,
//! glTF and JSON files for other tools in [`exchange`]), every change as one [`Edit`] applied by
//! [`Document::apply`] ([`edit`]), undo ([`history`]), which joints a drag moves ([`chain_mode`]),
//! the stage of several figures and props around the edited one ([`stage`]), the solver run
//! each step of a drag ([`solve`]), the outliner and DOF sliders ([`outliner`]),
//! the swivel ([`swivel`]) and its gizmo's geometry ([`swivel_gizmo`]), the views by name
//! ([`view`]) and the scripts that replay a session through the window ([`replay`]).
//! The Bevy editor copies ECS state into these, calls them, and writes the result back; its ray
//! casts come from Bevy's picking, turned into a [`drag::Ray`].

pub mod applied;
pub mod beside;
pub mod bracket_keys;
pub mod capture_read;
pub mod chain_mode;
pub mod curve_edits;
pub mod document;
pub mod drag;
pub mod edit;
pub mod edit_error;
pub mod exchange;
pub mod file_action;
pub mod foot_contacts;
pub mod ghost_accept;
pub mod ghost_standing;
pub mod lock_edits;
pub mod outliner;
pub mod physics_carried;
pub mod physics_check;
pub mod physics_ghost;
pub mod physics_stage;
pub mod physics_view;
pub mod pose_read;
pub mod pose_tools;
pub mod replay;
pub mod retarget_capture;
pub mod rotate_handles;
pub mod sequence_list;
pub mod solve;
pub mod stage;
pub mod swivel;
pub mod swivel_gizmo;
pub mod timeline;
pub mod trail;
pub mod view;
pub mod weighed_character;

pub use applied::Applied;
pub use chain_mode::{ChainMode, chain_for};
pub use document::Document;
pub use document::history::{self, Change, Edited, History, UndoStep};
pub use drag::{Drag, Grip, Ray};
pub use edit::{Edit, SequenceSettings};
pub use edit_error::EditError;
pub use replay::{ReplayError, Script, Step};
pub use solve::{Comparison, GhostStep, IkRunner, IkSettings, SolveOutcome, Solving};
pub use view::View;
