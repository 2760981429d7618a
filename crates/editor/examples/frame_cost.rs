//! Measures the editor's IK work per frame for a humanoid drag, headless: `MinimalPlugins`, input
//! and the editor's logic plugin (the systems that run every frame of a drag), no window and no
//! rendering. The cursor ray circles so every frame has a new goal.
//!
//! `cargo run -p marionette-editor --example frame_cost [FRAMES]`

use std::time::Instant;

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use marionette_editing::{ChainMode, Document, Edit, IkSettings};
use marionette_editor::EditorCorePlugin;
use marionette_editor::convert::vec3;
use marionette_editor::messages::{EditRequest, PickRequest, PickTarget};
use marionette_editor::resources::{CursorRay, OpenDocument, SolveStatus};
use marionette_ik::SolverKind;
use marionette_skeleton::builtin;

/// Per frame: the whole headless update and the drag system's IK work alone (µs).
fn measure(solver: SolverKind, mode: ChainMode, site: &str, frames: usize) -> (Vec<f64>, Vec<f64>) {
    let document = Document::new(builtin::humanoid(), None).standing();
    let mut app = App::new();
    app.insert_resource(OpenDocument::new(document))
        .add_plugins((MinimalPlugins, InputPlugin, EditorCorePlugin));
    app.update();
    let settings = IkSettings {
        solver,
        ..IkSettings::default()
    };
    app.world_mut()
        .write_message(EditRequest(Edit::Settings(settings)));
    app.world_mut()
        .write_message(EditRequest(Edit::ChainMode(mode)));
    app.update();
    let (site_id, from) = {
        let document = app.world().resource::<OpenDocument>();
        let id = document.skeleton().site_by_name(site).expect("site");
        (id, vec3(&document.fk().site_position(id)))
    };
    app.world_mut().resource_mut::<CursorRay>().0 =
        Some(Ray3d::new(from + Vec3::Z * 3.0, Dir3::NEG_Z));
    app.world_mut().write_message(PickRequest {
        target: PickTarget::Site(site_id),
        hit: from,
        depth: 1.0,
        camera: Entity::PLACEHOLDER,
    });
    app.world_mut().write_message(MouseButtonInput {
        button: MouseButton::Left,
        state: ButtonState::Pressed,
        window: Entity::PLACEHOLDER,
    });
    app.update();
    let mut times = Vec::with_capacity(frames);
    let mut ik = Vec::with_capacity(frames);
    for k in 0..frames {
        let angle = k as f32 * 0.05;
        let through = from + Vec3::new(angle.cos() * 0.15 - 0.15, angle.sin() * 0.15, 0.0);
        app.world_mut().resource_mut::<CursorRay>().0 =
            Some(Ray3d::new(through + Vec3::Z * 3.0, Dir3::NEG_Z));
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1e6);
        let status = app.world().resource::<SolveStatus>();
        ik.push(status.ik_time.map_or(f64::NAN, |t| t.as_secs_f64() * 1e6));
    }
    assert!(app.world().resource::<OpenDocument>().drag().is_some());
    (times, ik)
}

/// Median, mean and 99th percentile.
fn stats(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let mean = values.iter().sum::<f64>() / n as f64;
    (values[n / 2], mean, values[(n * 99 / 100).min(n - 1)])
}

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    println!("Editor frame, headless (systems only), humanoid drag, {frames} frames each");
    println!(
        "{:<40} {:>26} {:>26}",
        "", "whole update (µs)", "IK system (µs)"
    );
    println!(
        "{:<40} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "drag", "median", "mean", "p99", "median", "mean", "p99"
    );
    let cases = [
        (
            SolverKind::DampedLeastSquares,
            ChainMode::NearestBranch,
            "right fingertips",
            "right hand, nearest branch, DLS",
        ),
        (
            SolverKind::DampedLeastSquares,
            ChainMode::WholeBody,
            "right fingertips",
            "right hand, whole body, DLS",
        ),
        (
            SolverKind::SelectivelyDamped,
            ChainMode::WholeBody,
            "right fingertips",
            "right hand, whole body, SDLS",
        ),
        (
            SolverKind::CyclicCoordinateDescent,
            ChainMode::NearestBranch,
            "left toe tip",
            "left foot, nearest branch, CCD",
        ),
    ];
    for (solver, mode, site, label) in cases {
        let (times, ik) = measure(solver, mode, site, frames);
        let (m, a, p) = stats(times);
        let (im, ia, ip) = stats(ik);
        println!("{label:<40} {m:>8.1} {a:>8.1} {p:>8.1} {im:>8.1} {ia:>8.1} {ip:>8.1}");
    }
}
