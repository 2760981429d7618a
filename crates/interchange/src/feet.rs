//! The points of a figure's feet whose contacts with the ground a cleanup finds
//! ([`marionette_motion::cleanup`]): named by the user, or found from the humanoid map.

use marionette_motion::ContactPoint;
use marionette_motion::cleanup::Leg;
use marionette_skeleton::{Fk, JointId, Pose, Skeleton};
use nalgebra::Vector3;

use crate::character::humanoid::HumanBone;
use crate::retarget::humanoid_of;

/// The points named: sites, else joints (their origins). Every unknown name is reported at once.
pub fn named_points(skeleton: &Skeleton, names: &[&str]) -> Result<Vec<ContactPoint>, String> {
    let mut out = Vec::new();
    let mut unknown = Vec::new();
    for &name in names {
        if let Some(site) = skeleton.site_by_name(name) {
            out.push(ContactPoint::site(skeleton, site));
        } else if let Some(joint) = skeleton.joint_by_name(name) {
            out.push(ContactPoint::joint(skeleton, joint));
        } else {
            unknown.push(format!("\"{name}\""));
        }
    }
    if unknown.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "skeleton \"{}\" has no site or joint {}",
            skeleton.name(),
            unknown.join(", ")
        ))
    }
}

/// Each foot's points, left foot first, found from the humanoid map: its heel (a site on the
/// foot's joint named for a heel, else the ankle: the foot joint's origin) and its toes (the
/// sites on the joints below the foot, else the foot's other sites).
pub fn foot_points(skeleton: &Skeleton) -> Result<Vec<ContactPoint>, String> {
    let humanoid = humanoid_of(skeleton, &Pose::rest(skeleton).q).map_err(|why| {
        format!(
            "skeleton \"{}\": its feet could not be found ({why}); name them with --sites",
            skeleton.name()
        )
    })?;
    let ids: Vec<JointId> = skeleton.joint_ids().collect();
    let mut out = Vec::new();
    let rest = RestFeet::new(skeleton);
    for (side, foot, shin, thigh, toes) in [
        (
            "left",
            HumanBone::LeftFoot,
            HumanBone::LeftLowerLeg,
            HumanBone::LeftUpperLeg,
            HumanBone::LeftToes,
        ),
        (
            "right",
            HumanBone::RightFoot,
            HumanBone::RightLowerLeg,
            HumanBone::RightUpperLeg,
            HumanBone::RightToes,
        ),
    ] {
        // A two-segment leg (a stick figure's) ends at its shin: its sites are the foot's.
        let found = humanoid.joint(foot).or_else(|| humanoid.joint(shin));
        let Some(&joint) = found.and_then(|j| ids.get(j)) else {
            return Err(format!(
                "skeleton \"{}\" has no {} joint; name its foot points with --sites",
                skeleton.name(),
                foot.vrm_name()
            ));
        };
        let id = |bone: HumanBone| humanoid.joint(bone).and_then(|j| ids.get(j)).copied();
        let leg = match (id(thigh), id(shin)) {
            (Some(upper), Some(lower)) if upper != lower => Some(Leg {
                upper,
                lower,
                foot: id(foot).filter(|&f| f != lower),
            }),
            _ => None,
        };
        let on_leg = |p: ContactPoint| match leg {
            Some(leg) => p.on_leg(leg),
            None => p,
        };
        let on = |j: JointId| {
            skeleton
                .site_ids()
                .filter(move |&s| skeleton.site(s).joint == j)
        };
        let is_heel = |s| skeleton.site(s).name.to_lowercase().contains("heel");
        let heels: Vec<_> = on(joint).filter(|&s| is_heel(s)).collect();
        let below: Vec<_> = skeleton
            .subtree(joint)
            .filter(|&j| j != joint)
            .flat_map(on)
            .collect();
        // A foot with a toes joint and no site on it (an imported character's): its heel and
        // toe tip are made where they stand on the floor at rest.
        let toes_joint = id(toes)
            .filter(|&t| t != joint && skeleton.is_ancestor_or_self(joint, t))
            .filter(|_| below.is_empty());
        if let Some(t) = toes_joint {
            let (heel, tip) = rest.heel_and_toe_tip(skeleton, joint, t, side);
            if heels.is_empty() {
                out.push(on_leg(heel));
            }
            out.extend(
                heels
                    .iter()
                    .map(|&s| on_leg(ContactPoint::site(skeleton, s))),
            );
            out.push(on_leg(tip));
            continue;
        }
        if heels.is_empty() {
            out.push(on_leg(ContactPoint::joint(skeleton, joint)));
        }
        out.extend(
            heels
                .iter()
                .map(|&s| on_leg(ContactPoint::site(skeleton, s))),
        );
        let toes = if below.is_empty() {
            on(joint).filter(|&s| !is_heel(s)).collect()
        } else {
            below
        };
        out.extend(
            toes.into_iter()
                .map(|s| on_leg(ContactPoint::site(skeleton, s))),
        );
    }
    Ok(out)
}

