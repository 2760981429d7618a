//! Baked frames as JSON for other tools: the baked-frames file (docs/file-formats.md) plus, per
//! frame, `"sites"` and `"joints_world"`: every site's and joint's world position, as
//! `marionette fk --json` prints them.

use marionette_document::Lock;
use marionette_motion::BakedFrame;
use marionette_motion::frames_file::{joints_world_json, sites_json, write_frames_with};
use marionette_skeleton::{Fk, Skeleton};

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
        frame.insert("sites".into(), sites_json(skeleton, &fk));
        frame.insert("joints_world".into(), joints_world_json(skeleton, &fk));
    })
}
