//! The pose of a sequence at any frame, from its keys (docs/file-formats.md, Document,
//! "Interpolation between two keys"), before any lock is solved.
//!
//! Per joint with two or more hinges, the rotation R(q) of its hinges is interpolated as a
//! rotation: `Slerp` along the shorter arc (Shoemake 1985, "Animating rotation with quaternion
//! curves"), `Squad` through Shoemake's inner quadrangle points sᵢ = qᵢ·exp(−(log(qᵢ⁻¹qᵢ₊₁) +
//! log(qᵢ⁻¹qᵢ₋₁))/4), a C¹ curve through the keys; the hinge values are read back
//! ([`JointRotations::read_back`]) with the values interpolated one by one as the reference, so
//! each frame picks the branch nearest its keys, whatever the other frames did. A single hinge
//! is interpolated as its angle, which is what interpolating its rotation gives: linearly for
//! `Slerp`, exactly qₐ + u (q_b − qₐ) (the shorter way round for an unlimited hinge), and for
//! `Squad` along the same quadrangle in angle. Slides are linear. The root translation follows
//! its [`RootCurve`]. Before the first key and after the last, the pose is that key's.
//!
//! A key may hold only some joints (and, or not, the root translation): each joint goes through
//! the keys holding it, the root through those holding the root, each span as the key at its
//! start says; a part no key holds stays as the first key holds it. With whole-pose keys only,
//! every part has the same keys and the arithmetic is the same as for whole poses.
//!
//! A key may hold a single DOF of a joint, and may give a DOF free Bézier handles. Each DOF then
//! goes through the keys holding it; a joint of several hinges goes as one rotation over a span
//! only where all its DOFs are between the same two keys and no free handle touches the span,
//! else each of its DOFs goes on its own as a [`Channel`] (Blender's Euler curves), so a DOF
//! key or a handle changes only the spans it falls in or touches. A root coordinate with a free
//! handle goes, over the spans the handle touches, as the Bézier curve of its handles.
//!
//! A key may set the span after it apart: `Step` holds its pose until the next key, `Linear`
//! is slerp with a straight root, `Smooth` squad with a Catmull-Rom root, whatever the
//! sequence says; and its `ease` bends the span's time u towards 3u² − 2u³ (slow out of the
//! key, slow into the next).

