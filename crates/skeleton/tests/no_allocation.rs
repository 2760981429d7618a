//! Forward kinematics and Jacobians fill preallocated buffers: a counting allocator sees no
//! allocation per call (and does see the ones made when the buffers are created).

mod common;

use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use nalgebra::DMatrix;

fn check(s: &Skeleton) {
    let mut pose = Pose::rest(s);
    for (i, v) in pose.q.iter_mut().enumerate().skip(3) {
        *v = 0.01 * i as f64;
    }
    let chain = Chain::whole(s, true);
    let site = s.site_ids().next().expect("a site");
    let joint = s.site(site).joint;
    let setup = allocation_counter::measure(|| {
        let fk = Fk::new(s);
        let j = DMatrix::<f64>::zeros(9, chain.len());
        std::hint::black_box((fk, j));
    });
    assert!(setup.count_total > 0, "the counter counts");
    let mut fk = Fk::new(s);
    let mut j = DMatrix::<f64>::zeros(9, chain.len());
    let per_call = allocation_counter::measure(|| {
        for _ in 0..10 {
            fk.update(s, &pose.q);
            fk.site_jacobian(s, site, chain.columns(), &mut j, 0);
            fk.orientation_jacobian(s, joint, chain.columns(), &mut j, 3);
            fk.com_jacobian(s, chain.columns(), &mut j, 6);
            std::hint::black_box(&j);
        }
    });
    assert_eq!(
        per_call.count_total,
        0,
        "{}: {} allocations",
        s.name(),
        per_call.count_total
    );
}

#[test]
fn humanoid_fk_and_jacobians_allocate_nothing() {
    check(&builtin::humanoid());
}

#[test]
fn double_y_fk_and_jacobians_allocate_nothing() {
    let s = Skeleton::load(common::skeletons_dir().join("buss_double_y.ron")).expect("loads");
    check(&s);
}
