//! Marionette's benchmark suite: the papers' own test problems and the peer-comparison protocols
//! of REFERENCE_PROBLEMS.md, each producing a [`Table`] of measured numbers. `marionette bench`
//! prints them; `cargo bench -p marionette-bench --bench peers` adds the `k` crate beside them.

pub mod convergence;
pub mod drag;
pub mod frame;
pub mod limb;
pub mod peer;
pub mod planar;
pub mod rng;
pub mod table;
pub mod tracking;

use std::path::{Path, PathBuf};

pub use table::Table;

/// One position goal per named site (targets at the origin until a protocol sets them), with
/// the sites' ids in the same order.
pub fn site_goals(
    skeleton: &marionette_skeleton::Skeleton,
    names: &[&str],
) -> (Vec<marionette_skeleton::SiteId>, Vec<marionette_ik::Goal>) {
    let ids: Vec<_> = names
        .iter()
        .map(|n| {
            skeleton
                .site_by_name(n)
                .unwrap_or_else(|| panic!("site {n}"))
        })
        .collect();
    let goals = ids
        .iter()
        .map(|&site| {
            marionette_ik::Goal::new(marionette_ik::GoalKind::Position {
                site,
                target: nalgebra::Vector3::zeros(),
            })
        })
        .collect();
    (ids, goals)
}

/// The repository's `skeletons/` folder (the suite reads the reference skeletons from it).
pub fn skeletons_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons")
}

/// Runs the whole suite; `quick` uses fewer targets (for smoke tests), not fewer protocols.
pub fn run(skeletons: &Path, quick: bool) -> Vec<Table> {
    let targets = if quick { 50 } else { 1000 };
    vec![
        tracking::table(skeletons),
        planar::table(skeletons),
        convergence::table(skeletons),
        peer::arm_table(skeletons, targets),
        peer::tree_table(skeletons, targets),
        limb::table(skeletons, if quick { 2_000 } else { 100_000 }),
        frame::table(if quick { 60 } else { 600 }),
        drag::table(if quick { 60 } else { 600 }),
    ]
}
