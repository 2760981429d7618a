//! Sequences as the Document file holds them (docs/file-formats.md): keys that are whole poses at
//! integer frames, how rotations and the root translation are interpolated between them, and
//! whether every frame is re-solved against its locks. Interpolation and baking are the motion
//! crate's; this module keeps the data valid and round-trips it exactly.

use marionette_skeleton::{DofId, JointId, Pose, Skeleton, coordinate_in_range};
use serde::{Deserialize, Serialize};

/// How each joint's rotation goes from key to key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RotationInterpolation {
    /// Per joint, along the shorter arc, linear in time between two keys.
    #[default]
    Slerp,
    /// A C¹ spline of rotations through the keys.
    Squad,
}

/// How the root translation goes from key to key.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub enum RootInterpolation {
    /// Straight lines between keys.
    #[default]
    Linear,
    /// A uniform Catmull-Rom spline, the end keys repeated.
    CatmullRom,
    /// A Kochanek–Bartels spline.
    KochanekBartels {
        /// Tension (−1 … 1).
        tension: f64,
        /// Continuity (−1 … 1).
        continuity: f64,
        /// Bias (−1 … 1).
        bias: f64,
    },
}

/// How the span from a key to the next goes, when the key says so (else the sequence's
/// interpolation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyInterpolation {
    /// The key's pose held until the next key.
    Step,
    /// Rotations along the shorter arc, the root in a straight line.
    Linear,
    /// Rotations by squad, the root by a Catmull-Rom spline.
    Smooth,
}

/// The parts of the figure a key holds when it holds only some: joints (their rotations or
/// slides), single DOFs of other joints (one hinge of a shoulder) and, or not, the root
/// translation. Every other part goes between its own keys through this frame as if the key
/// were not there.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyedParts {
    /// The joints held, in increasing order, each once.
    pub joints: Vec<JointId>,
    /// Single DOFs held, of joints not in `joints`, in increasing order, each once.
    pub dofs: Vec<DofId>,
    /// Whether the root translation is held.
    pub root: bool,
}

impl KeyedParts {
    /// The parts `joints` (any order, repeats dropped) and the root translation when `root`.
    pub fn new(joints: impl IntoIterator<Item = JointId>, root: bool) -> KeyedParts {
        let mut joints: Vec<JointId> = joints.into_iter().collect();
        joints.sort_unstable();
        joints.dedup();
        KeyedParts {
            joints,
            dofs: Vec::new(),
            root,
        }
    }

    /// These parts with the single DOFs `dofs` of `skeleton` added, tidied: a joint all of
    /// whose DOFs are listed becomes a held joint, a DOF of a held joint is dropped.
    pub fn with_dofs(mut self, skeleton: &Skeleton, dofs: impl IntoIterator<Item = DofId>) -> Self {
        self.dofs.extend(
            dofs.into_iter()
                .filter(|d| d.index() < skeleton.dofs().len()),
        );
        self.dofs.sort_unstable();
        self.dofs.dedup();
        let mut whole = Vec::new();
        for j in skeleton.joint_ids() {
            let mut own = skeleton.joint_dofs(j);
            if own.len() > 0 && own.all(|d| self.dofs.binary_search(&d).is_ok()) {
                whole.push(j);
            }
        }
        if !whole.is_empty() {
            self.joints.extend(whole);
            self.joints.sort_unstable();
            self.joints.dedup();
        }
        let joints = &self.joints;
        self.dofs
            .retain(|&d| joints.binary_search(&skeleton.dof(d).joint).is_err());
        self
    }

    /// Whether joint `joint` is held.
    pub fn holds(&self, joint: JointId) -> bool {
        self.joints.binary_search(&joint).is_ok()
    }

    /// Whether DOF `dof` (of joint `joint`) is held: on its own or with its joint.
    pub fn holds_dof(&self, joint: JointId, dof: DofId) -> bool {
        self.holds(joint) || self.dofs.binary_search(&dof).is_ok()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty() && self.dofs.is_empty() && !self.root
    }
}

/// A key's free Bézier handles on one curve (a DOF, or a coordinate of the root translation):
/// the curve leaves the key toward `after` and arrives at it from `before`, each an offset
/// (frames, value in radians or metres) from the key's point. `before`'s frames are ≤ 0,
/// `after`'s ≥ 0; each is used clamped to its span, so the curve never goes back in time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FreeHandles {
    /// The curve's state index (0–2: the root's x, y, z; then the DOFs).
    pub state: usize,
    /// The handle into the key, (frames ≤ 0, value).
    pub before: [f64; 2],
    /// The handle out of the key, (frames ≥ 0, value).
    pub after: [f64; 2],
}

