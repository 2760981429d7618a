//! Saving a skeleton back to RON. Loading what is saved gives the same [`Skeleton`].
//!
//! The definitions are written as they were read (file units, so no degree/radian round-off).
//! A joint that a `mirror` produced is left out as long as it still equals the reflection of its
//! source; an edited one is written out in full, and its own entry then wins over the mirror.

use std::path::Path;

use crate::error::SkeletonError;
use crate::format::{FORMAT_VERSION, SiteDef, SkeletonFile, SkinDef};
use crate::mirror::mirror_def;
use crate::model::Skeleton;
use crate::ordered_map::OrderedMap;
use crate::ron_io;

impl Skeleton {
    /// The skeleton as a file structure, ready to serialise.
    pub fn to_file(&self) -> SkeletonFile {
        let mut joints = Vec::with_capacity(self.joints.len());
        for joint in &self.joints {
            let produced_by_intact_mirror = joint.mirrored_from.is_some_and(|src| {
                let source = &self.joints[src.0];
                source.def.mirror.as_deref() == Some(joint.name.as_str())
                    && mirror_def(&source.def) == joint.def
            });
            // An edited mirrored joint gets its own entry, which wins over the source's mirror.
            if !produced_by_intact_mirror {
                joints.push((joint.name.clone(), joint.def.clone()));
            }
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
            skin: self.skin.as_ref().map(|skin| SkinDef {
                file: skin.file.clone(),
                nodes: OrderedMap(
                    skin.nodes
                        .iter()
                        .map(|&(j, node)| (self.joints[j.0].name.clone(), node))
                        .collect(),
                ),
            }),
        }
    }

    /// The skeleton as RON text in the format of `docs/skeleton-format.md`.
    pub fn to_ron_string(&self) -> Result<String, ron::Error> {
        ron_io::to_pretty("Skeleton", &self.to_file())
    }

    /// Saves the skeleton atomically (a crash never leaves half a file).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), SkeletonError> {
        SkeletonError::write_text(path.as_ref(), self.to_ron_string())
    }
}
