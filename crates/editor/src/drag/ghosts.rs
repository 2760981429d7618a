//! The comparison ghosts: while dragging with the comparison on, each compared solver follows
//! the same drag from its start with its own pose, one step per frame, and is drawn as a
//! translucent figure (Welman's comparison of methods, made live).

use bevy::prelude::*;
use marionette_editing::{Document, Ray, Solving};
use marionette_ik::SolverKind;
use marionette_skeleton::Fk;

/// The colours of the ghosts, in the order of the compared solvers.
pub const GHOST_COLOURS: [Color; 6] = [
    Color::srgba(0.95, 0.35, 0.3, 0.35),
    Color::srgba(0.3, 0.8, 0.4, 0.35),
    Color::srgba(0.35, 0.55, 1.0, 0.35),
    Color::srgba(0.9, 0.8, 0.25, 0.35),
    Color::srgba(0.8, 0.4, 0.9, 0.35),
    Color::srgba(0.3, 0.85, 0.9, 0.35),
];

/// A comparison ghost: another solver's pose for the same drag, followed step by step from the
/// drag's start (so it shows what that solver would have done with the whole drag).
#[derive(Debug, Clone)]
pub struct GhostTrack {
    /// The solver.
    pub kind: SolverKind,
    /// Its pose.
    pub pose: Vec<f64>,
    /// Forward kinematics of that pose.
    pub fk: Fk,
    /// Its distance to the goal after the last step (metres).
    pub residual: f64,
}

/// The ghosts of the drag in progress (or of the last one, until the next drag, an undo or a
/// cancel).
#[derive(Resource, Debug, Default, Clone)]
pub struct Ghosts {
    /// One per compared solver.
    pub tracks: Vec<GhostTrack>,
    /// Per joint: whether the ghosts' drag can move it (only those are drawn as ghosts).
    pub moves: Vec<bool>,
    /// The drag they follow (`ActiveDrag::started`).
    for_drag: u64,
    /// Changes whenever the ghosts start again or go (the scene then redraws them).
    generation: u64,
}

impl Ghosts {
    /// Changes whenever the ghosts start again or go.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether these are the ghosts of drag number `drag`.
    pub fn follow(&self, drag: u64) -> bool {
        self.for_drag == drag
    }

    /// No ghosts (a drag cancelled, an undo, another document).
    pub fn clear(&mut self) {
        if !self.tracks.is_empty() {
            self.tracks.clear();
            self.generation = self.generation.wrapping_add(1);
        }
    }

    /// The ghosts of drag number `drag` start from the pose it starts from (none when the
    /// comparison is off).
    pub fn start(&mut self, drag: u64, document: &Document, solving: &Solving) {
        self.tracks.clear();
        self.for_drag = drag;
        self.generation = self.generation.wrapping_add(1);
        if !solving.comparison.enabled {
            return;
        }
        let chosen = solving.runner.settings().solver;
        let skeleton = document.skeleton();
        let pose = document.pose();
        self.tracks = solving
            .comparison
            .solvers
            .iter()
            .filter(|&&kind| kind != chosen)
            .map(|&kind| {
                let mut fk = Fk::new(skeleton);
                fk.update(skeleton, pose);
                GhostTrack {
                    kind,
                    pose: pose.to_vec(),
                    fk,
                    residual: f64::NAN,
                }
            })
            .collect();
        self.moves = moved_joints(document);
    }

    /// Each ghost takes one step of its own solver from its own pose towards the same cursor
    /// ray.
    pub fn advance(&mut self, document: &Document, solving: &mut Solving, ray: &Ray) {
        let Some(drag) = document.drag() else {
            return;
        };
        for ghost in &mut self.tracks {
            let goal = drag.goal(&ghost.fk, ray);
            let set = document.goal_set(std::slice::from_ref(&goal), &drag.chain);
            let mut system = set.system(document.skeleton(), document.stiffness());
            if let Some(result) = solving
                .runner
                .compare(&mut system, &ghost.pose, &[ghost.kind])
                .pop()
            {
                ghost.pose = result.pose;
                ghost.residual = result.report.residual;
                ghost.fk.update(document.skeleton(), &ghost.pose);
            }
        }
    }
}

/// Per joint: whether the drag's chain moves it (a DOF of its own or of an ancestor is in the
/// chain, or the root's translation is).
fn moved_joints(document: &Document) -> Vec<bool> {
    let skeleton = document.skeleton();
    let Some(drag) = document.drag() else {
        return vec![false; skeleton.joints().len()];
    };
    let columns = drag.chain.columns();
    let root_moves = columns.iter().any(|&c| skeleton.dof_at_state(c).is_none());
    let mut moved = vec![root_moves; skeleton.joints().len()];
    // Hierarchy order: a parent comes before its children.
    for (id, joint) in skeleton.joint_ids().zip(skeleton.joints()) {
        let own = skeleton
            .joint_dofs(id)
            .any(|d| columns.binary_search(&d.state_index()).is_ok());
        let inherited = joint.parent.is_some_and(|p| moved[p.index()]);
        moved[id.index()] = moved[id.index()] || own || inherited;
    }
    moved
}
