//! A stage baked: two dancers hand in hand while one sways on locked feet, a stick handed from
//! one to the other. Every check measures the result independently of the bake: each figure's
//! forward kinematics on its own skeleton, placed on the stage, not the merged skeleton the bake
//! solves on.

use std::path::{Path, PathBuf};

use marionette_document::{Hold, SiteRef, Stage, StageFile};
use marionette_motion::stage::{StageBake, StageBaker};
use marionette_motion::{BakeSettings, Baker};
use marionette_skeleton::{Fk, Pose};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn two_dancers() -> Stage {
    StageFile::load(data("two-dancers.marionette.ron"))
        .expect("the test stage loads")
        .stage
}

/// A site's world frame on the stage: its position and its joint's orientation.
fn site_frame(stage: &Stage, site: SiteRef, q: &[f64]) -> Isometry3<f64> {
    let f = &stage.figures[site.figure];
    let s = &f.document.skeleton;
    let mut fk = Fk::new(s);
    fk.update(s, q);
    let r = nalgebra::Rotation3::from_matrix(fk.joint_rotation(s.site(site.site).joint));
    f.placement.isometry()
        * Isometry3::from_parts(
            Translation3::from(fk.site_position(site.site)),
            UnitQuaternion::from_rotation_matrix(&r),
        )
}

fn bake(stage: &Stage, sequence: &str) -> StageBake {
    StageBaker::new(stage, sequence, BakeSettings::default())
        .expect("baker")
        .bake(&|| {})
}

#[test]
fn joined_hands_stay_together_while_one_dancer_sways_on_locked_feet() {
    let stage = two_dancers();
    let baked = bake(&stage, "sway");
    assert_eq!(baked.frames.len(), 49);
    let link = &stage.links[0];
    let marionette_document::LinkTarget::Site(b) = link.b else {
        panic!("a site-to-site link")
    };
    let mut worst: f64 = 0.0;
    let mut pelvis_travel: f64 = 0.0;
    let start_b = &baked.frames[0].figures[1].q;
    for frame in &baked.frames {
        let (qa, qb) = (&frame.figures[0].q, &frame.figures[1].q);
        let gap = (site_frame(&stage, link.a, qa).translation.vector
            - site_frame(&stage, b, qb).translation.vector)
            .norm();
        worst = worst.max(gap);
        pelvis_travel = pelvis_travel.max(
            (Vector3::from_row_slice(&qb[..3]) - Vector3::from_row_slice(&start_b[..3])).norm(),
        );
        for (f, figure) in stage.figures.iter().enumerate() {
            let s = &figure.document.skeleton;
            let q = &frame.figures[f].q;
            assert!(
                Pose { q: q.clone() }.within_limits(s),
                "{} off its limits at {}",
                figure.name,
                frame.frame
            );
            let mut fk = Fk::new(s);
            fk.update(s, q);
            for lock in &figure.document.locks {
                let e = lock.goal().kind.error(s, &fk);
                assert!(
                    e < 1e-5,
                    "{}: {} off by {e} at {}",
                    figure.name,
                    lock.name,
                    frame.frame
                );
            }
        }
    }
    assert!(worst < 1e-3, "the joined hands part by {worst} m");
    assert!(pelvis_travel > 0.05, "B's pelvis moved {pelvis_travel} m");
    // Both arms moved to meet: neither is at its key.
    let shoulder = |f: usize, name: &str| {
        let s = &stage.figures[f].document.skeleton;
        s.joint_dofs(s.joint_by_name(name).expect("joint"))
            .next()
            .expect("dof")
            .state_index()
    };
    let (ra, lb) = (shoulder(0, "right shoulder"), shoulder(1, "left shoulder"));
    let mid = &baked.frames[24];
    assert!((mid.figures[0].q[ra] - 60f64.to_radians()).abs() > 1e-3);
    assert!((mid.figures[1].q[lb] - 60f64.to_radians()).abs() > 1e-3);
}