/// The figure at rest, for making a foot's points where it stands.
struct RestFeet {
    fk: Fk,
    /// The figure's floor: its lowest joint or site at rest.
    floor: f64,
}

impl RestFeet {
    fn new(skeleton: &Skeleton) -> RestFeet {
        let mut fk = Fk::new(skeleton);
        fk.update(skeleton, &Pose::rest(skeleton).q);
        let floor = skeleton
            .joint_ids()
            .map(|j| fk.joint_position(j).y)
            .chain(skeleton.site_ids().map(|s| fk.site_position(s).y))
            .fold(f64::INFINITY, f64::min);
        RestFeet { fk, floor }
    }

    /// A point on `joint` at `world` (at rest), named `name`.
    fn point_at(
        &self,
        skeleton: &Skeleton,
        joint: JointId,
        world: Vector3<f64>,
        name: String,
    ) -> ContactPoint {
        let mut p = ContactPoint::joint(skeleton, joint);
        p.offset =
            self.fk.joint_rotation(joint).transpose() * (world - self.fk.joint_position(joint));
        p.name = name;
        p
    }

    /// The heel (on the foot, on the floor a quarter of the foot's length behind the ankle)
    /// and the toe tip (on the toes, on the floor as far beyond the toes joint as its first
    /// child joint is, else 40 % of the foot's length) of a foot whose toes joint is `toes`.
    fn heel_and_toe_tip(
        &self,
        skeleton: &Skeleton,
        foot: JointId,
        toes: JointId,
        side: &str,
    ) -> (ContactPoint, ContactPoint) {
        let flat = |v: Vector3<f64>| Vector3::new(v.x, 0.0, v.z);
        let on_floor = |v: Vector3<f64>| Vector3::new(v.x, self.floor, v.z);
        let (ankle, ball) = (self.fk.joint_position(foot), self.fk.joint_position(toes));
        let length = flat(ball - ankle);
        let heel = on_floor(ankle - 0.25 * length);
        let beyond = skeleton
            .joint(toes)
            .children
            .first()
            .map(|&c| flat(self.fk.joint_position(c) - ball))
            .filter(|v| v.norm() > 1e-6)
            .unwrap_or(0.4 * length);
        let tip = on_floor(ball + beyond);
        (
            self.point_at(skeleton, foot, heel, format!("{side} heel")),
            self.point_at(skeleton, toes, tip, format!("{side} toe tip")),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::builtin;

    fn names(points: &[ContactPoint]) -> Vec<&str> {
        points.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn the_humanoid_stands_on_its_heels_and_toe_tips() {
        let s = builtin::humanoid();
        let points = foot_points(&s).expect("feet");
        assert_eq!(
            names(&points),
            ["left heel", "left toe tip", "right heel", "right toe tip"]
        );
    }

    #[test]
    fn the_stick_figure_stands_on_its_heels() {
        let s = marionette_skeleton::Skeleton::load(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/stickman.ron"),
        )
        .expect("the stick figure");
        assert_eq!(
            names(&foot_points(&s).expect("feet")),
            ["left heel", "right heel"]
        );
    }

    #[test]
    fn named_points_are_sites_or_joints_and_unknown_names_are_all_reported() {
        let s = builtin::humanoid();
        let points = named_points(&s, &["left heel", "right ankle"]).expect("named");
        assert!(points[0].site.is_some() && points[1].site.is_none());
        let e = named_points(&s, &["left heal", "left heel", "rigth ankle"]).expect_err("refused");
        assert!(e.contains("\"left heal\", \"rigth ankle\""), "{e}");
    }
}
