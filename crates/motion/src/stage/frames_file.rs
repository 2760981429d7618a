//! A baked stage as JSON (docs/file-formats.md, "Baked frames of a stage"): per frame, every
//! figure's pose and lock errors by figure name, every prop's position and rotation, and the
//! errors of the links holding on it. Written one frame at a time.

use marionette_document::Stage;
use nalgebra::Isometry3;
use serde_json::{Map, Value, json};

use super::bake::StageBake;
use crate::frames_file::{json_number, pose_json};

/// A prop's (or any rigid thing's) pose as `{"position": [x, y, z], "rotation": [x, y, z, w]}`.
pub fn place_json(pose: &Isometry3<f64>) -> Value {
    let t = &pose.translation.vector;
    let r = pose.rotation.coords;
    json!({"position": [t.x, t.y, t.z], "rotation": [r.x, r.y, r.z, r.w]})
}

/// Every prop's pose on frame index `k` of `bake`, by name.
pub fn props_json(stage: &Stage, bake: &StageBake, k: usize) -> Value {
    Value::Object(
        stage
            .props
            .iter()
            .zip(&bake.props)
            .map(|(p, track)| (p.name.clone(), place_json(&track[k])))
            .collect(),
    )
}

/// The whole file, written to `out`.
pub fn write_stage_frames(
    out: &mut impl std::io::Write,
    stage: &Stage,
    sequence: &str,
    fps: f64,
    bake: &StageBake,
) -> std::io::Result<()> {
    let head = serde_json::to_string(&json!({"sequence": sequence, "fps": fps}))?;
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    out.write_all(b",\"frames\":[")?;
    for (k, frame) in bake.frames.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        let figures: Map<String, Value> = stage
            .figures
            .iter()
            .zip(&frame.figures)
            .map(|(f, baked)| {
                let errors: Map<String, Value> = baked
                    .lock_errors
                    .iter()
                    .map(|&(i, e)| (f.document.locks[i].name.clone(), json_number(e)))
                    .collect();
                (
                    f.name.clone(),
                    json!({"pose": pose_json(&f.document.skeleton, &baked.q),
                           "lock_errors": errors}),
                )
            })
            .collect();
        let links: Map<String, Value> = frame
            .link_errors
            .iter()
            .map(|&(l, e)| (stage.links[l].name.clone(), json_number(e)))
            .collect();
        let value = json!({"frame": frame.frame, "figures": figures,
                           "props": props_json(stage, bake, k), "link_errors": links});
        serde_json::to_writer(&mut *out, &value)?;
    }
    out.write_all(b"]}")
}

/// Per figure and lock (figure index, lock index), then per link: frames active and the largest
/// error (a NaN counts as the largest).
pub struct StageSummary {
    /// (figure, lock, frames, largest error).
    pub locks: Vec<(usize, usize, usize, f64)>,
    /// (link, frames, largest error).
    pub links: Vec<(usize, usize, f64)>,
}

impl StageSummary {
    /// The summary of `bake`.
    pub fn of(stage: &Stage, bake: &StageBake) -> StageSummary {
        let worse = |max: &mut f64, e: f64| {
            if e.is_nan() || e > *max {
                *max = e;
            }
        };
        let mut locks = Vec::new();
        for (f, figure) in stage.figures.iter().enumerate() {
            for l in 0..figure.document.locks.len() {
                let (mut n, mut max) = (0, 0.0);
                for frame in &bake.frames {
                    for &(i, e) in &frame.figures[f].lock_errors {
                        if i == l {
                            n += 1;
                            worse(&mut max, e);
                        }
                    }
                }
                if n > 0 {
                    locks.push((f, l, n, max));
                }
            }
        }
        let mut links = Vec::new();
        for l in 0..stage.links.len() {
            let (mut n, mut max) = (0, 0.0);
            for frame in &bake.frames {
                for &(i, e) in &frame.link_errors {
                    if i == l {
                        n += 1;
                        worse(&mut max, e);
                    }
                }
            }
            if n > 0 {
                links.push((l, n, max));
            }
        }
        StageSummary { locks, links }
    }

    /// Whether every lock and link is within `tolerance` on every frame.
    pub fn held(&self, tolerance: f64) -> bool {
        self.locks.iter().all(|l| l.3 <= tolerance) && self.links.iter().all(|l| l.2 <= tolerance)
    }
}