#[test]
fn the_handed_stick_never_jumps_and_keeps_its_grip() {
    let stage = two_dancers();
    let baked = bake(&stage, "sway");
    let cue = stage.cue("sway").expect("cue");
    let track = &baked.props[0];
    let first = baked.frames[0].frame;
    let step = |k: usize| {
        let (a, b) = (&track[k - 1], &track[k]);
        (
            (a.translation.vector - b.translation.vector).norm(),
            a.rotation.angle_to(&b.rotation),
        )
    };
    let switches: Vec<usize> = cue
        .holds
        .iter()
        .map(|h| (h.frame() - first) as usize)
        .collect();
    // The largest steps elsewhere in the holds (frames 10 to 40), and across each switch.
    let (grip, release) = (switches[0], switches[2]);
    let elsewhere = (grip + 1..=release)
        .filter(|k| !switches.contains(k))
        .map(step)
        .fold((0.0f64, 0.0f64), |m, s| (m.0.max(s.0), m.1.max(s.1)));
    assert!(elsewhere.0 > 1e-4, "the stick moves while held");
    for &k in &switches {
        let across = step(k);
        assert!(
            across.0 <= elsewhere.0 + 1e-12 && across.1 <= elsewhere.1 + 1e-12,
            "frame {k}: {across:?} against {elsewhere:?}"
        );
    }
    // On the first grip it is exactly where it stood: the grip takes the offset from there.
    let stood = stage.props[0].place.isometry();
    assert!(
        (track[grip].translation.vector - stood.translation.vector).norm() < 1e-12
            && track[grip].rotation.angle_to(&stood.rotation) < 1e-12,
        "{} against {}",
        track[grip],
        stood
    );
    // While held, the stick keeps the offset it had to the hand on the grip frame, up to and
    // including the frame the next holder takes it or it is let go.
    for (h, hold) in cue.holds.iter().enumerate() {
        let Hold::Grip { by, frame, .. } = *hold else {
            continue;
        };
        let end = cue.holds.get(h + 1).map_or(i64::MAX, |n| n.frame());
        let at = |f: i64| (f - first) as usize;
        let offset = site_frame(&stage, by, &baked.frames[at(frame)].figures[by.figure].q)
            .inverse()
            * track[at(frame)];
        for f in frame..=end.min(baked.frames.last().expect("frames").frame) {
            let holder = site_frame(&stage, by, &baked.frames[at(f)].figures[by.figure].q);
            let expected = holder * offset;
            let pose = track[at(f)];
            let off = (expected.translation.vector - pose.translation.vector).norm();
            let turn = expected.rotation.angle_to(&pose.rotation).to_degrees();
            assert!(off < 1e-3 && turn < 0.5, "frame {f}: {off} m, {turn}°");
        }
    }
    // Released at 40: it stays.
    assert_eq!(track[release], track[track.len() - 1]);
}

#[test]
fn figures_without_links_bake_exactly_as_alone() {
    let mut stage = two_dancers();
    stage.links.clear();
    let baked = bake(&stage, "sway");
    let b = &stage.figures[1].document;
    let alone = Baker::new(
        &b.skeleton,
        &b.sequences[0],
        &b.locks,
        BakeSettings::default(),
    )
    .bake(&|| {});
    for (frame, own) in baked.frames.iter().zip(&alone) {
        assert_eq!(frame.figures[1].q, own.q, "frame {}", frame.frame);
        assert!(frame.link_errors.is_empty());
    }
}

#[test]
fn a_bake_is_the_same_on_one_thread_and_many() {
    let stage = two_dancers();
    let baker = StageBaker::new(&stage, "sway", BakeSettings::default()).expect("baker");
    let one = baker.bake_with_threads(1, &|| {}).expect("pool");
    let many = baker.bake_with_threads(4, &|| {}).expect("pool");
    assert_eq!(one.frames, many.frames);
    assert_eq!(one.props, many.props);
}

#[test]
fn a_sequence_no_figure_has_is_refused_by_name() {
    let stage = two_dancers();
    let err = StageBaker::new(&stage, "waltz", BakeSettings::default())
        .err()
        .expect("refused");
    assert!(err.contains("\"waltz\""), "{err}");
}

/// The test stage's text with `edit` applied, loaded from the test data folder.
fn edited(edit: impl Fn(String) -> String) -> Stage {
    let text = std::fs::read_to_string(data("two-dancers.marionette.ron")).expect("stage");
    StageFile::from_ron_str(&edit(text), &data("edited.marionette.ron"))
        .expect("the edited stage loads")
        .stage
}

/// `text` with the cue's grips and releases replaced by keys moving the stick from `from`
/// (turned 90° about z) at frame 0 to `to` (turned 80°) at frame 48: nobody carries it, so it
/// can hold a hand.
fn with_keyed_stick(text: String, from: (f64, f64, f64), to: (f64, f64, f64)) -> String {
    text.replace(
        r#"            holds: ["#,
        &format!(
            r#"            tracks: [Track(prop: "stick", keys: [
                PropKey(frame: 0, at: {from:?}, rotation: (0.0, 0.0, 90.0)),
                PropKey(frame: 48, at: {to:?}, rotation: (0.0, 0.0, 80.0)),
            ])],
            holds: ["#
        ),
    )
    .replace(
        r#"                Grip(prop: "stick", figure: "A", site: "left fingertips", frame: 10),
                Grip(prop: "stick", figure: "B", site: "right fingertips", frame: 30),
                Release(prop: "stick", frame: 40),
"#,
        "",
    )
}

