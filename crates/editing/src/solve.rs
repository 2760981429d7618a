//! How the editor's solves run, without Bevy: the chosen solver with its settings (the IK panel:
//! solver, updates per frame, tolerance, options), the analytic limb solver where the dragged
//! chain is a limb and DLS where it is not, and the residual after each update for the live
//! plot ([`IkRunner`]); with what a drag moves and the solvers the comparison ghosts follow, the
//! [`Solving`] an edit is applied with. Each step of a drag builds a [`System`] from the drag and
//! the locks and calls [`IkRunner::step`]; "solve until satisfied" calls
//! [`IkRunner::until_satisfied`].

use std::collections::HashMap;

use marionette_ik::preference::Preference;
use marionette_ik::{
    Report, Settings, Solver, SolverKind, SolverOptions, System, solve, solve_into,
};

/// What the IK panel sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkSettings {
    /// The chosen method.
    pub solver: SolverKind,
    /// Updates at most per frame while dragging.
    pub iterations_per_frame: usize,
    /// Every goal within this (metres or radians) counts as met.
    pub tolerance: f64,
    /// Method options (a fixed damping for DLS, a desired swivel for the limb solver); each
    /// applies to its own method and is kept, unused, while another runs.
    pub options: SolverOptions,
    /// Gain of the pull towards the joints' bend hints in the goals' null space
    /// ([`System::set_preference`]; 0 = off): what makes a straight limb bend when dragged.
    pub preference: f64,
}

/// The default gain of the pull towards the bend hints.
pub const DEFAULT_PREFERENCE: f64 = 0.1;

impl Default for IkSettings {
    /// DLS, 10 updates per frame, 0.1 mm: the editor frame of `marionette bench`.
    fn default() -> Self {
        IkSettings {
            solver: SolverKind::DampedLeastSquares,
            iterations_per_frame: 10,
            tolerance: 1e-4,
            options: SolverOptions::default(),
            preference: DEFAULT_PREFERENCE,
        }
    }
}

/// What one step of a drag (or one "until satisfied" run) did.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOutcome {
    /// The method that ran: the chosen one, or DLS where the limb solver does not apply.
    pub ran: SolverKind,
    /// Why the chosen method did not run, when it did not.
    pub fallback: Option<String>,
    /// The driver's report (residual, iterations, limit hits, swivel).
    pub report: Report,
    /// The largest goal error after each update, in order (the residual plot).
    pub residuals: Vec<f64>,
}

/// Another method's answer to the same step, drawn as a translucent figure (the editor keeps
/// one `GhostTrack` per compared method across a drag; this is one step's result).
#[derive(Debug, Clone, PartialEq)]
pub struct GhostStep {
    /// The method.
    pub kind: SolverKind,
    /// The pose it reached.
    pub pose: Vec<f64>,
    /// Its report.
    pub report: Report,
}

/// Runs the chosen solver frame after frame, keeping each method's workspaces between frames.
pub struct IkRunner {
    settings: IkSettings,
    solvers: HashMap<SolverKind, Box<dyn Solver>>,
    /// The bend hints' workspace, lent to each frame's system and taken back after it.
    preference: Option<Box<Preference>>,
}

impl std::fmt::Debug for IkRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IkRunner")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

/// The options of `options` that apply to `kind`.
fn applicable(kind: SolverKind, options: &SolverOptions) -> SolverOptions {
    SolverOptions {
        damping: options
            .damping
            .filter(|_| kind == SolverKind::DampedLeastSquares),
        swivel: options.swivel.filter(|_| kind == SolverKind::AnalyticLimb),
    }
}

/// The method used where the chosen one cannot solve the system.
const FALLBACK: SolverKind = SolverKind::DampedLeastSquares;

impl Default for IkRunner {
    /// A runner with the default settings (which carry no method options, so need no check).
    fn default() -> Self {
        IkRunner {
            settings: IkSettings::default(),
            solvers: HashMap::new(),
            preference: None,
        }
    }
}

