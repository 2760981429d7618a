//! Baked frames as JSON for other tools: the baked-frames file (docs/file-formats.md) plus, per
//! frame, `"sites"` and `"joints_world"`: every site's and joint's world position, as
//! `marionette fk --json` prints them.

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_motion::frames_file::{json_number, pose_json};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Vector3;
use serde_json::{Map, Value, json};

fn point(p: &Vector3<f64>) -> Value {
    json!([p.x, p.y, p.z])
}

/// The export's text: written one frame at a time.
pub fn frames_with_world_positions(
    out: &mut impl std::io::Write,
    skeleton: &Skeleton,
    locks: &[Lock],
    sequence: &str,
    fps: f64,
    frames: &[BakedFrame],
) -> std::io::Result<()> {
    let head = serde_json::to_string(&json!({"sequence": sequence, "fps": fps}))?;
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    out.write_all(b",\"frames\":[")?;
    let mut fk = Fk::new(skeleton);
    for (k, f) in frames.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        fk.update(skeleton, &f.q);
        let errors: Map<String, Value> = f
            .lock_errors
            .iter()
            .map(|&(i, e)| (locks[i].name.clone(), json_number(e)))
            .collect();
        let sites: Map<String, Value> = skeleton
            .site_ids()
            .map(|s| (skeleton.site(s).name.clone(), point(&fk.site_position(s))))
            .collect();
        let joints: Map<String, Value> = skeleton
            .joint_ids()
            .map(|j| (skeleton.joint(j).name.clone(), point(&fk.joint_position(j))))
            .collect();
        serde_json::to_writer(
            &mut *out,
            &json!({"frame": f.frame, "pose": pose_json(skeleton, &f.q), "lock_errors": errors,
                    "sites": sites, "joints_world": joints}),
        )?;
    }
    out.write_all(b"]}")
}
