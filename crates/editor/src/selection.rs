//! What is selected and what is under the cursor, each a small resource of its own (Bevy's change
//! detection tells their readers when to redraw): the selected joint with the site handle picked
//! on it (and the one picked before, for "two sites together"), tied to the document they belong
//! to, so a selection never outlives its skeleton; and the body under the cursor.

use bevy::prelude::*;
use marionette_document::LockPart;
use marionette_editing::Document;
use marionette_skeleton::{JointId, SiteId};

/// The selection: the joint (outliner, sliders, axes, swivel, what L locks) and picked sites.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Selection {
    document: u64,
    joint: Option<JointId>,
    site: Option<SiteId>,
    previous_site: Option<SiteId>,
}

impl Selection {
    fn mine(&self, document: &Document) -> bool {
        self.document == document.id()
    }

    /// The selected joint of `document` (`None` when nothing is, or the selection was made in
    /// another document).
    pub fn joint(&self, document: &Document) -> Option<JointId> {
        self.joint.filter(|_| self.mine(document))
    }

    /// The site handle picked last, while its joint is selected.
    pub fn site(&self, document: &Document) -> Option<SiteId> {
        self.site.filter(|_| self.mine(document))
    }

    /// The site handle picked before it.
    pub fn previous_site(&self, document: &Document) -> Option<SiteId> {
        self.previous_site.filter(|_| self.mine(document))
    }

    /// Selects `joint` of `document` (or nothing); the picked sites are kept only for the same
    /// document.
    pub fn select(&mut self, document: &Document, joint: Option<JointId>) {
        if !self.mine(document) {
            *self = Selection {
                document: document.id(),
                ..Selection::default()
            };
        }
        if self.joint != joint {
            self.joint = joint;
            self.site = None;
        }
    }

    /// A site's handle was picked: its joint is selected, and the site before it remembered.
    pub fn pick_site(&mut self, document: &Document, site: SiteId) {
        let joint = document.skeleton().site(site).joint;
        let before = self.site(document);
        self.select(document, Some(joint));
        if before != Some(site) {
            if before.is_some() {
                self.previous_site = before;
            }
            self.site = Some(site);
        }
    }

    /// What the lock buttons and L hold: the picked site, else the selected joint's first site,
    /// else the selected joint's origin.
    pub fn part(&self, document: &Document) -> Option<LockPart> {
        let joint = self.joint(document)?;
        let skeleton = document.skeleton();
        if let Some(site) = self
            .site(document)
            .filter(|&s| skeleton.site(s).joint == joint)
        {
            return Some(LockPart::Site(site));
        }
        Some(
            skeleton
                .site_ids()
                .find(|&s| skeleton.site(s).joint == joint)
                .map_or(
                    LockPart::Point(joint, nalgebra::Vector3::zeros()),
                    LockPart::Site,
                ),
        )
    }
}

/// The body under the cursor (picking's nearest hit), if any.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Hovered(pub Option<JointId>);

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    #[test]
    fn a_selection_belongs_to_its_document() {
        let doc = Document::new(builtin::humanoid(), None);
        let heel = doc.skeleton().site_by_name("left heel").expect("heel");
        let hand = doc
            .skeleton()
            .site_by_name("right fingertips")
            .expect("hand");
        let mut selection = Selection::default();
        selection.pick_site(&doc, heel);
        selection.pick_site(&doc, hand);
        assert_eq!(selection.site(&doc), Some(hand));
        assert_eq!(selection.previous_site(&doc), Some(heel));
        assert_eq!(selection.part(&doc), Some(LockPart::Site(hand)));
        // Another document (a smaller skeleton): nothing is selected there.
        let other = Document::new(builtin::stickman(), None);
        assert_eq!(selection.joint(&other), None);
        assert_eq!(selection.part(&other), None);
        // Selecting a joint with no site locks its origin.
        let spine = doc.skeleton().joint_by_name("lower spine").expect("spine");
        selection.select(&doc, Some(spine));
        assert_eq!(selection.site(&doc), None);
        assert_eq!(
            selection.part(&doc),
            Some(LockPart::Point(spine, nalgebra::Vector3::zeros()))
        );
    }
}