impl IkRunner {
    /// A runner with `settings`, or why they do not fit together.
    pub fn new(settings: IkSettings) -> Result<IkRunner, String> {
        let mut runner = IkRunner::default();
        runner.set_settings(settings)?;
        Ok(runner)
    }

    /// The current settings.
    pub fn settings(&self) -> &IkSettings {
        &self.settings
    }

    /// Changes the settings (the panel, or `SetSolver` in a replay); on error nothing changes.
    pub fn set_settings(&mut self, settings: IkSettings) -> Result<(), String> {
        if settings.iterations_per_frame == 0 {
            return Err("updates per frame must be at least 1".into());
        }
        if !(settings.tolerance.is_finite() && settings.tolerance > 0.0) {
            return Err(format!(
                "tolerance {} is not a number > 0",
                settings.tolerance
            ));
        }
        if !(0.0..=1.0).contains(&settings.preference) {
            return Err(format!(
                "bend hint weight {} is not a number in [0, 1]",
                settings.preference
            ));
        }
        let solver = settings
            .solver
            .build_with(&applicable(settings.solver, &settings.options))?;
        if settings.options != self.settings.options {
            // Options are baked into the built solvers: start again from the new ones.
            self.solvers.clear();
        }
        self.solvers.insert(settings.solver, solver);
        self.settings = settings;
        Ok(())
    }

    /// One step of a drag (one editor frame): at most `iterations_per_frame` updates, stopping
    /// once every goal is met.
    pub fn step(&mut self, system: &mut System<'_>, q: &mut [f64]) -> SolveOutcome {
        self.run(system, q, self.settings.iterations_per_frame)
    }

    /// Iterates until every goal is met, the solver stops moving, or `max_iterations` updates.
    pub fn until_satisfied(
        &mut self,
        system: &mut System<'_>,
        q: &mut [f64],
        max_iterations: usize,
    ) -> SolveOutcome {
        self.run(system, q, max_iterations)
    }

    /// The comparison mode's ghosts: what each of `others` would make of the same goals from the
    /// same pose `q` with this frame's budget, each on its own copy (`q` is not changed). Methods
    /// that cannot solve the system (the limb solver off a limb) are left out.
    pub fn compare(
        &mut self,
        system: &mut System<'_>,
        q: &[f64],
        others: &[SolverKind],
    ) -> Vec<GhostStep> {
        let settings = self.driver_settings(self.settings.iterations_per_frame);
        system.set_preference_with(self.settings.preference, &mut self.preference);
        let ghosts = others
            .iter()
            .filter_map(|&kind| {
                let solver = self.solver(kind);
                solver.supports(system).ok()?;
                let mut pose = q.to_vec();
                let report = solve(solver, system, &mut pose, settings);
                Some(GhostStep { kind, pose, report })
            })
            .collect();
        self.preference = system.take_preference().or(self.preference.take());
        ghosts
    }

    fn run(&mut self, system: &mut System<'_>, q: &mut [f64], budget: usize) -> SolveOutcome {
        let chosen = self.settings.solver;
        let fallback = self.solver(chosen).supports(system).err();
        let ran = if fallback.is_some() { FALLBACK } else { chosen };
        let settings = self.driver_settings(budget);
        system.set_preference_with(self.settings.preference, &mut self.preference);
        let mut residuals = Vec::with_capacity(budget.min(1024));
        let mut report = Report::default();
        solve_into(self.solver(ran), system, q, settings, &mut report, |r| {
            residuals.push(r);
        });
        self.preference = system.take_preference().or(self.preference.take());
        SolveOutcome {
            ran,
            fallback,
            report,
            residuals,
        }
    }

    /// The driver's settings for `budget` updates.
    fn driver_settings(&self, budget: usize) -> Settings {
        Settings {
            tolerance: self.settings.tolerance,
            max_iterations: budget,
        }
    }

    fn solver(&mut self, kind: SolverKind) -> &mut dyn Solver {
        self.solvers
            .entry(kind)
            .or_insert_with(|| kind.build())
            .as_mut()
    }
}

