//! What a cleanup reports: per contact how far it slid before and after and, when it slides,
//! why (the joints of its leg at a limit, how far out of reach); per point the steps where a
//! lock takes or lets go.

use marionette_document::{Lock, Sequence};
use marionette_skeleton::{Fk, JointId, Skeleton};
use nalgebra::Vector3;

use super::let_go::LetGo;
use super::point::{ContactPoint, HELD_WITHIN};
use crate::contacts::{Contact, ContactThresholds};

/// One contact as found and as held.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactReport {
    /// The point's name.
    pub point: String,
    /// The lock holding it.
    pub lock: String,
    /// When its foot could not hold it together with another contact of the foot (both slid
    /// with both locked), the other one's lock: this one is then not locked (and not held).
    pub gave_way_to: Option<String>,
    /// Its frames (sequence frame numbers, inclusive).
    pub frames: (i64, i64),
    /// The farthest the point was from where it is planted over those frames, before (metres).
    pub slide_before: f64,
    /// The same after the cleanup.
    pub slide_after: f64,
    /// When it slides after the cleanup: on the frame it slides most, the joints of the lock's
    /// limb with a DOF at one of its limits (what keeps the leg from reaching).
    pub at_limits: Vec<String>,
    /// When it slides after the cleanup: on the frame it slides most, how much further the
    /// target is from the top of the lock's limb than the limb, stretched straight, reaches
    /// (metres; negative: that much short of full stretch).
    pub beyond_reach: Option<f64>,
    /// The most the hips were lowered over its frames so the leg could reach it (metres).
    pub lowered: f64,
    /// When its lock ends before it does, so that a point of its foot stays above the floor
    /// (the heel lifting in a crouch deeper than the ankle folds): from when, and for which
    /// point.
    pub let_go: Option<LetGo>,
}

impl ContactReport {
    /// Whether the cleanup held it (locked, and slid at most [`HELD_WITHIN`]).
    pub fn held(&self) -> bool {
        self.gave_way_to.is_none() && self.slide_after <= HELD_WITHIN
    }
}

/// Per point, the steps it takes between two frames.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeSteps {
    /// The point's name.
    pub point: String,
    /// Its largest step between two frames anywhere in the sequence before the cleanup
    /// (metres): the capture's own.
    pub largest_before: f64,
    /// Its largest step after the cleanup on the frames where a lock takes or lets it go (the
    /// blend frames either side of each contact and the contact's first and last frame).
    pub largest_at_edges: f64,
    /// The most a step there grew over the same step before (metres)…
    pub largest_extra_at_edges: f64,
    /// … on this frame (the step from the frame before to it).
    pub largest_extra_frame: i64,
}

/// What a cleanup made.
#[derive(Debug, Clone, PartialEq)]
pub struct Cleaned {
    /// The document's locks after the cleanup: those it had (without the points' earlier
    /// contact locks), then one per contact.
    pub locks: Vec<Lock>,
    /// The earlier contact locks dropped.
    pub replaced: usize,
    /// Each contact, in the order of the points, then of time.
    pub contacts: Vec<ContactReport>,
    /// Per point, its steps.
    pub steps: Vec<EdgeSteps>,
    /// The thresholds the contacts were found with.
    pub thresholds: ContactThresholds,
    /// Frames baked.
    pub frames: usize,
    /// The sequence with its root moved: raised where a foot went below the floor, lowered
    /// where a leg could not reach where its foot is planted. The locks are for it.
    pub sequence: Sequence,
    /// Per frame baked, how far the root was moved up (negative: down; metres).
    pub pelvis: Vec<f64>,
    /// After the cleanup, the most a foot point is below its height at rest on any frame
    /// (metres; 0 when none is).
    pub below_floor: f64,
    /// The floor locks added (a foot point kept above the floor where its foot rolled into
    /// it; named `<point> floor <first>–<last>`, after the contact locks in `locks`).
    pub floor_locks: usize,
}

impl Cleaned {
    /// The contacts the cleanup could not hold.
    pub fn not_held(&self) -> impl Iterator<Item = &ContactReport> {
        self.contacts.iter().filter(|c| !c.held())
    }

    /// The most the root was raised (metres, ≥ 0).
    pub fn most_raised(&self) -> f64 {
        self.pelvis.iter().copied().fold(0.0, f64::max)
    }

