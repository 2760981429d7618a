//! Forward kinematics against an independent computation, and every analytic Jacobian against
//! central finite differences, on random skeletons and poses.

mod common;

use common::{independent_joint_frames, skeleton_and_pose, transform_point};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};
use nalgebra::{DMatrix, Matrix3, Vector3};
use proptest::prelude::*;

const H: f64 = 1e-6;

/// Central difference of `f` along every state entry.
fn finite_difference(q: &[f64], mut f: impl FnMut(&[f64]) -> Vector3<f64>) -> DMatrix<f64> {
    let mut out = DMatrix::zeros(3, q.len());
    let mut qq = q.to_vec();
    for i in 0..q.len() {
        qq[i] = q[i] + H;
        let plus = f(&qq);
        qq[i] = q[i] - H;
        let minus = f(&qq);
        qq[i] = q[i];
        out.set_column(i, &((plus - minus) / (2.0 * H)));
    }
    out
}

fn all_columns(s: &Skeleton) -> Vec<usize> {
    (0..s.state_len()).collect()
}

fn assert_close(
    analytic: &DMatrix<f64>,
    numeric: &DMatrix<f64>,
    what: &str,
) -> Result<(), TestCaseError> {
    let scale = 1.0 + numeric.abs().max();
    let err = (analytic - numeric).abs().max();
    prop_assert!(
        err < 1e-6 * scale,
        "{what}: max difference {err}\nanalytic {analytic}\nnumeric {numeric}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fk_matches_homogeneous_matrices((s, pose) in skeleton_and_pose()) {
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let frames = independent_joint_frames(&s, &pose.q);
        for j in s.joint_ids() {
            let expected = transform_point(&frames[j.index()], &Vector3::zeros());
            prop_assert!((fk.joint_position(j) - expected).norm() < 1e-9);
            let rot = frames[j.index()].fixed_view::<3, 3>(0, 0).into_owned();
            prop_assert!((fk.joint_rotation(j) - rot).abs().max() < 1e-9);
        }
        for site in s.site_ids() {
            let st = s.site(site);
            let expected = transform_point(&frames[st.joint.index()], &st.offset);
            prop_assert!((fk.site_position(site) - expected).norm() < 1e-9);
        }
    }

    #[test]
    fn site_and_point_jacobians_match_finite_differences((s, pose) in skeleton_and_pose()) {
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let cols = all_columns(&s);
        for site in s.site_ids() {
            let mut j = DMatrix::zeros(3, cols.len());
            fk.site_jacobian(&s, site, &cols, &mut j, 0);
            let mut probe = Fk::new(&s);
            let numeric = finite_difference(&pose.q, |q| { probe.update(&s, q); probe.site_position(site) });
            assert_close(&j, &numeric, "site")?;
        }
    }

    #[test]
    fn orientation_jacobian_matches_finite_differences((s, pose) in skeleton_and_pose()) {
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let cols = all_columns(&s);
        let mut probe = Fk::new(&s);
        for joint in s.joint_ids() {
            let mut j = DMatrix::zeros(3, cols.len());
            fk.orientation_jacobian(&s, joint, &cols, &mut j, 0);
            // ω from the skew part of dR/dq · Rᵀ.
            let r0: Matrix3<f64> = *fk.joint_rotation(joint);
            let mut numeric = DMatrix::zeros(3, cols.len());
            let mut qq = pose.q.clone();
            for i in 0..cols.len() {
                qq[i] = pose.q[i] + H;
                probe.update(&s, &qq);
                let plus = *probe.joint_rotation(joint);
                qq[i] = pose.q[i] - H;
                probe.update(&s, &qq);
                let minus = *probe.joint_rotation(joint);
                qq[i] = pose.q[i];
                let w = (plus - minus) / (2.0 * H) * r0.transpose();
                numeric.set_column(i, &Vector3::new(w[(2, 1)], w[(0, 2)], w[(1, 0)]));
            }
            assert_close(&j, &numeric, "orientation")?;
        }
    }

    #[test]
    fn com_jacobian_matches_finite_differences((s, pose) in skeleton_and_pose()) {
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let cols = all_columns(&s);
        let mut j = DMatrix::zeros(3, cols.len());
        fk.com_jacobian(&s, &cols, &mut j, 0);
        let mut probe = Fk::new(&s);
        let numeric = finite_difference(&pose.q, |q| { probe.update(&s, q); probe.center_of_mass() });
        assert_close(&j, &numeric, "centre of mass")?;
    }

    #[test]
    fn chain_jacobian_is_the_full_jacobian_restricted_to_its_columns((s, pose) in skeleton_and_pose()) {
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let full_cols = all_columns(&s);
        let Some(site) = s.site_ids().next() else { return Ok(()) };
        let tip = s.site(site).joint;
        let chain = Chain::between(&s, s.root(), tip).expect("root is an ancestor of every joint");
        let mut full = DMatrix::zeros(3, full_cols.len());
        fk.site_jacobian(&s, site, &full_cols, &mut full, 0);
        // Rows are written at an offset, as solvers stack several goals.
        let mut part = DMatrix::from_element(6, chain.len(), f64::NAN);
        fk.site_jacobian(&s, site, chain.columns(), &mut part, 3);
        for (c, &state) in chain.columns().iter().enumerate() {
            for r in 0..3 {
                prop_assert_eq!(part[(3 + r, c)], full[(r, state)]);
            }
        }
        // Columns outside the chain are zero in the full Jacobian (they do not move the site),
        // apart from the root translation.
        for state in 3..full_cols.len() {
            if !chain.contains(state) {
                prop_assert!(full.column(state).norm() == 0.0);
            }
        }
    }
}

