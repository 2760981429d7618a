//! Names in a replay step looked up in the open document's skeleton: joints, sites, and the
//! curve editor's curves ("left elbow 1", "root y"), each failure naming what is missing.

use marionette_skeleton::{JointId, ROOT_STATE_LEN, SiteId};

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

    /// A curve by the name the curve editor gives it: "JOINT N" (its Nth DOF, from 1) or
    /// "root x" / "root y" / "root z"; its state index.
    pub(super) fn curve(&self, name: &str) -> Result<usize, String> {
        let skeleton = self.0.skeleton();
        if let Some(axis) = name.strip_prefix("root ")
            && let Some(i) = ["x", "y", "z"].iter().position(|a| *a == axis)
        {
            return Ok(i.min(ROOT_STATE_LEN - 1));
        }
        let bad = || {
            format!(
                "\"{name}\" is no curve of skeleton \"{}\" (a curve is \"JOINT N\", its Nth DOF from 1, or \"root x\", \"root y\", \"root z\")",
                skeleton.name()
            )
        };
        let (joint, place) = name.rsplit_once(' ').ok_or_else(bad)?;
        let place: usize = place.parse().map_err(|_| bad())?;
        let j = self.joint(joint)?;
        place
            .checked_sub(1)
            .and_then(|i| skeleton.joint_dofs(j).nth(i))
            .map(|d| d.state_index())
            .ok_or_else(bad)
    }
}
