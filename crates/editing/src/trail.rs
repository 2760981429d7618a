//! Motion trails (issue 34): the path of a site or a joint over a range of frames of the shown
//! sequence, as the timeline shows each frame (baked: interpolated, the locks re-solved, so a
//! held foot draws as still), with the frames its joint is keyed on; and the trail drag: the
//! trail's point at frame f pressed, the timeline goes to f, the point is dragged as any site
//! is (by IK, the locks held), and when it is released a key at f holds the joints the drag
//! moved (Maya's editable motion trail). No other key changes.

use marionette_skeleton::{Fk, JointId};
use nalgebra::Vector3;

use crate::{ChainMode, Document, EditError, Grip};

/// A trail asked for: of which figure, what it follows and over which frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShownTrail {
    /// The figure's document ([`Document::id`]): a trail shows while that figure is edited.
    pub figure: u64,
    /// A site ([`Grip::Site`]) or a joint's origin ([`Grip::Joint`]).
    pub of: Grip,
    /// First frame.
    pub from: i64,
    /// Last frame.
    pub to: i64,
}

/// The trails the user asked to see: view state kept beside the document (not in it, not
/// saved, no undo step), drawn from it by [`Document::trails`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShownTrails(Vec<ShownTrail>);

impl ShownTrails {
    /// Shows a trail of `of` (a site or a joint) over frames `from ..= to` of `document`'s
    /// shown sequence, replacing one of the same point; refused (nothing changes) when `of` is
    /// a body, no sequence is shown, or the range is empty or longer than [`MAX_TRAIL_FRAMES`].
    pub fn show(
        &mut self,
        document: &Document,
        of: Grip,
        from: i64,
        to: i64,
    ) -> Result<(), EditError> {
        document.check_trail(of, "Show trail: no sequence is shown (set a key first)")?;
        if to < from || to - from > MAX_TRAIL_FRAMES {
            return Err(EditError::PoseTool(format!(
                "Show trail: frames {from}–{to} are not a range of 1 to {MAX_TRAIL_FRAMES} frames"
            )));
        }
        let figure = document.id();
        self.0.retain(|t| (t.figure, t.of) != (figure, of));
        self.0.push(ShownTrail {
            figure,
            of,
            from,
            to,
        });
        Ok(())
    }

    /// Hides every trail.
    pub fn hide_all(&mut self) {
        self.0.clear();
    }

    /// The trails asked for of `document`'s figure.
    pub fn of<'a>(&'a self, document: &Document) -> impl Iterator<Item = &'a ShownTrail> + 'a {
        let figure = document.id();
        self.0.iter().filter(move |t| t.figure == figure)
    }

    /// Whether none is asked for (of any figure).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A trail: where its point is on each frame (the figure's frame, as the scene draws it).
#[derive(Debug, Clone, PartialEq)]
pub struct Trail {
    /// What it follows and over which frames.
    pub shown: ShownTrail,
    /// Per frame, its frame and where the point is.
    pub points: Vec<(i64, Vector3<f64>)>,
    /// The frames of the keys that move the point (holding its joint, a joint above it, or the
    /// root translation).
    pub keys: Vec<i64>,
}

/// The most frames a trail spans (a longer range is refused).
pub const MAX_TRAIL_FRAMES: i64 = 10_000;

impl Document {
    /// The joint a trail's point is on.
    fn trail_joint(&self, of: Grip) -> Option<JointId> {
        match of {
            Grip::Site(site) => Some(self.skeleton.site(site).joint),
            Grip::Joint(joint) => Some(joint),
            Grip::Body { .. } => None,
        }
    }

    /// Refused unless `of` is a site or a joint and a sequence is shown (`missing` says so).
    fn check_trail(&self, of: Grip, missing: &str) -> Result<(), EditError> {
        if self.trail_joint(of).is_none() {
            return Err(EditError::PoseTool(
                "a trail follows a site or a joint".into(),
            ));
        }
        if self.sequence.is_none() {
            return Err(EditError::PoseTool(missing.into()));
        }
        Ok(())
    }

    /// The trails `shown` asks for, made from the shown sequence as the timeline shows its
    /// frames (none without a shown sequence).
    pub fn trails(&self, shown: &ShownTrails) -> Vec<Trail> {
        let Some(seq) = self.sequence.and_then(|i| self.sequences.get(i)) else {
            return Vec::new();
        };
        let mut fk = Fk::new(&self.skeleton);
        shown
            .of(self)
            .filter_map(|&shown| {
                let joint = self.trail_joint(shown.of)?;
                let points = self
                    .shown_poses(shown.from, shown.to)
                    .into_iter()
                    .map(|(f, q)| {
                        fk.update(&self.skeleton, &q);
                        let at = match shown.of {
                            Grip::Site(site) => fk.site_position(site),
                            _ => fk.joint_position(joint),
                        };
                        (f, at)
                    })
                    .collect();
                // The keys that move the point: on its joint, a joint above it or the root.
                let mut above = vec![joint];
                while let Some(parent) = self.skeleton.joint(*above.last()?).parent {
                    above.push(parent);
                }
                let keys = seq
                    .keys
                    .iter()
                    .filter(|k| {
                        k.holds_root() || above.iter().any(|&j| k.holds_part_of(&self.skeleton, j))
                    })
                    .map(|k| k.frame)
                    .filter(|f| (shown.from..=shown.to).contains(f))
                    .collect();
                Some(Trail {
                    shown,
                    points,
                    keys,
                })
            })
            .collect()
    }

    /// Begins a trail drag: the timeline goes to `frame`, and `of` (a site or a joint) is
    /// dragged from where it is there; when the drag ends, a key at `frame` holds the joints
    /// it moved ([`Document::end_drag`]).
    pub(crate) fn begin_trail_drag(
        &mut self,
        of: Grip,
        frame: i64,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        self.check_trail(of, "a trail drag needs a shown sequence")?;
        self.go_to_frame(frame);
        self.begin_grip(of, mode)?;
        self.key_after_drag = self.drag.is_some();
        Ok(())
    }
}
