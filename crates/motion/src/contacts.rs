//! Foot contacts: the frames where a point of the figure (a heel, a toe, an ankle) stands on the
//! ground, found from its path over a sequence. A point is in contact where it is low (near the
//! lowest it ever goes) and slow horizontally; both thresholds are scaled to the figure's height
//! and have hysteresis (a contact begins under the entry thresholds and lasts until the exit
//! thresholds, which are looser), so a contact does not flicker on and off around a threshold.
//! A contact also ends where the point has wandered from where it began by more than a leg can
//! absorb without the hips moving; the next one begins once the first one's lock has had time
//! to ease out and its own to ease in, so a slow shuffle becomes a chain of plants joined by
//! short steps instead of one long slide. Contacts shorter than a tenth of a
//! second are dropped.
//!
//! The heuristics are those practitioners use (height and speed, as GMD-style contact labels
//! and 3ds Max Biped's footstep extraction do); the plants then become position locks,
//! as in Kovar, Schreiner & Gleicher, "Footskate cleanup for motion capture editing" (SCA 2002),
//! whose single-limb IK per frame and blending of changes into neighbouring frames the bake's
//! locks with blends provide ([`crate::cleanup`]).

use nalgebra::Vector3;

/// The thresholds of contact detection, for one figure at one frame rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactThresholds {
    /// A contact begins below this height above the point's lowest (metres)…
    pub low: f64,
    /// … and lasts while the point stays below this one.
    pub leave_low: f64,
    /// A contact begins below this horizontal speed (metres per second)…
    pub slow: f64,
    /// … and lasts while the point stays below this one.
    pub leave_slow: f64,
    /// A contact ends where the point is this far from where it began across the ground
    /// (metres).
    pub wander: f64,
    /// Contacts of fewer frames are dropped.
    pub shortest: usize,
    /// Frames over which a contact's lock eases in and out, at least.
    pub blend: i64,
    /// … and at most.
    pub longest_blend: i64,
    /// The speed at which easing in or out may move a point towards its plant or away from it
    /// (metres per second): a lock whose plant is far from where the point is at its edges
    /// eases over more frames ([`ContactThresholds::blend_for`]).
    pub easing_speed: f64,
}

impl ContactThresholds {
    /// The thresholds for a figure `height` metres tall (standing, at rest) at `fps` frames per
    /// second. For a 1.7 m figure at 120 fps: in contact under 3.4 cm above the lowest and
    /// 0.2 m/s, out above 5.1 cm or 0.4 m/s, at most 2.5 cm of wander, at least 12 frames,
    /// easing over 8 to 36 frames at 0.5 m/s.
    pub fn for_figure(height: f64, fps: f64) -> ContactThresholds {
        let low = 0.02 * height;
        let slow = 0.12 * height;
        ContactThresholds {
            low,
            leave_low: 1.5 * low,
            slow,
            leave_slow: 2.0 * slow,
            wander: 0.015 * height,
            shortest: ((0.1 * fps).round() as usize).max(2),
            blend: ((fps / 15.0).round() as i64).max(1),
            longest_blend: ((0.3 * fps).round() as i64).max(1),
            easing_speed: 0.3 * height,
        }
    }

    /// The blend of a lock whose plant is `offset` metres from where the point is at the
    /// lock's edges: the smoothstep's steepest step, 1.5 · offset / (blend + 1) per frame, kept
    /// under the easing speed, between the shortest and the longest blend.
    pub fn blend_for(&self, offset: f64, fps: f64) -> i64 {
        let frames = (1.5 * offset * fps / self.easing_speed).ceil() as i64 - 1;
        frames.clamp(self.blend, self.longest_blend.max(self.blend))
    }
}

/// One contact: the frames (indices into the path, inclusive) and where the point stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The first frame in contact.
    pub first: usize,
    /// The last frame in contact.
    pub last: usize,
    /// Where the point is planted: its mean position over the contact.
    pub planted: Vector3<f64>,
}

/// The length of `d` across the ground (y is up).
fn horizontal(d: &Vector3<f64>) -> f64 {
    (d.x * d.x + d.z * d.z).sqrt()
}

/// Horizontal speed (metres per second; y is up) at every frame of `path`, by central
/// differences over ±2 frames (one-sided at the ends).
pub fn horizontal_speeds(path: &[Vector3<f64>], fps: f64) -> Vec<f64> {
    (0..path.len())
        .map(|f| {
            let (a, b) = (f.saturating_sub(2), (f + 2).min(path.len() - 1));
            horizontal(&(path[b] - path[a])) * fps / (b - a).max(1) as f64
        })
        .collect()
}

/// The height of the ground under a point moving along `path`: the 5th percentile of its
/// heights (its lowest would be a single stray frame's, such as a capture's calibration pose).
pub fn ground(path: &[Vector3<f64>]) -> f64 {
    let mut heights: Vec<f64> = path.iter().map(|p| p.y).collect();
    heights.sort_by(f64::total_cmp);
    heights.get(heights.len() / 20).copied().unwrap_or(0.0)
}

