//! `marionette demo`: the main job until the editor lands. Loads the built-in humanoid, poses it
//! through a short reach (shoulder and elbow flexing together), and prints where the sites and
//! the centre of mass go, with the measured cost of forward kinematics on this machine.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use crate::output::outln;
use marionette_skeleton::{Fk, Pose, ROOT_STATE_LEN, Skeleton, builtin};

use crate::output::text_row;

/// Arguments of `marionette demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Number of frames of the reach to print.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=1000))]
    frames: u32,
}

/// Sets one DOF, given in file units (degrees), by joint name and DOF index.
fn set(skeleton: &Skeleton, pose: &mut Pose, joint: &str, dof: usize, degrees: f64) {
    if let Some(j) = skeleton.joint_by_name(joint) {
        let k = skeleton.joint(j).dofs.start + dof;
        let d = &skeleton.dofs()[k];
        pose.q[ROOT_STATE_LEN + k] = d.clamp(d.from_file_units(degrees));
    }
}

/// Runs the demo.
pub fn run(args: &DemoArgs) -> Result<ExitCode, String> {
    let skeleton = builtin::humanoid();
    outln!(
        "built-in humanoid: {} joints, {} dofs, {} sites, {:.1} kg",
        skeleton.joints().len(),
        skeleton.dof_count(),
        skeleton.sites().len(),
        skeleton.total_mass()
    );
    let mut fk = Fk::new(&skeleton);
    let width = skeleton
        .sites()
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max("centre of mass".len());
    let frames = args.frames;
    for f in 0..frames {
        let t = f64::from(f) / f64::from(frames - 1);
        let mut pose = Pose::rest(&skeleton);
        set(&skeleton, &mut pose, "right shoulder", 0, 90.0 * t);
        set(&skeleton, &mut pose, "right elbow", 0, 60.0 * t);
        set(&skeleton, &mut pose, "lower spine", 0, 15.0 * t);
        set(&skeleton, &mut pose, "left knee", 0, 40.0 * t);
        fk.update(&skeleton, &pose.q);
        outln!(
            "\nframe {f}: right shoulder flexion {:.0}°, elbow flexion {:.0}°",
            90.0 * t,
            60.0 * t
        );
        for s in skeleton.site_ids() {
            outln!(
                "  {}",
                text_row(&skeleton.site(s).name, width, &fk.site_position(s))
            );
        }
        outln!(
            "  {}",
            text_row("centre of mass", width, &fk.center_of_mass())
        );
    }
    let pose = Pose::rest(&skeleton);
    let runs = 20_000u32;
    let start = Instant::now();
    for _ in 0..runs {
        fk.update(&skeleton, std::hint::black_box(&pose.q));
    }
    let micros = start.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
    outln!("\nforward kinematics of the whole figure: {micros:.2} µs per pose ({runs} poses)");
    Ok(ExitCode::SUCCESS)
}
