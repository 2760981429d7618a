//! A figure's site held to a prop (issue 32, part 2): a hand on a table's edge, a foot on a
//! step, a hand on a handle. The link is made where the site is now, so nothing jumps: the
//! point is the site's place in the prop's frame, at the prop's place on the frame shown; a
//! plane's normal is the prop's axis nearest the vertical (the top of a step or a table), a
//! line's direction its longest axis (a bar, a stick, a table's long edge), a pose's rotation
//! the site's joint's as it is now, in the prop's frame.

use marionette_document::{LinkTarget, PropContact, PropShape};
use marionette_motion::stage::{StageFrame, props::free_place};
use marionette_skeleton::Fk;
use nalgebra::{Isometry3, Point3, Vector3};

use super::refused;
use crate::history::UndoStep;
use crate::{Document, EditError};

/// How a site is held to a prop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
pub enum PropHold {
    /// At one point of the prop (a hand on a handle).
    #[default]
    Point,
    /// On the plane through that point across the prop's axis nearest the vertical; the site
    /// may slide on it (a foot on a step).
    Plane,
    /// On the line through that point along the prop's longest axis (a hand along an edge).
    Line,
    /// At that point, turned as it is to the prop: position and orientation held (a hand
    /// gripping a bar, a foot flat on a step).
    Pose,
    /// Turned as it is to the prop, wherever it goes (a hand kept level with a tray).
    Turn,
}

impl PropHold {
    /// Every kind, in menu order.
    pub const ALL: [PropHold; 5] = [
        PropHold::Point,
        PropHold::Plane,
        PropHold::Line,
        PropHold::Pose,
        PropHold::Turn,
    ];

    /// The menu's word for it.
    pub fn label(self) -> &'static str {
        match self {
            PropHold::Point => "at a point",
            PropHold::Plane => "on its top plane",
            PropHold::Line => "along its long axis",
            PropHold::Pose => "at a point, turned as now",
            PropHold::Turn => "turned as now, anywhere",
        }
    }
}

/// The prop's axis (in its frame) whose direction on the stage is nearest the vertical.
fn axis_nearest_up(place: &Isometry3<f64>) -> [f64; 3] {
    let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
    let best = axes
        .iter()
        .max_by(|a, b| {
            let up = |v: &Vector3<f64>| (place.rotation * v).y.abs();
            up(a).total_cmp(&up(b))
        })
        .copied()
        .unwrap_or_else(Vector3::y);
    best.into()
}

/// The prop's longest axis in its frame: a cylinder's own, a box's longest side; x for the
/// round and the meshed.
fn longest_axis(shape: &PropShape) -> [f64; 3] {
    match shape {
        PropShape::Cylinder { .. } => [0.0, 1.0, 0.0],
        PropShape::Box { size } => {
            let k = (0..3)
                .max_by(|&a, &b| size[a].total_cmp(&size[b]))
                .unwrap_or(0);
            let mut axis = [0.0; 3];
            axis[k] = 1.0;
            axis
        }
        _ => [1.0, 0.0, 0.0],
    }
}

impl Document {
    /// Figure `k`'s pose as the editor draws it now: the edited figure's own; another's as a
    /// linked drag left it, else where `baked` (the stage's bake of the shown frame,
    /// [`Document::shown_stage_frame`]) has it, else its own.
    fn drawn_pose(&self, k: usize, baked: Option<&StageFrame>) -> Vec<f64> {
        let slot = &self.stage.figures[k];
        let Some(doc) = slot.document() else {
            return self.pose.clone();
        };
        match baked.filter(|_| !slot.linked_pose) {
            Some(frame) => frame.figures[k].q.clone(),
            None => doc.pose.clone(),
        }
    }

    /// The joint frame of site `a` in the joint frame of site `b`, as the figures are drawn now
    /// (Rx·Ry·Rz degrees).
    pub(super) fn relative_turn(
        &self,
        a: marionette_document::SiteRef,
        b: marionette_document::SiteRef,
    ) -> [f64; 3] {
        let baked = self.shown_stage_frame();
        let turn = |s: marionette_document::SiteRef| {
            let doc = self.figure_document(s.figure);
            let mut fk = Fk::new(doc.skeleton());
            fk.update(doc.skeleton(), &self.drawn_pose(s.figure, baked.as_ref()));
            let placed = self.stage.figures[s.figure].placement.isometry().rotation;
            placed.to_rotation_matrix().into_inner()
                * fk.joint_rotation(doc.skeleton().site(s.site).joint)
        };
        marionette_skeleton::rotation::degrees_from_orientation(&(turn(b).transpose() * turn(a)))
    }

    /// Holds `figure`'s `site` to prop `prop` as `hold` says, where the site is now (one undo
    /// step). Refused, naming the culprit, for a figure, site or prop that is not there, or a
    /// prop someone grips in a sequence (it moves with its holder, it cannot hold).
    pub(crate) fn lock_to_prop(
        &mut self,
        figure: &str,
        site: &str,
        prop: &str,
        hold: PropHold,
    ) -> Result<(), EditError> {
        let at = self.site_ref(figure, site)?;
        let p = self.prop_named(prop)?;
        let cue = self
            .shown_name()
            .and_then(|n| self.stage.cues.iter().find(|c| c.sequence == n));
        if let Some(gripped) = self
            .stage
            .cues
            .iter()
            .find(|c| c.holds.iter().any(|h| h.prop() == p))
        {
            return Err(refused(format!(
                "prop \"{prop}\" is gripped in sequence \"{}\": a prop someone carries cannot \
                 also hold a site",
                gripped.sequence
            )));
        }
        let place = free_place(p, &self.stage.props[p], cue, self.frame);
        let doc = self.figure_document(at.figure);
        let mut fk = Fk::new(doc.skeleton());
        let baked = self.shown_stage_frame();
        fk.update(doc.skeleton(), &self.drawn_pose(at.figure, baked.as_ref()));
        let on_stage = self.stage.figures[at.figure].placement.isometry()
            * Point3::from(fk.site_position(at.site));
        // A turn alone holds no point (the file writes none).
        let point: [f64; 3] = if hold == PropHold::Turn {
            [0.0; 3]
        } else {
            (place.inverse() * on_stage).coords.into()
        };
        // The site's joint turned on the stage, then in the prop's frame.
        let joint = doc.skeleton().site(at.site).joint;
        let on_stage_turn = self.stage.figures[at.figure]
            .placement
            .isometry()
            .rotation
            .to_rotation_matrix()
            .into_inner()
            * fk.joint_rotation(joint);
        let in_prop = place.rotation.to_rotation_matrix().into_inner().transpose() * on_stage_turn;
        let contact = match hold {
            PropHold::Point => PropContact::Point,
            PropHold::Plane => PropContact::Plane(axis_nearest_up(&place)),
            PropHold::Line => PropContact::Line(longest_axis(&self.stage.props[p].shape)),
            PropHold::Pose => PropContact::Pose(
                marionette_skeleton::rotation::degrees_from_orientation(&in_prop),
            ),
            PropHold::Turn => PropContact::Turn(
                marionette_skeleton::rotation::degrees_from_orientation(&in_prop),
            ),
        };
        let name = self
            .stage
            .free_link_name(format!("{figure} {site} - {prop}"));
        let before = self.stage.layout();
        self.stage.links.push(marionette_document::Link {
            name: name.clone(),
            a: at,
            b: LinkTarget::Prop {
                prop: p,
                point,
                contact,
            },
            enabled: true,
            frames: None,
        });
        self.record_stage(format!("Lock {name}"), before, UndoStep::New);
        Ok(())
    }
}
