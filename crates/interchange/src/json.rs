//! Baked frames as JSON for other tools: the baked-frames file (docs/file-formats.md) plus, per
//! frame, `"sites"` and `"joints_world"`: every site's and joint's world position, as
//! `marionette fk --json` prints them.

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_motion::frames_file::write_frames_with;
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
    let mut fk = Fk::new(skeleton);
    write_frames_with(out, skeleton, locks, sequence, fps, frames, |f, frame| {
        fk.update(skeleton, &f.q);
        let sites: Map<String, Value> = skeleton
            .site_ids()
            .map(|s| (skeleton.site(s).name.clone(), point(&fk.site_position(s))))
            .collect();
        let joints: Map<String, Value> = skeleton
            .joint_ids()
            .map(|j| (skeleton.joint(j).name.clone(), point(&fk.joint_position(j))))
            .collect();
        frame.insert("sites".into(), Value::Object(sites));
        frame.insert("joints_world".into(), Value::Object(joints));
    })
}
