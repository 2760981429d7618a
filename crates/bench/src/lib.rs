//! Marionette's benchmark suite: the papers' own test problems and the peer-comparison protocols
//! of REFERENCE_PROBLEMS.md, each producing a [`Table`] of measured numbers. `marionette bench`
//! prints them; `cargo bench -p marionette-bench --bench peers` adds the `k` crate beside them.

pub mod bake;
pub mod characters;
pub mod contacts;
pub mod convergence;
pub mod crouch;
pub mod drag;
pub mod drag_reach;
pub mod edits;
pub mod frame;
pub mod interchange;
pub mod limb;
pub mod locks;
pub mod peer;
pub mod physics;
pub mod planar;
pub mod planted;
pub mod problems;
pub mod retarget;
pub mod stage;
pub mod table;
pub mod timing;
pub mod tracking;

use std::path::Path;

pub use problems::{site_goals, skeletons_dir};
pub use table::Table;

/// The protocols of the suite, by the name `marionette bench --only` takes, in run order.
pub const PROTOCOLS: [&str; 20] = [
    "tracking",
    "planar",
    "convergence",
    "arm-peers",
    "tree-peers",
    "limb",
    "frame",
    "drag",
    "reach",
    "crouch",
    "locks",
    "bake",
    "interchange",
    "characters",
    "retarget",
    "contacts",
    "stage",
    "stage-drag",
    "timing",
    "physics",
];

/// Runs the whole suite; `quick` uses fewer targets (for smoke tests), not fewer protocols.
pub fn run(skeletons: &Path, quick: bool) -> Vec<Table> {
    run_only(skeletons, quick, &PROTOCOLS)
}

/// Runs the named protocols of [`PROTOCOLS`] (others are ignored), in the suite's order.
pub fn run_only(skeletons: &Path, quick: bool, names: &[&str]) -> Vec<Table> {
    let targets = if quick { 50 } else { 1000 };
    let mut tables = Vec::new();
    for name in PROTOCOLS.into_iter().filter(|p| names.contains(p)) {
        tables.push(match name {
            "tracking" => tracking::table(skeletons),
            "planar" => planar::table(skeletons),
            "convergence" => convergence::table(skeletons),
            "arm-peers" => peer::arm_table(skeletons, targets),
            "tree-peers" => peer::tree_table(skeletons, targets),
            "limb" => limb::table(skeletons, if quick { 2_000 } else { 100_000 }),
            "frame" => frame::table(if quick { 60 } else { 600 }),
            "drag" => drag::table(if quick { 60 } else { 600 }),
            "crouch" => crouch::table(),
            "locks" => locks::table(if quick { 60 } else { 600 }),
            "bake" => bake::table(if quick { 500 } else { 10_000 }, if quick { 1 } else { 5 }),
            "timing" => timing::table(if quick { 500 } else { 10_000 }, if quick { 1 } else { 5 }),
            "interchange" => {
                interchange::table(if quick { 500 } else { 10_000 }, if quick { 1 } else { 3 })
            }
            "characters" => characters::table(if quick { 1 } else { 5 }),
            "retarget" => retarget::table(if quick { 1 } else { 3 }),
            "contacts" => contacts::table(if quick { 1 } else { 3 }, if quick { 8 } else { 1 }),
            "stage" => {
                stage::bake::table(if quick { 100 } else { 1_000 }, if quick { 1 } else { 11 })
            }
            "stage-drag" => stage::drag::table(if quick { 60 } else { 600 }),
            "physics" => physics::table(if quick { 1 } else { 5 }),
            _ => drag_reach::table(
                &drag_reach::shipped(skeletons),
                &drag_reach::random(if quick { 5 } else { 40 }),
                if quick { 1 } else { 5 },
            ),
        });
    }
    tables
}
