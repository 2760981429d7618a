//! What the analytic limb solver does after an answer it could not make exact within the limits:
//! a goal out of reach, or reachable only outside the limits. Tolani, Goswami & Badler (2000,
//! §3.2.4 and §5) turn to a constrained numerical optimisation there; so do we, with the bounded
//! least-squares solver ([`BoundedLeastSquares`]: joint limits as true bounds) started from the
//! analytic answer, which is already the closest stretch (or the least limit excess) and is
//! independent of the start pose, so the refined answer is too.
//!
//! The driver calls `step` again while the goals are not met: a step that finds the pose it
//! produced last, for the same goals, continues the optimisation instead of answering again; a
//! changed goal (the next frame of a drag) or a changed pose starts afresh.

use crate::goal::Goal;
use crate::solver::{Solver, fingerprint};
use crate::solvers::nlp::BoundedLeastSquares;
use crate::system::System;

/// The optimisation after an inexact analytic answer, and what it continues from.
#[derive(Debug, Clone, Default)]
pub(super) struct Refinement {
    optimiser: BoundedLeastSquares,
    /// The pose (by fingerprint) the last step produced, the goals and the chain's columns it
    /// was for, while the answer is inexact.
    produced: Option<(u64, Vec<Goal>, Vec<usize>)>,
}

impl Refinement {
    /// Whether this step continues the optimisation: `q` is the pose the last step produced, for
    /// the same goals and chain.
    pub(super) fn continues(&self, system: &System<'_>, q: &[f64]) -> bool {
        self.produced
            .as_ref()
            .is_some_and(|(pose, goals, columns)| {
                *pose == fingerprint(q)
                    && goals[..] == system.goals()[..]
                    && columns[..] == system.chain().columns()[..]
            })
    }

    /// Records the analytic answer `q`: inexact ones are refined by the next steps, exact ones end
    /// any refinement.
    pub(super) fn answered(&mut self, system: &System<'_>, q: &[f64], exact: bool) {
        if exact {
            self.produced = None;
            return;
        }
        let (rows, columns) = system.shape();
        // A fresh optimisation: no curvature memory, and its regularisation centred here.
        self.optimiser.prepare(rows, columns);
        self.produced = Some((
            fingerprint(q),
            system.goals().to_vec(),
            system.chain().columns().to_vec(),
        ));
    }

    /// One update of the optimisation from `q`.
    pub(super) fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) {
        system.evaluate(q);
        self.optimiser.step(system, q);
        if let Some((pose, ..)) = &mut self.produced {
            *pose = fingerprint(q);
        }
    }
}
