//! Every file in `skeletons/` loads, and the reference problems' skeletons put their joints and
//! effectors exactly where REFERENCE_PROBLEMS.md says (positions recomputed here from its formulas).

mod common;

use marionette_skeleton::{Fk, Pose, Skeleton};
use nalgebra::Vector3;

fn load(name: &str) -> Skeleton {
    Skeleton::load(common::skeletons_dir().join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn rest_fk(s: &Skeleton) -> Fk {
    let mut fk = Fk::new(s);
    fk.update(s, &Pose::rest(s).q);
    fk
}

fn assert_joint(s: &Skeleton, fk: &Fk, name: &str, expected: [f64; 3]) {
    let j = s
        .joint_by_name(name)
        .unwrap_or_else(|| panic!("joint {name}"));
    let got = fk.joint_position(j);
    assert!(
        (got - Vector3::from(expected)).norm() < 1e-12,
        "{name}: {got} vs {expected:?}"
    );
}

fn assert_site(s: &Skeleton, fk: &Fk, name: &str, expected: [f64; 3]) {
    let site = s
        .site_by_name(name)
        .unwrap_or_else(|| panic!("site {name}"));
    let got = fk.site_position(site);
    assert!(
        (got - Vector3::from(expected)).norm() < 1e-12,
        "{name}: {got} vs {expected:?}"
    );
}

fn assert_axis(s: &Skeleton, fk: &Fk, name: &str, expected: [f64; 3]) {
    let j = s
        .joint_by_name(name)
        .unwrap_or_else(|| panic!("joint {name}"));
    let dof = s.joint_dofs(j).next().expect("one dof");
    let want = Vector3::from(expected).normalize();
    assert!((fk.dof_axis(dof) - want).norm() < 1e-12, "{name} axis");
    assert!(s.dof(dof).unlimited, "{name} is unlimited");
}

const U1: [f64; 3] = [0.467_707_173_346_742_6, 0.125, 0.875]; // (sqrt(14)/8, 1/8, 7/8)

#[test]
fn every_skeleton_file_loads() {
    let files = common::skeleton_files();
    assert!(files.len() >= 7, "{files:?}");
    for f in files {
        Skeleton::load(&f).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn buss_y_rest_positions_match_the_table() {
    assert!((U1[0] - 14f64.sqrt() / 8.0).abs() < 1e-15);
    let s = load("buss_y.ron");
    assert_eq!(
        (s.joints().len(), s.dof_count(), s.sites().len()),
        (7, 7, 2)
    );
    let fk = rest_fk(&s);
    let table = [
        ("j0", [0.0, -0.5, 0.0], [0.0, 0.0, 1.0]),
        ("j1", [0.0, 0.4, 0.0], [0.0, 0.0, 1.0]),
        ("j2", [0.0, 0.4, 0.0], [0.0, 0.0, 1.0]),
        ("j3", [0.5, 1.0, 0.0], [1.0, 0.0, 0.0]),
        ("j4", [-0.5, 1.0, 0.0], [1.0, 0.0, 0.0]),
        ("j5", [0.7, 1.3, 0.0], U1),
        ("j6", [-0.8, 1.5, 0.0], U1),
    ];
    for (name, pos, axis) in table {
        assert_joint(&s, &fk, name, pos);
        assert_axis(&s, &fk, name, axis);
    }
    assert_site(&s, &fk, "e0", [0.7, 2.0, 0.0]);
    assert_site(&s, &fk, "e1", [-0.8, 1.9, 0.0]);
}

#[test]
fn buss_double_y_rest_positions_match_the_table() {
    let s = load("buss_double_y.ron");
    assert_eq!(
        (s.joints().len(), s.dof_count(), s.sites().len()),
        (25, 25, 4)
    );
    let fk = rest_fk(&s);
    let r = 1.0 / 2f64.sqrt();
    let h = 3f64.sqrt() / 2.0;
    let p = [
        [0.0, -1.5, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, -0.5, 0.0],
        [0.5 * r, -0.5 + 0.5 * r, 0.0],
        [0.5 * r + 0.5 * h, -0.5 + 0.5 * r + 0.25, 0.0],
        [0.5 * r + h, -0.5 + 0.5 * r + 0.5, 0.0],
        [0.5 * r + 1.5 * h, -0.5 + 0.5 * r + 0.75, 0.0],
        [0.5 * r + 0.5 * h, -0.5 + 0.5 * r + 0.5 * h, 0.0],
        [0.5 * r + h, -0.5 + 0.5 * r + h, 0.0],
        [0.5 * r + 1.5 * h, -0.5 + 0.5 * r + 1.5 * h, 0.0],
        [-0.5 * r, -0.5 + 0.5 * r, 0.0],
        [-0.5 * r - 0.5 * h, -0.5 + 0.5 * r + 0.5 * h, 0.0],
        [-0.5 * r - h, -0.5 + 0.5 * r + h, 0.0],
        [-0.5 * r - 1.5 * h, -0.5 + 0.5 * r + 1.5 * h, 0.0],
        [-0.5 * r - 0.5 * h, -0.5 + 0.5 * r + 0.25, 0.0],
        [-0.5 * r - h, -0.5 + 0.5 * r + 0.5, 0.0],
        [-0.5 * r - 1.5 * h, -0.5 + 0.5 * r + 0.75, 0.0],
    ];
    let (x, y, z) = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
    let table = [
        ("n0", 0, U1),
        ("n1", 1, x),
        ("n2", 1, z),
        ("n3", 2, z),
        ("n4", 2, z),
        ("n5", 3, y),
        ("n6", 3, y),
        ("n7", 3, x),
        ("n8", 4, z),
        ("n9", 5, x),
        ("n10", 5, y),
        ("n12", 3, x),
        ("n13", 7, z),
        ("n14", 8, x),
        ("n15", 8, y),
        ("n17", 10, y),
        ("n18", 10, x),
        ("n19", 10, y),
        ("n20", 11, z),
        ("n21", 12, x),
        ("n22", 12, y),
        ("n24", 10, x),
        ("n25", 14, z),
        ("n26", 15, x),
        ("n27", 15, y),
    ];
    for (name, point, axis) in table {
        assert_joint(&s, &fk, name, p[point]);
        assert_axis(&s, &fk, name, axis);
    }
    for (name, point) in [("A", 6), ("B", 9), ("C", 13), ("D", 16)] {
        assert_site(&s, &fk, name, p[point]);
    }
    let parents = [
        ("n10", "n9"),
        ("n12", "n6"),
        ("n17", "n4"),
        ("n19", "n4"),
        ("n20", "n18"),
        ("n24", "n19"),
    ];
    for (child, parent) in parents {
        let c = s.joint_by_name(child).expect("child");
        assert_eq!(s.joint(s.joint(c).parent.expect("parent")).name, parent);
    }
}

#[test]
fn planar6_is_stretched_along_x_and_touches_the_ellipse() {
    let s = load("planar6.ron");
    let fk = rest_fk(&s);
    assert_joint(&s, &fk, "j1", [-2.3, 0.0, 0.0]);
    assert_site(&s, &fk, "tip", [4.0, 0.0, 0.0]);
    let lengths: Vec<f64> = s.joints().iter().skip(1).map(|j| j.offset.norm()).collect();
    assert_eq!(lengths, [0.9, 0.6, 0.9, 1.5, 1.5]);
}

#[test]
fn arm7_peer_matches_the_protocol() {
    let s = load("arm7_peer.ron");
    assert_eq!(s.dof_count(), 7);
    assert!(s.dofs().iter().all(|d| d.unlimited));
    let fk = rest_fk(&s);
    assert_joint(&s, &fk, "elbow", [0.0, 0.0, 0.30]);
    assert_joint(&s, &fk, "wrist", [0.0, 0.0, 0.55]);
    assert_site(&s, &fk, "hand", [0.0, 0.0, 0.63]);
}

#[test]
fn arm7_is_a_human_limb_with_limits() {
    let s = load("arm7.ron");
    let dofs: Vec<usize> = s.joints().iter().map(|j| j.dofs.len()).collect();
    assert_eq!(
        dofs,
        [3, 1, 3],
        "spherical shoulder, revolute elbow, spherical wrist"
    );
    let elbow = s.dof(
        s.joint_dofs(s.joint_by_name("elbow").expect("elbow"))
            .next()
            .expect("dof"),
    );
    assert_eq!(
        (elbow.min.to_degrees(), elbow.max.to_degrees()),
        (0.0, 150.0)
    );
    assert!(s.dofs().iter().all(|d| !d.unlimited));
}

#[test]
fn humanoid_has_the_required_anatomy() {
    let s = marionette_skeleton::builtin::humanoid();
    assert!(s.dof_count() >= 40, "{} dofs", s.dof_count());
    let dofs = |name: &str| {
        s.joint(s.joint_by_name(name).unwrap_or_else(|| panic!("{name}")))
            .dofs
            .len()
    };
    assert_eq!(dofs("pelvis"), 3);
    for spine in ["lower spine", "middle spine", "upper spine"] {
        assert_eq!(dofs(spine), 3);
    }
    assert!(dofs("neck") >= 2 && dofs("head") >= 1);
    for side in ["right", "left"] {
        assert_eq!(dofs(&format!("{side} shoulder")), 3);
        assert_eq!(dofs(&format!("{side} elbow")), 1);
        assert_eq!(dofs(&format!("{side} wrist")), 3);
        assert_eq!(dofs(&format!("{side} hip")), 3);
        assert_eq!(dofs(&format!("{side} knee")), 1);
        assert_eq!(dofs(&format!("{side} ankle")), 3);
        assert_eq!(dofs(&format!("{side} toes")), 1);
        for site in ["fingertips", "heel", "toe tip"] {
            assert!(
                s.site_by_name(&format!("{side} {site}")).is_some(),
                "{side} {site}"
            );
        }
    }
    assert!(s.site_by_name("head top").is_some());
    assert!(s.joints().iter().all(|j| j.mass > 0.0));
    assert!((s.total_mass() - 75.0).abs() < 0.5);
    // The left side comes from `mirror`.
    let left = s.joint_by_name("left shoulder").expect("left shoulder");
    assert_eq!(
        s.joint(left).mirrored_from,
        s.joint_by_name("right shoulder")
    );
    // Feet stand on the ground at rest; the head top is the highest point.
    let fk = rest_fk(&s);
    for site in ["right heel", "left heel", "right toe tip", "left toe tip"] {
        assert!(
            fk.site_position(s.site_by_name(site).expect("site"))
                .y
                .abs()
                < 1e-9,
            "{site}"
        );
    }
    let top = fk
        .site_position(s.site_by_name("head top").expect("head top"))
        .y;
    assert!((1.6..1.9).contains(&top), "height {top}");
}
