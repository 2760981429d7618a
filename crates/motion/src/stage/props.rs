//! Where each prop is on every frame of a sequence: moved by its keys until someone grips it, then
//! carried by the holder's site, then left where it is let go.
//!
//! A hold is a relation over a frame range, and what must be continuous is the held thing's
//! world pose at the switch frame (Blender's Child Of and Maya's parent constraints pop there
//! unless the user keys the visual transform by hand). So the offset between the prop and the
//! holder is taken from the world poses *at the grip frame*: on that frame the prop is exactly
//! where it was going to be, and from then on it keeps that offset to the holder's site, position
//! and orientation. A hand-over is a grip while held: the new offset is taken from where the first
//! holder has it on that frame. A release keeps the pose of its frame.

use marionette_document::{Cue, Hold, Prop, PropKey, SiteRef};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use crate::interpolate::slerp;

/// A prop's placement at `frame` from its keys (linear position, slerped rotation; before the
/// first key and after the last, that key's).
pub fn keyed_place(keys: &[PropKey], frame: i64) -> Isometry3<f64> {
    let after = keys.partition_point(|k| k.frame <= frame);
    if after == 0 {
        return keys[0].place.isometry();
    }
    if after == keys.len() {
        return keys[after - 1].place.isometry();
    }
    let (a, b) = (&keys[after - 1], &keys[after]);
    let u = (frame - a.frame) as f64 / (b.frame - a.frame) as f64;
    let (pa, pb) = (a.place.isometry(), b.place.isometry());
    let t: Vector3<f64> = pa.translation.vector.lerp(&pb.translation.vector, u);
    // The shorter arc: q and -q are one rotation.
    let rb = if pa.rotation.coords.dot(&pb.rotation.coords) < 0.0 {
        UnitQuaternion::new_unchecked(-pb.rotation.into_inner())
    } else {
        pb.rotation
    };
    Isometry3::from_parts(Translation3::from(t), slerp(&pa.rotation, &rb, u))
}

/// Where the prop is when nobody holds it and nothing has: its keys in the cue, else its place.
pub fn free_place(prop_index: usize, prop: &Prop, cue: Option<&Cue>, frame: i64) -> Isometry3<f64> {
    cue.and_then(|c| c.tracks.iter().find(|t| t.prop == prop_index))
        .map_or_else(|| prop.place.isometry(), |t| keyed_place(&t.keys, frame))
}

/// Who has the prop.
#[derive(Debug, Clone, Copy)]
enum State {
    /// Its keys (or its place).
    Free,
    /// A site, with the prop's pose in the site's frame.
    Held(SiteRef, Isometry3<f64>),
    /// Let go: stays here.
    Left(Isometry3<f64>),
}

/// The prop's world pose on every frame `first..=last`, given `site_frame(site, frame)`: a
/// site's world frame (its position, its joint's orientation) on a frame of the bake.
pub fn prop_track(
    prop_index: usize,
    prop: &Prop,
    cue: Option<&Cue>,
    (first, last): (i64, i64),
    site_frame: &dyn Fn(SiteRef, i64) -> Isometry3<f64>,
) -> Vec<Isometry3<f64>> {
    let holds: Vec<Hold> = cue
        .map(|c| {
            c.holds
                .iter()
                .filter(|h| h.prop() == prop_index)
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let mut state = State::Free;
    let mut next = 0;
    let mut out = Vec::with_capacity((last - first + 1).max(0) as usize);
    // Holds before the range still decide the state it starts in.
    let start = holds.first().map_or(first, |h| h.frame().min(first));
    for frame in start..=last {
        let here = |state: &State| match *state {
            State::Free => free_place(prop_index, prop, cue, frame),
            State::Held(site, offset) => site_frame(site, frame) * offset,
            State::Left(pose) => pose,
        };
        while next < holds.len() && holds[next].frame() == frame {
            let pose = here(&state);
            state = match holds[next] {
                Hold::Grip { by, .. } => State::Held(by, site_frame(by, frame).inverse() * pose),
                Hold::Release { .. } => State::Left(pose),
            };
            next += 1;
        }
        if frame >= first {
            out.push(here(&state));
        }
    }
    out
}
