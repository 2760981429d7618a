//! A stage file's links resolved against its figures and props (docs/file-formats.md, Stage,
//! "Links"): both ends found by name, the rotation and frames checked.

use super::format::{LinkDef, LinkTargetDef};
use super::lookup::{Lookup, frames_problem, prop_target};
use super::{Link, LinkTarget, PropContact};

/// Link `l` resolved, or what is wrong with it; `earlier` are the links resolved before it.
pub(super) fn resolve_link(l: &LinkDef, lookup: &Lookup, earlier: &[Link]) -> Result<Link, String> {
    if l.name.trim().is_empty() {
        return Err("the name is empty".into());
    }
    if earlier.iter().any(|k| k.name == l.name) {
        return Err("the name appears more than once".into());
    }
    let a = lookup.site(&l.a.0, &l.a.1)?;
    let b = match &l.b {
        LinkTargetDef::Site(f, s) | LinkTargetDef::SitePose(f, s, _) => {
            let b = lookup.site(f, s)?;
            if b == a {
                return Err("both ends are the same site".into());
            }
            match &l.b {
                LinkTargetDef::SitePose(_, _, r) => {
                    if !r.iter().all(|a| a.is_finite() && a.abs() <= 1e6) {
                        return Err(format!(
                            "the rotation ({}, {}, {}) is not finite degrees",
                            r[0], r[1], r[2]
                        ));
                    }
                    LinkTarget::SitePose {
                        site: b,
                        rotation: *r,
                    }
                }
                _ => LinkTarget::Site(b),
            }
        }
        LinkTargetDef::Prop(p, point) => prop_target(lookup, p, point, PropContact::Point)?,
        LinkTargetDef::PropPlane(p, point, normal) => {
            prop_target(lookup, p, point, PropContact::Plane(*normal))?
        }
        LinkTargetDef::PropLine(p, point, direction) => {
            prop_target(lookup, p, point, PropContact::Line(*direction))?
        }
        LinkTargetDef::PropTurn(p, rotation) => {
            prop_target(lookup, p, &[0.0; 3], PropContact::Turn(*rotation))?
        }
        LinkTargetDef::PropPose(p, point, rotation) => {
            prop_target(lookup, p, point, PropContact::Pose(*rotation))?
        }
    };
    if let Some(problem) = l.frames.and_then(frames_problem) {
        return Err(problem);
    }
    Ok(Link {
        name: l.name.clone(),
        a,
        b,
        enabled: l.enabled,
        frames: l.frames,
    })
}