#[test]
fn a_hand_held_to_a_moving_prop_follows_it() {
    // A's left hand on the stick's end while the stick is keyed across a few centimetres.
    let stage = edited(|t| {
        with_keyed_stick(
            t.replace(
            r#"Link(name: "hands", a: ("A", "right fingertips"), b: Site("B", "left fingertips")),"#,
            r#"Link(name: "hands", a: ("A", "right fingertips"), b: Site("B", "left fingertips")),
        Link(name: "on the stick", a: ("A", "left fingertips"), b: Prop("stick", (0.0, 0.5, 0.0))),"#,),
            (0.45, 0.95, 0.1),
            (0.35, 1.0, 0.2),
        )
    });
    let baked = bake(&stage, "sway");
    let link = &stage.links[1];
    for (k, frame) in baked.frames.iter().enumerate() {
        let hand = site_frame(&stage, link.a, &frame.figures[0].q)
            .translation
            .vector;
        let end = (baked.props[0][k] * nalgebra::Point3::new(0.0, 0.5, 0.0)).coords;
        let gap = (hand - end).norm();
        assert!(
            gap < 1e-3,
            "frame {}: the hand is {gap} m off the stick",
            frame.frame
        );
        let reported = frame
            .link_errors
            .iter()
            .find(|(l, _)| *l == 1)
            .expect("held")
            .1;
        assert!((reported - gap).abs() < 1e-9, "{reported} against {gap}");
    }
    assert_ne!(baked.props[0][0], baked.props[0][48], "the stick moved");
}

#[test]
fn a_prop_someone_carries_cannot_also_hold_a_hand() {
    let stage = edited(|t| {
        t.replace(
            r#"Link(name: "hands", a: ("A", "right fingertips"), b: Site("B", "left fingertips")),"#,
            r#"Link(name: "on the stick", a: ("A", "right fingertips"), b: Prop("stick", (0.0, 0.5, 0.0))),"#,
        )
    });
    let err = StageBaker::new(&stage, "sway", BakeSettings::default())
        .err()
        .expect("refused");
    assert!(
        err.contains("\"on the stick\"") && err.contains("\"stick\""),
        "{err}"
    );
}

#[test]
fn hands_slide_on_a_prop_s_line_and_plane() {
    // A's left hand on the keyed stick's axis (a line), B's right hand on the plane through the
    // stick's centre across its x axis (horizontal while the stick lies along x).
    let stage = edited(|t| {
        with_keyed_stick(
            t.replace(
            r#"Link(name: "hands", a: ("A", "right fingertips"), b: Site("B", "left fingertips")),"#,
            r#"Link(name: "along", a: ("A", "left fingertips"), b: PropLine("stick", (0.0, 0.0, 0.0), (0.0, 2.0, 0.0))),
        Link(name: "on", a: ("B", "right fingertips"), b: PropPlane("stick", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0))),"#,),
            (0.2, 0.95, 0.3),
            (0.1, 1.0, 0.4),
        )
    });
    let baked = bake(&stage, "sway");
    for (k, frame) in baked.frames.iter().enumerate() {
        let stick = baked.props[0][k];
        let centre = stick.translation.vector;
        let hand_a = site_frame(&stage, stage.links[0].a, &frame.figures[0].q)
            .translation
            .vector;
        let axis = stick.rotation * Vector3::y();
        let off_line = (hand_a - centre).cross(&axis).norm();
        let hand_b = site_frame(&stage, stage.links[1].a, &frame.figures[1].q)
            .translation
            .vector;
        let normal = stick.rotation * Vector3::x();
        let off_plane = (hand_b - centre).dot(&normal).abs();
        assert!(
            off_line < 1e-3,
            "frame {}: {off_line} m off the stick's axis",
            frame.frame
        );
        assert!(
            off_plane < 1e-3,
            "frame {}: {off_plane} m off the plane",
            frame.frame
        );
        for (l, error) in &frame.link_errors {
            let measured = if *l == 0 { off_line } else { off_plane };
            assert!(
                (error - measured).abs() < 1e-9,
                "link {l}: {error} against {measured}"
            );
        }
    }
}
