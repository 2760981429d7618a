//! File ▸ Import BVH and File ▸ Export (BVH, glTF, JSON) on the editor: the Bevy-free work is
//! `marionette_editing::exchange`; here an export runs on a thread of its own with its progress
//! shown, the outcome is told to the user, and a failure changes nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bevy::prelude::*;
use marionette_editing::exchange::{ExportFormat, Exported};

use crate::state::Editor;

impl Editor {
    /// Imports a BVH capture as a new document (its skeleton written beside it); on error the
    /// open document stays and the error is shown.
    pub fn import_bvh(&mut self, path: &Path) -> bool {
        match marionette_editing::Document::import_bvh(path) {
            Ok(imported) => {
                let keys = imported.document.sequences()[0].keys.len();
                let joints = imported.document.skeleton().joints().len();
                let extra = if imported.extra_rows > 0 {
                    format!(
                        "; {} rows after the declared frames were ignored",
                        imported.extra_rows
                    )
                } else {
                    String::new()
                };
                self.adopt(imported.document);
                self.inform(format!(
                    "Imported {}: {joints} joints, {keys} frames, lengths × {} (skeleton written to {}){extra}",
                    path.display(),
                    imported.scale,
                    imported.skeleton_path.display()
                ));
                true
            }
            Err(e) => {
                self.fail(format!("Could not import the BVH file: {e}"));
                false
            }
        }
    }

    /// Starts exporting the shown sequence (or the pose) to `path` as `format` on a thread of
    /// its own; [`finish_exports`] says what was written when it is done, and the panels show
    /// its progress meanwhile.
    pub fn export(&mut self, format: ExportFormat, path: &Path) -> bool {
        if self.export.is_some() {
            self.inform("An export is already running");
            return false;
        }
        self.document.end_drag();
        let job = self
            .document
            .export_job(format, path, self.assets.as_deref());
        let running = RunningExport {
            total: job.frames(),
            done: Arc::new(AtomicUsize::new(0)),
            result: Arc::new(Mutex::new(None)),
            path: path.to_path_buf(),
            began: Instant::now(),
        };
        let (done, result) = (running.done.clone(), running.result.clone());
        let spawned = std::thread::Builder::new()
            .name("export".into())
            .spawn(move || {
                let outcome = job.run(&|| {
                    done.fetch_add(1, Ordering::Relaxed);
                });
                if let Ok(mut slot) = result.lock() {
                    *slot = Some(outcome);
                }
            });
        match spawned {
            Ok(_) => {
                self.export = Some(running);
                true
            }
            Err(e) => {
                self.fail(format!("Could not start the export: {e}"));
                false
            }
        }
    }
}

/// An export running on its own thread.
#[derive(Debug)]
pub struct RunningExport {
    /// Frames it writes.
    pub total: usize,
    /// Frames baked so far.
    pub done: Arc<AtomicUsize>,
    result: Arc<Mutex<Option<Result<Exported, String>>>>,
    path: PathBuf,
    began: Instant,
}

/// Says what a finished export wrote (or why it failed) and forgets it.
pub fn finish_exports(mut editor: ResMut<Editor>) {
    let finished = editor
        .export
        .as_ref()
        .and_then(|e| e.result.lock().ok().and_then(|mut r| r.take()));
    let Some(outcome) = finished else {
        return;
    };
    let Some(running) = editor.export.take() else {
        return;
    };
    match outcome {
        Ok(done) => {
            editor.inform(format!(
                "Exported {} frames of {} to {} in {:.0} ms",
                done.frames,
                done.what,
                running.path.display(),
                running.began.elapsed().as_secs_f64() * 1e3
            ));
            for w in done.warnings {
                editor.inform(w);
            }
        }
        Err(e) => editor.fail(format!("Could not export: {e}")),
    }
}
