//! Sequences as the Document file holds them (docs/file-formats.md): keys that are whole poses at
//! integer frames, how rotations and the root translation are interpolated between them, and
//! whether every frame is re-solved against its locks. Interpolation and baking are the motion
//! crate's; this module keeps the data valid and round-trips it exactly.

use marionette_skeleton::{JointId, Pose, coordinate_in_range};
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
/// slides) and, or not, the root translation. Every other joint goes between its own keys
/// through this frame as if the key were not there.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyedParts {
    /// The joints held, in increasing order, each once.
    pub joints: Vec<JointId>,
    /// Whether the root translation is held.
    pub root: bool,
}

impl KeyedParts {
    /// The parts `joints` (any order, repeats dropped) and the root translation when `root`.
    pub fn new(joints: impl IntoIterator<Item = JointId>, root: bool) -> KeyedParts {
        let mut joints: Vec<JointId> = joints.into_iter().collect();
        joints.sort_unstable();
        joints.dedup();
        KeyedParts { joints, root }
    }

    /// Whether joint `joint` is held.
    pub fn holds(&self, joint: JointId) -> bool {
        self.joints.binary_search(&joint).is_ok()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty() && !self.root
    }
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
        }
    }

    /// Whether the key holds joint `joint`.
    pub fn holds_joint(&self, joint: JointId) -> bool {
        self.only.as_ref().is_none_or(|o| o.holds(joint))
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
