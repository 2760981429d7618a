//! What a retarget works out once, from the capture's rest and the target's reference: per
//! mapped bone, the next bone of its chain, the directions it is lined up by and the rotation
//! that lines it up ([`Alignment`]).

use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Matrix3, Vector3};

use super::parts::{MappedBone, RetargetError, between, is_above, keeps_its_pitch, next_bone};
use crate::character::humanoid::{HumanBone, Humanoid};

/// Per mapped bone, in the map's order: how the capture's rotations are carried onto it.
pub(super) struct Alignment {
    /// The next mapped bone of its chain (an index into the map).
    pub next: Vec<Option<usize>>,
    /// The target's rest direction towards the next bone (zero for an end bone).
    pub rest_direction: Vec<Vector3<f64>>,
    /// The capture's rest direction its own is turned onto (`None` for an end bone).
    pub aligned_to: Vec<Option<Vector3<f64>>>,
    /// Its alignment: the target turned to face where the capture faces, then its rest
    /// direction onto the capture's.
    pub rotation: Vec<Matrix3<f64>>,
    /// The capture bone's world rotation at the capture's rest.
    pub reference: Vec<Matrix3<f64>>,
    /// The target bone's world rotation at the target's reference.
    pub target_rest_world: Vec<Matrix3<f64>>,
}

/// The alignment of every bone of `map`, from the capture (`fc` at its rest) and the target
/// (`ft` at its reference), whose humanoids are `hc` and `ht`.
pub(super) fn align(
    map: &[MappedBone],
    (hc, ht): (&Humanoid, &Humanoid),
    fc: &Fk,
    (target, ft): (&Skeleton, &Fk),
) -> Result<Alignment, RetargetError> {
    let mapped = |bone: HumanBone| map.iter().any(|m| m.bone == bone);
    // The target turned to face where the capture faces.
    let facing = {
        let flat = |v: Vector3<f64>, up: &Vector3<f64>| v - up * v.dot(up);
        let from = flat(ht.forward, &hc.up);
        let to = flat(hc.forward, &hc.up);
        between(&ht.up, &hc.up) * between(&from, &to)
    };
    let next: Vec<Option<usize>> = map
        .iter()
        .map(|m| {
            let n = next_bone(m.bone, &mapped)?;
            map.iter().position(|x| x.bone == n)
        })
        .collect();
    let rest_direction: Vec<Vector3<f64>> = map
        .iter()
        .zip(&next)
        .map(|(m, n)| {
            n.map_or_else(Vector3::zeros, |n| {
                ft.joint_position(map[n].target) - ft.joint_position(m.target)
            })
        })
        .collect();
    // The capture's bone towards its next one, except for a foot, which is turned about the
    // vertical only (its pitch kept): both figures stand flat-footed at their rests, so a foot
    // flat in the capture stays flat on the figure whatever way its bone points (towards the
    // ball of the foot, or into the floor as RiggedFigure's does), rather than pitched by the
    // difference.
    let aligned_to: Vec<Option<Vector3<f64>>> = map
        .iter()
        .zip(&next)
        .enumerate()
        .map(|(k, (m, n))| {
            let dc = fc.joint_position(map[(*n)?].capture) - fc.joint_position(m.capture);
            if !keeps_its_pitch(m.bone) {
                return Some(dc);
            }
            let own = facing * rest_direction[k];
            let flat = |v: &Vector3<f64>| v - hc.up * v.dot(&hc.up);
            Some(
                match (
                    flat(&own).try_normalize(1e-6),
                    flat(&dc).try_normalize(1e-6),
                ) {
                    (Some(from), Some(to)) => between(&from, &to) * own,
                    _ => own,
                },
            )
        })
        .collect();
    let mut rotation: Vec<Matrix3<f64>> = Vec::with_capacity(map.len());
    for (k, m) in map.iter().enumerate() {
        let a = match aligned_to[k] {
            Some(dc) => between(&(facing * rest_direction[k]), &dc) * facing,
            // An end bone lines up as its parent bone does.
            None => (0..k)
                .rev()
                .find(|&i| is_above(target, map[i].target, m.target))
                .map_or(facing, |i| rotation[i]),
        };
        rotation.push(a);
    }
    if let Some(k) = (0..map.len()).find(|&k| !finite(&rotation[k])) {
        return Err(RetargetError::Degenerate {
            bone: map[k].bone.vrm_name(),
            frame: None,
        });
    }
    Ok(Alignment {
        next,
        rest_direction,
        aligned_to,
        rotation,
        reference: map.iter().map(|m| *fc.joint_rotation(m.capture)).collect(),
        target_rest_world: map.iter().map(|m| *ft.joint_rotation(m.target)).collect(),
    })
}

/// Whether every entry of `m` is a finite number.
pub(super) fn finite(m: &Matrix3<f64>) -> bool {
    m.iter().all(|v| v.is_finite())
}