use marionette_document::{KeyInterpolation, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::joint_rotation::{HingeLayout, JointRotations};
use marionette_skeleton::{DofId, DofKind, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use crate::channel::{Channel, Ends, by_squad};
use crate::root_curve::RootCurve;

/// A joint with two or more hinges: its rotation at each of the keys holding it whole, the
/// inner points for squad, and, when its DOFs are keyed apart or some have free handles, a
/// curve per DOF for the spans that cannot go as one rotation.
#[derive(Debug, Clone)]
struct JointTrack {
    joint: JointId,
    timing: usize,
    keys: Vec<UnitQuaternion<f64>>,
    inner: Vec<UnitQuaternion<f64>>,
    channels: Vec<Channel>,
}

/// The keys one part of the figure goes through (a joint, the root translation): indices into
/// the sequence's keys, and their frames. A part no key holds has the first key alone.
#[derive(Debug, Clone, PartialEq)]
struct Timing {
    keys: Vec<usize>,
    frames: Vec<i64>,
}

/// Where a frame falls among a timing's keys.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Span {
    /// On a key, before the first, after the last, or in a `Step` span: that key's values.
    Hold(usize),
    /// Between keys `a` and `b` (sequence key indices), the `at`-th span of the timing, at
    /// eased time `u`, as key `a` says.
    Between {
        at: usize,
        a: usize,
        b: usize,
        u: f64,
        kind: Option<KeyInterpolation>,
    },
}

impl Timing {
    /// The span `frame` falls in, `spans` being each sequence key's interpolation and ease.
    fn span(&self, frame: i64, spans: &[(Option<KeyInterpolation>, f64)]) -> Span {
        let n = self.frames.len();
        let i = match self.frames.binary_search(&frame) {
            Ok(i) => return Span::Hold(self.keys[i]),
            Err(0) => return Span::Hold(self.keys[0]),
            Err(i) if i == n => return Span::Hold(self.keys[n - 1]),
            Err(i) => i - 1,
        };
        let (a, b) = (self.keys[i], self.keys[i + 1]);
        let (kind, ease) = spans[a];
        if kind == Some(KeyInterpolation::Step) {
            return Span::Hold(a);
        }
        let (fa, fb) = (self.frames[i], self.frames[i + 1]);
        let u = eased((frame - fa) as f64 / (fb - fa) as f64, ease);
        Span::Between {
            at: i,
            a,
            b,
            u,
            kind,
        }
    }
}

/// A sequence made ready to be sampled at any frame.
#[derive(Debug, Clone)]
pub struct Interpolator {
    frames: Vec<i64>,
    poses: Vec<Vec<f64>>,
    rotation: RotationInterpolation,
    /// The distinct timings of the figure's parts (one when every key is a whole pose).
    timings: Vec<Timing>,
    /// Per state index past the root translation, the timing of the joint it belongs to.
    state_timing: Vec<usize>,
    /// The root translation's timing, and its curve through the root's keys.
    root_timing: usize,
    root: RootCurve,
    rotations: JointRotations,
    tracks: Vec<JointTrack>,
    singles: Vec<Channel>,
    /// State indices of unlimited hinges (their reference goes the shorter way round).
    unlimited: Vec<bool>,
    /// Per key, how the span after it goes (its own interpolation, else the sequence's) and
    /// its ease.
    spans: Vec<(Option<KeyInterpolation>, f64)>,
    /// The root's Catmull-Rom curve, for the spans of `Smooth` keys (when there are any).
    smooth_root: Option<RootCurve>,
    /// Per key of the root's timing, the free handles of its x, y and z (before, after); empty
    /// when no key has any.
    root_handles: Vec<[RootHandles; ROOT_STATE_LEN]>,
}

/// A root coordinate's free handles at a key: (before, after).
type RootHandles = Option<([f64; 2], [f64; 2])>;

/// A span's time `u` eased in and out by `ease` (0: as it is, 1: 3u² − 2u³).
fn eased(u: f64, ease: f64) -> f64 {
    u + ease * (u * u * (3.0 - 2.0 * u) - u)
}

/// The index in `timings` of the timing of the keys `holds` says hold a part (added when new).
fn timing_of(
    timings: &mut Vec<Timing>,
    sequence: &Sequence,
    holds: impl Fn(&marionette_document::Key) -> bool,
) -> usize {
    let mut keys: Vec<usize> = (0..sequence.keys.len())
        .filter(|&i| holds(&sequence.keys[i]))
        .collect();
    if keys.is_empty() {
        keys.push(0);
    }
    let frames = keys.iter().map(|&i| sequence.keys[i].frame).collect();
    let timing = Timing { keys, frames };
    match timings.iter().position(|t| *t == timing) {
        Some(i) => i,
        None => {
            timings.push(timing);
            timings.len() - 1
        }
    }
}

impl Interpolator {
    /// The interpolator of `sequence` (whose keys are poses of `skeleton`; at least one key).
    /// Each joint goes through the keys holding it, the root translation through those holding
    /// the root: with whole-pose keys only, every part through every key.
    pub fn new(skeleton: &Skeleton, sequence: &Sequence) -> Interpolator {
        let frames: Vec<i64> = sequence.keys.iter().map(|k| k.frame).collect();
        let poses: Vec<Vec<f64>> = sequence.keys.iter().map(|k| k.pose.q.clone()).collect();
        let rotations = JointRotations::new(skeleton);
        let mut timings: Vec<Timing> = Vec::new();
        let root_timing = timing_of(&mut timings, sequence, |k| k.holds_root());
        let joint_timing: Vec<usize> = skeleton
            .joint_ids()
            .map(|j| timing_of(&mut timings, sequence, |k| k.holds_joint(j)))
            .collect();
        let mut state_timing = vec![root_timing; skeleton.state_len()];
        for (d, dof) in skeleton.dofs().iter().enumerate() {
            state_timing[ROOT_STATE_LEN + d] = joint_timing[dof.joint.index()];
        }
        let points: Vec<Vector3<f64>> = timings[root_timing]
            .keys
            .iter()
            .map(|&i| Vector3::new(poses[i][0], poses[i][1], poses[i][2]))
            .collect();
        let spans: Vec<(Option<KeyInterpolation>, f64)> = sequence
            .keys
            .iter()
            .map(|k| (k.interpolation, k.ease))
            .collect();
        let smooth_root = spans
            .iter()
            .any(|s| s.0 == Some(KeyInterpolation::Smooth))
            .then(|| RootCurve::new(RootInterpolation::CatmullRom, points.clone()));
        let root = RootCurve::new(sequence.root, points);
        let root_handles: Vec<[RootHandles; ROOT_STATE_LEN]> = timings[root_timing]
            .keys
            .iter()
            .map(|&i| {
                let key = &sequence.keys[i];
                [0, 1, 2].map(|c| key.handles_of(c).map(|h| (h.before, h.after)))
            })
            .collect();
        let root_handles = if root_handles.iter().flatten().any(Option::is_some) {
            root_handles
        } else {
            Vec::new()
        };
        let mut tracks = Vec::new();
        let mut singles = Vec::new();
        for j in skeleton.joint_ids() {
            let timing = joint_timing[j.index()];
            let own: Vec<&Vec<f64>> = timings[timing].keys.iter().map(|&i| &poses[i]).collect();
            match rotations.layout(j) {
                HingeLayout::None => {}
                HingeLayout::Single(s) => {
                    let dof = skeleton
                        .dof_at_state(*s)
                        .expect("a hinge's state is a DOF's");
                    let keys = timings[timing].keys.clone();
                    singles.push(Channel::new(skeleton, sequence, dof, timing, &keys));
                }
                HingeLayout::Triple { .. } | HingeLayout::General(_) => {
                    let mut keys: Vec<UnitQuaternion<f64>> = Vec::with_capacity(own.len());
                    for q in &own {
                        let mut r = rotations.rotation(skeleton, j, q);
                        if let Some(prev) = keys.last()
                            && prev.coords.dot(&r.coords) < 0.0
                        {
                            r = UnitQuaternion::new_unchecked(-r.into_inner());
                        }
                        keys.push(r);
                    }
                    let inner = inner_rotations(&keys);
                    let channels = joint_channels(skeleton, sequence, j, &mut timings);
                    tracks.push(JointTrack {
                        joint: j,
                        timing,
                        keys,
                        inner,
                        channels,
                    });
                }
            }
        }
        let mut unlimited = vec![false; skeleton.state_len()];
        for (d, dof) in skeleton.dofs().iter().enumerate() {
            unlimited[ROOT_STATE_LEN + d] = dof.kind == DofKind::Hinge && dof.unlimited;
        }
        Interpolator {
            frames,
            poses,
            rotation: sequence.rotation,
            timings,
            state_timing,
            root_timing,
            root,
            rotations,
            tracks,
            singles,
            unlimited,
            spans,
            smooth_root,
            root_handles,
        }
    }

    /// The first and last key frames.
    pub fn range(&self) -> (i64, i64) {
        (
            self.frames[0],
            *self.frames.last().expect("at least one key"),
        )
    }

    /// Whether the span `kind` goes by squad.
    fn squad(&self, kind: Option<KeyInterpolation>) -> bool {
        by_squad(kind, self.rotation)
    }

    /// The root translation's tangents (per unit of u) on the span from the root timing's
    /// `at`-th key to the next, whose first key says `kind`: along the chord for `Linear`,
    /// the Catmull-Rom curve's for `Smooth`, else the sequence's root curve's.
    pub(crate) fn root_span_tangents(
        &self,
        at: usize,
        kind: Option<KeyInterpolation>,
    ) -> (Vector3<f64>, Vector3<f64>) {
        match (kind, &self.smooth_root) {
            (Some(KeyInterpolation::Linear), _) => {
                let keys = &self.timings[self.root_timing].keys;
                let (pa, pb) = (&self.poses[keys[at]], &self.poses[keys[at + 1]]);
                let chord = Vector3::new(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]);
                (chord, chord)
            }
            (Some(KeyInterpolation::Smooth), Some(curve)) => curve.span_tangents(at),
            _ => self.root.span_tangents(at),
        }
    }

    /// The interpolated pose at `frame` into `q` (resized to the state length).
    pub fn pose_at(&self, skeleton: &Skeleton, frame: i64, q: &mut Vec<f64>) {
        let spans: Vec<Span> = self
            .timings
            .iter()
            .map(|t| t.span(frame, &self.spans))
            .collect();
        q.resize(self.poses[0].len(), 0.0);
        // The reference: each value on its own, linearly (the shorter way for unlimited hinges).
        for (k, out) in q.iter_mut().enumerate().skip(ROOT_STATE_LEN) {
            *out = match spans[self.state_timing[k]] {
                Span::Hold(a) => self.poses[a][k],
                Span::Between { a, b, u, .. } => {
                    let (a, b) = (&self.poses[a], &self.poses[b]);
                    let delta = if self.unlimited[k] {
                        marionette_skeleton::angles::wrap_angle(b[k] - a[k])
                    } else {
                        b[k] - a[k]
                    };
                    a[k] + u * delta
                }
            };
        }
        let root = match spans[self.root_timing] {
            Span::Hold(a) => Vector3::new(self.poses[a][0], self.poses[a][1], self.poses[a][2]),
            Span::Between { at, a, b, u, kind } => match (kind, &self.smooth_root) {
                (Some(KeyInterpolation::Linear), _) => {
                    let (a, b) = (&self.poses[a], &self.poses[b]);
                    let (ra, rb) = (
                        Vector3::new(a[0], a[1], a[2]),
                        Vector3::new(b[0], b[1], b[2]),
                    );
                    ra + (rb - ra) * u
                }
                (Some(KeyInterpolation::Smooth), Some(curve)) => curve.at(at, u),
                _ => self.root.at(at, u),
            },
        };
        q[..ROOT_STATE_LEN].copy_from_slice(root.as_slice());
        if !self.root_handles.is_empty() {
            self.free_root(spans[self.root_timing], frame, q);
        }
        for single in &self.singles {
            let Span::Between { at, u, kind, .. } = spans[single.timing] else {
                continue;
            };
            let frames = &self.timings[single.timing].frames;
            let value = single.value(at, u, self.squad(kind), frame, (frames[at], frames[at + 1]));
            q[single.state] = self.fitted(skeleton, single.state, value);
        }
        for track in &self.tracks {
            if !track.channels.is_empty() && !self.as_rotation(track, &spans) {
                for c in &track.channels {
                    let value = match spans[c.timing] {
                        Span::Hold(a) => self.poses[a][c.state],
                        Span::Between { at, u, kind, .. } => {
                            let frames = &self.timings[c.timing].frames;
                            let span = (frames[at], frames[at + 1]);
                            c.value(at, u, self.squad(kind), frame, span)
                        }
                    };
                    q[c.state] = self.fitted(skeleton, c.state, value);
                }
                continue;
            }
            let Span::Between { at: i, u, kind, .. } = spans[track.timing] else {
                continue;
            };
            let (ra, rb) = (&track.keys[i], &track.keys[i + 1]);
            let target = if self.squad(kind) {
                let outer = slerp(ra, rb, u);
                let inner = slerp(&track.inner[i], &track.inner[i + 1], u);
                slerp(&outer, &inner, 2.0 * u * (1.0 - u))
            } else {
                slerp(ra, rb, u)
            };
            self.rotations.read_back(skeleton, track.joint, &target, q);
        }
    }

    /// The root's coordinates with free handles on the span `span` of the root's timing, at
    /// `frame`, into `q`: each such coordinate the Bézier curve of its handles, its own
    /// tangents (the span's root curve's) where a key has none.
    fn free_root(&self, span: Span, frame: i64, q: &mut [f64]) {
        let Span::Between { at, a, b, kind, .. } = span else {
            return;
        };
        let (pa, pb) = (&self.poses[a], &self.poses[b]);
        let (ta, tb) = self.root_span_tangents(at, kind);
        let frames = &self.timings[self.root_timing].frames;
        for c in 0..ROOT_STATE_LEN {
            let after = self.root_handles[at][c].map(|h| h.1);
            let before = self.root_handles[at + 1][c].map(|h| h.0);
            if after.is_none() && before.is_none() {
                continue;
            }
            let ends = Ends {
                values: (pa[c], pb[c]),
                tangents: (ta[c], tb[c]),
                after,
                before,
            };
            q[c] = ends.value(frame, (frames[at], frames[at + 1])).clamp(
                -marionette_skeleton::MAX_COORDINATE,
                marionette_skeleton::MAX_COORDINATE,
            );
        }
    }

    /// Whether joint track `track` goes as one rotation at the frame of `spans`: each of its
    /// DOFs is in the joint's own span and has no free handle on it.
    fn as_rotation(&self, track: &JointTrack, spans: &[Span]) -> bool {
        let own = spans[track.timing];
        track.channels.iter().all(|c| match (spans[c.timing], own) {
            (Span::Hold(a), Span::Hold(b)) => a == b,
            (Span::Between { at, a, b, .. }, Span::Between { a: a2, b: b2, .. }) => {
                a == a2 && b == b2 && !c.free(at)
            }
            _ => false,
        })
    }

    /// A DOF's interpolated value made a value it can take: wrapped for an unlimited hinge,
    /// else clamped to its limits.
    fn fitted(&self, skeleton: &Skeleton, state: usize, value: f64) -> f64 {
        let dof = &skeleton.dofs()[state - ROOT_STATE_LEN];
        if dof.unlimited {
            marionette_skeleton::angles::wrap_angle(value)
        } else {
            dof.clamp(value)
        }
    }
}

