//! Where contacts are planted so that one foot can hold them together, and which of two it
//! cannot hold together gives way.

use marionette_skeleton::Chain;
use nalgebra::Vector3;

use crate::contacts::Contact;

/// Makes the plants of one foot agree with each other. Two points of a foot (a heel and a toe:
/// points whose locks move a joint in common) that stand at once must be held where the foot's
/// shape lets them both be: a contact that begins while another point of its foot stands, or
/// within `easing` frames of its end (their locks then ease in and out over the same frames),
/// is planted where that one is planted plus the offset between the two points over the frames
/// they share (or, sharing none, on its first frame), instead of at its own mean, which the
/// foot, rolling from heel to toe or back, could not reach together with the other's. Of
/// several, the one sharing the most frames; contacts are taken in order of time.
pub(super) fn plant_feet_whole(
    limbs: &[Chain],
    paths: &[Vec<Vector3<f64>>],
    easing: usize,
    found: &mut [(usize, Contact)],
) {
    let same_foot = |i: usize, j: usize| same_foot(limbs, i, j);
    for k in 0..found.len() {
        let (i, c) = found[k];
        // (frames shared, the other contact)
        let near = |&(j, d): &(usize, Contact)| {
            let shared = c.last.min(d.last) as i64 - c.first.max(d.first) as i64 + 1;
            (j != i && same_foot(i, j) && shared > -(easing as i64)).then_some((shared, j, d))
        };
        let Some((_, j, d)) = found[..k].iter().filter_map(near).max_by_key(|o| o.0) else {
            continue;
        };
        // The mean offset's direction at the mean distance: the foot may turn while both
        // stand, which shortens the mean of the offsets but never the distance between them.
        let (from, to) = (c.first.max(d.first), c.last.min(d.last));
        let offsets: Vec<Vector3<f64>> = (from..=to.max(from))
            .map(|f| paths[i][f] - paths[j][f])
            .collect();
        let n = offsets.len() as f64;
        let mean = offsets.iter().sum::<Vector3<f64>>() / n;
        let distance = offsets.iter().map(|o| o.norm()).sum::<f64>() / n;
        let offset = mean.try_normalize(1e-12).map_or(mean, |u| u * distance);
        found[k].1.planted = d.planted + offset;
    }
}

/// Whether points `i` and `j` are on one foot: their locks' limbs share a DOF.
fn same_foot(limbs: &[Chain], i: usize, j: usize) -> bool {
    limbs[i].columns().iter().any(|&c| limbs[j].contains(c))
}

/// The contacts (indices into `found`) whose locks are dropped: of two contacts of one foot
/// that overlap and that the bake did not hold (`slid`), the one whose limb is longer (a toe
/// under a heel): the foot could not hold both, and trying pulls both off and makes the leg
/// jump where one of them lets go. Each dropped contact gets the index of the one it gave way to.
pub(super) fn conflicts(
    limbs: &[Chain],
    found: &[(usize, Contact)],
    slid: &[bool],
) -> Vec<Option<usize>> {
    let mut gave_way = vec![None; found.len()];
    for k in 0..found.len() {
        for m in k + 1..found.len() {
            let ((i, c), (j, d)) = (found[k], found[m]);
            let overlap = c.first.max(d.first) <= c.last.min(d.last);
            if slid[k]
                && slid[m]
                && gave_way[k].is_none()
                && gave_way[m].is_none()
                && i != j
                && overlap
                && same_foot(limbs, i, j)
            {
                if limbs[i].columns().len() > limbs[j].columns().len() {
                    gave_way[k] = Some(m);
                } else {
                    gave_way[m] = Some(k);
                }
            }
        }
    }
    gave_way
}
