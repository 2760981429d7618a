//! Saving a skeleton back to RON. Loading what is saved gives the same [`Skeleton`].
//!
//! The definitions are written as they were read (file units, so no degree/radian round-off).
//! A joint that a `mirror` produced is left out, and the mirror kept, as long as it still equals
//! the reflection of its source; an edited one is written out in full.

use std::path::Path;

use crate::error::SkeletonError;
use crate::format::{FORMAT_VERSION, JointDef, SiteDef, SkeletonFile};
use crate::mirror::mirror_def;
use crate::model::Skeleton;
use crate::ordered_map::OrderedMap;
use crate::ron_io;

impl Skeleton {
    /// The skeleton as a file structure, ready to serialise.
    pub fn to_file(&self) -> SkeletonFile {
        let mut joints = Vec::with_capacity(self.joints.len());
        let keeps_mirror = |source: usize, def: &JointDef| {
            self.joints.iter().any(|j| {
                j.mirrored_from.map(|m| m.0) == Some(source)
                    && def.mirror.as_deref() == Some(j.name.as_str())
                    && mirror_def(def) == j.def
            })
        };
        for (id, joint) in self.joints.iter().enumerate() {
            let produced_by_intact_mirror = joint.mirrored_from.is_some_and(|src| {
                let source = &self.joints[src.0];
                source.def.mirror.as_deref() == Some(joint.name.as_str())
                    && mirror_def(&source.def) == joint.def
            });
            if produced_by_intact_mirror {
                continue;
            }
            let mut def = joint.def.clone();
            if def.mirror.is_some() && !keeps_mirror(id, &def) {
                // The mirrored joint was edited (or has its own entry): write it out in full.
                def.mirror = None;
            }
            joints.push((joint.name.clone(), def));
        }
        SkeletonFile {
            version: i64::from(FORMAT_VERSION),
            name: self.name.clone(),
            hierarchy: self.hierarchy.clone(),
            joints: OrderedMap(joints),
            sites: OrderedMap(
                self.sites
                    .iter()
                    .map(|s| {
                        (
                            s.name.clone(),
                            SiteDef {
                                joint: self.joints[s.joint.0].name.clone(),
                                offset: s.offset.into(),
                            },
                        )
                    })
                    .collect(),
            ),
        }
    }

    /// The skeleton as RON text in the format of `SKELETON_FORMAT.md`.
    pub fn to_ron_string(&self) -> Result<String, ron::Error> {
        ron_io::to_pretty(&self.to_file())
    }

    /// Saves the skeleton atomically (a crash never leaves half a file).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), SkeletonError> {
        let path = path.as_ref();
        let file = ron_io::display_path(path);
        let text = self.to_ron_string().map_err(|e| SkeletonError::Io {
            file: file.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
        ron_io::write_atomically(path, &text).map_err(|source| SkeletonError::Io { file, source })
    }
}
