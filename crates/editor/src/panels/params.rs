//! The system parameters of the panels' one egui pass: what they read, and the view state
//! they set.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::{curves, motion, panel_memory, pose_library, timeline};
use crate::derived::{BakedStrip, LockStatus, SelectedLimb};
use crate::drag::ghosts::Ghosts;
use crate::export::RunningExport;
use crate::resources::{
    CharacterReport, Display, LockHover, Notices, OpenDocument, Prompts, SolveStatus, SolvingState,
};
use crate::selection::Selection;
use crate::timeline::{FrameClipboard, FrameRange, Playback};
use crate::views::target::{ViewResolution, ViewsImage};
use crate::views::{Layout, ViewArea};

/// What the panels show and never change.
#[derive(SystemParam)]
pub struct PanelInputs<'w> {
    pub(super) document: Res<'w, OpenDocument>,
    pub(super) character: Res<'w, CharacterReport>,
    pub(super) solving: Res<'w, SolvingState>,
    pub(super) lock_status: Res<'w, LockStatus>,
    pub(super) limb: Res<'w, SelectedLimb>,
    pub(super) solve: Res<'w, SolveStatus>,
    pub(super) ghosts: Res<'w, Ghosts>,
    pub(super) strip: Res<'w, BakedStrip>,
    pub(super) physics: Res<'w, crate::physics::PhysicsOverlay>,
    pub(super) clipboard: Res<'w, FrameClipboard>,
    pub(super) beside: Res<'w, crate::beside::BesideState>,
    pub(super) export: Option<Res<'w, RunningExport>>,
    pub(super) motion: Res<'w, motion::MotionTracks>,
    pub(super) curves: Res<'w, curves::CurveTracks>,
    pub(super) active: Res<'w, crate::resources::ActiveDrag>,
    pub(super) views_image: Res<'w, ViewsImage>,
}

/// The view state the panels set (written back only when it changed).
#[derive(SystemParam)]
pub struct PanelState<'w> {
    pub(super) layout: ResMut<'w, Layout>,
    pub(super) area: ResMut<'w, ViewArea>,
    pub(super) display: ResMut<'w, Display>,
    pub(super) prompts: ResMut<'w, Prompts>,
    pub(super) selection: ResMut<'w, Selection>,
    pub(super) lock_hover: ResMut<'w, LockHover>,
    pub(super) playback: ResMut<'w, Playback>,
    pub(super) range: ResMut<'w, FrameRange>,
    pub(super) timeline: ResMut<'w, timeline::TimelineUi>,
    pub(super) notices: ResMut<'w, Notices>,
    pub(super) motion_site: ResMut<'w, motion::MotionSite>,
    pub(super) curves_ui: ResMut<'w, curves::CurvesUi>,
    pub(super) library: ResMut<'w, pose_library::PoseLibraryUi>,
    pub(super) panels: ResMut<'w, panel_memory::PanelLayout>,
    pub(super) resolution: ResMut<'w, ViewResolution>,
    pub(super) ghost_form: ResMut<'w, super::physics_ghost::GhostForm>,
}
