//! Baked frames as JSON for other tools: the baked-frames file (docs/file-formats.md) plus, per
//! frame, `"sites"` and `"joints_world"`: every site's and joint's world position, as
//! `marionette fk --json` prints them (placed on the stage for a stage's figure), and `"props"`:
//! every prop's place on the stage (none for a one-figure document).

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_motion::frames_file::{
    joints_world_json_placed, sites_json_placed, write_frames_with,
};
use marionette_skeleton::{Fk, Skeleton};
use nalgebra::Isometry3;
use serde_json::{Map, Value};

/// The export's text: written one frame at a time.
pub fn frames_with_world_positions(
    out: &mut impl std::io::Write,
    skeleton: &Skeleton,
    locks: &[Lock],
    sequence: &str,
    fps: f64,
    frames: &[BakedFrame],
) -> std::io::Result<()> {
    frames_on_stage(
        out,
        skeleton,
        locks,
        (sequence, fps, frames),
        &Isometry3::identity(),
        &[],
    )
}

/// [`frames_with_world_positions`] of a figure standing at `placement`, with `props[k]` (or
/// `{}` past its end) as frame k's `"props"`.
pub fn frames_on_stage(
    out: &mut impl std::io::Write,
    skeleton: &Skeleton,
    locks: &[Lock],
    (sequence, fps, frames): (&str, f64, &[BakedFrame]),
    placement: &Isometry3<f64>,
    props: &[Value],
) -> std::io::Result<()> {
    let mut fk = Fk::new(skeleton);
    let mut k = 0;
    write_frames_with(out, skeleton, locks, sequence, fps, frames, |f, frame| {
        fk.update(skeleton, &f.q);
        frame.insert("sites".into(), sites_json_placed(skeleton, &fk, placement));
        frame.insert(
            "joints_world".into(),
            joints_world_json_placed(skeleton, &fk, placement),
        );
        frame.insert(
            "props".into(),
            props
                .get(k)
                .cloned()
                .unwrap_or_else(|| Value::Object(Map::new())),
        );
        k += 1;
    })
}
