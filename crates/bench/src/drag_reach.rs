//! Issue 15's protocol: do drags reach? For every shipped skeleton and a set of random skeletons
//! (the generator the property tests use), each site is gripped and dragged from the rest pose to
//! a random reachable target (the site where a random pose of the dragged chain alone puts it) in
//! each orthographic view, exactly as the editor drags: the chain up to the nearest branch, each
//! frame the goal is the point of the cursor's view ray nearest the grip
//! ([`marionette_editing::Edit::DragTo`]), at most 10 updates a frame. The cursor glides
//! to the target over [`GLIDE_FRAMES`] frames, as a hand would, then stays; a drag reaches when
//! the grip is within 1 mm of the final ray. Rest poses with straight limbs at their limits are
//! the singular starts that used to stall every numeric solver.

use marionette_editing::{
    ChainMode, Document, Grip, IkRunner, IkSettings, Ray, Solving, chain_for,
};

use crate::edits;
use marionette_ik::SolverKind;
use marionette_skeleton::{Fk, Pose, ROOT_STATE_LEN, SiteId, Skeleton};
use nalgebra::Vector3;

use crate::table::{Table, median};
use marionette_skeleton::random::SplitMix64;

/// Frames the cursor takes to glide from the grip to the target.
pub const GLIDE_FRAMES: usize = 20;
/// Frames a drag may take in all before it counts as not reaching.
pub const MAX_FRAMES: usize = 200;
/// How near the final ray the grip must come (metres).
pub const REACH: f64 = 1e-3;

/// An orthographic view, by the direction it looks in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View {
    /// Looking along −Z at the figure's front.
    Front,
    /// Looking along −X at the figure's left side.
    Side,
    /// Looking down (−Y).
    Top,
}

impl View {
    /// Every view.
    pub const ALL: [View; 3] = [View::Front, View::Side, View::Top];

    /// The view's direction.
    pub fn direction(self) -> Vector3<f64> {
        match self {
            View::Front => -Vector3::z(),
            View::Side => -Vector3::x(),
            View::Top => -Vector3::y(),
        }
    }

    /// The view ray through the point `through` (from 10 m in front of it).
    pub fn ray(self, through: &Vector3<f64>) -> Ray {
        let d = self.direction();
        Ray::new(through - d * 10.0, d).expect("a unit direction")
    }
}

/// One drag: a site gripped at rest and the point a random pose of its chain puts it at.
#[derive(Debug, Clone)]
pub struct Case {
    /// The gripped site.
    pub site: SiteId,
    /// Where the target pose puts the site.
    pub target: Vector3<f64>,
    /// The view it is dragged in.
    pub view: View,
}

/// `per_site` random targets for every site of `skeleton`, in each view. A target pose sets
/// every DOF of the site's drag chain (nearest branch) uniformly within its limits (a full turn
/// for unlimited hinges) and leaves the rest of the figure at rest.
pub fn cases(skeleton: &Skeleton, per_site: usize, seed: u64) -> Vec<Case> {
    let mut rng = SplitMix64::new(seed);
    let mut fk = Fk::new(skeleton);
    let mut out = Vec::new();
    for site in skeleton.site_ids() {
        let Ok(chain) = chain_for(
            skeleton,
            skeleton.site(site).joint,
            ChainMode::NearestBranch,
        ) else {
            continue;
        };
        for view in View::ALL {
            for _ in 0..per_site {
                let mut q = Pose::rest(skeleton).q;
                for &state in chain.columns() {
                    let Some(k) = state.checked_sub(ROOT_STATE_LEN) else {
                        continue;
                    };
                    let dof = &skeleton.dofs()[k];
                    q[state] = if dof.unlimited {
                        rng.uniform(-std::f64::consts::PI, std::f64::consts::PI)
                    } else {
                        rng.uniform(dof.min, dof.max)
                    };
                }
                fk.update(skeleton, &q);
                out.push(Case {
                    site,
                    target: fk.site_position(site),
                    view,
                });
            }
        }
    }
    out
}

/// Drags `case` from the rest pose with `runner`; how many frames after the cursor stopped the
/// grip came within [`REACH`] of the target's ray (0: on the frame the cursor arrived), or
/// `None`.
pub fn drag(skeleton: &Skeleton, case: &Case, runner: &mut IkRunner) -> Option<usize> {
    let mut doc = Document::new(skeleton.clone(), None);
    let mut solving = edits::solving(std::mem::take(runner), ChainMode::NearestBranch);
    let reached = reach(&mut doc, case, &mut solving);
    *runner = solving.runner;
    reached
}

