//! Baked frames as the JSON of docs/file-formats.md ("Baked frames"): the sequence's name and fps,
//! then every frame's pose (joint values as `solve --json` prints them: every joint, degrees,
//! metres for slides) and the errors of the locks active on it, by name.

use marionette_document::Lock;
use marionette_skeleton::{Pose, Skeleton};
use serde_json::{Map, Value, json};

use crate::bake::BakedFrame;

/// A point as `[x, y, z]`.
pub fn point_json(p: &nalgebra::Vector3<f64>) -> Value {
    json!([p.x, p.y, p.z])
}

/// Every site's world position, by name in file order (as `marionette fk --json` prints them).
pub fn sites_json(skeleton: &Skeleton, fk: &marionette_skeleton::Fk) -> Value {
    sites_json_placed(skeleton, fk, &nalgebra::Isometry3::identity())
}

/// [`sites_json`] of a figure standing at `placement` on a stage.
pub fn sites_json_placed(
    skeleton: &Skeleton,
    fk: &marionette_skeleton::Fk,
    placement: &nalgebra::Isometry3<f64>,
) -> Value {
    Value::Object(
        skeleton
            .site_ids()
            .map(|s| {
                (
                    skeleton.site(s).name.clone(),
                    placed_json(placement, fk.site_position(s)),
                )
            })
            .collect(),
    )
}

/// Every joint's world position, by name in hierarchy order (as `marionette fk --json` prints
/// them).
pub fn joints_world_json(skeleton: &Skeleton, fk: &marionette_skeleton::Fk) -> Value {
    joints_world_json_placed(skeleton, fk, &nalgebra::Isometry3::identity())
}

/// [`joints_world_json`] of a figure standing at `placement` on a stage.
pub fn joints_world_json_placed(
    skeleton: &Skeleton,
    fk: &marionette_skeleton::Fk,
    placement: &nalgebra::Isometry3<f64>,
) -> Value {
    Value::Object(
        skeleton
            .joint_ids()
            .map(|j| {
                (
                    skeleton.joint(j).name.clone(),
                    placed_json(placement, fk.joint_position(j)),
                )
            })
            .collect(),
    )
}

/// `p` moved by `placement`, as `[x, y, z]` (the identity leaves every bit as it is).
fn placed_json(placement: &nalgebra::Isometry3<f64>, p: nalgebra::Vector3<f64>) -> Value {
    point_json(&(placement * nalgebra::Point3::from(p)).coords)
}

/// The pose as `{"root": [x, y, z], "joints": {name: [values]}}` (every joint, file units).
pub fn pose_json(skeleton: &Skeleton, q: &[f64]) -> Value {
    let pose = Pose { q: q.to_vec() };
    let joints: Map<String, Value> = pose
        .file_values(skeleton)
        .into_iter()
        .map(|(name, values)| (name, Value::from(values)))
        .collect();
    json!({"root": [q[0], q[1], q[2]], "joints": joints})
}

/// The whole baked-frames file, written to `out` one frame at a time (a long bake's file never
/// exists twice in memory).
pub fn write_frames(
    out: &mut impl std::io::Write,
    skeleton: &Skeleton,
    locks: &[Lock],
    sequence: &str,
    fps: f64,
    frames: &[BakedFrame],
) -> std::io::Result<()> {
    write_frames_with(out, skeleton, locks, sequence, fps, frames, |_, _| {})
}

/// [`write_frames`], with `extra` adding fields to each frame's object (what exports add: world
/// positions).
pub fn write_frames_with(
    out: &mut impl std::io::Write,
    skeleton: &Skeleton,
    locks: &[Lock],
    sequence: &str,
    fps: f64,
    frames: &[BakedFrame],
    mut extra: impl FnMut(&BakedFrame, &mut Map<String, Value>),
) -> std::io::Result<()> {
    let head = json!({"sequence": sequence, "fps": fps});
    let head = serde_json::to_string(&head)?;
    // `{"sequence": …, "fps": …` then `, "frames": [` and the frames.
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    out.write_all(b",\"frames\":[")?;
    for (k, f) in frames.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        let errors: Map<String, Value> = f
            .lock_errors
            .iter()
            .map(|&(i, e)| (locks[i].name.clone(), json_number(e)))
            .collect();
        let mut frame = Map::new();
        frame.insert("frame".into(), json!(f.frame));
        frame.insert("pose".into(), pose_json(skeleton, &f.q));
        frame.insert("lock_errors".into(), Value::Object(errors));
        extra(f, &mut frame);
        serde_json::to_writer(&mut *out, &Value::Object(frame))?;
    }
    out.write_all(b"]}")
}

/// The whole baked-frames file as text.
pub fn frames_text(
    skeleton: &Skeleton,
    locks: &[Lock],
    sequence: &str,
    fps: f64,
    frames: &[BakedFrame],
) -> String {
    let mut out = Vec::new();
    write_frames(&mut out, skeleton, locks, sequence, fps, frames).expect("writing to memory");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// A number, or `null` for a NaN or infinite error (JSON has no such numbers).
pub fn json_number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}
