//! Runs the analytic limb benchmark rows, for profiling: profile_limb [pose|position] [on|off] [goals]
use marionette_bench::limb;
use marionette_ik::SolverKind;
use marionette_skeleton::Skeleton;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pose = args.get(1).is_none_or(|a| a == "pose");
    let limits = args.get(2).is_some_and(|a| a == "on");
    let count = args.get(3).and_then(|c| c.parse().ok()).unwrap_or(2000);
    let (file, site) = if limits {
        ("arm7.ron", "fingertips")
    } else {
        ("arm7_peer.ron", "hand")
    };
    let s = Skeleton::load(marionette_bench::skeletons_dir().join(file)).expect("arm");
    let row = limb::run(&s, site, SolverKind::AnalyticLimb, pose, count, 3);
    println!(
        "median {:.2} µs, failures {}",
        row.median_micros, row.failures
    );
}
