//! The figure's body as `physics` commands are told it: its total mass and de Leva's column.

use std::path::Path;

use clap::Args;
use marionette_physics::{MassModel, MassSettings, Sex};
use marionette_skeleton::Skeleton;

/// The figure's body: its mass and de Leva's column.
#[derive(Debug, Args)]
pub struct BodyArgs {
    /// The figure's total mass in kilograms.
    #[arg(
        long,
        value_name = "KG",
        default_value_t = 75.0,
        allow_negative_numbers = true
    )]
    mass: f64,
    /// de Leva's female column (else the male).
    #[arg(long)]
    female: bool,
}

impl BodyArgs {
    /// The masses of `skeleton` (read from `file`) as these say, or the error naming the file.
    pub fn model(&self, skeleton: &Skeleton, file: &Path) -> Result<MassModel, String> {
        MassModel::of(skeleton, self.settings()).map_err(|e| format!("{}: {e}", file.display()))
    }

    /// The mass and column these say.
    pub fn settings(&self) -> MassSettings {
        MassSettings {
            total_kg: self.mass,
            sex: if self.female { Sex::Female } else { Sex::Male },
        }
    }
}
