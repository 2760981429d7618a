//! What resolving a stage's links, cues and props shares: finding figures, props and sites by
//! name ([`Lookup`]), a link's end on a prop, and the checks of frames and places.

use super::{LinkTarget, PropContact, SiteRef, Stage};
use crate::sequence::frame_in_range;

/// Finds names on a stage being resolved.
pub(super) struct Lookup<'a> {
    pub(super) stage: &'a Stage,
}

impl Lookup<'_> {
    pub(super) fn figure(&self, name: &str) -> Result<usize, String> {
        self.stage
            .figure_index(name)
            .ok_or_else(|| format!("there is no figure \"{name}\" on the stage"))
    }

    pub(super) fn prop(&self, name: &str) -> Result<usize, String> {
        self.stage
            .prop_index(name)
            .ok_or_else(|| format!("there is no prop \"{name}\" on the stage"))
    }

    pub(super) fn site(&self, figure: &str, site: &str) -> Result<SiteRef, String> {
        let f = self.figure(figure)?;
        let skeleton = &self.stage.figures[f].document.skeleton;
        skeleton
            .site_by_name(site)
            .map(|site| SiteRef { figure: f, site })
            .ok_or_else(|| {
                format!(
                    "figure \"{figure}\" (skeleton \"{}\") has no site \"{site}\"",
                    skeleton.name()
                )
            })
    }
}

/// A link's target on prop `name`: the point finite, a plane's normal or a line's direction
/// finite and not zero, a pose's rotation finite.
pub(super) fn prop_target(
    lookup: &Lookup<'_>,
    name: &str,
    point: &[f64; 3],
    contact: PropContact,
) -> Result<LinkTarget, String> {
    let prop = lookup.prop(name)?;
    if !point
        .iter()
        .all(|v| marionette_skeleton::coordinate_in_range(*v))
    {
        return Err("the point on the prop is not a finite coordinate".into());
    }
    let axis = match contact {
        PropContact::Point => None,
        PropContact::Plane(v) => Some(("plane's normal", v)),
        PropContact::Line(v) => Some(("line's direction", v)),
        PropContact::Pose(r) | PropContact::Turn(r) => {
            if !r.iter().all(|a| a.is_finite() && a.abs() <= 1e6) {
                return Err(format!(
                    "the rotation ({}, {}, {}) is not finite degrees",
                    r[0], r[1], r[2]
                ));
            }
            None
        }
    };
    if let Some((what, v)) = axis {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(norm.is_finite() && norm > 1e-9 && v.iter().all(|x| x.abs() <= 1e6)) {
            return Err(format!(
                "the {what} ({}, {}, {}) is not a finite, non-zero vector",
                v[0], v[1], v[2]
            ));
        }
    }
    Ok(LinkTarget::Prop {
        prop,
        point: *point,
        contact,
    })
}

/// What is wrong with a frame range, if anything.
pub(super) fn frames_problem((first, last): (i64, i64)) -> Option<String> {
    let max = crate::sequence::MAX_FRAME;
    if !(frame_in_range(first) && frame_in_range(last)) {
        Some(format!("frame beyond ±{max}"))
    } else if first > last {
        Some(format!("frames ({first}, {last}) end before they start"))
    } else {
        None
    }
}

/// What is wrong with a placement, if anything.
pub(super) fn place_problem(at: &[f64; 3], rotation: &[f64; 3]) -> Option<String> {
    if !at
        .iter()
        .all(|v| marionette_skeleton::coordinate_in_range(*v))
    {
        Some("its position is not a finite coordinate within ±1000000 m".into())
    } else if !rotation.iter().all(|v| v.is_finite() && v.abs() <= 1e6) {
        Some("its rotation is not a finite angle".into())
    } else {
        None
    }
}
