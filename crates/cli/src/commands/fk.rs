//! `marionette fk SKELETON [--pose POSE] [--figure NAME] [--json]`: forward kinematics of one
//! pose; a Document file in place of the skeleton gives its skeleton and its pose, and a stage
//! the pose of the figure `--figure` names, placed where it stands on the stage.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::output::outln;
use marionette_motion::frames_file;
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::{Isometry3, Point3, Vector3};
use serde_json::{Map, Value};

use crate::output::{json_point, text_row};

/// Arguments of `marionette fk`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette fk skeletons/humanoid.ron\n  \
    marionette fk skeletons/stickman.ron --pose pose.ron --json\n  \
    marionette fk crouch.marionette.ron --json\n  \
    marionette fk duet.marionette.ron --figure B --json")]
pub struct FkArgs {
    /// The skeleton file, or a Document file (its skeleton, at its pose unless --pose is given).
    skeleton: PathBuf,
    /// A pose file (default: the rest pose, or the document's pose).
    #[arg(long)]
    pose: Option<PathBuf>,
    /// On a stage: the figure (its positions on the stage, where it stands); needed when the
    /// stage holds several.
    #[arg(long, value_name = "NAME")]
    figure: Option<String>,
    /// Print `{"joints": {name: [x,y,z]}, "sites": {...}, "com": [x,y,z]}` instead of a table.
    #[arg(long)]
    json: bool,
}

/// Prints the world position of every joint and site and the centre of mass.
pub fn run(args: &FkArgs) -> Result<ExitCode, String> {
    let figure = super::load_figure(&args.skeleton, args.pose.as_deref(), args.figure.as_deref())?;
    let skeleton = &figure.skeleton;
    let mut fk = Fk::new(skeleton);
    fk.update(skeleton, &figure.pose.q);
    let placement = figure.placement.isometry();
    if args.json {
        outln!("{}", to_json(skeleton, &fk, &placement));
    } else {
        crate::output::emit(&to_table(skeleton, &fk, &placement));
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON object of `marionette fk --json`, in hierarchy (joints) and file (sites) order, every
/// point moved by `placement` (where the figure stands; the identity leaves every bit as it is).
pub fn to_json(skeleton: &Skeleton, fk: &Fk, placement: &Isometry3<f64>) -> Value {
    let mut out = Map::new();
    out.insert(
        "joints".into(),
        frames_file::joints_world_json_placed(skeleton, fk, placement),
    );
    out.insert(
        "sites".into(),
        frames_file::sites_json_placed(skeleton, fk, placement),
    );
    out.insert(
        "com".into(),
        json_point(&placed(placement, fk.center_of_mass())),
    );
    Value::Object(out)
}

/// `p` moved by `placement`.
fn placed(placement: &Isometry3<f64>, p: Vector3<f64>) -> Vector3<f64> {
    (placement * Point3::from(p)).coords
}

/// A readable table of the same numbers.
pub fn to_table(skeleton: &Skeleton, fk: &Fk, placement: &Isometry3<f64>) -> String {
    let width = skeleton
        .joints()
        .iter()
        .map(|j| j.name.len())
        .chain(skeleton.sites().iter().map(|s| s.name.len()))
        .max()
        .unwrap_or(0)
        .max("centre of mass".len());
    let mut out = format!("{:<width$}  {:>10} {:>10} {:>10}\n", "joint", "x", "y", "z");
    for j in skeleton.joint_ids() {
        let at = placed(placement, fk.joint_position(j));
        out += &text_row(&skeleton.joint(j).name, width, &at);
        out.push('\n');
    }
    if !skeleton.sites().is_empty() {
        out += &format!("{:<width$}\n", "site");
        for s in skeleton.site_ids() {
            let at = placed(placement, fk.site_position(s));
            out += &text_row(&skeleton.site(s).name, width, &at);
            out.push('\n');
        }
    }
    let com = placed(placement, fk.center_of_mass());
    out += &text_row("centre of mass", width, &com);
    out.push('\n');
    out
}
