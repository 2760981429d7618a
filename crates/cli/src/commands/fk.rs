//! `marionette fk SKELETON [--pose POSE] [--json]`: forward kinematics of one pose; a Document
//! file in place of the skeleton gives its skeleton and its pose.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::output::outln;
use marionette_skeleton::{Fk, Skeleton};
use serde_json::{Map, Value};

use crate::output::{json_point, text_row};

/// Arguments of `marionette fk`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    marionette fk skeletons/humanoid.ron\n  \
    marionette fk skeletons/stickman.ron --pose pose.ron --json\n  \
    marionette fk crouch.marionette.ron --json")]
pub struct FkArgs {
    /// The skeleton file, or a Document file (its skeleton, at its pose unless --pose is given).
    skeleton: PathBuf,
    /// A pose file (default: the rest pose, or the document's pose).
    #[arg(long)]
    pose: Option<PathBuf>,
    /// Print `{"joints": {name: [x,y,z]}, "sites": {...}, "com": [x,y,z]}` instead of a table.
    #[arg(long)]
    json: bool,
}

/// Prints the world position of every joint and site and the centre of mass.
pub fn run(args: &FkArgs) -> Result<ExitCode, String> {
    let (skeleton, pose, _) = super::load_figure(&args.skeleton, args.pose.as_deref())?;
    let mut fk = Fk::new(&skeleton);
    fk.update(&skeleton, &pose.q);
    if args.json {
        outln!("{}", to_json(&skeleton, &fk));
    } else {
        crate::output::emit(&to_table(&skeleton, &fk));
    }
    Ok(ExitCode::SUCCESS)
}

/// The JSON object of `marionette fk --json`, in hierarchy (joints) and file (sites) order.
pub fn to_json(skeleton: &Skeleton, fk: &Fk) -> Value {
    let sites = crate::output::sites_json(skeleton, fk);
    let mut out = Map::new();
    out.insert(
        "joints".into(),
        marionette_motion::frames_file::joints_world_json(skeleton, fk),
    );
    out.insert("sites".into(), sites);
    out.insert("com".into(), json_point(&fk.center_of_mass()));
    Value::Object(out)
}

/// A readable table of the same numbers.
pub fn to_table(skeleton: &Skeleton, fk: &Fk) -> String {
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
        out += &text_row(&skeleton.joint(j).name, width, &fk.joint_position(j));
        out.push('\n');
    }
    if !skeleton.sites().is_empty() {
        out += &format!("{:<width$}\n", "site");
        for s in skeleton.site_ids() {
            out += &text_row(&skeleton.site(s).name, width, &fk.site_position(s));
            out.push('\n');
        }
    }
    out += &text_row("centre of mass", width, &fk.center_of_mass());
    out.push('\n');
    out
}
