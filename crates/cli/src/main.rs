//! `marionette`: Marionette's core on the command line, for scripts, tests and benchmarks.
//!
//! Exit status: 0 success, 1 bad input (messages on standard error); `solve` exits 3 when it
//! did not converge, `bake` when a lock was not held on some frame, `cleanup` (and `retarget --clean-feet`)
//! when a foot contact could not be held. Whatever the input, the
//! command never prints a backtrace: a panic would be a bug, and is reported as one line.

mod commands;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Marionette: articulated-figure posing with inverse kinematics.
#[derive(Debug, Parser)]
#[command(name = "marionette", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate skeleton files, and pose files against a skeleton.
    Check(commands::check::CheckArgs),
    /// World positions of every joint and site, and the centre of mass.
    Fk(commands::fk::FkArgs),
    /// Solve a Problem file: move the chain so the goals are met.
    Solve(commands::solve::SolveArgs),
    /// Bake a document's sequence: every frame, its locks re-solved, written as JSON.
    Bake(commands::bake::BakeArgs),
    /// Export a document's sequence (baked, locks held) or a pose as BVH, glTF (.glb) or JSON.
    Export(commands::export::ExportArgs),
    /// Import a motion capture (BVH, or an FBX take) or a rigged character (glTF, VRM, FBX)
    /// as a skeleton and a document.
    Import(commands::import::ImportArgs),
    /// Put a capture's motion (BVH, or an FBX take) onto another figure (a skeleton or a document).
    Retarget(commands::retarget::RetargetArgs),
    /// Find a sequence's foot contacts and lock them, so planted feet stay put when baked.
    Cleanup(commands::cleanup::CleanupArgs),
    /// The physics assistant: `physics masses FILE` (each segment's mass by de Leva, the
    /// centre of mass at rest).
    Physics(commands::physics::PhysicsArgs),
    /// Run the benchmark suite (the papers' problems and the peer protocols) and print tables.
    Bench(commands::bench::BenchArgs),
    /// Pose the built-in humanoid and print where its hands, feet and centre of mass land.
    Demo(commands::demo::DemoArgs),
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("marionette: internal error (please report it): {info}");
    }));
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Fk(args) => commands::fk::run(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Bake(args) => commands::bake::run(&args),
        Command::Export(args) => commands::export::run(&args),
        Command::Import(args) => commands::import::run(&args),
        Command::Retarget(args) => commands::retarget::run(&args),
        Command::Cleanup(args) => commands::cleanup::run(&args),
        Command::Physics(args) => commands::physics::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Demo(args) => commands::demo::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            for line in message.lines() {
                eprintln!("{line}");
            }
            ExitCode::from(1)
        }
    }
}
