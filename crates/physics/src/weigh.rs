//! An imported figure's own joint masses made de Leva's ([`weigh_by_roles`]): each joint
//! carries the segments that ride on it (their masses summed, at their common centre of mass),
//! so that everything weighing the skeleton by its joints (`marionette fk`'s centre of mass,
//! the centre-of-mass lock, the bake) agrees with the physics assistant's [`MassModel`]. An
//! import's capsules otherwise put about 75 % of the mass in the legs.

use marionette_skeleton::Skeleton;
use marionette_skeleton::format::SkeletonFile;
use nalgebra::Vector3;

use crate::masses::{MassError, MassModel, MassSettings, MassSource};

/// `file` (the skeleton file of `skeleton`, as an import made it) with every joint's mass and
/// centre of mass from de Leva's segments by humanoid role, scaled to `settings`' total; a
/// joint no segment rides on weighs nothing (de Leva's hand holds its fingers). `None` when the
/// figure has no humanoid roles (its capsules' masses stay, and the reports say so).
pub fn weigh_by_roles(
    file: &SkeletonFile,
    skeleton: &Skeleton,
    settings: MassSettings,
) -> Result<Option<SkeletonFile>, MassError> {
    let model = MassModel::of(skeleton, settings)?;
    if let MassSource::Skeleton(_) = model.source {
        return Ok(None);
    }
    let mut mass = vec![0.0; skeleton.joints().len()];
    let mut moment = vec![Vector3::zeros(); skeleton.joints().len()];
    for s in &model.segments {
        mass[s.joint.index()] += s.mass;
        moment[s.joint.index()] += s.center * s.mass;
    }
    let mut weighed = file.clone();
    // By name: a joint a mirror entry defines has no entry of its own, and takes its source's
    // mass reflected (de Leva's sides weigh alike).
    for (name, def) in weighed.joints.0.iter_mut() {
        let Some(id) = skeleton.joint_by_name(name) else {
            continue;
        };
        let m = mass[id.index()];
        def.mass = m;
        def.mass_center = (m > 0.0).then(|| (moment[id.index()] / m).into());
    }
    Ok(Some(weighed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Fk, Pose};

    /// The built-in humanoid's joints weighed by its roles give de Leva's centre of mass in
    /// any pose (the model's own sum over segments), and its total mass.
    #[test]
    fn the_weighed_skeleton_s_centre_of_mass_is_the_model_s() {
        let s = marionette_skeleton::builtin::humanoid();
        let file = s.to_file();
        let settings = MassSettings::default();
        let weighed = weigh_by_roles(&file, &s, settings)
            .expect("masses")
            .expect("a humanoid");
        let back = Skeleton::from_file(weighed, "weighed").expect("loads");
        let model = MassModel::of(&s, settings).expect("masses");
        assert!((back.total_mass() - model.total).abs() < 1e-9);
        let mut q = Pose::rest(&s).q;
        for (k, v) in q
            .iter_mut()
            .enumerate()
            .skip(marionette_skeleton::ROOT_STATE_LEN)
        {
            *v = 0.3 * ((k as f64) * 1.7).sin();
        }
        let (mut fk, mut fk_back) = (Fk::new(&s), Fk::new(&back));
        fk.update(&s, &q);
        fk_back.update(&back, &q);
        let gap = (fk_back.center_of_mass() - model.center_of_mass(&fk)).norm();
        assert!(gap < 1e-9, "{gap} m");
    }
}
