//! Issue 15's crouch: the humanoid standing at rest (straight knees, the singular start), both
//! heels held where they stand, the pelvis dragged straight down 10, 20 and 30 cm in the front
//! view. The root translation carries the body down; the legs (each heel's limb: hip, knee,
//! ankle) must fold to keep the heels, which at straight knees only a second-order move can
//! start. Until persistent locks exist (issue 10) the heels are plain position goals beside the
//! drag's goal in one system, solved as the editor solves a frame.

use marionette_editing::{IkRunner, IkSettings, Ray};
use marionette_ik::{Goal, GoalKind, SolverKind, System};
use marionette_skeleton::{Chain, Fk, JointId, Pose, Skeleton, builtin};
use nalgebra::Vector3;

use crate::drag_reach::{GLIDE_FRAMES, MAX_FRAMES};
use crate::table::Table;

/// The heels' largest error (m), the pelvis's distance from the cursor ray (m) and the frames
/// after the cursor stopped until both were within 0.1 mm and 1 mm (`None`: not within
/// [`MAX_FRAMES`]).
pub fn run(kind: SolverKind, depth: f64) -> (f64, f64, Option<usize>) {
    let s = builtin::humanoid();
    let pelvis = s.root();
    let heels = ["left heel", "right heel"].map(|n| s.site_by_name(n).expect("heel"));
    let mut q = Pose::rest(&s).q;
    let mut fk = Fk::new(&s);
    fk.update(&s, &q);
    let mut goals: Vec<Goal> = heels
        .iter()
        .map(|&site| {
            Goal::new(GoalKind::Position {
                site,
                target: fk.site_position(site),
            })
        })
        .collect();
    let start = fk.joint_position(pelvis);
    goals.push(drag_goal(&fk, pelvis, &ray_through(&start)));
    let chain = limb(&s, s.site(heels[0]).joint)
        .union(&limb(&s, s.site(heels[1]).joint))
        .with_root();
    let mut system = System::new(&s, goals, chain);
    let mut runner = IkRunner::new(IkSettings {
        solver: kind,
        ..IkSettings::default()
    })
    .expect("default settings");
    let mut result = (f64::INFINITY, f64::INFINITY, None);
    for frame in 0..MAX_FRAMES {
        let t = ((frame + 1) as f64 / GLIDE_FRAMES as f64).min(1.0);
        let cursor = start - Vector3::y() * depth * t;
        let ray = ray_through(&cursor);
        let goal = drag_goal(system.fk(), pelvis, &ray);
        system.goals_mut()[2] = goal;
        runner.frame(&mut system, &mut q);
        fk.update(&s, &q);
        let heel = heels
            .iter()
            .zip(system.goals())
            .map(|(&h, g)| match g.kind {
                GoalKind::Position { target, .. } => (fk.site_position(h) - target).norm(),
                _ => f64::INFINITY,
            })
            .fold(0.0, f64::max);
        let at = fk.joint_position(pelvis);
        let off_ray = (ray.closest_point_to(&at) - at).norm();
        result = (heel, off_ray, None);
        if t >= 1.0 && heel <= 1e-4 && off_ray <= 1e-3 {
            return (heel, off_ray, Some(frame + 1 - GLIDE_FRAMES));
        }
    }
    result
}

/// The front view's ray through `point`.
fn ray_through(point: &Vector3<f64>) -> Ray {
    Ray::new(point + Vector3::z() * 10.0, -Vector3::z()).expect("a unit direction")
}

/// The drag's goal on `joint`'s origin, as [`marionette_editing::Drag::goal`] makes it (the
/// depth held; the root translation can always keep it).
fn drag_goal(fk: &Fk, joint: JointId, ray: &Ray) -> Goal {
    Goal::new(GoalKind::Point {
        joint,
        offset: Vector3::zeros(),
        target: ray.closest_point_to(&fk.joint_position(joint)),
        along: None,
    })
}

/// A lock's limb (FILE_FORMATS.md, Document): the joint and its ancestors up to, not including,
/// the nearest ancestor with more than one child.
fn limb(s: &Skeleton, joint: JointId) -> Chain {
    marionette_editing::chain_for(s, joint, marionette_editing::ChainMode::NearestBranch)
        .expect("a joint's own branch")
}

/// The crouch table.
pub fn table() -> Table {
    let mut table = Table::new(
        "Crouch from the standing rest pose (humanoid, straight knees): heels held, pelvis dragged down in the front view, ≤ 10 updates a frame",
        &[
            "solver",
            "depth (cm)",
            "heel error (mm)",
            "pelvis off the cursor ray (mm)",
            "frames after the cursor stops",
        ],
    );
    for kind in [
        SolverKind::DampedLeastSquares,
        SolverKind::SelectivelyDamped,
        SolverKind::TaskPriority,
        SolverKind::ConstraintMaintenance,
    ] {
        for depth in [0.1, 0.2, 0.3] {
            let (heel, pelvis, frames) = run(kind, depth);
            table.row(vec![
                kind.name().to_owned(),
                format!("{:.0}", depth * 100.0),
                format!("{:.4}", heel * 1e3),
                format!("{:.4}", pelvis * 1e3),
                frames.map_or_else(|| "not reached".to_owned(), |f| f.to_string()),
            ]);
        }
    }
    table.note(format!(
        "held: heels within 0.1 mm and the pelvis within 1 mm of the ray; the cursor glides {GLIDE_FRAMES} frames; chain: root translation + each heel's limb (hip, knee, ankle)"
    ));
    table
}
