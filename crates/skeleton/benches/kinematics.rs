//! Forward kinematics and Jacobian cost on the humanoid and Buss's double-Y tree.
//! Run: `cargo bench -p marionette-skeleton --bench kinematics` (target: humanoid FK ≤ 2 µs).

use criterion::{Criterion, criterion_group, criterion_main};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton, builtin};
use nalgebra::DMatrix;
use std::hint::black_box;

fn posed(s: &Skeleton) -> Pose {
    let mut pose = Pose::rest(s);
    for (k, d) in s.dofs().iter().enumerate() {
        let (lo, hi) = if d.unlimited {
            (-1.0, 1.0)
        } else {
            (d.min, d.max)
        };
        pose.q[3 + k] = lo + (hi - lo) * (0.3 + 0.4 * ((k * 7919) % 13) as f64 / 13.0);
    }
    pose
}

fn bench_skeleton(c: &mut Criterion, label: &str, s: &Skeleton) {
    let pose = posed(s);
    let mut fk = Fk::new(s);
    let all = Chain::whole(s, true);
    let sites: Vec<_> = s.site_ids().collect();
    // Forward kinematics reuses the sine and cosine of every DOF whose value did not change, so
    // timing one pose over and over would time only that reuse: alternate between two poses
    // that differ in every DOF (the cost of a whole new pose) or in one (a dragged joint).
    let mut moved = pose.clone();
    for v in &mut moved.q[3..] {
        *v += 0.01;
    }
    let mut one_moved = pose.clone();
    one_moved.q[3] += 0.01;
    let mut group = c.benchmark_group(label);
    let mut flip = false;
    group.bench_function("fk (every DOF changed)", |b| {
        b.iter(|| {
            flip = !flip;
            fk.update(s, black_box(if flip { &moved.q } else { &pose.q }));
        })
    });
    group.bench_function("fk (one DOF changed)", |b| {
        b.iter(|| {
            flip = !flip;
            fk.update(s, black_box(if flip { &one_moved.q } else { &pose.q }));
        })
    });
    fk.update(s, &pose.q);
    // Every site's position Jacobian, stacked, over the whole state: what a multi-effector
    // solver builds each iteration.
    let mut j = DMatrix::zeros(3 * sites.len(), all.len());
    group.bench_function("site jacobians (all sites, whole state)", |b| {
        b.iter(|| {
            for (i, &site) in sites.iter().enumerate() {
                fk.site_jacobian(s, site, all.columns(), &mut j, 3 * i);
            }
            black_box(&j);
        })
    });
    let first = sites[0];
    let chain = Chain::between(s, s.root(), s.site(first).joint).expect("chain");
    let mut jc = DMatrix::zeros(3, chain.len());
    group.bench_function("site jacobian (one chain)", |b| {
        b.iter(|| fk.site_jacobian(s, first, chain.columns(), &mut jc, 0))
    });
    let mut jo = DMatrix::zeros(3, all.len());
    let joint = s.site(first).joint;
    group.bench_function("orientation jacobian (whole state)", |b| {
        b.iter(|| fk.orientation_jacobian(s, joint, all.columns(), &mut jo, 0))
    });
    group.bench_function("com jacobian (whole state)", |b| {
        b.iter(|| fk.com_jacobian(s, all.columns(), &mut jo, 0))
    });
    group.bench_function("fk + all site jacobians (every DOF changed)", |b| {
        b.iter(|| {
            flip = !flip;
            fk.update(s, black_box(if flip { &moved.q } else { &pose.q }));
            for (i, &site) in sites.iter().enumerate() {
                fk.site_jacobian(s, site, all.columns(), &mut j, 3 * i);
            }
            black_box(&j);
        })
    });
    group.finish();
}

fn kinematics(c: &mut Criterion) {
    let skeletons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons");
    let humanoid = builtin::humanoid();
    let double_y = Skeleton::load(skeletons.join("buss_double_y.ron")).expect("double-Y loads");
    bench_skeleton(c, "humanoid (51 dofs)", &humanoid);
    bench_skeleton(c, "double-Y (25 dofs)", &double_y);
}

criterion_group!(benches, kinematics);
criterion_main!(benches);