/// The curves of joint `joint`'s DOFs, each through the keys holding it (`timings` gains
/// their timings), when they are needed: when a key holds some of its DOFs but not all, or a
/// key has free handles on one. Else none (the joint always goes as one rotation).
fn joint_channels(
    skeleton: &Skeleton,
    sequence: &Sequence,
    joint: JointId,
    timings: &mut Vec<Timing>,
) -> Vec<Channel> {
    let dofs: Vec<DofId> = skeleton.joint_dofs(joint).collect();
    let split = sequence.keys.iter().any(|k| {
        !k.holds_joint(joint) && dofs.iter().any(|&d| k.holds_dof(joint, d))
            || dofs
                .iter()
                .any(|&d| k.handles_of(d.state_index()).is_some())
    });
    if !split {
        return Vec::new();
    }
    dofs.iter()
        .map(|&d| {
            let t = timing_of(timings, sequence, |k| k.holds_dof(joint, d));
            let keys = timings[t].keys.clone();
            Channel::new(skeleton, sequence, d, t, &keys)
        })
        .collect()
}

/// Squad's inner points sᵢ = qᵢ·exp(−(log(qᵢ⁻¹qᵢ₊₁) + log(qᵢ⁻¹qᵢ₋₁))/4), the end keys
/// repeated.
fn inner_rotations(keys: &[UnitQuaternion<f64>]) -> Vec<UnitQuaternion<f64>> {
    let n = keys.len();
    (0..n)
        .map(|i| {
            let inv = keys[i].inverse();
            let next = log(&(inv * keys[(i + 1).min(n - 1)]));
            let prev = log(&(inv * keys[i.saturating_sub(1)]));
            keys[i] * exp(&(-(next + prev) / 4.0))
        })
        .collect()
}

