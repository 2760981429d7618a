//! Dragging a body with the mouse (Welman 1993, ch. 6; issue 5): the picked point is moved onto
//! its segment's axis, so pulling never twists the limb unexpectedly; each frame the goal is the
//! point of the cursor ray nearest to that effector, which behaves the same in orthographic and
//! perspective views. The document's drag edits are here too: a drag begins on a [`Grip`],
//! changes the pose live step by step ([`marionette_editing::Edit::DragTo`]) and ends as one undo step.

use marionette_document::{GoalSet, Owner};
use marionette_ik::Goal;
use marionette_skeleton::{Chain, ChainError, JointId, SiteId};
use nalgebra::Vector3;

use crate::chain_mode::ChainMode;
pub use crate::document::drag_state::{Drag, Grip, Ray, point_on_axis};
use crate::history::Change;
use crate::solve::{IkRunner, SolveOutcome};
use crate::stage::GroupSolve;
use crate::{Document, EditError};

impl Document {
    /// Begins a drag of `grip` moving `mode`'s chain (nothing changes yet; no drag begins while
    /// one is in progress).
    pub(crate) fn begin_grip(&mut self, grip: Grip, mode: ChainMode) -> Result<(), EditError> {
        if self.drag.is_some() {
            return Ok(());
        }
        match grip {
            Grip::Body { joint, hit } => self.begin_drag(joint, &hit, mode),
            Grip::Site(site) => self.begin_site_drag(site, mode),
            Grip::Joint(joint) => self.begin_joint_drag(joint, mode),
        }
    }

