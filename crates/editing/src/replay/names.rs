//! Names in a replay step looked up in the open document's skeleton: joints, sites, and the
//! curve editor's curves ("left elbow 1", "root y"), each failure naming what is missing.

use marionette_skeleton::{JointId, SiteId};

use crate::document::Document;

/// Looks names up in the document's skeleton, naming what is missing.
pub(super) struct Names<'a>(pub(super) &'a Document);

impl Names<'_> {
    pub(super) fn joint(&self, name: &str) -> Result<JointId, String> {
        self.0.skeleton().joint_by_name(name).ok_or_else(|| {
            format!(
                "skeleton \"{}\" has no joint \"{name}\"",
                self.0.skeleton().name()
            )
        })
    }

    /// A site by name, else a joint.
    pub(super) fn site_or_joint(&self, name: &str) -> Result<crate::Grip, String> {
        let skeleton = self.0.skeleton();
        if let Some(site) = skeleton.site_by_name(name) {
            return Ok(crate::Grip::Site(site));
        }
        skeleton
            .joint_by_name(name)
            .map(crate::Grip::Joint)
            .ok_or_else(|| {
                format!(
                    "skeleton \"{}\" has no site or joint \"{name}\"",
                    skeleton.name()
                )
            })
    }

    pub(super) fn site(&self, name: &str) -> Result<SiteId, String> {
        self.0.skeleton().site_by_name(name).ok_or_else(|| {
            format!(
                "skeleton \"{}\" has no site \"{name}\"",
                self.0.skeleton().name()
            )
        })
    }

    /// A curve by the name the curve editor gives it ("left elbow 1", "root y"): its state
    /// index.
    pub(super) fn curve(&self, name: &str) -> Result<usize, String> {
        marionette_document::curve_state(self.0.skeleton(), name)
    }
}
