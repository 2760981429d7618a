//! File ▸ Export (BVH, glTF, JSON): the Bevy-free work is `marionette_editing::exchange`; here an
//! export runs on a thread of its own with its progress shown (the [`RunningExport`] resource
//! exists while it runs), and the outcome is told to the user; a failure changes nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bevy::prelude::*;
use marionette_editing::Document;
use marionette_editing::exchange::{ExportFormat, Exported};

use crate::EditorSet;
use crate::resources::Notices;

/// An export running on its own thread.
#[derive(Resource, Debug)]
pub struct RunningExport {
    /// Frames it writes.
    pub total: usize,
    /// Frames baked so far.
    pub done: Arc<AtomicUsize>,
    result: Arc<Mutex<Option<Result<Exported, String>>>>,
    path: PathBuf,
    began: Instant,
}

impl RunningExport {
    /// Frames baked so far.
    pub fn progress(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }
}

/// Says when exports finish.
pub struct ExportPlugin;

impl Plugin for ExportPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            finish_exports
                .run_if(resource_exists::<RunningExport>)
                .in_set(EditorSet::Settle),
        );
    }
}

/// Starts exporting the shown sequence (or the pose) of `document` to `path` as `format` on a
/// thread of its own (mesh bodies read from `assets`).
pub fn start(
    document: &Document,
    format: ExportFormat,
    path: &Path,
    assets: Option<&Path>,
) -> Result<RunningExport, String> {
    let job = document.export_job(format, path, assets);
    let running = RunningExport {
        total: job.frames(),
        done: Arc::new(AtomicUsize::new(0)),
        result: Arc::new(Mutex::new(None)),
        path: path.to_path_buf(),
        began: Instant::now(),
    };
    let (done, result) = (running.done.clone(), running.result.clone());
    std::thread::Builder::new()
        .name("export".into())
        .spawn(move || {
            let outcome = job.run(&|| {
                done.fetch_add(1, Ordering::Relaxed);
            });
            if let Ok(mut slot) = result.lock() {
                *slot = Some(outcome);
            }
        })
        .map_err(|e| format!("Could not start the export: {e}"))?;
    Ok(running)
}

/// Says what a finished export wrote (or why it failed) and forgets it.
fn finish_exports(
    mut commands: Commands,
    running: Res<RunningExport>,
    mut notices: ResMut<Notices>,
) {
    let finished = running.result.lock().ok().and_then(|mut r| r.take());
    let Some(outcome) = finished else {
        return;
    };
    commands.remove_resource::<RunningExport>();
    match outcome {
        Ok(done) => {
            notices.info(format!(
                "Exported {} frames of {} to {} in {:.0} ms",
                done.frames,
                done.what,
                running.path.display(),
                running.began.elapsed().as_secs_f64() * 1e3
            ));
            for w in done.warnings {
                notices.info(w);
            }
        }
        Err(e) => notices.error(format!("Could not export: {e}")),
    }
}
