//! What the editor keeps beside the document, not in it: the motion trails shown, the pose
//! copied, whether the physics overlays are shown and the physics ghost. Changing them is no edit of the work (no undo step, nothing unsaved); pasting is, and
//! carries the pose it pastes ([`Edit::PastePose`]). The editor's menus and keys and the
//! replay's steps ask for these changes as a [`BesideChange`], carried out by [`Beside::take`].

use marionette_skeleton::JointId;

use crate::physics_ghost::{Ghost, GhostRequest};
use crate::pose_tools::PoseClip;
use crate::trail::ShownTrails;
use crate::{Document, Edit, EditError, Grip};

/// A change of what is kept beside the document.
#[derive(Debug, Clone, PartialEq)]
pub enum BesideChange {
    /// Show the edited figure's trail of a site or joint over `from ..= to`.
    ShowTrail {
        /// A site or a joint.
        of: Grip,
        /// First frame.
        from: i64,
        /// Last frame.
        to: i64,
    },
    /// Hide every trail.
    HideTrails,
    /// Pose ▸ Copy pose: these joints' pose (none: the whole figure's).
    CopyPose(Vec<JointId>),
    /// Pose ▸ Paste pose, or Paste flipped: the pose copied, as an edit.
    PastePose {
        /// Mirrored onto the other side.
        flipped: bool,
    },
    /// View ▸ Physics: show (or hide) the physics assistant's overlays.
    ShowPhysics(bool),
    /// View ▸ Physics of every figure: on a stage, the overlays of every figure (true shows the
    /// overlays), or the edited figure's alone.
    ShowStagePhysics(bool),
    /// Sequence ▸ Physics ghost: make the ghost of these frames (a flight made physical, or
    /// standing frames balanced), shown beside the take; it replaces the one shown.
    PhysicsGhost(GhostRequest),
    /// The ghost's Accept: written into its sequence (an edit, one undo step).
    AcceptGhost,
    /// The ghost's Discard.
    DiscardGhost,
}

impl BesideChange {
    /// What it does, as a replay's log names a step.
    pub fn what(&self) -> &'static str {
        match self {
            BesideChange::ShowTrail { .. } => "show the trail",
            BesideChange::HideTrails => "hide the trails",
            BesideChange::CopyPose(_) => "copy the pose",
            BesideChange::PastePose { .. } => "paste the pose",
            BesideChange::ShowPhysics(_) => "show the physics",
            BesideChange::ShowStagePhysics(_) => "show every figure's physics",
            BesideChange::PhysicsGhost(_) => "make the physics ghost",
            BesideChange::AcceptGhost => "accept the physics ghost",
            BesideChange::DiscardGhost => "discard the physics ghost",
        }
    }
}

/// What a request carried out leads to.
#[derive(Debug, Clone, PartialEq)]
pub enum BesideOutcome {
    /// Done, nothing to tell.
    Quietly,
    /// Done; worth telling ("Copied the pose").
    Said(String),
    /// The edit to apply (a paste).
    Edit(Edit),
}

/// The trails shown and the pose copied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Beside {
    /// The trails shown.
    pub trails: ShownTrails,
    /// The pose copied, if any.
    pub copied: Option<PoseClip>,
    /// Whether the physics assistant's overlays are shown (View ▸ Physics).
    pub physics: bool,
    /// Whether they are shown for every figure of a stage, not the edited one alone.
    pub physics_of_every_figure: bool,
    /// The physics ghost shown, not yet accepted or discarded.
    pub ghost: Option<Ghost>,
}

impl Beside {
    /// Carries out `request` on `document`'s figure; refused (nothing changes) with why.
    pub fn take(
        &mut self,
        request: BesideChange,
        document: &Document,
    ) -> Result<BesideOutcome, EditError> {
        Ok(match request {
            BesideChange::ShowTrail { of, from, to } => {
                self.trails.show(document, of, from, to)?;
                BesideOutcome::Quietly
            }
            BesideChange::HideTrails => {
                self.trails.hide_all();
                BesideOutcome::Quietly
            }
            BesideChange::CopyPose(joints) => {
                let (clip, said) = document.copy_pose(&joints);
                self.copied = Some(clip);
                BesideOutcome::Said(said)
            }
            BesideChange::PastePose { flipped } => {
                let clip = self.copied.clone().ok_or_else(|| {
                    EditError::PoseTool(
                        "nothing to paste: copy a pose first (Pose ▸ Copy pose)".into(),
                    )
                })?;
                BesideOutcome::Edit(Edit::PastePose { clip, flipped })
            }
            BesideChange::ShowPhysics(shown) => {
                self.physics = shown;
                BesideOutcome::Quietly
            }
            BesideChange::ShowStagePhysics(every) => {
                self.physics_of_every_figure = every;
                self.physics |= every;
                BesideOutcome::Quietly
            }
            BesideChange::PhysicsGhost(request) => {
                let ghost = document
                    .physics_ghost(request)
                    .map_err(|e| EditError::Ghost(e.to_string()))?;
                let said = ghost.said();
                self.ghost = Some(ghost);
                BesideOutcome::Said(said)
            }
            BesideChange::AcceptGhost => {
                let ghost = self
                    .ghost
                    .take()
                    .ok_or_else(|| EditError::Ghost("no ghost to accept: make one first".into()))?;
                BesideOutcome::Edit(Edit::AcceptGhost(Box::new(ghost)))
            }
            BesideChange::DiscardGhost => match self.ghost.take() {
                Some(_) => BesideOutcome::Said("Discarded the physics ghost".into()),
                None => BesideOutcome::Quietly,
            },
        })
    }
}
