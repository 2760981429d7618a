//! Where a cleaned take goes below the floor: `floor_probe CAPTURE.bvh FIGURE` (`humanoid` or a
//! test character's file name) retargets the capture, cleans its feet and prints the frames where
//! a foot point is deepest below its height at rest (with the locks holding there), the floor
//! locks made and the contacts not held with their reasons. `PROBE_FRAMES=a-b` (and
//! `PROBE_POINT`, default "right heel") prints that point and the locks holding it on each frame
//! of the range (any point of the feet or joint the floor keeps: "right toes", "left ankle"); `TESTPATH=1` retargets as the tests do (`retarget` on the frames).
use std::path::Path;

use marionette_interchange::capture::{CaptureScale, read_capture};
use marionette_interchange::feet::foot_points;
use marionette_interchange::retarget::retarget_imported;
use marionette_motion::cleanup::FloorPoints;
use marionette_motion::{BakeSettings, Baker, clean_feet};
use marionette_skeleton::{Fk, Pose};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: floor_probe CAPTURE.bvh FIGURE (humanoid, or e.g. mixamo_apose.glb)");
        std::process::exit(1);
    }
    let capture = read_capture(Path::new(&args[1]), CaptureScale::Times(0.01), 1).expect("capture");
    let target = if args[2] == "humanoid" {
        marionette_skeleton::builtin::humanoid()
    } else {
        let path = marionette_bench::characters::gltf_files()
            .into_iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy() == args[2])
            })
            .expect("figure");
        marionette_interchange::character::Character::open(&path)
            .expect("open")
            .import("figure", "figure.glb")
            .expect("import")
            .skeleton
    };
    let target = &target;
    let rest = Pose::rest(target).q;
    let result = if std::env::var("TESTPATH").is_ok() {
        let frames: Vec<Vec<f64>> = capture
            .imported
            .sequence
            .keys
            .iter()
            .map(|k| k.pose.q.clone())
            .collect();
        marionette_interchange::retarget::retarget(
            &capture.imported.skeleton,
            &frames,
            capture.imported.sequence.fps,
            (target, &rest),
            &[],
            "take",
        )
        .expect("rt")
    } else {
        retarget_imported(&capture.imported, (target, &rest), &[], "take").expect("rt")
    };
    println!("first key frame {}", result.sequence.keys[0].frame);
    let points = foot_points(target).expect("feet");
    let c = clean_feet(
        target,
        &result.sequence,
        &[],
        &points,
        BakeSettings::default(),
    )
    .expect("c");
    let baker = Baker::new(target, &c.sequence, &c.locks, BakeSettings::default());
    let (a, b) = baker.range();
    let mut fk = Fk::new(target);
    let frames: Vec<Vec<f64>> = (a..=b).map(|f| baker.frame(f, &mut fk).q).collect();
    let floor = FloorPoints::new(target, &points, &rest);
    let depths = floor.depths(target, &frames);
    let mut worst: Vec<(f64, usize, usize)> = depths
        .iter()
        .enumerate()
        .map(|(f, d)| {
            let (k, v) = d
                .iter()
                .enumerate()
                .fold((0, f64::MIN), |w, (k, &v)| if v > w.1 { (k, v) } else { w });
            (v, f, k)
        })
        .collect();
    worst.sort_by(|x, y| y.0.total_cmp(&x.0));
    println!(
        "below floor {:.1} mm, contacts {} held {}",
        c.below_floor * 1e3,
        c.contacts.len(),
        c.contacts.iter().filter(|c| c.held()).count()
    );
    let joints_only = depths
        .iter()
        .enumerate()
        .flat_map(|(f, d)| d.iter().enumerate().map(move |(k, v)| (*v, f, k)))
        .filter(|&(_, _, k)| floor.points()[k].site.is_none())
        .fold((0.0, 0, 0), |w, x| if x.0 > w.0 { x } else { w });
    println!(
        "joints below floor {:.1} mm (frame {}, {})",
        joints_only.0 * 1e3,
        joints_only.1 as i64 + a,
        floor.points()[joints_only.2].name
    );
    let mut shown: Vec<usize> = Vec::new();
    for (v, f, k) in worst.iter().take(400) {
        if *v < 0.01 || shown.iter().any(|s| s.abs_diff(*f) < 30) {
            continue;
        }
        shown.push(*f);
        let holding: Vec<&str> = c
            .locks
            .iter()
            .filter(|l| l.hold_at(Some(*f as i64 + a)) > 0.0)
            .map(|l| l.name.as_str())
            .collect();
        println!(
            "frame {} point {} depth {:.1} mm pelvis {:+.1} mm locks {:?}",
            *f as i64 + a,
            floor.points()[*k].name,
            v * 1e3,
            c.pelvis[*f] * 1e3,
            holding
        );
    }
    if let Ok(range) = std::env::var("PROBE_FRAMES") {
        let (x, y) = range.split_once('-').expect("a-b");
        let (x, y): (i64, i64) = (x.parse().expect("a"), y.parse().expect("b"));
        let name = std::env::var("PROBE_POINT").unwrap_or_else(|_| "right heel".into());
        let p = floor
            .points()
            .iter()
            .find(|p| p.name == name)
            .expect("point");
        let mut last = None;
        for f in x..=y {
            fk.update(target, &frames[(f - a) as usize]);
            let at = fk.point(p.joint, &p.offset);
            let step = last.map_or(0.0, |l: nalgebra::Vector3<f64>| (at - l).norm());
            last = Some(at);
            let holding: Vec<String> = c
                .locks
                .iter()
                .filter(|l| l.hold_at(Some(f)) > 0.0)
                .map(|l| format!("{}@{:.2}", l.name, l.hold_at(Some(f))))
                .collect();
            println!(
                "{f}: {} {:.3} {:.3} {:.3} step {:.1} mm {:?}",
                p.name,
                at.x,
                at.y,
                at.z,
                step * 1e3,
                holding
            );
        }
    }
    for l in c.locks.iter().filter(|l| l.name.contains("floor")) {
        println!("floor lock {} blend {}", l.name, l.blend());
    }
    for r in c.contacts.iter().filter(|c| !c.held()) {
        println!(
            "not held {} {:?} slide {:.1} lowered {:.1} gave_way {:?} limits {:?} reach {:?} let go {:?}",
            r.lock,
            r.frames,
            r.slide_after * 1e3,
            r.lowered * 1e3,
            r.gave_way_to,
            r.at_limits,
            r.beyond_reach,
            r.let_go
        );
    }
}
