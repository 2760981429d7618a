//! Sequence ▸ Retarget a capture onto this figure: a BVH capture's motion put onto the
//! document's figure ([`marionette_interchange::retarget`], the figure's current pose as its
//! reference), as a new sequence named after the file and shown, in one undo step.

use std::path::Path;

use marionette_interchange::bvh::{import::import, parse::parse};
use marionette_interchange::retarget::retarget_imported;
use marionette_skeleton::ron_io::{MAX_DATA_BYTES, read_bytes};

use crate::{Document, EditError};

impl Document {
    /// Retargets the capture at `path` onto the figure as a new sequence (shown); says what was
    /// mapped and what the figure's limits kept from the capture.
    pub fn retarget_capture(&mut self, path: &Path) -> Result<String, EditError> {
        let file = path.display().to_string();
        let fail = |e: String| EditError::Retarget(format!("{file}: {e}"));
        let bytes =
            read_bytes(path, MAX_DATA_BYTES, "a BVH capture").map_err(|e| fail(e.to_string()))?;
        let parsed = parse(&String::from_utf8_lossy(&bytes)).map_err(|e| fail(e.to_string()))?;
        let stem = path.file_stem().map_or_else(
            || "capture".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let captured = import(&parsed.bvh, 1.0, 1, &stem).map_err(|e| fail(e.to_string()))?;
        let mut result = retarget_imported(&captured, (&self.skeleton, &self.pose), &[], &stem)
            .map_err(|e| fail(e.to_string()))?;
        let name = self.unique_sequence_name(&stem);
        result.sequence.name.clone_from(&name);
        let first = result.sequence.keys.first().map_or(0, |k| k.frame);
        let keys = result.sequence.keys.len();
        let before = self.sequences.clone();
        self.sequences.push(result.sequence);
        self.record_sequences(format!("Retarget {stem}"), before);
        self.sequence = Some(self.sequences.len() - 1);
        self.go_to_frame(first);
        let limited: Vec<String> = result
            .limited
            .iter()
            .map(|(bone, _, most)| format!("{} {most:.0}°", bone.vrm_name()))
            .collect();
        let mut said = format!(
            "{stem} onto {}: {} bones mapped, {keys} frames in sequence {name}",
            self.skeleton.name(),
            result.map.len()
        );
        if !limited.is_empty() {
            said += &format!("; held by the limits: {}", limited.join(", "));
        }
        Ok(said)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use marionette_skeleton::builtin;

    use crate::Document;
    use crate::edit::{Applied, Edit};
    use crate::solve::Solving;

    #[test]
    fn a_capture_becomes_a_shown_sequence_in_one_undo_step_and_bad_files_change_nothing() {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        let capture = Path::new("/usr/share/assimp/models/BVH/Boxing_Toes.bvh");
        let applied = doc
            .apply(Edit::RetargetCapture(capture.into()), &mut solving)
            .expect("retargets (assimp-testmodels)");
        let Applied::Said(said) = applied else {
            panic!("says what it did: {applied:?}");
        };
        assert!(said.contains("bones mapped"), "{said}");
        assert_eq!(doc.sequences().len(), 1);
        assert_eq!(doc.current_sequence(), Some(0));
        assert_eq!(doc.sequences()[0].name, "Boxing_Toes");
        assert!(doc.sequences()[0].keys.len() > 1000);
        // Again: a second sequence with a name of its own.
        doc.apply(Edit::RetargetCapture(capture.into()), &mut solving)
            .expect("retargets");
        assert_eq!(doc.sequences()[1].name, "Boxing_Toes 2");
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.sequences().len(), 1);
        // A missing file or a file that is not a capture: refused, named, nothing changed.
        for bad in [
            "/nonexistent/take.bvh",
            "/usr/share/assimp/models/BVH/../../../../etc/hostname",
        ] {
            let e = doc
                .apply(Edit::RetargetCapture(bad.into()), &mut solving)
                .expect_err("refused");
            assert!(e.to_string().contains(bad), "{e}");
            assert_eq!(doc.sequences().len(), 1);
        }
    }
}
