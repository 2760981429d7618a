//! `marionette physics masses FILE [--figure NAME] [--mass KG] [--female] [--json]`: how much
//! each segment of a figure weighs (de Leva 1996 by humanoid role, or the skeleton's own masses
//! for a figure with no roles), the figure's height and its centre of mass at rest as a fraction
//! of it. FILE is a skeleton, a document (a stage's figure with `--figure`), a rigged character
//! or a capture (its skeleton, at `--scale` or the scale `physics check` guesses). Exit status:
//! 0, or 1 on bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use marionette_interchange::capture::{CaptureOptions, CaptureScale};
use marionette_interchange::open::{Opened, open};
use marionette_physics::rest::{AtRest, at_rest};
use marionette_physics::{MassModel, MassSource};
use marionette_skeleton::Skeleton;
use serde_json::{Value, json};

use crate::output::outln;

/// Arguments of `marionette physics masses`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette physics masses skeletons/humanoid.ron\n  \
    marionette physics masses hero.glb --mass 62 --female --json\n  \
    marionette physics masses duet.marionette.ron --figure B")]
pub struct MassesArgs {
    /// A skeleton, a document, a rigged character (glTF, VRM, FBX) or a capture (BVH, FBX take).
    file: PathBuf,
    /// On a stage: the figure (needed when the stage holds several).
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    /// A capture's lengths are multiplied by this (metres per unit); guessed when not given, as
    /// `physics check` guesses it.
    #[arg(long, value_parser = crate::commands::positive)]
    scale: Option<f64>,
    #[command(flatten)]
    body: super::body::BodyArgs,
    /// Print JSON (docs/file-formats.md, *Masses*) instead of a table.
    #[arg(long)]
    json: bool,
}

/// The skeleton of the figure in `path`, opened once by what it holds (a capture at `scale`, or
/// at the guessed scale), and the body a document gives it.
pub fn figure_skeleton(
    path: &Path,
    figure: Option<&str>,
    scale: Option<f64>,
) -> Result<(Skeleton, Option<marionette_document::Body>), String> {
    let file = path.display();
    let options = CaptureOptions {
        scale: scale.map_or(CaptureScale::Guess, CaptureScale::Times),
        ..CaptureOptions::default()
    };
    let opened = open(path, options).map_err(|e| e.to_string())?;
    if scale.is_some() && !matches!(opened, Opened::Capture(_)) {
        return Err(format!(
            "{file}: this is {}; --scale is for captures",
            opened.kind().describe()
        ));
    }
    if figure.is_some() && !matches!(opened, Opened::Document(_) | Opened::Skeleton(_)) {
        return Err(format!(
            "{file}: this is {}; --figure names a figure of a stage document",
            opened.kind().describe()
        ));
    }
    match opened {
        opened @ (Opened::Skeleton(_) | Opened::Document(_)) => {
            let figure = crate::commands::figure_in(opened, path, None, figure)?;
            Ok((figure.skeleton, figure.body))
        }
        Opened::Character(c) => Ok((
            c.import("figure", "figure.glb")
                .map_err(|e| format!("{file}: {e}"))?
                .skeleton,
            None,
        )),
        Opened::Capture(c) => Ok((c.imported.skeleton, None)),
        other => Err(format!(
            "{file}: this is {}, not a figure (a skeleton, document, character or capture)",
            other.kind().describe()
        )),
    }
}

/// Prints the masses.
pub fn run(args: &MassesArgs) -> Result<ExitCode, String> {
    let file = args.file.display();
    let (skeleton, body) = figure_skeleton(&args.file, args.figure.as_deref(), args.scale)?;
    let model = args.body.model(&skeleton, &args.file, body)?;
    let rest = at_rest(&skeleton, &model);
    if args.json {
        outln!("{}", to_json(&skeleton, &model, &rest));
    } else {
        crate::output::emit(&to_table(&file.to_string(), &model, &rest));
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON of `physics masses --json`.
fn to_json(skeleton: &Skeleton, model: &MassModel, rest: &AtRest) -> Value {
    let segments: Vec<Value> = model
        .segments
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "joint": skeleton.joint(s.joint).name,
                "mass_kg": s.mass,
                "share_percent": 100.0 * s.mass / model.total,
            })
        })
        .collect();
    let why = match &model.source {
        MassSource::Skeleton(why) => Value::from(why.as_str()),
        MassSource::DeLeva(_) => Value::Null,
    };
    json!({
        "mass_kg": model.total,
        "mass_model": model.source.key(),
        "no_roles": why,
        "height_m": rest.height,
        "floor_m": rest.floor,
        "com": [rest.center_of_mass.x, rest.center_of_mass.y, rest.center_of_mass.z],
        "com_fraction": rest.com_fraction,
        "segments": segments,
        "notes": model.notes,
    })
}

/// The table `physics masses` prints.
fn to_table(file: &str, model: &MassModel, rest: &AtRest) -> String {
    let source = match &model.source {
        MassSource::DeLeva(sex) => {
            format!("de Leva (1996) {} segments by humanoid role", sex.name())
        }
        MassSource::Skeleton(why) => {
            format!("the skeleton's own joint masses (no humanoid roles: {why})")
        }
    };
    let mut out = format!(
        "{file}: {:.1} kg, {source}\n  height {:.3} m; centre of mass at rest {:.3} m above \
         the floor, {:.3} of the height\n",
        model.total,
        rest.height,
        rest.center_of_mass.y - rest.floor,
        rest.com_fraction
    );
    let width = model
        .segments
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max(7);
    out += &format!("  {:<width$}  {:>7}  {:>7}\n", "segment", "share", "kg");
    for s in &model.segments {
        out += &format!(
            "  {:<width$}  {:>6.2}%  {:>7.3}\n",
            s.name,
            100.0 * s.mass / model.total,
            s.mass
        );
    }
    for note in &model.notes {
        out += &format!("  note: {note}\n");
    }
    out
}
