//! Which body points hold the figure up on each frame, as Cascadeur's fulcrums: a point near the
//! floor that is hardly moving. Each point's own resting height is where it spends its lowest
//! frames (a heel's joint stands a few centimetres up, a toe tip on the floor), so the rule reads
//! the same for every point: within [`SupportRule::height`] of its resting height, slower than
//! [`SupportRule::speed`], and a point that rests within [`SupportRule::reach`] of the floor (a
//! hand that only hangs at the side never supports). The rule's lengths are a person's
//! ([`PERSON_SIZE`]) and are scaled with the figure ([`SupportRule::for_size`]), so a figure
//! read at a wrong unit still leaves the floor when it jumps, and its flights tell the unit.

use nalgebra::Vector3;

use crate::track::Track;

/// The figure size the rule's lengths are for: a person's, from the lowest to the highest joint
/// or site (m; the top joint is the head's end, below the top of the head: CMU 01_01's
/// performer spans 1.50 m read at CMU's unit).
pub const PERSON_SIZE: f64 = 1.50;

/// When a body point supports the figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SupportRule {
    /// Metres above the point's resting height.
    pub height: f64,
    /// Metres per second, at most.
    pub speed: f64,
    /// Metres above the floor (the lowest resting height of any point) a point must rest within.
    pub reach: f64,
    /// The fraction of a point's frames below its resting height (a low quantile of its heights,
    /// not its lowest, so a noisy frame does not set it).
    pub resting_quantile: f64,
    /// The floor's height when it is known (a document's: 0): no point rests below it, so a
    /// foot keyed through the floor on some frames does not set its resting height there.
    pub floor: Option<f64>,
}

impl Default for SupportRule {
    /// For a person ([`PERSON_SIZE`]): 5 cm above its resting height, slower than 1 m/s (a toe
    /// rolls at up to about 0.9 m/s while it pushes off), resting within 15 cm of the floor;
    /// resting height the 2 % quantile; the floor not known.
    fn default() -> Self {
        SupportRule {
            height: 0.05,
            speed: 1.0,
            reach: 0.15,
            resting_quantile: 0.02,
            floor: None,
        }
    }
}

impl SupportRule {
    /// The rule for a figure `size` metres from its lowest to its highest point: its lengths
    /// (height, speed, reach) scaled by `size` / [`PERSON_SIZE`].
    pub fn for_size(&self, size: f64) -> SupportRule {
        let k = if size.is_finite() && size > 0.0 {
            size / PERSON_SIZE
        } else {
            1.0
        };
        SupportRule {
            height: self.height * k,
            speed: self.speed * k,
            reach: self.reach * k,
            resting_quantile: self.resting_quantile,
            floor: self.floor,
        }
    }
}

/// Each point's resting height: the `quantile` of its heights over the track.
pub fn resting_heights(track: &Track, quantile: f64) -> Vec<f64> {
    let points = track.points.first().map_or(0, Vec::len);
    (0..points)
        .map(|p| {
            let mut heights: Vec<f64> = track.points.iter().map(|f| f[p].y).collect();
            heights.sort_by(f64::total_cmp);
            let k = ((heights.len() as f64 - 1.0) * quantile).round() as usize;
            heights.get(k).copied().unwrap_or(0.0)
        })
        .collect()
}

/// Per frame, where the figure is supported: its body points that support it by `rule` (scaled
/// to the track's figure, [`SupportRule::for_size`]), and the points `held` on that frame (a
/// document's locks holding a point in the world: on the floor, a prop or another figure; empty
/// for a capture).
pub fn supports(
    track: &Track,
    rule: &SupportRule,
    held: &[Vec<Vector3<f64>>],
) -> Vec<Vec<Vector3<f64>>> {
    supporting_points(track, rule)
        .into_iter()
        .enumerate()
        .map(|(f, points)| {
            let mut at: Vec<Vector3<f64>> = points.iter().map(|&p| track.points[f][p]).collect();
            at.extend(held.get(f).into_iter().flatten());
            at
        })
        .collect()
}

/// Per frame, which of the track's body points ([`crate::MassModel::points`], by index)
/// support the figure by `rule`: near the floor, within its height of their resting height
/// and slower than its speed.
pub fn supporting_points(track: &Track, rule: &SupportRule) -> Vec<Vec<usize>> {
    let rule = rule.for_size(track.size);
    let mut resting = resting_heights(track, rule.resting_quantile);
    if let Some(floor) = rule.floor {
        for r in &mut resting {
            *r = r.max(floor);
        }
    }
    let floor = resting.iter().copied().fold(f64::INFINITY, f64::min);
    let near_floor: Vec<bool> = resting.iter().map(|r| r - floor <= rule.reach).collect();
    (0..track.len())
        .map(|f| {
            (0..resting.len())
                .filter(|&p| {
                    near_floor[p]
                        && track.points[f][p].y - resting[p] <= rule.height
                        && track.point_speed(f, p) <= rule.speed
                })
                .collect()
        })
        .collect()
}
