//! The points of a figure's feet whose contacts with the ground a cleanup finds
//! ([`marionette_motion::cleanup`]): named by the user, or found from the humanoid map.

use marionette_motion::ContactPoint;
use marionette_skeleton::{JointId, Pose, Skeleton};

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
    for (foot, shin) in [
        (HumanBone::LeftFoot, HumanBone::LeftLowerLeg),
        (HumanBone::RightFoot, HumanBone::RightLowerLeg),
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
        let on = |j: JointId| {
            skeleton
                .site_ids()
                .filter(move |&s| skeleton.site(s).joint == j)
        };
        let is_heel = |s| skeleton.site(s).name.to_lowercase().contains("heel");
        let heels: Vec<_> = on(joint).filter(|&s| is_heel(s)).collect();
        if heels.is_empty() {
            out.push(ContactPoint::joint(skeleton, joint));
        }
        out.extend(heels.iter().map(|&s| ContactPoint::site(skeleton, s)));
        let below: Vec<_> = skeleton
            .subtree(joint)
            .filter(|&j| j != joint)
            .flat_map(on)
            .collect();
        let toes = if below.is_empty() {
            on(joint).filter(|&s| !is_heel(s)).collect()
        } else {
            below
        };
        out.extend(toes.into_iter().map(|s| ContactPoint::site(skeleton, s)));
    }
    Ok(out)
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