/// The contacts of a point moving along `path` (one position per frame at `fps`).
pub fn find_contacts(path: &[Vector3<f64>], fps: f64, at: &ContactThresholds) -> Vec<Contact> {
    if path.is_empty() {
        return Vec::new();
    }
    let floor = ground(path);
    let speed = horizontal_speeds(path, fps);
    let enters = |f: usize| path[f].y < floor + at.low && speed[f] < at.slow;
    let stays = |f: usize, began: usize| {
        path[f].y < floor + at.leave_low
            && speed[f] < at.leave_slow
            && horizontal(&(path[f] - path[began])) <= at.wander
    };
    let mut out = Vec::new();
    let mut close = |first: usize, last: usize| {
        if last + 1 - first >= at.shortest {
            let planted =
                path[first..=last].iter().sum::<Vector3<f64>>() / (last + 1 - first) as f64;
            out.push(Contact {
                first,
                last,
                planted,
            });
        }
    };
    // After a contact, the next begins no sooner than its lock can have eased out and the
    // next one eased in (else the point would jump from one plant to the next at once).
    let gap = 2 * at.blend.max(0) as usize + 1;
    let mut began: Option<usize> = None;
    let mut free_from = 0;
    for f in 0..path.len() {
        match began {
            Some(a) if stays(f, a) => {}
            Some(a) => {
                close(a, f - 1);
                began = None;
                free_from = f + gap - 1;
            }
            None => began = (f >= free_from && enters(f)).then_some(f),
        }
    }
    if let Some(a) = began {
        close(a, path.len() - 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A foot stepping forward: on the ground for 30 frames, then 20 frames up and 0.5 m ahead,
    /// three times, at 60 fps.
    fn steps() -> Vec<Vector3<f64>> {
        let mut path = Vec::new();
        for step in 0..3 {
            let x0 = 0.5 * step as f64;
            path.extend((0..30).map(|_| Vector3::new(x0, 0.02, 0.0)));
            path.extend((1..=20).map(|i| {
                let u = i as f64 / 21.0;
                Vector3::new(
                    x0 + 0.5 * u,
                    0.02 + 0.15 * (u * std::f64::consts::PI).sin(),
                    0.0,
                )
            }));
        }
        path
    }

    #[test]
    fn a_walk_has_one_contact_per_step_planted_where_the_foot_stands() {
        let at = ContactThresholds::for_figure(1.7, 60.0);
        let contacts = find_contacts(&steps(), 60.0, &at);
        assert_eq!(contacts.len(), 3, "{contacts:?}");
        for (step, c) in contacts.iter().enumerate() {
            let start = 50 * step;
            // From the plant until the foot starts to lift (the speed is measured over ±2
            // frames, so the last frame or two on the ground already see it moving).
            assert!(c.first <= start + 2 && c.last >= start + 27, "{c:?}");
            assert!(c.last < start + 36, "{c:?}");
            assert!((c.planted.x - 0.5 * step as f64).abs() < 0.01, "{c:?}");
        }
    }

    #[test]
    fn hysteresis_keeps_a_contact_whose_height_hovers_about_the_entry_threshold() {
        let at = ContactThresholds::for_figure(1.7, 60.0);
        // On the ground for 10 frames, then a height alternating just under and just over `low`
        // (but under `leave_low`): one contact throughout.
        let path: Vec<Vector3<f64>> = (0..60)
            .map(|f| {
                let y = match f {
                    0..10 => 0.0,
                    _ if f % 2 == 0 => 0.9 * at.low,
                    _ => 1.1 * at.low,
                };
                Vector3::new(0.0, y, 0.0)
            })
            .collect();
        let contacts = find_contacts(&path, 60.0, &at);
        assert_eq!(
            (contacts.len(), contacts[0].first, contacts[0].last),
            (1, 0, 59)
        );
        // Without hysteresis (exit = entry) the same path breaks up after the first 10 frames.
        let flickering = ContactThresholds {
            leave_low: at.low,
            ..at
        };
        let contacts = find_contacts(&path, 60.0, &flickering);
        assert!(contacts.iter().all(|c| c.last < 12), "{contacts:?}");
    }

    #[test]
    fn a_slow_slide_becomes_a_chain_of_plants_none_wandering_further_than_allowed() {
        let at = ContactThresholds::for_figure(1.7, 60.0);
        // 0.1 m/s along x on the ground for two seconds: slow enough to count as standing.
        let path: Vec<Vector3<f64>> = (0..120)
            .map(|f| Vector3::new(0.1 * f as f64 / 60.0, 0.0, 0.0))
            .collect();
        let contacts = find_contacts(&path, 60.0, &at);
        assert!(contacts.len() >= 4, "{contacts:?}");
        for c in &contacts {
            assert!(horizontal(&(path[c.last] - path[c.first])) <= at.wander + 1e-12);
        }
        for pair in contacts.windows(2) {
            let gap = pair[1].first - pair[0].last - 1;
            assert_eq!(gap, 2 * at.blend as usize, "room to ease out and in");
        }
    }

    #[test]
    fn nothing_found_in_the_air_or_on_an_empty_path() {
        let at = ContactThresholds::for_figure(1.7, 60.0);
        assert!(find_contacts(&[], 60.0, &at).is_empty());
        // Always fast: no contact even though it is always at its lowest.
        let path: Vec<Vector3<f64>> = (0..100)
            .map(|f| Vector3::new(2.0 * f as f64 / 60.0, 0.0, 0.0))
            .collect();
        assert!(find_contacts(&path, 60.0, &at).is_empty());
    }
}