/// [`drag`] on `doc`, with `solving`.
fn reach(doc: &mut Document, case: &Case, solving: &mut Solving) -> Option<usize> {
    let start = doc.fk().site_position(case.site);
    edits::begin(doc, Grip::Site(case.site), solving).ok()?;
    let final_ray = case.view.ray(&case.target);
    for frame in 0..MAX_FRAMES {
        let t = ((frame + 1) as f64 / GLIDE_FRAMES as f64).min(1.0);
        let cursor = start + (case.target - start) * t;
        edits::step(doc, &case.view.ray(&cursor), solving)?;
        let grip = doc.fk().site_position(case.site);
        if t >= 1.0 && (final_ray.closest_point_to(&grip) - grip).norm() <= REACH {
            return Some(frame + 1 - GLIDE_FRAMES);
        }
    }
    None
}

/// The solvers the table compares (every numeric method; the analytic one serves limbs only).
pub const SOLVERS: [SolverKind; 8] = [
    SolverKind::DampedLeastSquares,
    SolverKind::SelectivelyDamped,
    SolverKind::PseudoInverse,
    SolverKind::TaskPriority,
    SolverKind::BoundedLeastSquares,
    SolverKind::JacobianTranspose,
    SolverKind::CyclicCoordinateDescent,
    SolverKind::ConstraintMaintenance,
];

/// Reach rate (0–1), the median and the largest count of frames the drags that reached took
/// after the cursor stopped, and the count of drags.
pub fn run(
    skeletons: &[(String, Skeleton)],
    per_site: usize,
    kind: SolverKind,
) -> (f64, [f64; 2], usize) {
    let mut runner = IkRunner::new(IkSettings {
        solver: kind,
        ..IkSettings::default()
    })
    .expect("default settings");
    let (mut reached, mut total, mut frames) = (0, 0, Vec::new());
    for (i, (_, skeleton)) in skeletons.iter().enumerate() {
        for case in cases(skeleton, per_site, 0x15 + i as u64) {
            total += 1;
            if let Some(f) = drag(skeleton, &case, &mut runner) {
                reached += 1;
                frames.push(f as f64);
            }
        }
    }
    let rate = if total == 0 {
        0.0
    } else {
        reached as f64 / total as f64
    };
    let largest = frames.iter().copied().fold(f64::NAN, f64::max);
    let med = if frames.is_empty() {
        f64::NAN
    } else {
        median(&mut frames)
    };
    (rate, [med, largest], total)
}

/// Every skeleton in `dir` (sorted by file name), named by file stem; files that do not load are
/// left out.
pub fn shipped(dir: &std::path::Path) -> Vec<(String, Skeleton)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "ron"));
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some((name, Skeleton::load(&p).ok()?))
        })
        .collect()
}

/// `count` random skeletons from the property tests' generator
/// (`marionette_skeleton::testing::skeleton_file`), from a fixed seed.
pub fn random(count: usize) -> Vec<(String, Skeleton)> {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = marionette_skeleton::testing::skeleton_file();
    (0..count)
        .filter_map(|i| {
            let file = strategy.new_tree(&mut runner).ok()?.current();
            Some((
                format!("random {i}"),
                Skeleton::from_file(file, "random").ok()?,
            ))
        })
        .collect()
}

/// The table: one row per solver, shipped skeletons and random ones apart.
pub fn table(
    shipped: &[(String, Skeleton)],
    random: &[(String, Skeleton)],
    per_site: usize,
) -> Table {
    let mut table = Table::new(
        format!(
            "Drags from the rest pose ({per_site} random reachable targets per site and view, front/side/top, nearest-branch chain, ≤ 10 updates a frame, cursor glides {GLIDE_FRAMES} frames): reach within 1 mm of the view ray"
        ),
        &[
            "solver",
            "shipped: reached",
            "frames after the cursor stops: median / largest",
            "random skeletons: reached",
            "median / largest",
        ],
    );
    for kind in SOLVERS {
        let (rate, frames, total) = run(shipped, per_site, kind);
        let (random_rate, random_frames, random_total) = run(random, per_site, kind);
        table.row(vec![
            kind.name().to_owned(),
            format!("{:.1} % of {total}", rate * 100.0),
            format!("{:.0} / {:.0}", frames[0], frames[1]),
            format!("{:.1} % of {random_total}", random_rate * 100.0),
            format!("{:.0} / {:.0}", random_frames[0], random_frames[1]),
        ]);
    }
    let names: Vec<&str> = shipped.iter().map(|(n, _)| n.as_str()).collect();
    table.note(format!(
        "shipped: {}; random: {} skeletons from marionette_skeleton::testing's generator (fixed seed); bend hint weight {} (the editor's default)",
        names.join(", "),
        random.len(),
        marionette_editing::solve::DEFAULT_PREFERENCE
    ));
    table
}
