//! FBX animations read as captures: an animation-only FBX file with two takes, written by
//! Blender from the Mixamo test figure (`scripts/make-test-characters.py`), and the same two
//! actions written by Blender's BVH exporter. Each take puts every joint where the BVH puts it on
//! every frame, and retargeted onto the built-in humanoid it points every mapped segment as the
//! BVH's retarget does (median ≤ 1°, asserted; measured much less). Takes are listed and chosen
//! by name; a name the file lacks is refused with the file's takes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use marionette_interchange::capture::{Capture, CaptureScale, read_take};
use marionette_interchange::retarget::{Retargeted, retarget_imported};
use marionette_skeleton::{Fk, Pose, Skeleton, builtin};
use nalgebra::Vector3;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/characters/authored")
        .join(name)
}

const ANIMATION: &str = "mixamo_apose_animation.fbx";

/// Every joint's world position on every key of the capture, by joint name.
fn positions(capture: &Capture) -> Vec<HashMap<String, Vector3<f64>>> {
    let s = &capture.imported.skeleton;
    let mut fk = Fk::new(s);
    capture
        .imported
        .sequence
        .keys
        .iter()
        .map(|k| {
            fk.update(s, &k.pose.q);
            s.joint_ids()
                .map(|j| (s.joint(j).name.clone(), fk.joint_position(j)))
                .collect()
        })
        .collect()
}

/// The capture retargeted onto the built-in humanoid (as `marionette retarget` does it).
fn onto_humanoid(capture: &Capture) -> (Skeleton, Retargeted) {
    let target = builtin::humanoid();
    let rest = Pose::rest(&target).q;
    let result =
        retarget_imported(&capture.imported, (&target, &rest), &[], "take").expect("retargets");
    (target, result)
}

/// Per frame, per mapped bone with a mapped child, the humanoid's segment direction.
fn segments(target: &Skeleton, result: &Retargeted) -> Vec<Vec<Vector3<f64>>> {
    let mut fk = Fk::new(target);
    let pairs: Vec<_> = result
        .map
        .iter()
        .filter_map(|m| {
            let child = result
                .map
                .iter()
                .find(|n| target.joint(n.target).parent == Some(m.target))?;
            Some((m.target, child.target))
        })
        .collect();
    result
        .sequence
        .keys
        .iter()
        .map(|k| {
            fk.update(target, &k.pose.q);
            pairs
                .iter()
                .map(|&(a, b)| fk.joint_position(b) - fk.joint_position(a))
                .collect()
        })
        .collect()
}

#[test]
fn an_fbx_take_moves_as_the_same_action_read_from_bvh() {
    let fbx = data(ANIMATION);
    let first = read_take(&fbx, CaptureScale::Guess, 1, None).expect("the first take");
    let (takes, _) = first.takes.clone().expect("an FBX file lists its takes");
    for action in ["wave", "squat"] {
        let take = takes
            .iter()
            .find(|t| t.ends_with(action))
            .unwrap_or_else(|| panic!("no take for {action} in {takes:?}"));
        let from_fbx = read_take(&fbx, CaptureScale::Guess, 1, Some(take)).expect("the take");
        assert_eq!(from_fbx.scale, 1.0, "an FBX file is read in metres");
        let bvh_file = data(&format!("mixamo_apose_{action}.bvh"));
        let from_bvh =
            read_take(&bvh_file, CaptureScale::Times(0.01), 1, None).expect("Blender's BVH");
        assert_eq!(from_fbx.frames, from_bvh.frames, "{action}: frames");
        assert_eq!(from_fbx.frames, 30);
        assert!((from_fbx.imported.sequence.fps - 30.0).abs() < 1e-9);
        // Every joint where the BVH puts it, on every frame (the BVH holds six digits of
        // centimetres; Blender samples in single precision).
        let (a, b) = (positions(&from_fbx), positions(&from_bvh));
        let mut worst = 0.0f64;
        for (fa, fb) in a.iter().zip(&b) {
            assert_eq!(fa.len(), fb.len(), "{action}: the same joints");
            for (name, p) in fa {
                let q = fb
                    .get(name)
                    .unwrap_or_else(|| panic!("{action}: the BVH has no joint {name}"));
                worst = worst.max((p - q).norm());
            }
        }
        println!("{action}: joints at most {:.2e} m from the BVH's", worst);
        assert!(
            worst < 1e-5,
            "{action}: a joint is {worst} m from the BVH's"
        );
        // Retargeted onto the humanoid: the same segment directions, frame by frame.
        let (target, ra) = onto_humanoid(&from_fbx);
        let (_, rb) = onto_humanoid(&from_bvh);
        let (sa, sb) = (segments(&target, &ra), segments(&target, &rb));
        let mut angles: Vec<f64> = sa
            .iter()
            .zip(&sb)
            .flat_map(|(x, y)| x.iter().zip(y).map(|(u, v)| u.angle(v).to_degrees()))
            .collect();
        assert!(!angles.is_empty());
        angles.sort_by(f64::total_cmp);
        let median = angles[angles.len() / 2];
        let largest = angles[angles.len() - 1];
        println!("{action}: segment angles median {median:.2e}°, largest {largest:.2e}°");
        assert!(median <= 1.0, "{action}: median {median}°");
    }
}

#[test]
fn takes_are_listed_and_chosen_by_name() {
    let fbx = data(ANIMATION);
    let first = read_take(&fbx, CaptureScale::Guess, 1, None).expect("reads");
    let (takes, take) = first.takes.expect("takes");
    assert_eq!(takes.len(), 2, "{takes:?}");
    assert_eq!(take, takes[0], "the first by default");
    let second = read_take(&fbx, CaptureScale::Guess, 1, Some(&takes[1])).expect("reads");
    assert_eq!(second.takes.expect("takes").1, takes[1]);
    let message = read_take(&fbx, CaptureScale::Guess, 1, Some("dance"))
        .err()
        .map(|e| e.to_string())
        .expect("refused");
    assert!(
        message.contains(ANIMATION)
            && message.contains("no take named \"dance\"")
            && message.contains(&takes[1]),
        "{message}"
    );
    let bvh = data("mixamo_apose_wave.bvh");
    let message = read_take(&bvh, CaptureScale::Guess, 1, Some("wave"))
        .err()
        .map(|e| e.to_string())
        .expect("refused");
    assert!(message.contains("no takes"), "{message}");
}