    /// The most the root was lowered (metres, ≥ 0).
    pub fn most_lowered(&self) -> f64 {
        self.pelvis.iter().map(|p| -p).fold(0.0, f64::max)
    }

    /// The largest change of the root's move between two frames (metres).
    pub fn steepest_pelvis_step(&self) -> f64 {
        self.pelvis
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f64::max)
    }
}

/// The joints of `lock`'s limb with a DOF at one of its limits in state `q`.
pub(super) fn at_limits(skeleton: &Skeleton, lock: &Lock, q: &[f64]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &c in lock.limb().columns() {
        let Some(d) = skeleton.dof_at_state(c) else {
            continue;
        };
        let dof = skeleton.dof(d);
        let margin = 1e-6 * (dof.max - dof.min).abs().max(1e-9);
        let limited = !dof.unlimited && (q[c] <= dof.min + margin || q[c] >= dof.max - margin);
        let name = &skeleton.joint(dof.joint).name;
        if limited && !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// How much further `target` is from the top joint of `lock`'s limb than `point` can be, the
/// limb stretched straight (state `q` gives the limb's segments; negative when within reach).
pub(super) fn beyond_reach(
    skeleton: &Skeleton,
    point: &ContactPoint,
    lock: &Lock,
    q: &[f64],
    target: &Vector3<f64>,
) -> f64 {
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, q);
    let joints: Vec<JointId> = lock
        .limb()
        .columns()
        .iter()
        .filter_map(|&c| skeleton.dof_at_state(c))
        .map(|d| skeleton.dof(d).joint)
        .collect();
    let mut reach = (fk.point(point.joint, &point.offset) - fk.joint_position(point.joint)).norm();
    let mut at = point.joint;
    while let Some(parent) = skeleton.joint(at).parent {
        if !joints.contains(&at) {
            break;
        }
        reach += (fk.joint_position(at) - fk.joint_position(parent)).norm();
        at = parent;
    }
    // `at` is now the joint above the limb's top: the limb turns about the top joint's origin,
    // the segment from `at` to it being fixed.
    let top = skeleton
        .joint_ids()
        .find(|&j| joints.contains(&j) && skeleton.joint(j).parent == Some(at))
        .unwrap_or(point.joint);
    reach -= (fk.joint_position(top) - fk.joint_position(at)).norm();
    (target - fk.joint_position(top)).norm() - reach
}

/// Per point, its largest step before the cleanup and, on the frames where one of its contact
/// locks takes or lets it go, its largest step after and the most a step grew. `paths` are the
/// points' paths before and after; `found` the contacts (point index, contact) and `locks`
/// their locks, in the same order (`None`: not locked).
pub(super) fn edge_steps(
    points: &[ContactPoint],
    [before, after]: [&[Vec<Vector3<f64>>]; 2],
    found: &[(usize, Contact)],
    locks: &[Option<Lock>],
    first_frame: i64,
) -> Vec<EdgeSteps> {
    let step = |path: &[Vector3<f64>], f: usize| (path[f] - path[f - 1]).norm();
    points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let largest_before = (1..before[i].len())
                .map(|f| step(&before[i], f))
                .fold(0.0, f64::max);
            let edges = found
                .iter()
                .zip(locks)
                .filter(|&(&(j, _), _)| j == i)
                .filter_map(|(_, lock)| {
                    let lock = lock.as_ref()?;
                    let (a, b) = lock.frames()?;
                    let at = |f: i64| (f - first_frame).max(0) as usize;
                    Some((at(a), at(b), lock.blend() as usize + 1))
                })
                .flat_map(|(a, b, reach)| (a.saturating_sub(reach)..=a).chain(b..=b + reach))
                .filter(|&f| f >= 1 && f < after[i].len());
            let (mut at_edges, mut extra, mut extra_at) = (0.0f64, 0.0f64, 0);
            for f in edges {
                at_edges = at_edges.max(step(&after[i], f));
                let grew = step(&after[i], f) - step(&before[i], f);
                if grew > extra {
                    (extra, extra_at) = (grew, f);
                }
            }
            EdgeSteps {
                point: p.name.clone(),
                largest_before,
                largest_at_edges: at_edges,
                largest_extra_at_edges: extra,
                largest_extra_frame: first_frame + extra_at as i64,
            }
        })
        .collect()
}
