//! The figure's body as `physics` commands are told it: its total mass and de Leva's column,
//! else as a document's figure gives it (`body` in docs/file-formats.md), else 75 kg, male.

use std::path::Path;

use clap::Args;
use marionette_document::Body;
use marionette_editing::physics_view::mass_settings;
use marionette_physics::{MassModel, MassSettings, Sex};
use marionette_skeleton::Skeleton;

/// The figure's body: its mass and de Leva's column.
#[derive(Debug, Args)]
pub struct BodyArgs {
    /// The figure's total mass in kilograms (else a document's own body, or 75).
    #[arg(long, value_name = "KG", allow_negative_numbers = true)]
    mass: Option<f64>,
    /// de Leva's female column (else a document's own body's, or the male).
    #[arg(long)]
    female: bool,
}

impl BodyArgs {
    /// The masses of `skeleton` (read from `file`, whose figure's body is `given`) as these
    /// say, or the error naming the file.
    pub fn model(
        &self,
        skeleton: &Skeleton,
        file: &Path,
        given: Option<Body>,
    ) -> Result<MassModel, String> {
        MassModel::of(skeleton, self.settings(given))
            .map_err(|e| format!("{}: {e}", file.display()))
    }

    /// Whether these say a mass or a column (else the figure's own body counts).
    pub fn given(&self) -> bool {
        self.mass.is_some() || self.female
    }

    /// The mass and column these say; when they say neither, the figure's own body `given`
    /// (a document's setting), else 75 kg, male.
    pub fn settings(&self, given: Option<Body>) -> MassSettings {
        if self.mass.is_none() && !self.female {
            return mass_settings(given);
        }
        MassSettings {
            total_kg: self.mass.unwrap_or(75.0),
            sex: if self.female { Sex::Female } else { Sex::Male },
        }
    }
}
