//! What the editor's swivel gizmo draws for a limb (issue 5): the elbow circle about the line from
//! the shoulder to the placed point, the arcs of swivel angles valid within the joint limits (the
//! analytic solver's intervals, Tolani §3.2.4), and the elbow where it is. Plain points in world
//! coordinates; the Bevy plugin turns them into gizmo line strips.

use marionette_ik::SwivelReport;
use marionette_ik::analytic::limb::{ElbowCircle, Limb};
use marionette_skeleton::Fk;
use nalgebra::Vector3;

/// The gizmo's geometry.
#[derive(Debug, Clone, PartialEq)]
pub struct SwivelGizmo {
    /// The elbow circle.
    pub circle: ElbowCircle,
    /// One polyline per valid interval, from its start angle to its end.
    pub valid_arcs: Vec<Vec<Vector3<f64>>>,
    /// The elbow at the reported swivel angle.
    pub elbow: Vector3<f64>,
}

/// The gizmo for `limb` at the pose `fk` holds, after a solve that placed `placed` and reported
/// `report`, measured from `reference` (the solver's swivel reference). `segments_per_turn`
/// sets how finely arcs are drawn (at least 3).
pub fn swivel_gizmo(
    limb: &Limb,
    fk: &Fk,
    placed: &Vector3<f64>,
    reference: &Vector3<f64>,
    report: &SwivelReport,
    segments_per_turn: usize,
) -> SwivelGizmo {
    let circle = limb.elbow_circle(fk, placed, reference);
    let step = std::f64::consts::TAU / segments_per_turn.max(3) as f64;
    let valid_arcs = report
        .intervals
        .iter()
        .filter(|(start, end)| start.is_finite() && end.is_finite())
        .map(|&(start, end)| {
            let width = (end - start).max(0.0);
            // Float-to-integer `as` saturates, so a huge width cannot blow up the count.
            let segments = ((width / step).ceil() as usize).clamp(1, 4 * segments_per_turn.max(3));
            (0..=segments)
                .map(|k| circle.point(start + width * k as f64 / segments as f64))
                .collect()
        })
        .collect();
    SwivelGizmo {
        circle,
        valid_arcs,
        elbow: circle.point(report.angle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_ik::analytic::limb::Swivel;
    use marionette_ik::{Goal, GoalKind, Reach, Settings, SolverKind, System, solve};
    use marionette_skeleton::{Chain, Pose, builtin};

    #[test]
    fn arcs_lie_on_the_elbow_circle_and_the_elbow_is_where_the_solver_put_it() {
        let s = builtin::humanoid();
        let hand = s.site_by_name("right fingertips").expect("hand");
        let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
        let chain = Chain::between(&s, shoulder, s.site(hand).joint).expect("chain");
        let limb = Limb::detect(&s, chain.columns()).expect("limb");
        let mut fk = Fk::new(&s);
        let mut q = Pose::rest(&s).q;
        fk.update(&s, &q);
        let target = fk.site_position(hand) + Vector3::new(0.1, 0.3, 0.2);
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut system = System::new(&s, vec![goal], chain);
        let mut solver = SolverKind::AnalyticLimb.build();
        let report = solve(solver.as_mut(), &mut system, &mut q, Settings::default());
        let swivel = report.swivel.expect("swivel report");
        assert_eq!(swivel.reach, Reach::WithinLimits);
        fk.update(&s, &q);
        let reference = Swivel::default().reference;
        let gizmo = swivel_gizmo(&limb, &fk, &fk.site_position(hand), &reference, &swivel, 72);
        assert!((gizmo.elbow - fk.joint_position(limb.joints[1])).norm() < 1e-9);
        assert_eq!(gizmo.valid_arcs.len(), swivel.intervals.len());
        let c = gizmo.circle;
        for (arc, &(start, end)) in gizmo.valid_arcs.iter().zip(&swivel.intervals) {
            assert!(arc.len() >= 2);
            assert!((arc[0] - c.point(start)).norm() < 1e-12);
            assert!((arc[arc.len() - 1] - c.point(end)).norm() < 1e-9);
            for p in arc {
                assert!((((p - c.centre).norm()) - c.radius).abs() < 1e-9);
                assert!((p - c.centre).dot(&c.normal).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn degenerate_intervals_stay_small() {
        let s = builtin::humanoid();
        let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
        let wrist = s.joint_by_name("right wrist").expect("wrist");
        let chain = Chain::between(&s, shoulder, wrist).expect("chain");
        let limb = Limb::detect(&s, chain.columns()).expect("limb");
        let fk = Fk::new(&s);
        let report = SwivelReport {
            angle: 0.0,
            intervals: vec![(0.0, f64::INFINITY), (1.0, 0.5), (f64::NAN, 1.0)],
            reach: Reach::WithinLimits,
        };
        let placed = fk.joint_position(wrist);
        let gizmo = swivel_gizmo(&limb, &fk, &placed, &Vector3::y(), &report, 0);
        // Only the finite interval is drawn (reversed, so as a point).
        assert_eq!(gizmo.valid_arcs.len(), 1);
        assert!(
            gizmo.valid_arcs[0]
                .iter()
                .all(|p| p.iter().all(|v| v.is_finite()))
        );
    }
}
