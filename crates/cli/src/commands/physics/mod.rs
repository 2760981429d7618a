//! `marionette physics`: the physics assistant on the command line. `masses` ([`masses`]) weighs
//! a figure's segments; `check` ([`check`]) reads a take's supports, flights and balance.

pub mod body;
pub mod check;
pub mod fix;
pub mod masses;

use std::process::ExitCode;

use clap::{Args, Subcommand};

/// Arguments of `marionette physics`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette physics masses skeletons/humanoid.ron\n  \
    marionette physics masses hero.glb --mass 62 --female --json\n  \
    marionette physics check 01_01.bvh --scale 0.05644 --json")]
pub struct PhysicsArgs {
    #[command(subcommand)]
    command: PhysicsCommand,
}

/// The physics assistant's commands.
#[derive(Debug, Subcommand)]
enum PhysicsCommand {
    /// Each segment's mass (de Leva 1996 by humanoid role), the height and the centre of mass
    /// at rest.
    Masses(masses::MassesArgs),
    /// A take's centre of mass, supports, flights (fitted g) and balance; exit 3 when a span
    /// or a pose is flagged.
    Check(check::CheckArgs),
    /// The physical ghost of a flight, accepted: the root moved so the centre of mass flies a
    /// parabola under g (`--ballistic`, `--apex H`); written to `--out`.
    Fix(fix::FixArgs),
}

/// Runs a physics command.
pub fn run(args: &PhysicsArgs) -> Result<ExitCode, String> {
    match &args.command {
        PhysicsCommand::Masses(a) => masses::run(a),
        PhysicsCommand::Check(a) => check::run(a),
        PhysicsCommand::Fix(a) => fix::run(a),
    }
}
