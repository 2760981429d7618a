//! The smaller things the document holds beside its figure: how the last foot-contact search
//! moved the hips, the group a linked drag moves, and the size the rotate handles are drawn at.

use marionette_document::GoalSet;
use marionette_motion::stage::Merged;
use nalgebra::Vector3;

/// How the last Find foot contacts moved a sequence's hips, for the motion plot: per frame from
/// `first`, how far the root went up (negative: down), while the sequence's keys are still the
/// ones it wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct HipsMoved {
    /// The sequence.
    pub sequence: String,
    /// The first frame.
    pub first: i64,
    /// Per frame, the root's move up (metres).
    pub change: Vec<f64>,
    /// The keys' root heights it wrote.
    pub(crate) heights: Vec<f64>,
}

/// The figures a change of the edited figure moves with it, solved as one skeleton.
#[derive(Debug, Clone)]
pub(crate) struct LinkedGroup {
    /// The group as one skeleton; slot order is stage order.
    pub(crate) merged: Merged,
    /// The edited figure's slot.
    pub(crate) me: usize,
    /// Welman's per-joint weights of the merged skeleton (each figure's own, as edited).
    pub(crate) stiffness: Vec<f64>,
    /// The links holding now and the locks they can disturb, on the merged skeleton.
    pub(crate) held: GoalSet,
    /// The priority the edit's goal takes: below every lock and link.
    pub(crate) edit_priority: u32,
    /// Every member's pose when the group was made (stage index, state): a drag's "before".
    pub start: Vec<(usize, Vec<f64>)>,
}

/// The diagonal of the box around the figure's joints and sites at rest (m, at least 1 cm):
/// what the handles are sized by, the same whatever the pose.
pub fn figure_size(skeleton: &marionette_skeleton::Skeleton) -> f64 {
    let mut fk = marionette_skeleton::Fk::new(skeleton);
    fk.update(skeleton, &marionette_skeleton::Pose::rest(skeleton).q);
    let points = skeleton
        .joint_ids()
        .map(|j| fk.joint_position(j))
        .chain(skeleton.site_ids().map(|s| fk.site_position(s)));
    let (lo, hi) = points.fold(
        (
            Vector3::repeat(f64::INFINITY),
            Vector3::repeat(f64::NEG_INFINITY),
        ),
        |(lo, hi), p| (lo.inf(&p), hi.sup(&p)),
    );
    (hi - lo).norm().max(0.01)
}
