//! File ▸ Import BVH and File ▸ Export (BVH, glTF, JSON) on the editor: the Bevy-free work is
//! `marionette_editing::exchange`; here the outcome is told to the user, and a failure changes
//! nothing.

use std::path::Path;

use marionette_editing::exchange::ExportFormat;

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

    /// Exports the shown sequence (or the pose) to `path` as `format`; says what was written.
    pub fn export(&mut self, format: ExportFormat, path: &Path) -> bool {
        self.document.end_drag();
        let began = std::time::Instant::now();
        match self.document.export(format, path) {
            Ok(done) => {
                self.inform(format!(
                    "Exported {} frames of {} to {} in {:.0} ms",
                    done.frames,
                    done.what,
                    path.display(),
                    began.elapsed().as_secs_f64() * 1e3
                ));
                true
            }
            Err(e) => {
                self.fail(format!("Could not export: {e}"));
                false
            }
        }
    }
}