    /// Begins dragging a site's handle: the site itself is the dragged point.
    pub(crate) fn begin_site_drag(
        &mut self,
        site: SiteId,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let made = Drag::begin_at_site(&self.skeleton, &self.pose, site, mode);
        let name = self.skeleton.site(site).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Begins dragging `joint`'s body, picked at world point `hit`.
    pub(crate) fn begin_drag(
        &mut self,
        joint: JointId,
        hit: &Vector3<f64>,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let made = Drag::begin(&self.skeleton, &self.fk, &self.pose, joint, hit, mode);
        let name = self.skeleton.joint(joint).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Begins dragging `joint` by its origin (a replay's `DragJoint`).
    pub(crate) fn begin_joint_drag(
        &mut self,
        joint: JointId,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let made = Drag::begin_at_point(&self.skeleton, &self.pose, joint, Vector3::zeros(), mode);
        let name = self.skeleton.joint(joint).name.clone();
        self.start_drag(made, name, mode)
    }

    /// Makes `made` the drag in progress, or says why it could not begin (naming `picked`).
    fn start_drag(
        &mut self,
        made: Result<Drag, ChainError>,
        picked: String,
        mode: ChainMode,
    ) -> Result<(), EditError> {
        let mut drag = made.map_err(|e| EditError::Drag {
            joint: picked,
            why: e.to_string(),
        })?;
        self.root_moves_figure(&mut drag, mode);
        self.linked = self.linked_group(&drag.chain).map(Box::new);
        if let Some(group) = self.linked.take() {
            // The drag starts with the links met (the undo step goes back to before).
            self.settle_group(&group, &mut IkRunner::default());
            self.linked = Some(group);
        }
        self.drag = Some(drag);
        Ok(())
    }

    /// Dragging the root body translates the whole figure (the root translation), except in
    /// the whole-body mode, which moves everything anyway.
    fn root_moves_figure(&self, drag: &mut Drag, mode: ChainMode) {
        if drag.joint == self.skeleton.root() && mode != ChainMode::WholeBody {
            drag.chain = Chain::root_translation();
        }
    }

    /// One step of the drag (an editor frame): the dragged point towards the cursor ray, with the locks the drag
    /// can disturb, by `runner`'s solver. The step first keeps the grip's depth
    /// ([`Drag::goal`]); when that does not converge within the step's updates, it solves again
    /// from the step's start pose with the depth free along the ray ([`Drag::ray_goal`]) and
    /// keeps whichever pose ends nearer the ray while holding the locks no worse. So the grip
    /// stays at its depth as long as it can follow the cursor there, and changes depth only where
    /// following needs it (a straight limb bending towards its base). `None` when no drag is in
    /// progress.
    pub(crate) fn drag_step(&mut self, ray: &Ray, runner: &mut IkRunner) -> Option<SolveOutcome> {
        let drag = self.drag.as_ref()?;
        let chain = drag.chain.clone();
        let held = drag.goal(&self.fk, ray);
        let free = drag.ray_goal(&self.fk, ray);
        // The locks the drag could disturb, found once for both tries (a linked drag's group
        // holds its own).
        let locks = self
            .linked
            .is_none()
            .then(|| self.locks_disturbed_by(&chain));
        let mut kept = self.drag_try(&held, &chain, locks.as_ref(), runner);
        let mut goal = held;
        if !kept.outcome.report.converged {
            let second = self.drag_try(&free, &chain, locks.as_ref(), runner);
            // `self.fk` serves to compare the tries (it is brought back to the kept pose below).
            let active = self.stage.active;
            let mut distance = |q: Option<&[f64]>| {
                self.fk.update(&self.skeleton, q.unwrap_or(&self.pose));
                self.drag
                    .as_ref()
                    .map_or(0.0, |d| d.distance_to(&self.fk, ray))
            };
            let held_distance = distance(kept.pose_of(active));
            let free_distance = distance(second.pose_of(active));
            let tolerance = runner.settings().tolerance;
            if free_distance < held_distance && second.held_error <= kept.held_error.max(tolerance)
            {
                (kept, goal) = (second, free);
            }
        }
        self.last_edit = Some((goal, chain));
        let outcome = kept.outcome;
        self.take_group_poses(kept.poses);
        Some(outcome)
    }

    /// One try of a drag step: `goal` moving `chain`, with `locks` (those the drag can
    /// disturb; where links hold now, the linked figures are solved with the edited one
    /// instead), from the current poses. Nothing changes in the document.
    fn drag_try(
        &self,
        goal: &Goal,
        chain: &Chain,
        locks: Option<&GoalSet>,
        runner: &mut IkRunner,
    ) -> GroupSolve {
        if let Some(group) = self.linked.as_deref() {
            return self.solve_group(group, Some((goal, chain)), runner, None);
        }
        let mut set = locks.cloned().unwrap_or_default();
        set.push_edit(goal.clone(), chain);
        let mut pose = self.pose.clone();
        let outcome = {
            let mut system = set.system(&self.skeleton, &self.stiffness);
            runner.step(&mut system, &mut pose)
        };
        let held_error = outcome
            .report
            .goal_errors
            .iter()
            .zip(set.owners())
            .filter(|(_, o)| matches!(o, Owner::Lock(_)))
            .fold(0.0_f64, |a, (e, _)| a.max(*e));
        GroupSolve {
            poses: vec![(self.stage.active, pose)],
            outcome,
            held_error,
        }
    }

    /// Ends the drag: the whole drag becomes one undo step (every linked figure's pose in it).
    pub(crate) fn end_drag(&mut self) {
        let linked = self.linked.take();
        let key_after = std::mem::take(&mut self.key_after_drag);
        if let Some(drag) = self.drag.take() {
            let label = format!("Drag {}", self.skeleton.joint(drag.joint).name);
            // A trail drag keys, at its frame, the joints it moved.
            let moved: Vec<JointId> = drag
                .chain
                .columns()
                .iter()
                .filter_map(|&c| self.skeleton.dof_at_state(c))
                .map(|d| self.skeleton.dof(d).joint)
                .collect();
            match linked {
                Some(group) => {
                    self.settle_group(&group, &mut IkRunner::default());
                    self.record_group_poses(label, group.start);
                }
                None => self.history.record(Change::Pose {
                    label,
                    before: drag.start_pose,
                    after: self.pose.clone(),
                }),
            }
            if key_after && !moved.is_empty() {
                // The key is its own undo step; it cannot be refused with joints to key and a
                // shown sequence, and if it were, the drag's pose stays as a pose edit.
                let _ = self.key_joints(&moved);
            }
        }
    }

    /// Cancels the drag (Escape): the poses go back to where the drag began; nothing recorded.
    pub(crate) fn cancel_drag(&mut self) {
        self.key_after_drag = false;
        let linked = self.linked.take();
        if let Some(drag) = self.drag.take() {
            match linked {
                Some(group) => self.take_group_poses(group.start),
                None => self.set_pose_quietly(&drag.start_pose),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_ik::{SolverKind, System, track};
    use marionette_skeleton::{Fk, Pose, Shape, builtin};

    #[test]
    fn a_mesh_body_is_gripped_where_it_was_picked() {
        let shape = Shape::Mesh {
            path: "meshes/block.gltf".into(),
            origin: Vector3::zeros(),
        };
        let hit = Vector3::new(0.03, -0.1, 0.02);
        assert_eq!(point_on_axis(&shape, &hit), hit);
    }

    #[test]
    fn the_effector_sits_on_the_segment_axis() {
        let shape = Shape::Capsule {
            radius: 0.05,
            start: Vector3::zeros(),
            end: Vector3::new(0.0, -0.3, 0.0),
        };
        let on_axis = point_on_axis(&shape, &Vector3::new(0.04, -0.1, 0.03));
        assert!((on_axis - Vector3::new(0.0, -0.1, 0.0)).norm() < 1e-12);
        assert!(
            ((point_on_axis(&shape, &Vector3::new(0.0, -0.9, 0.0)))
                - (Vector3::new(0.0, -0.3, 0.0)))
            .norm()
                < 1e-12
        );
    }

    #[test]
    fn the_goal_is_the_ray_point_nearest_the_effector() {
        let ray = Ray::new(Vector3::new(0.0, 1.0, 5.0), Vector3::new(0.0, 0.0, -1.0)).expect("ray");
        assert!(
            ((ray.closest_point_to(&Vector3::new(0.3, 0.2, 0.4))) - (Vector3::new(0.0, 1.0, 0.4)))
                .norm()
                < 1e-12
        );
        assert!(Ray::new(Vector3::zeros(), Vector3::zeros()).is_none());
        assert!(Ray::new(Vector3::new(f64::NAN, 0.0, 0.0), Vector3::x()).is_none());
    }

    #[test]
    fn dragging_the_forearm_moves_the_hand_towards_the_cursor_ray() {
        let s = builtin::humanoid();
        let mut q = Pose::rest(&s).q;
        let elbow = s.joint_by_name("right elbow").expect("elbow");
        q[s.joint_dofs(elbow).next().expect("dof").state_index()] = 0.3;
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let hit = fk.point(elbow, &Vector3::new(0.03, -0.2, 0.0));
        let drag = Drag::begin(&s, &fk, &q, elbow, &hit, ChainMode::NearestBranch).expect("drag");
        assert!(
            ((drag.local_point) - (Vector3::new(0.0, -0.2, 0.0))).norm() < 1e-12,
            "moved onto the forearm's axis"
        );
        // An orthographic front view: rays along −Z; the cursor moves up and forward-left.
        let ray = Ray::new(
            drag.effector(&fk) + Vector3::new(0.1, 0.25, 3.0),
            -Vector3::z(),
        )
        .expect("ray");
        let mut solver = SolverKind::DampedLeastSquares.build();
        let mut system = System::new(&s, vec![drag.goal(&fk, &ray)], drag.chain.clone());
        let (m, n) = system.shape();
        solver.prepare(m, n);
        let before = (ray.closest_point_to(&drag.effector(&fk)) - drag.effector(&fk)).norm();
        for _ in 0..30 {
            system.goals_mut()[0] = drag.goal(system.fk(), &ray);
            track(solver.as_mut(), &mut system, &mut q, 1e-4);
        }
        fk.update(&s, &q);
        let after = (ray.closest_point_to(&drag.effector(&fk)) - drag.effector(&fk)).norm();
        assert!(after < 1e-3 && after < before, "{before} → {after}");
        assert!(Pose { q: q.clone() }.within_limits(&s));
        // Only the chain moved: the left arm is where it was.
        let left = s.joint_by_name("left elbow").expect("left");
        assert_eq!(
            q[s.joint_dofs(left).next().expect("dof").state_index()],
            0.0
        );
    }
}
