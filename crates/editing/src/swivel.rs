//! The swivel slider (issue 5): a limb's elbow (or knee) turned about the line from the shoulder
//! to the wrist while the wrist keeps its place and orientation. That rotation is Tolani et al.'s
//! swivel angle φ (Tolani, Goswami & Badler, "Real-time inverse kinematics techniques for anthropomorphic limbs", Graphical Models 62, 2000, §3.2); the analytic limb solver
//! meets it as nearly as the joint limits allow and reports the valid intervals, which the gizmo
//! draws as arcs.

use marionette_ik::analytic::limb::{Limb, Swivel};
use marionette_ik::{
    Goal, GoalKind, Settings, SolverKind, SolverOptions, SwivelReport, TargetShape, solve,
};
use marionette_skeleton::{Chain, JointId, Skeleton};
use nalgebra::Vector3;

use crate::{Document, UndoStep};

/// A limb's swivel as it stands in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct LimbSwivel {
    /// The limb.
    pub limb: Limb,
    /// The current swivel angle (radians), measured from the solver's default reference.
    pub angle: f64,
    /// The solver's report for holding the wrist where it is: the valid intervals.
    pub report: SwivelReport,
    /// Where the wrist is (the point the elbow circle is built on).
    pub placed: Vector3<f64>,
    /// The direction φ = 0 is measured from.
    pub reference: Vector3<f64>,
}

/// The limb (shoulder, elbow, wrist) that `joint` belongs to, if any.
pub fn limb_of(skeleton: &Skeleton, joint: JointId) -> Option<Limb> {
    Limb::find_all(skeleton)
        .into_iter()
        .find(|limb| limb.joints.contains(&joint))
}

/// The goals that hold the limb's wrist where and as it is.
fn wrist_held(document: &Document, limb: &Limb) -> Vec<Goal> {
    let wrist = limb.joints[2];
    let fk = document.fk();
    vec![
        Goal::new(GoalKind::Point {
            joint: wrist,
            offset: Vector3::zeros(),
            target: fk.joint_position(wrist),
            shape: TargetShape::Point,
        }),
        Goal::new(GoalKind::Orientation {
            joint: wrist,
            target: *fk.joint_rotation(wrist),
            axes: [true; 3],
        }),
    ]
}

/// Solves the limb for swivel `angle` with the wrist held; the new pose and the report.
fn solve_swivel(
    document: &Document,
    limb: &Limb,
    angle: f64,
) -> Result<(Vec<f64>, SwivelReport), String> {
    let skeleton = document.skeleton();
    let chain =
        Chain::between(skeleton, limb.joints[0], limb.joints[2]).map_err(|e| e.to_string())?;
    let options = SolverOptions {
        swivel: Some(angle),
        ..SolverOptions::default()
    };
    let mut solver = SolverKind::AnalyticLimb.build_with(&options)?;
    // The locks the limb could disturb, except those at or below the wrist, which the swivel
    // holds where they are anyway: with none left the limb solver turns the limb exactly.
    let wrist = limb.joints[2];
    let mut set = document.goal_set(&wrist_held(document, limb), &chain);
    set.retain_locks(|i| {
        document.locks()[i]
            .goal()
            .kind
            .joints(skeleton)
            .is_none_or(|joints| {
                joints
                    .iter()
                    .any(|&j| !skeleton.is_ancestor_or_self(wrist, j))
            })
    });
    let mut system = set.system(skeleton, document.stiffness());
    solver.supports(&system)?;
    let mut q = document.pose().to_vec();
    let report = solve(solver.as_mut(), &mut system, &mut q, Settings::default());
    let swivel = report
        .swivel
        .ok_or_else(|| "the limb solver reported no swivel".to_owned())?;
    Ok((q, swivel))
}

/// The limb's current swivel angle and its valid intervals.
pub fn measure(document: &Document, limb: &Limb) -> Result<LimbSwivel, String> {
    let reference = Swivel::default().reference;
    let placed = document.fk().joint_position(limb.joints[2]);
    let angle = limb.current_swivel(document.fk(), &placed, &reference);
    let (_, report) = solve_swivel(document, limb, angle)?;
    Ok(LimbSwivel {
        limb: limb.clone(),
        angle,
        report,
        placed,
        reference,
    })
}

/// Turns the limb to swivel `angle` (the nearest valid one) with the wrist held, as an undo step;
/// [`UndoStep::Extend`] merges it into the previous step of the same slider drag. Returns the
/// report.
pub(crate) fn set_swivel(
    document: &mut Document,
    limb: &Limb,
    angle: f64,
    undo: UndoStep,
) -> Result<SwivelReport, String> {
    if !angle.is_finite() {
        return Err(format!("swivel angle {angle} is not a number"));
    }
    let (q, report) = solve_swivel(document, limb, angle)?;
    let label = format!("Swivel {}", document.skeleton().joint(limb.joints[1]).name);
    document.replace_pose(label, q, undo);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    fn humanoid() -> Document {
        let s = builtin::humanoid();
        let mut d = Document::new(s.clone(), None);
        d.replace_pose("stand".into(), builtin::standing(&s).q, UndoStep::New);
        d
    }

    #[test]
    fn turning_the_swivel_keeps_the_wrist_and_moves_the_elbow() {
        let mut d = humanoid();
        let elbow = d.skeleton().joint_by_name("right elbow").expect("elbow");
        let limb = limb_of(d.skeleton(), elbow).expect("the right arm is a limb");
        let before = measure(&d, &limb).expect("measure");
        let wrist = limb.joints[2];
        let wrist_at = d.fk().joint_position(wrist);
        let wrist_rot = *d.fk().joint_rotation(wrist);
        let elbow_at = d.fk().joint_position(elbow);
        let target = before.angle + 0.4;
        let report = set_swivel(&mut d, &limb, target, UndoStep::New).expect("swivel");
        assert!((d.fk().joint_position(wrist) - wrist_at).norm() < 1e-9);
        assert!((d.fk().joint_rotation(wrist) - wrist_rot).norm() < 1e-9);
        assert!((d.fk().joint_position(elbow) - elbow_at).norm() > 1e-3);
        let after = measure(&d, &limb).expect("measure");
        assert!(
            (after.angle - report.angle).abs() < 1e-6,
            "{} vs {}",
            after.angle,
            report.angle
        );
        // One undo step brings the elbow back.
        d.undo();
        assert!((d.fk().joint_position(elbow) - elbow_at).norm() < 1e-12);
    }

    #[test]
    fn a_slider_drag_is_one_undo_step() {
        let mut d = humanoid();
        let knee = d.skeleton().joint_by_name("left knee").expect("knee");
        let limb = limb_of(d.skeleton(), knee).expect("the left leg is a limb");
        let start = d.pose().to_vec();
        let angle = measure(&d, &limb).expect("measure").angle;
        set_swivel(&mut d, &limb, angle + 0.05, UndoStep::New).expect("first");
        for k in 2..6 {
            set_swivel(&mut d, &limb, angle + 0.05 * f64::from(k), UndoStep::Extend).expect("more");
        }
        assert_ne!(d.pose(), start.as_slice());
        d.undo();
        assert_eq!(d.pose(), start.as_slice());
        assert!(set_swivel(&mut d, &limb, f64::NAN, UndoStep::New).is_err());
    }

    #[test]
    fn joints_off_limbs_have_no_swivel() {
        let d = humanoid();
        let spine = d.skeleton().joint_by_name("middle spine").expect("spine");
        assert!(limb_of(d.skeleton(), spine).is_none());
    }
}
