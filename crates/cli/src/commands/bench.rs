//! `marionette bench [--quick] [--json] [--only NAME...]`: runs the benchmark suite and prints
//! its tables.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::output::{emit, outln};

/// Arguments of `marionette bench`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette bench\n  \
    marionette bench --quick --only limb --only bake\n  \
    marionette bench --json > tables.json")]
pub struct BenchArgs {
    /// Fewer random targets per protocol (50 instead of 1000): a smoke run, not for quoting.
    #[arg(long)]
    quick: bool,
    /// Print the tables as one JSON array.
    #[arg(long)]
    json: bool,
    /// Run only these protocols (repeatable).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(marionette_bench::PROTOCOLS))]
    only: Vec<String>,
    /// Where the reference skeletons are (default: the repository's `skeletons/`).
    #[arg(long)]
    skeletons: Option<PathBuf>,
}

/// Runs the suite.
pub fn run(args: &BenchArgs) -> Result<ExitCode, String> {
    let dir = args
        .skeletons
        .clone()
        .unwrap_or_else(marionette_bench::skeletons_dir);
    for file in [
        "buss_y.ron",
        "buss_double_y.ron",
        "arm7_peer.ron",
        "arm7.ron",
        "planar6.ron",
    ] {
        marionette_skeleton::Skeleton::load(dir.join(file)).map_err(|e| e.to_string())?;
    }
    let tables = if args.only.is_empty() {
        marionette_bench::run(&dir, args.quick)
    } else {
        let names: Vec<&str> = args.only.iter().map(String::as_str).collect();
        marionette_bench::run_only(&dir, args.quick, &names)
    };
    if args.json {
        outln!(
            "{}",
            serde_json::to_string(&tables).map_err(|e| e.to_string())?
        );
    } else {
        for t in &tables {
            emit(&t.render());
            emit("\n");
        }
    }
    Ok(ExitCode::SUCCESS)
}
