//! Runs the 7-DOF peer protocol for one solver, for profiling (`valgrind --tool=callgrind`).
//! Usage: profile_arm [solver] [pose|position] [targets]

use marionette_bench::peer;
use marionette_skeleton::Skeleton;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args
        .get(1)
        .map_or("dls", String::as_str)
        .parse()
        .expect("solver name");
    let orientation = args.get(2).is_none_or(|a| a == "pose");
    let count = args.get(3).and_then(|c| c.parse().ok()).unwrap_or(200);
    let arm = Skeleton::load(marionette_bench::skeletons_dir().join("arm7_peer.ron")).expect("arm");
    let targets = peer::arm_targets(&arm, count, 7);
    let o = peer::arm_protocol(&arm, &targets, kind, orientation);
    println!(
        "{kind}: success {:.1} %, median {:.2} µs, mean iterations {:.1}",
        100.0 * o.success,
        o.median_micros,
        o.mean_iterations
    );
}
