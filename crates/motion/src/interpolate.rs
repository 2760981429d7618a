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
//! A key may set the span after it apart: `Step` holds its pose until the next key, `Linear`
//! is slerp with a straight root, `Smooth` squad with a Catmull-Rom root, whatever the
//! sequence says; and its `ease` bends the span's time u towards 3u² − 2u³ (slow out of the
//! key, slow into the next).

use marionette_document::{KeyInterpolation, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::joint_rotation::{HingeLayout, JointRotations};
use marionette_skeleton::{DofKind, JointId, ROOT_STATE_LEN, Skeleton};
use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use crate::root_curve::RootCurve;

/// A joint with two or more hinges: its rotation at every key, and the inner points for squad.
#[derive(Debug, Clone)]
struct JointTrack {
    joint: JointId,
    keys: Vec<UnitQuaternion<f64>>,
    inner: Vec<UnitQuaternion<f64>>,
}

/// A sequence made ready to be sampled at any frame.
#[derive(Debug, Clone)]
pub struct Interpolator {
    frames: Vec<i64>,
    poses: Vec<Vec<f64>>,
    rotation: RotationInterpolation,
    root: RootCurve,
    rotations: JointRotations,
    tracks: Vec<JointTrack>,
    /// State indices of single hinges: their values per key (unwrapped the shorter way for an
    /// unlimited hinge) and, for squad, the inner values.
    singles: Vec<(usize, Vec<f64>, Vec<f64>)>,
    /// State indices of unlimited hinges (their reference goes the shorter way round).
    unlimited: Vec<bool>,
    /// Per key, how the span after it goes (its own interpolation, else the sequence's) and
    /// its ease.
    spans: Vec<(Option<KeyInterpolation>, f64)>,
    /// The root's Catmull-Rom curve, for the spans of `Smooth` keys (when there are any).
    smooth_root: Option<RootCurve>,
}

/// A span's time `u` eased in and out by `ease` (0: as it is, 1: 3u² − 2u³).
fn eased(u: f64, ease: f64) -> f64 {
    u + ease * (u * u * (3.0 - 2.0 * u) - u)
}

impl Interpolator {
    /// The interpolator of `sequence` (whose keys are poses of `skeleton`; at least one key).
    pub fn new(skeleton: &Skeleton, sequence: &Sequence) -> Interpolator {
        let frames: Vec<i64> = sequence.keys.iter().map(|k| k.frame).collect();
        let poses: Vec<Vec<f64>> = sequence.keys.iter().map(|k| k.pose.q.clone()).collect();
        let rotations = JointRotations::new(skeleton);
        let points: Vec<Vector3<f64>> = poses
            .iter()
            .map(|q| Vector3::new(q[0], q[1], q[2]))
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
        let mut tracks = Vec::new();
        let mut singles = Vec::new();
        for j in skeleton.joint_ids() {
            match rotations.layout(j) {
                HingeLayout::None => {}
                HingeLayout::Single(s) => {
                    let values = single_values(skeleton, *s, &poses);
                    let inner = inner_values(&values);
                    singles.push((*s, values, inner));
                }
                HingeLayout::Triple { .. } | HingeLayout::General(_) => {
                    let mut keys: Vec<UnitQuaternion<f64>> = Vec::with_capacity(poses.len());
                    for q in &poses {
                        let mut r = rotations.rotation(skeleton, j, q);
                        if let Some(prev) = keys.last()
                            && prev.coords.dot(&r.coords) < 0.0
                        {
                            r = UnitQuaternion::new_unchecked(-r.into_inner());
                        }
                        keys.push(r);
                    }
                    let inner = inner_rotations(&keys);
                    tracks.push(JointTrack {
                        joint: j,
                        keys,
                        inner,
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
            root,
            rotations,
            tracks,
            singles,
            unlimited,
            spans,
            smooth_root,
        }
    }

    /// The first and last key frames.
    pub fn range(&self) -> (i64, i64) {
        (
            self.frames[0],
            *self.frames.last().expect("at least one key"),
        )
    }

    /// The interpolated pose at `frame` into `q` (resized to the state length).
    pub fn pose_at(&self, skeleton: &Skeleton, frame: i64, q: &mut Vec<f64>) {
        let i = match self.frames.binary_search(&frame) {
            Ok(i) => Some(i),
            Err(0) => Some(0),
            Err(i) if i == self.frames.len() => Some(i - 1),
            Err(_) => None,
        };
        if let Some(i) = i {
            q.clone_from(&self.poses[i]);
            return;
        }
        let i = self.frames.partition_point(|&f| f <= frame) - 1;
        let (kind, ease) = self.spans[i];
        if kind == Some(KeyInterpolation::Step) {
            q.clone_from(&self.poses[i]);
            return;
        }
        let (fa, fb) = (self.frames[i], self.frames[i + 1]);
        let u = eased((frame - fa) as f64 / (fb - fa) as f64, ease);
        let (a, b) = (&self.poses[i], &self.poses[i + 1]);
        q.resize(a.len(), 0.0);
        // The reference: each value on its own, linearly (the shorter way for unlimited hinges).
        for (k, out) in q.iter_mut().enumerate().skip(ROOT_STATE_LEN) {
            let delta = if self.unlimited[k] {
                marionette_skeleton::angles::wrap_angle(b[k] - a[k])
            } else {
                b[k] - a[k]
            };
            *out = a[k] + u * delta;
        }
        let root = match (kind, &self.smooth_root) {
            (Some(KeyInterpolation::Linear), _) => {
                let (ra, rb) = (
                    Vector3::new(a[0], a[1], a[2]),
                    Vector3::new(b[0], b[1], b[2]),
                );
                ra + (rb - ra) * u
            }
            (Some(KeyInterpolation::Smooth), Some(curve)) => curve.at(i, u),
            _ => self.root.at(i, u),
        };
        q[..ROOT_STATE_LEN].copy_from_slice(root.as_slice());
        let squad = match kind {
            Some(KeyInterpolation::Linear) => false,
            Some(KeyInterpolation::Smooth) => true,
            _ => self.rotation == RotationInterpolation::Squad,
        };
        for (s, values, inner) in &self.singles {
            let line = values[i] + u * (values[i + 1] - values[i]);
            let value = if squad {
                let inner_line = inner[i] + u * (inner[i + 1] - inner[i]);
                line + (inner_line - line) * (2.0 * u * (1.0 - u))
            } else {
                line
            };
            let dof = &skeleton.dofs()[s - ROOT_STATE_LEN];
            q[*s] = if dof.unlimited {
                marionette_skeleton::angles::wrap_angle(value)
            } else {
                dof.clamp(value)
            };
        }
        for track in &self.tracks {
            let (ra, rb) = (&track.keys[i], &track.keys[i + 1]);
            let target = if squad {
                let outer = slerp(ra, rb, u);
                let inner = slerp(&track.inner[i], &track.inner[i + 1], u);
                slerp(&outer, &inner, 2.0 * u * (1.0 - u))
            } else {
                slerp(ra, rb, u)
            };
            self.rotations.read_back(skeleton, track.joint, &target, q);
        }
    }
}

/// A single hinge's value at each key; for an unlimited hinge each step is taken the shorter
/// way round from the previous key, so the values may leave (−π, π].
fn single_values(skeleton: &Skeleton, s: usize, poses: &[Vec<f64>]) -> Vec<f64> {
    let unlimited = skeleton.dofs()[s - ROOT_STATE_LEN].unlimited;
    let mut out: Vec<f64> = Vec::with_capacity(poses.len());
    for q in poses {
        let v = match out.last() {
            Some(&prev) if unlimited => prev + marionette_skeleton::angles::wrap_angle(q[s] - prev),
            _ => q[s],
        };
        out.push(v);
    }
    out
}

/// Squad's inner points for angles about one axis: cᵢ = aᵢ − ((aᵢ₊₁ − aᵢ) + (aᵢ₋₁ − aᵢ))/4,
/// the end values repeated.
fn inner_values(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    (0..n)
        .map(|i| {
            let (before, after) = (values[i.saturating_sub(1)], values[(i + 1).min(n - 1)]);
            values[i] - ((after - values[i]) + (before - values[i])) / 4.0
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
