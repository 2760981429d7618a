//! A mirrored pose on every shipped skeleton and every test character: random poses within the
//! limits, mirrored across the figure's plane; every site must land on the mirror image of its
//! partner (1e-9 m on the skeleton files, whose sides are `mirror` entries or exact copies;
//! the characters' rests are written in single precision, so their sides are mirror images to
//! about 1e-7 m), every value within its limits, and mirroring twice gives the pose back. A figure whose rest is
//! not its own mirror image (a chain off to one side, a fox whose bind pose turns its head) is
//! mirrored as changes from rest: its asymmetry is printed, and only the round trip asserted. On a
//! figure whose rest is its own mirror image, nothing may be reported off and every pose is
//! checked; elsewhere, where a joint's hinges cannot make its partner's mirror image (a figure
//! with no partner for a limb), that is what the mirror reports, and it is printed.

use std::path::Path;

use marionette_interchange::character::Character;
use marionette_skeleton::symmetry::Symmetry;
use marionette_skeleton::{Fk, ROOT_STATE_LEN, Skeleton};

/// A pose within the limits from a seed (unlimited hinges within ±180°), the root within 0.5 m.
fn random_pose(s: &Skeleton, seed: u64) -> Vec<f64> {
    let mut rng = marionette_skeleton::testing::UnitRng::new(seed);
    let draws: Vec<f64> = (0..s.dofs().len().max(1))
        .map(|_| rng.next_unit())
        .collect();
    let root = [0.0; 3].map(|_: f64| rng.next_unit() - 0.5);
    marionette_skeleton::testing::pose_from_unit(s, &draws, root).q
}

/// How many random poses [`mirror_errors`] tries.
const POSES: usize = 12;

/// What mirroring `s` did over [`POSES`] random poses: (largest site error, largest error when
/// mirrored twice, joints the mirror reported off, poses whose sites were checked: those with
/// nothing off).
fn mirror_errors(s: &Skeleton) -> (f64, f64, Vec<String>, usize) {
    let symmetry = Symmetry::new(s);
    let (mut a, mut b) = (Fk::new(s), Fk::new(s));
    let mut worst = (0.0f64, 0.0f64);
    let mut off = Vec::new();
    let mut checked = 0;
    for seed in 1..=POSES as u64 {
        let q = random_pose(s, seed * 104_729);
        let mirrored = symmetry.mirrored(s, &q);
        for (k, dof) in s.dofs().iter().enumerate() {
            let v = mirrored.q[ROOT_STATE_LEN + k];
            assert!(v.is_finite(), "{}: not finite", s.name());
            assert!(
                dof.unlimited || dof.within_limits(v),
                "{}: DOF {k} at {v} outside its limits",
                s.name()
            );
        }
        for (j, degrees) in &mirrored.off {
            let name = &s.joint(*j).name;
            if !off.iter().any(|o: &String| o.starts_with(name.as_str())) {
                off.push(format!("{name} ({degrees:.1}°)"));
            }
        }
        if !mirrored.off.is_empty() {
            continue;
        }
        checked += 1;
        a.update(s, &q);
        b.update(s, &mirrored.q);
        for site in s.site_ids() {
            let want = symmetry.reflect_point(&a.site_position(symmetry.site_partner(site)));
            worst.0 = worst.0.max((want - b.site_position(site)).norm());
        }
        let back = symmetry.mirrored(s, &mirrored.q).q;
        a.update(s, &back);
        b.update(s, &q);
        for site in s.site_ids() {
            worst.1 = worst
                .1
                .max((a.site_position(site) - b.site_position(site)).norm());
        }
    }
    (worst.0, worst.1, off, checked)
}

#[test]
fn every_shipped_skeleton_mirrors_exactly_where_its_sides_are_mirror_images() {
    for file in marionette_skeleton::testing::skeleton_files() {
        let s = Skeleton::load(&file).expect("a shipped skeleton");
        let symmetry = Symmetry::new(&s);
        let pairs = symmetry.joint_pairs();
        let asymmetry = symmetry.rest_asymmetry(&s);
        let (sites, twice, off, checked) = mirror_errors(&s);
        println!(
            "{}: {pairs} pairs, rest asymmetry {asymmetry:.1e} m, site error {sites:.1e} m, \
             twice {twice:.1e} m, off: {off:?}, {checked} of {POSES} poses checked",
            s.name()
        );
        assert!(twice < 1e-9, "{}", s.name());
        if asymmetry < 1e-12 && pairs > 0 {
            // A symmetric figure: every pose mirrors, and every one is checked.
            assert!(off.is_empty(), "{}: {off:?}", s.name());
            assert_eq!(checked, POSES, "{}", s.name());
            assert!(sites < 1e-9, "{}", s.name());
        }
    }
}

#[test]
fn every_test_character_mirrors_its_sides_onto_each_other() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/characters");
    let mut symmetric = 0;
    for file in [
        "RiggedFigure.gltf",
        "RiggedSimple.gltf",
        "Fox.glb",
        "authored/mixamo_apose.glb",
        "authored/rigify_tpose.glb",
        "authored/ue_armsdown_tail.glb",
        "authored/vroid_tpose.vrm",
    ] {
        let character = Character::open(&data.join(file)).expect("the character");
        let s = character.import(file, file).expect("imports").skeleton;
        let symmetry = Symmetry::new(&s);
        let pairs = symmetry.joint_pairs();
        let asymmetry = symmetry.rest_asymmetry(&s);
        let (sites, twice, off, checked) = mirror_errors(&s);
        println!(
            "{file}: {pairs} pairs, rest asymmetry {asymmetry:.1e} m, site error {sites:.1e} m, \
             twice {twice:.1e} m, off: {off:?}, {checked} of {POSES} poses checked"
        );
        assert!(twice < 1e-6, "{file}");
        if asymmetry < 1e-5 {
            assert!(sites < 1e-5, "{file}");
        }
        if asymmetry < 1e-5 && pairs > 0 {
            // Its sides are mirror images (to single precision): every pose mirrors.
            assert!(off.is_empty(), "{file}: {off:?}");
            assert_eq!(checked, POSES, "{file}");
            symmetric += 1;
        }
    }
    assert!(
        symmetric >= 4,
        "only {symmetric} test characters have sides with symmetric rests: the mirror is barely tested"
    );
}
