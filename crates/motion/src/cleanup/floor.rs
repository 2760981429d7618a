//! Feet on the floor: the points of a figure's feet never go below where they are when the
//! figure stands at rest. Where a retargeted figure cannot fold its legs as the performer did
//! (a squat deeper than its knees' limits, legs longer for its hips than the performer's), its
//! feet would go through the floor; the hips give way instead: the root is raised on each frame
//! by at least the most any foot point is below its height at rest, smoothed over the frames
//! around (as the hips' lowering is, [`super::pelvis`]), and not at all far from where a foot
//! goes below (MotionBuilder's and HumanIK's floor contact work the same way, on the hips).

use marionette_document::{Key, Sequence};
use marionette_skeleton::{Fk, Skeleton};

use super::point::ContactPoint;

/// The points kept above the floor and the height each stands at when the figure is at rest
/// (its floor).
#[derive(Debug, Clone)]
pub struct FloorPoints {
    points: Vec<ContactPoint>,
    floors: Vec<f64>,
}

impl FloorPoints {
    /// `points` (the feet's contact points), the origins of the joints carrying them and the
    /// origin of each point's foot joint, each once, with their heights in the pose `rest`.
    pub fn new(skeleton: &Skeleton, points: &[ContactPoint], rest: &[f64]) -> FloorPoints {
        let mut all: Vec<ContactPoint> = Vec::new();
        let mut add = |p: ContactPoint| {
            if !all.iter().any(|q| q.is_at(&p)) {
                all.push(p);
            }
        };
        for p in points {
            add(p.clone());
        }
        for p in points {
            // On the point's leg: a lock keeping it above the floor is kept by the leg.
            let on_leg = |c: ContactPoint| match p.leg {
                Some(leg) => c.on_leg(leg),
                None => c,
            };
            add(on_leg(ContactPoint::joint(skeleton, p.joint)));
            if let Some(foot) = p.leg.and_then(|l| l.foot) {
                add(on_leg(ContactPoint::joint(skeleton, foot)));
            }
        }
        let mut fk = Fk::new(skeleton);
        fk.update(skeleton, rest);
        let floors = all.iter().map(|p| fk.point(p.joint, &p.offset).y).collect();
        FloorPoints {
            points: all,
            floors,
        }
    }

    /// The points.
    pub fn points(&self) -> &[ContactPoint] {
        &self.points
    }

    /// Each point's floor: its height at rest.
    pub fn floors(&self) -> &[f64] {
        &self.floors
    }

    /// The height of `point` at rest, if it is one of these points (by joint and offset).
    pub fn floor_of(&self, point: &ContactPoint) -> Option<f64> {
        self.points
            .iter()
            .position(|q| q.is_at(point))
            .map(|i| self.floors[i])
    }

    /// Per frame, how far below its floor each point is (negative: above).
    pub fn depths(&self, skeleton: &Skeleton, frames: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let mut fk = Fk::new(skeleton);
        frames
            .iter()
            .map(|q| {
                fk.update(skeleton, q);
                self.points
                    .iter()
                    .zip(&self.floors)
                    .map(|(p, floor)| floor - fk.point(p.joint, &p.offset).y)
                    .collect()
            })
            .collect()
    }

    /// How far below its floor each frame's lowest point is (0 where every point is on or
    /// above its floor): the raise of the root that puts it back.
    pub fn below(&self, skeleton: &Skeleton, frames: &[Vec<f64>]) -> Vec<f64> {
        self.depths(skeleton, frames)
            .into_iter()
            .map(|d| d.into_iter().fold(0.0, f64::max))
            .collect()
    }
}

/// `sequence` with each key's root moved up by `change` at the key's frame (`change[f]` is for
/// frame `first + f`; keys outside keep the nearest end's).
pub fn root_raised(sequence: &Sequence, first: i64, change: &[f64]) -> Sequence {
    let mut out = sequence.clone();
    raise_keys(&mut out.keys, first, change);
    out
}

/// Moves each key's root up by `change` at the key's frame (as [`root_raised`]).
pub fn raise_keys(keys: &mut [Key], first: i64, change: &[f64]) {
    if change.is_empty() {
        return;
    }
    for key in keys {
        let f = (key.frame - first).clamp(0, change.len() as i64 - 1) as usize;
        key.pose.q[1] += change[f];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Pose, builtin};

    #[test]
    fn a_figure_sunk_into_the_floor_is_raised_by_its_lowest_foot_point() {
        let s = builtin::humanoid();
        let rest = Pose::rest(&s).q;
        let heel = s.site_by_name("left heel").expect("heel");
        let points = [ContactPoint::site(&s, heel)];
        let floor = FloorPoints::new(&s, &points, &rest);
        // The heel and the ankle joint.
        assert_eq!(floor.points().len(), 2);
        let mut sunk = rest.clone();
        sunk[1] -= 0.07;
        let mut lifted = rest.clone();
        lifted[1] += 0.2;
        let below = floor.below(&s, &[rest.clone(), sunk, lifted]);
        assert!(below[0].abs() < 1e-12 && below[2] == 0.0, "{below:?}");
        assert!((below[1] - 0.07).abs() < 1e-12, "{below:?}");
    }
}
