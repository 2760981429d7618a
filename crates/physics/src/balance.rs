//! Balance on quiet frames: the support polygon (the supporting points on the floor, each a disc
//! of [`POINT_RADIUS`], their convex hull) and the centre of mass's margin to it, seen from above
//! (positive inside, negative outside). A frame is quiet when the centre of mass moves slower
//! than [`QUIET_SPEED`]: only then must it be over the support.

use nalgebra::Vector2;

use crate::track::Track;

/// A quiet frame's centre of mass moves slower than this (m/s).
pub const QUIET_SPEED: f64 = 0.05;

/// Half a foot's width (m): a supporting point stands for the sole or palm around it.
pub const POINT_RADIUS: f64 = 0.04;

/// The balance of the quiet frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    /// Quiet frames with some support.
    pub quiet_frames: usize,
    /// How many of them have their centre of mass inside the support polygon.
    pub inside: usize,
    /// The median margin (m).
    pub median_margin_m: f64,
    /// Each quiet frame and its margin.
    pub frames: Vec<(usize, f64)>,
}

/// The balance of `track`'s quiet frames with `supports`.
pub fn balance(track: &Track, supports: &[Vec<nalgebra::Vector3<f64>>]) -> Balance {
    let frames: Vec<(usize, f64)> = (0..track.len())
        .filter(|&f| !supports[f].is_empty() && track.com_velocity(f).norm() < QUIET_SPEED)
        .map(|f| {
            let points: Vec<Vector2<f64>> = supports[f].iter().map(floor_point).collect();
            (
                f,
                margin(&floor_point(&track.com[f]), &points) + POINT_RADIUS,
            )
        })
        .collect();
    let mut margins: Vec<f64> = frames.iter().map(|(_, m)| *m).collect();
    margins.sort_by(f64::total_cmp);
    let median_margin_m = match margins.len() {
        0 => 0.0,
        n if n % 2 == 1 => margins[n / 2],
        n => (margins[n / 2 - 1] + margins[n / 2]) / 2.0,
    };
    Balance {
        quiet_frames: frames.len(),
        inside: margins.iter().filter(|m| **m >= 0.0).count(),
        median_margin_m,
        frames,
    }
}

/// A point seen from above: (x, z).
fn floor_point(p: &nalgebra::Vector3<f64>) -> Vector2<f64> {
    Vector2::new(p.x, p.z)
}

/// The signed distance from `c` to the convex hull of `points` (positive inside; for one point
/// or points on a line, minus the distance to them).
pub fn margin(c: &Vector2<f64>, points: &[Vector2<f64>]) -> f64 {
    let hull = convex_hull(points);
    let edges = || (0..hull.len()).map(|i| (hull[i], hull[(i + 1) % hull.len()]));
    let nearest = edges()
        .map(|(a, b)| distance_to_segment(c, &a, &b))
        .fold(f64::INFINITY, f64::min);
    let nearest = if hull.len() == 1 {
        (c - hull[0]).norm()
    } else {
        nearest
    };
    let inside = hull.len() >= 3 && edges().all(|(a, b)| cross(&(b - a), &(c - a)) >= 0.0);
    if inside { nearest } else { -nearest }
}

