//! The one goal set a frame solves: the locks enabled on that frame and the edit in progress (a
//! drag, a swivel, an orientation handle), each goal served by its own chain (its Jacobian rows
//! are zero elsewhere, [`System::restrict_goal`]) while the union of the chains moves. The drag,
//! the swivel slider, the ghosts, "solve until satisfied" and the timeline's bake all build their
//! systems here, so they all ask for the same thing.
//!
//! Locks sit above the edit: the edit's goals get the priority level below every lock's, so task
//! priority and constraint maintenance (Welman 1993, ch. 5) keep the locks first and meet the drag
//! in what the locks leave free; weighted methods (DLS, SDLS, JT, CCD) balance them by weight.

use marionette_ik::{Goal, System};
use marionette_skeleton::{Chain, Skeleton};

use crate::lock::Lock;

/// Whose goal a row block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The document's lock at this index.
    Lock(usize),
    /// The edit in progress (a drag's goal, a swivel's).
    Edit,
    /// The stage's link at this index (a site held to another figure's site or to a prop).
    Link(usize),
}

/// Goals, the chain each may move, and whose each goal is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoalSet {
    goals: Vec<Goal>,
    chains: Vec<Chain>,
    owners: Vec<Owner>,
}

impl GoalSet {
    /// The locks of `locks` active on `frame` (`None`: the pose being edited, every enabled
    /// lock), each kept by its limb.
    pub fn with_locks(locks: &[Lock], frame: Option<i64>) -> GoalSet {
        GoalSet::with_locks_where(locks, |_, lock| lock.active_at(frame))
    }

    /// The locks of `locks` active on `frame` but those of `except` (document indices), each
    /// kept by its limb (a bake making a frame without the locks easing there).
    pub fn with_locks_except(locks: &[Lock], frame: Option<i64>, except: &[usize]) -> GoalSet {
        GoalSet::with_locks_where(locks, |i, lock| {
            !except.contains(&i) && lock.active_at(frame)
        })
    }

    /// The locks for which `keep(index, lock)` is true, each kept by its limb.
    fn with_locks_where(locks: &[Lock], keep: impl Fn(usize, &Lock) -> bool) -> GoalSet {
        let mut set = GoalSet::default();
        for (i, lock) in locks.iter().enumerate() {
            if keep(i, lock) {
                set.goals.push(lock.goal().clone());
                set.chains.push(lock.limb().clone());
                set.owners.push(Owner::Lock(i));
            }
        }
        set
    }

    /// Adds `goal`, kept by `chain`, as `owner`'s (a stage solving several figures' locks and
    /// its links as one set).
    pub fn push(&mut self, goal: Goal, chain: Chain, owner: Owner) {
        self.goals.push(goal);
        self.chains.push(chain);
        self.owners.push(owner);
    }

    /// The set split into sets whose chains share no column, each to be solved on its own:
    /// goals are kept only by their own chains ([`GoalSet::system`]), so the system is block
    /// diagonal and its blocks are independent problems. Solving them apart costs the sum of
    /// their sizes, not the size of their union (a stage's figures, or one figure's feet and
    /// hands). Goals keep their set order within each part; parts come in order of their first
    /// goal.
    pub fn components(&self) -> Vec<GoalSet> {
        let n = self.goals.len();
        let mut part: Vec<usize> = (0..n).collect();
        fn find(part: &mut [usize], mut i: usize) -> usize {
            while part[i] != i {
                part[i] = part[part[i]];
                i = part[i];
            }
            i
        }
        for a in 0..n {
            for b in a + 1..n {
                let shares = self.chains[a]
                    .columns()
                    .iter()
                    .any(|c| self.chains[b].contains(*c));
                if shares {
                    let (ra, rb) = (find(&mut part, a), find(&mut part, b));
                    part[ra.max(rb)] = ra.min(rb);
                }
            }
        }
        let mut sets: Vec<(usize, GoalSet)> = Vec::new();
        for i in 0..n {
            let root = find(&mut part, i);
            let at = match sets.iter().position(|(r, _)| *r == root) {
                Some(at) => at,
                None => {
                    sets.push((root, GoalSet::default()));
                    sets.len() - 1
                }
            };
            sets[at].1.push(
                self.goals[i].clone(),
                self.chains[i].clone(),
                self.owners[i],
            );
        }
        sets.into_iter().map(|(_, s)| s).collect()
    }

