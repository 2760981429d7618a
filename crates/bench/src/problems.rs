//! What the protocols share to set up their problems: the reference skeletons' folder and one
//! position goal per named site.

use std::path::{Path, PathBuf};

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