/// The logarithm of a unit quaternion: the half-angle rotation vector (angle/2 · axis).
fn log(q: &UnitQuaternion<f64>) -> Vector3<f64> {
    let v = q.as_ref().imag();
    let n = v.norm();
    if n < 1e-15 {
        return v;
    }
    v * (n.atan2(q.as_ref().w) / n)
}

/// The exponential of a pure quaternion given by its vector part.
fn exp(v: &Vector3<f64>) -> UnitQuaternion<f64> {
    let n = v.norm();
    let (sin, cos) = n.sin_cos();
    let scale = if n < 1e-15 { 1.0 } else { sin / n };
    UnitQuaternion::new_normalize(Quaternion::from_parts(cos, v * scale))
}

/// Spherical linear interpolation from `a` to `b` as the quaternions stand (the caller chose
/// their signs: the keys are aligned so that this is the shorter arc).
pub fn slerp(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>, t: f64) -> UnitQuaternion<f64> {
    let d = a.coords.dot(&b.coords).clamp(-1.0, 1.0);
    if d > 1.0 - 1e-12 {
        return UnitQuaternion::new_normalize(Quaternion::from(a.coords.lerp(&b.coords, t)));
    }
    let theta = d.acos();
    let sin = theta.sin();
    if sin < 1e-12 {
        // Opposite quaternions: the same rotation, no arc to follow.
        return *a;
    }
    let (wa, wb) = (((1.0 - t) * theta).sin() / sin, (t * theta).sin() / sin);
    UnitQuaternion::new_normalize(Quaternion::from(a.coords * wa + b.coords * wb))
}