    /// Keeps only the locks for whose document index `keep` is true (the edit goals stay).
    pub fn retain_locks(&mut self, mut keep: impl FnMut(usize) -> bool) {
        let mut i = 0;
        while i < self.goals.len() {
            if let Owner::Lock(l) = self.owners[i]
                && !keep(l)
            {
                self.goals.remove(i);
                self.chains.remove(i);
                self.owners.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Adds an edit's goal moving `chain`, one priority level below every lock already in the
    /// set (locks above the drag).
    pub fn push_edit(&mut self, mut goal: Goal, chain: &Chain) {
        let below_locks = self
            .goals
            .iter()
            .zip(&self.owners)
            .filter(|(_, o)| matches!(o, Owner::Lock(_)))
            .map(|(g, _)| g.priority + 1)
            .max()
            .unwrap_or(0);
        goal.priority = goal.priority.max(below_locks);
        self.goals.push(goal);
        self.chains.push(chain.clone());
        self.owners.push(Owner::Edit);
    }

    /// The same goals with the state columns `fixed` taken out of every chain: those values
    /// stay as they are (a joint turned by hand, the others solve around it).
    pub fn fixing(mut self, fixed: &[usize]) -> GoalSet {
        for chain in &mut self.chains {
            *chain = chain.without_columns(fixed);
        }
        self
    }

    /// The goals, in set order (locks first, in document order, then the edit's).
    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    /// Whose each goal is, in set order.
    pub fn owners(&self) -> &[Owner] {
        &self.owners
    }

    /// Whether the set holds any lock.
    pub fn has_locks(&self) -> bool {
        self.owners.iter().any(|o| matches!(o, Owner::Lock(_)))
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// The union of every goal's chain: what the solve moves.
    pub fn chain(&self) -> Chain {
        self.chains
            .iter()
            .fold(Chain::default(), |acc, c| acc.union(c))
    }

    /// The IK system: every goal, the union chain, each goal's rows limited to its own chain,
    /// and `stiffness` (one Welman w per joint, the document's edits) on the columns.
    pub fn system<'s>(&self, skeleton: &'s Skeleton, stiffness: &[f64]) -> System<'s> {
        let chain = self.chain();
        let columns = chain.columns().to_vec();
        let mut system = System::new(skeleton, self.goals.clone(), chain);
        system.set_joint_stiffness(stiffness);
        if self.chains.len() > 1 {
            let mut mask = vec![false; columns.len()];
            for (g, own) in self.chains.iter().enumerate() {
                for (m, c) in mask.iter_mut().zip(&columns) {
                    *m = own.contains(*c);
                }
                system.restrict_goal(g, &mask);
            }
        }
        system
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::{LockKind, LockPart};
    use marionette_ik::{GoalKind, Settings, SolverKind, solve};
    use marionette_skeleton::{Fk, Pose, builtin};
    use nalgebra::Vector3;

    /// Both heels locked (`kind`), the pelvis dragged straight down by `drop` through the root
    /// translation: the legs bend, the heels stay, the pelvis keeps its orientation.
    fn crouch(kind: LockKind, drop: f64) {
        let s = builtin::humanoid();
        let mut q = builtin::standing(&s).q;
        let start = q.clone();
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let locks: Vec<Lock> = ["left heel", "right heel"]
            .iter()
            .map(|n| {
                let site = s.site_by_name(n).expect("heel");
                Lock::at_current(&s, &fk, *n, LockPart::Site(site), kind).expect("lock")
            })
            .collect();
        let pelvis = s.joint_by_name("pelvis").expect("pelvis");
        let target = fk.joint_position(pelvis) - Vector3::new(0.0, drop, 0.0);
        let mut set = GoalSet::with_locks(&locks, None);
        set.push_edit(
            Goal::new(GoalKind::Point {
                joint: pelvis,
                offset: Vector3::zeros(),
                target,
                shape: marionette_ik::TargetShape::Point,
            }),
            &Chain::root_translation(),
        );
        assert_eq!(set.goals()[2].priority, 1, "the drag sits below the locks");
        let stiffness: Vec<f64> = s.joints().iter().map(|j| j.stiffness).collect();
        let mut system = set.system(&s, &stiffness);
        let mut solver = SolverKind::DampedLeastSquares.build();
        let report = solve(
            solver.as_mut(),
            &mut system,
            &mut q,
            Settings {
                tolerance: 1e-5,
                max_iterations: 300,
            },
        );
        assert!(report.converged, "{kind:?}: {report:?}");
        fk.update(&s, &q);
        for lock in &locks {
            assert!(lock.violation(&s, &fk).within(1e-5), "{}", lock.name);
        }
        assert!((fk.joint_position(pelvis) - target).norm() < 1e-5);
        // The pelvis did not rotate (no chain holds it); the knees bent.
        for d in s.joint_dofs(pelvis) {
            assert_eq!(q[d.state_index()], start[d.state_index()]);
        }
        let knee = s.joint_by_name("left knee").expect("knee");
        let k = s.joint_dofs(knee).next().expect("dof").state_index();
        assert!(q[k] > start[k] + 0.1, "{} → {}", start[k], q[k]);
        assert!(Pose { q }.within_limits(&s));
    }

    #[test]
    fn components_are_the_goals_that_share_columns() {
        let s = builtin::humanoid();
        let fk = {
            let mut fk = Fk::new(&s);
            fk.update(&s, &builtin::standing(&s).q);
            fk
        };
        let lock = |n: &str| {
            let site = s.site_by_name(n).expect("site");
            Lock::at_current(&s, &fk, n, LockPart::Site(site), LockKind::Position).expect("lock")
        };
        // Both feet and one hand: three limbs, three parts; a hand-to-hand lock joins the arms.
        let locks = vec![
            lock("left heel"),
            lock("right heel"),
            lock("right fingertips"),
            lock("left fingertips"),
        ];
        let set = GoalSet::with_locks(&locks, None);
        assert_eq!(set.components().len(), 4);
        let mut joined = set.clone();
        let together = Lock::together(
            &s,
            "hands",
            s.site_by_name("right fingertips").expect("site"),
            s.site_by_name("left fingertips").expect("site"),
        )
        .expect("lock");
        joined.push(
            together.goal().clone(),
            together.limb().clone(),
            Owner::Link(0),
        );
        let parts = joined.components();
        assert_eq!(parts.len(), 3, "{parts:?}");
        let owners: Vec<Vec<Owner>> = parts.iter().map(|p| p.owners().to_vec()).collect();
        assert_eq!(
            owners,
            vec![
                vec![Owner::Lock(0)],
                vec![Owner::Lock(1)],
                vec![Owner::Lock(2), Owner::Lock(3), Owner::Link(0)],
            ]
        );
    }

    #[test]
    fn a_pelvis_drag_with_both_heels_locked_is_a_crouch() {
        crouch(LockKind::Position, 0.10);
        // Flat feet: the ankles' 20° of dorsiflexion allow a shallower crouch.
        crouch(LockKind::Pose, 0.03);
    }
}