/// The largest value offset of a handle, in radians or metres.
pub const MAX_HANDLE_VALUE: f64 = 1_000.0;

/// Whether handles `before` and `after` (frames, value in radians or metres) can be a key's:
/// finite, `before` at or before the key and `after` at or after it, within [`MAX_SPAN`]
/// frames and [`MAX_HANDLE_VALUE`].
pub fn handles_fit(before: [f64; 2], after: [f64; 2]) -> bool {
    let fits = |[t, v]: [f64; 2]| {
        t.is_finite() && v.is_finite() && t.abs() <= MAX_SPAN as f64 && v.abs() <= MAX_HANDLE_VALUE
    };
    fits(before) && fits(after) && before[0] <= 0.0 && after[0] >= 0.0
}

/// One key at an integer frame: a pose (root translation included) that every joint goes
/// through, or, with `only`, that the joints it names go through; and how the span to the next
/// key goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    /// The frame.
    pub frame: i64,
    /// The pose. A key holding only some parts keeps a whole pose (the figure as it stood when
    /// the key was set); only the parts held count.
    pub pose: Pose,
    /// `None`: a whole-pose key (every joint and the root). Else the parts it holds.
    pub only: Option<KeyedParts>,
    /// The span to the next key: this instead of the sequence's interpolation.
    pub interpolation: Option<KeyInterpolation>,
    /// Ease in and out over the span to the next key, 0 (none) … 1 (the span's time follows
    /// 3u² − 2u³ instead of u).
    pub ease: f64,
    /// Free handles on some of the curves it holds, in increasing state order, one per curve
    /// (the others' tangents as the span says).
    pub handles: Vec<FreeHandles>,
}

impl Key {
    /// A key at `frame` holding `pose`, its span as the sequence says.
    pub fn new(frame: i64, pose: Pose) -> Key {
        Key {
            frame,
            pose,
            only: None,
            interpolation: None,
            ease: 0.0,
            handles: Vec::new(),
        }
    }

    /// Whether the key holds joint `joint`.
    pub fn holds_joint(&self, joint: JointId) -> bool {
        self.only.as_ref().is_none_or(|o| o.holds(joint))
    }

    /// Whether the key holds DOF `dof` of joint `joint` (the whole joint or that DOF).
    pub fn holds_dof(&self, joint: JointId, dof: DofId) -> bool {
        self.only.as_ref().is_none_or(|o| o.holds_dof(joint, dof))
    }

    /// Whether the key holds any part of joint `joint` of `skeleton` (the joint or one of its
    /// DOFs).
    pub fn holds_part_of(&self, skeleton: &Skeleton, joint: JointId) -> bool {
        self.holds_joint(joint) || skeleton.joint_dofs(joint).any(|d| self.holds_dof(joint, d))
    }

    /// Whether the key holds the curve of state index `state` of `skeleton`: a DOF (with its
    /// joint or on its own), or a coordinate of the root translation.
    pub fn holds_state(&self, skeleton: &Skeleton, state: usize) -> bool {
        match skeleton.dof_at_state(state) {
            Some(d) => self.holds_dof(skeleton.dof(d).joint, d),
            None => state < marionette_skeleton::ROOT_STATE_LEN && self.holds_root(),
        }
    }

    /// The free handles of the curve of state index `state`, if it has some.
    pub fn handles_of(&self, state: usize) -> Option<&FreeHandles> {
        self.handles
            .binary_search_by_key(&state, |h| h.state)
            .ok()
            .map(|i| &self.handles[i])
    }

    /// Sets the free handles of curve `handles.state` (replacing any it had).
    pub fn set_handles(&mut self, handles: FreeHandles) {
        match self
            .handles
            .binary_search_by_key(&handles.state, |h| h.state)
        {
            Ok(i) => self.handles[i] = handles,
            Err(i) => self.handles.insert(i, handles),
        }
    }

    /// Whether the key holds the root translation.
    pub fn holds_root(&self) -> bool {
        self.only.as_ref().is_none_or(|o| o.root)
    }
}

/// The most frames a sequence may span from its first key to its last (about 11½ hours at
/// 24 fps, 2.3 hours at 120): a bake holds every frame in memory.
pub const MAX_SPAN: i64 = 1_000_000;

/// The largest frame number a key may have, either way from 0 (so frame arithmetic never
/// overflows).
pub const MAX_FRAME: i64 = 1_000_000_000;