#[test]
fn com_is_the_mass_weighted_mean_of_body_centres() {
    let s = marionette_skeleton::builtin::humanoid();
    let pose = Pose::rest(&s);
    let mut fk = Fk::new(&s);
    fk.update(&s, &pose.q);
    let frames = independent_joint_frames(&s, &pose.q);
    let mut moment = Vector3::zeros();
    for (j, joint) in s.joints().iter().enumerate() {
        moment += transform_point(&frames[j], &joint.mass_center) * joint.mass;
    }
    let expected = moment / s.total_mass();
    assert!((fk.center_of_mass() - expected).norm() < 1e-12);
}

#[test]
fn humanoid_left_side_mirrors_the_right() {
    let s = marionette_skeleton::builtin::humanoid();
    let mut pose = Pose::rest(&s);
    // Same values on both sides and only sagittal (X) rotations on the midline: a symmetric pose.
    let sides = [("right", "left")];
    let mut value = 0.05;
    for (r, l) in sides {
        for part in [
            "clavicle", "shoulder", "elbow", "wrist", "hip", "knee", "ankle", "toes",
        ] {
            let rj = s
                .joint_by_name(&format!("{r} {part}"))
                .expect("right joint");
            let lj = s.joint_by_name(&format!("{l} {part}")).expect("left joint");
            for (rd, ld) in s.joint_dofs(rj).zip(s.joint_dofs(lj)) {
                let d = s.dof(rd);
                let v = d.clamp(d.min + (d.max - d.min) * value);
                value = (value + 0.37) % 1.0;
                pose.q[rd.state_index()] = v;
                pose.q[ld.state_index()] = v;
            }
        }
    }
    for mid in ["lower spine", "middle spine", "upper spine", "neck", "head"] {
        let j = s.joint_by_name(mid).expect("midline joint");
        let first = s.joint_dofs(j).next().expect("dof");
        pose.q[first.state_index()] = 0.2;
    }
    let mut fk = Fk::new(&s);
    fk.update(&s, &pose.q);
    for part in ["fingertips", "heel", "toe tip"] {
        let r = fk.site_position(s.site_by_name(&format!("right {part}")).expect("site"));
        let l = fk.site_position(s.site_by_name(&format!("left {part}")).expect("site"));
        assert!(
            (r - Vector3::new(-l.x, l.y, l.z)).norm() < 1e-12,
            "{part}: {r} vs {l}"
        );
        assert!(r.x < 0.0, "the right side is -X");
    }
}