/// The z of the cross product of two floor vectors.
fn cross(a: &Vector2<f64>, b: &Vector2<f64>) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The distance from `c` to the segment `a`–`b`.
fn distance_to_segment(c: &Vector2<f64>, a: &Vector2<f64>, b: &Vector2<f64>) -> f64 {
    let ab = b - a;
    let length = ab.norm_squared();
    let t = if length > 0.0 {
        ((c - a).dot(&ab) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (c - (a + ab * t)).norm()
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain); collinear points
/// dropped, so two points give a segment and one a point.
pub fn convex_hull(points: &[Vector2<f64>]) -> Vec<Vector2<f64>> {
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let mut hull: Vec<Vector2<f64>> = Vec::with_capacity(2 * sorted.len());
    for pass in [false, true] {
        let start = hull.len();
        let order: Box<dyn Iterator<Item = &Vector2<f64>>> = if pass {
            Box::new(sorted.iter().rev())
        } else {
            Box::new(sorted.iter())
        };
        for p in order {
            while hull.len() >= start + 2
                && cross(
                    &(hull[hull.len() - 1] - hull[hull.len() - 2]),
                    &(p - hull[hull.len() - 2]),
                ) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_are_positive_inside_and_negative_outside() {
        let square = [
            Vector2::new(0.0, 0.0),
            Vector2::new(1.0, 0.0),
            Vector2::new(1.0, 1.0),
            Vector2::new(0.0, 1.0),
            Vector2::new(0.5, 0.5),
        ];
        assert_eq!(convex_hull(&square).len(), 4);
        assert!((margin(&Vector2::new(0.5, 0.25), &square) - 0.25).abs() < 1e-12);
        assert!((margin(&Vector2::new(1.5, 0.5), &square) + 0.5).abs() < 1e-12);
        let line = [Vector2::new(0.0, 0.0), Vector2::new(1.0, 0.0)];
        assert!((margin(&Vector2::new(0.5, 0.1), &line) + 0.1).abs() < 1e-12);
        assert!((margin(&Vector2::new(0.0, 0.3), &line[..1]) + 0.3).abs() < 1e-12);
    }
}

/// The point nearest `c` whose margin to the convex hull of `points` is at least `wanted`
/// (the balance fix's target for the centre of mass, seen from above; `wanted` may be below 0,
/// a support point counting as a disc): `c` itself when it is that far inside already; else
/// along the line from `c` to the hull's nearest point, or on from there towards the hull's
/// centroid, as far as `wanted` needs (bisection: the margin grows along those lines); the
/// centroid when the hull is too small to be `wanted` inside anywhere.
pub fn balance_target(c: &Vector2<f64>, points: &[Vector2<f64>], wanted: f64) -> Vector2<f64> {
    if points.is_empty() || margin(c, points) >= wanted {
        return *c;
    }
    let hull = convex_hull(points);
    let centroid = hull.iter().sum::<Vector2<f64>>() / hull.len() as f64;
    if margin(&centroid, points) < wanted {
        return centroid;
    }
    let edges = (0..hull.len()).map(|i| (hull[i], hull[(i + 1) % hull.len()]));
    let edge = edges
        .map(|(a, b)| {
            let ab = b - a;
            let t = ((c - a).dot(&ab) / ab.norm_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
            a + ab * t
        })
        .min_by(|p, q| (c - p).norm().total_cmp(&(c - q).norm()))
        .unwrap_or(centroid);
    // From `c` towards the hull's nearest point when that is far enough in (a wanted margin
    // below 0, or `c` inside), else on from there towards the centroid.
    let (start, end) = if margin(&edge, points) >= wanted && margin(c, points) < 0.0 {
        (*c, edge)
    } else if margin(c, points) >= 0.0 {
        (*c, centroid)
    } else {
        (edge, centroid)
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if margin(&(start + (end - start) * mid), points) >= wanted {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    start + (end - start) * hi
}

#[cfg(test)]
mod target_tests {
    use super::*;

    fn square() -> Vec<Vector2<f64>> {
        [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(x, y)| Vector2::new(x, y))
            .to_vec()
    }

    #[test]
    fn the_target_is_the_nearest_point_that_far_inside() {
        let near =
            |c: (f64, f64), wanted: f64| balance_target(&Vector2::new(c.0, c.1), &square(), wanted);
        // Outside, wanted inside: on the normal through the nearest edge point, then inwards.
        let t = near((0.5, -0.3), 0.1);
        assert!((t - Vector2::new(0.5, 0.1)).norm() < 1e-9, "{t}");
        // Outside, wanted a little outside: between it and the edge.
        let t = near((0.5, -0.3), -0.05);
        assert!((t - Vector2::new(0.5, -0.05)).norm() < 1e-9, "{t}");
        // Inside already: unchanged; inside but too near the edge: moved in.
        assert_eq!(near((0.5, 0.5), 0.1), Vector2::new(0.5, 0.5));
        let t = near((0.5, 0.95), 0.1);
        assert!((margin(&t, &square()) - 0.1).abs() < 1e-9, "{t}");
        // Asked more than the hull has anywhere: its centroid.
        assert!((near((3.0, 3.0), 0.8) - Vector2::new(0.5, 0.5)).norm() < 1e-12);
    }
}