/// The solvers the comparison ghosts follow while dragging (translucent figures showing what
/// other methods make of the same drag).
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Whether the ghosts are shown.
    pub enabled: bool,
    /// The methods compared against, in colour order (the chosen solver is left out).
    pub solvers: Vec<SolverKind>,
}

impl Default for Comparison {
    /// Off; Jacobian transpose, pseudo-inverse and CCD when turned on.
    fn default() -> Self {
        Comparison {
            enabled: false,
            solvers: vec![
                SolverKind::JacobianTranspose,
                SolverKind::PseudoInverse,
                SolverKind::CyclicCoordinateDescent,
            ],
        }
    }
}

/// How edits are solved, beside the document: the IK runner (the chosen solver, its settings
/// and workspaces), what a drag moves, and the comparison. Not part of the work: it is not
/// saved and not undone.
#[derive(Debug, Default)]
pub struct Solving {
    /// The solver run by drags, locks and "solve until satisfied".
    pub runner: IkRunner,
    /// What a drag moves.
    pub chain_mode: crate::ChainMode,
    /// The comparison ghosts.
    pub comparison: Comparison,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChainMode, Drag, Ray};
    use marionette_ik::{Goal, GoalKind};
    use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
    use nalgebra::Vector3;

    /// A drag of the right forearm in the front view, towards a point up and to the left.
    fn forearm_drag(s: &Skeleton) -> (Drag, Ray, Vec<f64>) {
        let mut q = Pose::rest(s).q;
        let elbow = s.joint_by_name("right elbow").expect("elbow");
        q[s.joint_dofs(elbow).next().expect("dof").state_index()] = 0.3;
        let mut fk = Fk::new(s);
        fk.update(s, &q);
        let hit = fk.point(elbow, &Vector3::new(0.0, -0.2, 0.0));
        let drag = Drag::begin(s, &fk, &q, elbow, &hit, ChainMode::NearestBranch).expect("drag");
        let ray = Ray::new(
            drag.effector(&fk) + Vector3::new(0.1, 0.2, 3.0),
            -Vector3::z(),
        )
        .expect("ray");
        (drag, ray, q)
    }

    #[test]
    fn a_frame_makes_at_most_its_updates_and_plots_each_residual() {
        let s = builtin::humanoid();
        let (drag, ray, mut q) = forearm_drag(&s);
        let mut runner = IkRunner::new(IkSettings {
            iterations_per_frame: 3,
            ..IkSettings::default()
        })
        .expect("settings");
        let fk = {
            let mut fk = Fk::new(&s);
            fk.update(&s, &q);
            fk
        };
        let mut system = System::new(&s, vec![drag.goal(&fk, &ray)], drag.chain.clone());
        let first = runner.step(&mut system, &mut q);
        assert_eq!(first.ran, SolverKind::DampedLeastSquares);
        assert_eq!(first.residuals.len(), first.report.iterations);
        assert!(first.report.iterations <= 3 && first.report.iterations > 0);
        assert_eq!(first.residuals.last(), Some(&first.report.residual));
        // Later frames keep closing the gap until the goal is met.
        let mut last = first.report.residual;
        for _ in 0..20 {
            let outcome = runner.step(&mut system, &mut q);
            assert!(outcome.report.residual <= last + 1e-12);
            last = outcome.report.residual;
        }
        assert!(last <= 1e-4, "{last}");
    }

    #[test]
    fn the_limb_solver_runs_on_limbs_and_dls_elsewhere() {
        let s = builtin::humanoid();
        let mut runner = IkRunner::new(IkSettings {
            solver: SolverKind::AnalyticLimb,
            ..IkSettings::default()
        })
        .expect("settings");
        // The whole right arm is a limb: one exact update.
        let hand = s.site_by_name("right fingertips").expect("hand");
        let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
        let arm = Chain::between(&s, shoulder, s.site(hand).joint).expect("arm");
        let mut q = Pose::rest(&s).q;
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let target = fk.site_position(hand) + Vector3::new(0.05, 0.25, 0.15);
        let goal = Goal::new(GoalKind::Position { site: hand, target });
        let mut system = System::new(&s, vec![goal], arm);
        let outcome = runner.step(&mut system, &mut q);
        assert_eq!(
            (outcome.ran, outcome.fallback.as_deref()),
            (SolverKind::AnalyticLimb, None)
        );
        assert_eq!(outcome.report.iterations, 1);
        assert!(outcome.report.converged, "{:?}", outcome.report);
        // Dragging the forearm moves elbow and wrist only: not a limb, so DLS runs, and says why.
        let (drag, ray, mut q) = forearm_drag(&s);
        fk.update(&s, &q);
        let mut system = System::new(&s, vec![drag.goal(&fk, &ray)], drag.chain.clone());
        let outcome = runner.step(&mut system, &mut q);
        assert_eq!(outcome.ran, SolverKind::DampedLeastSquares);
        let why = outcome.fallback.expect("a reason");
        assert!(why.starts_with("not a limb"), "{why}");
    }

    #[test]
    fn ghosts_show_other_solvers_without_moving_the_figure() {
        let s = builtin::humanoid();
        let (drag, ray, q) = forearm_drag(&s);
        let mut fk = Fk::new(&s);
        fk.update(&s, &q);
        let mut system = System::new(&s, vec![drag.goal(&fk, &ray)], drag.chain.clone());
        let mut runner = IkRunner::new(IkSettings::default()).expect("settings");
        let others = [
            SolverKind::CyclicCoordinateDescent,
            SolverKind::SelectivelyDamped,
            SolverKind::AnalyticLimb,
        ];
        system.evaluate_errors(&q);
        let start = system.max_error();
        let ghosts = runner.compare(&mut system, &q, &others);
        // The forearm chain is not a limb: no analytic ghost.
        let kinds: Vec<SolverKind> = ghosts.iter().map(|g| g.kind).collect();
        assert_eq!(kinds, others[..2]);
        for ghost in &ghosts {
            assert_ne!(ghost.pose, q, "{} moved", ghost.kind);
            assert!(ghost.report.residual < start, "{}", ghost.kind);
            assert_eq!(ghost.report.solver, ghost.kind.name());
        }
        // Their poses differ: the methods really are different.
        assert_ne!(ghosts[0].pose, ghosts[1].pose);
    }

    #[test]
    fn each_option_stays_with_its_method() {
        let damped = IkSettings {
            options: SolverOptions {
                damping: Some(0.2),
                swivel: Some(0.5),
            },
            ..IkSettings::default()
        };
        let mut runner = IkRunner::new(damped).expect("DLS takes a damping");
        for kind in [
            SolverKind::CyclicCoordinateDescent,
            SolverKind::AnalyticLimb,
        ] {
            runner
                .set_settings(IkSettings {
                    solver: kind,
                    ..damped
                })
                .expect("options of other methods are kept, not refused");
        }
        assert_eq!(runner.settings().options.damping, Some(0.2));
    }

    #[test]
    fn switching_solvers_and_rejected_settings() {
        let mut runner = IkRunner::new(IkSettings::default()).expect("default");
        for kind in SolverKind::ALL {
            runner
                .set_settings(IkSettings {
                    solver: kind,
                    ..*runner.settings()
                })
                .expect("every solver");
            assert_eq!(runner.settings().solver, kind);
        }
        let before = *runner.settings();
        let bad = [
            IkSettings {
                iterations_per_frame: 0,
                ..before
            },
            IkSettings {
                tolerance: f64::NAN,
                ..before
            },
            IkSettings {
                solver: SolverKind::DampedLeastSquares,
                options: SolverOptions {
                    damping: Some(-0.1),
                    swivel: None,
                },
                ..before
            },
        ];
        for settings in bad {
            assert!(runner.set_settings(settings).is_err(), "{settings:?}");
            assert_eq!(*runner.settings(), before, "nothing changed");
        }
    }
}