/// The fewest frames per second a sequence may play at (a frame every 1 000 s).
pub const MIN_FPS: f64 = 1.0e-3;

/// The most frames per second a sequence may play at. Between the two, every frame's time
/// (frame / fps, up to [`MAX_SPAN`] frames) is finite and strictly increasing in the 32-bit
/// floats glTF animations hold.
pub const MAX_FPS: f64 = 1.0e5;

/// Whether `frame` is within ±[`MAX_FRAME`] (every integer is asked, `i64::MIN` included,
/// whose absolute value does not exist).
pub fn frame_in_range(frame: i64) -> bool {
    (-MAX_FRAME..=MAX_FRAME).contains(&frame)
}

/// A named sequence of keys.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// Unique in the document.
    pub name: String,
    /// Frames per second (> 0).
    pub fps: f64,
    /// Rotation interpolation.
    pub rotation: RotationInterpolation,
    /// Root translation interpolation.
    pub root: RootInterpolation,
    /// Whether every frame is re-solved against the locks enabled on it.
    pub hold_locks: bool,
    /// At least one; frames strictly increasing.
    pub keys: Vec<Key>,
}

impl Sequence {
    /// What is wrong with the sequence's values, if anything (keys present and strictly
    /// increasing, within ±[`MAX_FRAME`] and spanning at most [`MAX_SPAN`] frames, fps and
    /// spline parameters finite and in range).
    pub fn defects(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !(MIN_FPS..=MAX_FPS).contains(&self.fps) {
            // Debug writes 1e-308 where Display would write 308 zeros.
            out.push(format!(
                "fps {:?} is not a number from {MIN_FPS} to {MAX_FPS}",
                self.fps
            ));
        }
        if self.keys.is_empty() {
            out.push("it has no keys (at least one is needed)".into());
        }
        if let Some(k) = self
            .keys
            .iter()
            .find(|k| !(k.ease.is_finite() && (0.0..=1.0).contains(&k.ease)))
        {
            out.push(format!(
                "key at frame {}: ease {} is not between 0 and 1",
                k.frame, k.ease
            ));
        }
        if let Some(k) = self.keys.iter().find(|k| {
            k.pose.q.iter().any(|v| !v.is_finite())
                || !k.pose.q.iter().take(3).all(|v| coordinate_in_range(*v))
        }) {
            out.push(format!(
                "key at frame {}: its root is not a finite point within ±{} m, or a value is not a number",
                k.frame,
                marionette_skeleton::MAX_COORDINATE
            ));
        }
        if let Some(k) = self
            .keys
            .iter()
            .find(|k| k.only.as_ref().is_some_and(KeyedParts::is_empty))
        {
            out.push(format!(
                "key at frame {} holds no joint and not the root (`only` names nothing)",
                k.frame
            ));
        }
        for k in &self.keys {
            let bad = k.handles.iter().find(|h| !handles_fit(h.before, h.after));
            if let Some(h) = bad {
                out.push(format!(
                    "key at frame {}: the handles of state {} are not finite, or `before` is after the key or `after` before it, or they reach beyond {MAX_SPAN} frames or ±{MAX_HANDLE_VALUE} in value",
                    k.frame,
                    h.state
                ));
            }
            if k.handles.windows(2).any(|w| w[0].state >= w[1].state) {
                out.push(format!(
                    "key at frame {}: a curve has handles twice",
                    k.frame
                ));
            }
        }
        if let Some(k) = self.keys.iter().find(|k| !frame_in_range(k.frame)) {
            out.push(format!(
                "key at frame {} is beyond ±{MAX_FRAME}, the largest frame number",
                k.frame
            ));
        } else if let (Some(first), Some(last)) = (self.keys.first(), self.keys.last())
            && last.frame - first.frame >= MAX_SPAN
        {
            out.push(format!(
                "its keys span frames {}–{}, more than {MAX_SPAN} frames",
                first.frame, last.frame
            ));
        }
        for pair in self.keys.windows(2) {
            if pair[1].frame <= pair[0].frame {
                out.push(format!(
                    "key at frame {} follows frame {}: frames must be strictly increasing",
                    pair[1].frame, pair[0].frame
                ));
            }
        }
        if let RootInterpolation::KochanekBartels {
            tension,
            continuity,
            bias,
        } = self.root
        {
            for (name, v) in [
                ("tension", tension),
                ("continuity", continuity),
                ("bias", bias),
            ] {
                if !(v.is_finite() && (-1.0..=1.0).contains(&v)) {
                    out.push(format!("{name} {v} is not a number in [-1, 1]"));
                }
            }
        }
        out
    }
}
