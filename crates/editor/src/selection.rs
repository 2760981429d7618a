//! What is selected and what is under the cursor, each a small resource of its own (Bevy's change
//! detection tells their readers when to redraw): the selected joint with the site handle picked
//! on it (and the one picked before, for "two sites together"), tied to the document they belong
//! to, so a selection never outlives its skeleton; and the body under the cursor.

use bevy::prelude::*;
use marionette_document::LockPart;
use marionette_editing::Document;
use marionette_skeleton::{JointId, SiteId};

/// The selection: the joint (outliner, sliders, axes, swivel, what L locks) and picked sites,
/// and the joints selected with it (Shift+click): copy and paste and the pose library use all
/// of them, the rest the last one.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Selection {
    document: u64,
    joint: Option<JointId>,
    /// Joints selected before the last one with Shift+click, in order.
    others: Vec<JointId>,
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
        self.others.clear();
    }

    /// Shift+click on `joint`: added to the selection (and made the one the sliders and handles
    /// act on), or taken out of it when it is in it already.
    pub fn extend(&mut self, document: &Document, joint: JointId) {
        if !self.mine(document) {
            self.select(document, Some(joint));
            return;
        }
        if self.joint == Some(joint) {
            self.joint = self.others.pop();
            self.site = None;
        } else if let Some(at) = self.others.iter().position(|&j| j == joint) {
            self.others.remove(at);
        } else {
            if let Some(last) = self.joint {
                self.others.push(last);
            }
            self.joint = Some(joint);
            self.site = None;
        }
    }

    /// Every selected joint, the last selected last (empty when nothing is).
    pub fn joints(&self, document: &Document) -> Vec<JointId> {
        if !self.mine(document) {
            return Vec::new();
        }
        self.others.iter().copied().chain(self.joint).collect()
    }

    /// Whether `joint` is among the selected.
    pub fn contains(&self, document: &Document, joint: JointId) -> bool {
        self.mine(document) && (self.joint == Some(joint) || self.others.contains(&joint))
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

    #[test]
    fn shift_click_adds_and_takes_away_and_a_plain_click_starts_again() {
        let doc = Document::new(builtin::humanoid(), None);
        let joint = |n: &str| doc.skeleton().joint_by_name(n).expect("joint");
        let (shoulder, elbow, wrist) = (
            joint("left shoulder"),
            joint("left elbow"),
            joint("left wrist"),
        );
        let mut selection = Selection::default();
        selection.select(&doc, Some(shoulder));
        selection.extend(&doc, elbow);
        selection.extend(&doc, wrist);
        assert_eq!(selection.joints(&doc), vec![shoulder, elbow, wrist]);
        assert_eq!(selection.joint(&doc), Some(wrist), "the last one is active");
        selection.extend(&doc, elbow);
        assert_eq!(selection.joints(&doc), vec![shoulder, wrist]);
        selection.extend(&doc, wrist);
        assert_eq!(selection.joint(&doc), Some(shoulder));
        assert!(selection.contains(&doc, shoulder) && !selection.contains(&doc, wrist));
        selection.select(&doc, Some(elbow));
        assert_eq!(selection.joints(&doc), vec![elbow]);
    }
}
