//! What is derived from the document, computed once when it changes (Bevy's change detection,
//! not memo keys) and read by the panels, the gizmos and replays: the locks' violations and
//! which hold now ([`LockStatus`]), the selected limb's swivel ([`SelectedLimb`]) and the shown
//! sequence baked ([`BakedStrip`]).

use bevy::prelude::*;
use marionette_document::Violation;
use marionette_editing::swivel::{LimbSwivel, limb_of, measure};
use marionette_ik::analytic::limb::Limb;

use crate::EditorSet;
use crate::beside::BesideState;
use crate::resources::OpenDocument;
use crate::selection::Selection;

/// The locks at the current pose.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LockStatus {
    /// Each lock's violation, in document order.
    pub violations: Vec<Violation>,
    /// Each lock: whether it holds now (enabled, and on the current frame while a sequence is
    /// shown).
    pub holding: Vec<bool>,
    /// The worst violation among the locks holding now: (lock index, violation).
    pub worst: Option<(usize, Violation)>,
}

/// The selected limb's swivel, measured at the current pose (`None` when the selection is not
/// on an arm or a leg).
#[derive(Resource, Default)]
pub struct SelectedLimb {
    /// The measurement, or why it failed.
    pub measured: Option<Result<LimbSwivel, String>>,
    /// The limb of the selected joint, found once per document and joint.
    limb: Option<(u64, usize, Option<Limb>)>,
}

/// Every frame's largest lock error of the shown sequence and every frame's pose, baked when the
/// sequence, the locks or the shown sequence change (the violation strip, the flipbook, the
/// onion skins).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BakedStrip {
    /// What it was baked from: the document, the revision of its locks and sequences, the
    /// sequence shown.
    source: Option<(u64, u64, usize)>,
    /// (frame, largest lock error) for every frame from the first key to the last.
    pub errors: Vec<(i64, f64)>,
    /// Every frame's pose (for the flipbook and onion skins).
    pub poses: Vec<Vec<f64>>,
}

/// The motion trails shown, as last made from the document (drawn by the gizmos, gripped by
/// [`crate::drag`]).
#[derive(Resource, Debug, Default)]
pub struct TrailPaths {
    /// What they were made from: the document, the revision of its locks and sequences, the
    /// sequence shown, the trails asked for (a drag moving the pose changes none of these).
    source: Option<TrailSource>,
    /// The trails.
    pub trails: Vec<marionette_editing::trail::Trail>,
}

/// What the trails are made from.
type TrailSource = (
    u64,
    u64,
    Option<usize>,
    Vec<marionette_editing::trail::ShownTrail>,
);

/// Makes the motion trails again when what they are made from changed.
fn make_trails(
    document: Res<OpenDocument>,
    beside: Res<BesideState>,
    mut paths: ResMut<TrailPaths>,
) {
    let source = (
        document.id(),
        document.history().motion_revision(),
        document.current_sequence(),
        beside.trails.of(&document).copied().collect(),
    );
    if paths.source.as_ref() == Some(&source) {
        return;
    }
    paths.trails = document.trails(&beside.trails);
    paths.source = Some(source);
}

/// Derives what the document implies.
pub struct DerivedPlugin;

impl Plugin for DerivedPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LockStatus>()
            .init_resource::<SelectedLimb>()
            .init_resource::<BakedStrip>()
            .init_resource::<TrailPaths>()
            .add_systems(
                Update,
                (
                    lock_status.run_if(resource_changed::<OpenDocument>),
                    selected_limb.run_if(
                        resource_changed::<OpenDocument>.or_eager(resource_changed::<Selection>),
                    ),
                    baked_strip.run_if(resource_changed::<OpenDocument>),
                    make_trails.run_if(
                        resource_changed::<OpenDocument>.or_eager(resource_changed::<BesideState>),
                    ),
                )
                    .in_set(EditorSet::Derive),
            );
    }
}

/// The locks' violations, which hold now, and the worst of those.
fn lock_status(document: Res<OpenDocument>, mut status: ResMut<LockStatus>) {
    let frame = document.lock_frame();
    let violations = document.lock_violations();
    let holding: Vec<bool> = document
        .locks()
        .iter()
        .map(|l| l.active_at(frame))
        .collect();
    let worst = violations
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| holding[*i])
        .max_by(|a, b| a.1.largest().total_cmp(&b.1.largest()));
    status.set_if_neq(LockStatus {
        violations,
        holding,
        worst,
    });
}

/// The selected limb's swivel, measured again when the selection or the pose changed.
fn selected_limb(
    document: Res<OpenDocument>,
    selection: Res<Selection>,
    mut limb: ResMut<SelectedLimb>,
) {
    let Some(joint) = selection.joint(&document) else {
        if limb.measured.is_some() {
            limb.measured = None;
        }
        return;
    };
    // Which limb depends on the skeleton and the joint only; the swivel on the pose.
    let key = (document.id(), joint.index());
    let found = match &limb.limb {
        Some((id, j, found)) if (*id, *j) == key => found.clone(),
        _ => {
            let found = limb_of(document.skeleton(), joint);
            limb.limb = Some((key.0, key.1, found.clone()));
            found
        }
    };
    limb.measured = found.as_ref().map(|l| measure(&document, l));
}

/// Re-bakes the shown sequence when it, its locks or the document changed.
pub(crate) fn baked_strip(document: Res<OpenDocument>, mut strip: ResMut<BakedStrip>) {
    let Some(index) = document.current_sequence() else {
        if strip.source.is_some() {
            *strip = BakedStrip::default();
        }
        return;
    };
    let source = (document.id(), document.history().motion_revision(), index);
    if strip.source == Some(source) {
        return;
    }
    let frames = document.bake_sequence(index);
    *strip = BakedStrip {
        source: Some(source),
        errors: frames
            .iter()
            .map(|f| {
                let worst = f.lock_errors.iter().map(|e| e.1).fold(0.0, f64::max);
                (f.frame, worst)
            })
            .collect(),
        poses: frames.into_iter().map(|f| f.q).collect(),
    };
}
