//! What an export wrote, checked as a reader of it would check it: a glTF binary read back
//! with every accessor's numbers finite (within their stated min and max), every animation's
//! times increasing from 0 and every node's transform made of numbers (the faults the Khronos
//! validator reported in files of inputs at the edges of the limits); a BVH file parsed back
//! with a row of finite numbers per frame; a JSON file parsed back with no `null` (which is how
//! a non-finite number comes out) and a frame per frame baked. A fault panics: the fuzzer counts
//! it as a failure and keeps the input.

use std::path::Path;

use marionette_interchange::export::ExportFormat;
use marionette_interchange::gltf::GltfFile;
use marionette_skeleton::Skeleton;
use serde_json::Value;

/// Checks the bytes an export of `frames` frames of `skeleton` wrote as `format`; panics naming
/// the fault. A character's glb carries the file's own accessors before the ones written
/// (`copied` of them: what the file held, faults included, is not the export's doing).
pub fn check_export(
    format: ExportFormat,
    bytes: &[u8],
    skeleton: &Skeleton,
    frames: usize,
    copied: usize,
) {
    let fault = match format {
        ExportFormat::Glb => glb_fault(bytes, copied),
        ExportFormat::Bvh => bvh_fault(bytes, skeleton, frames),
        ExportFormat::Json => json_fault(bytes, frames),
    };
    if let Some(fault) = fault {
        panic!("the {} export is invalid: {fault}", format.extension());
    }
}

/// What is wrong with a written glTF binary, if anything (its first `copied` accessors aside).
pub fn glb_fault(bytes: &[u8], copied: usize) -> Option<String> {
    let file = match GltfFile::from_bytes(bytes, Path::new("export.glb")) {
        Ok(f) => f,
        Err(e) => return Some(format!("it does not read back: {e}")),
    };
    let json = &file.json;
    let accessors = json["accessors"].as_array().cloned().unwrap_or_default();
    for (i, a) in accessors.iter().enumerate().skip(copied) {
        let width = match a["type"].as_str() {
            Some("SCALAR") => 1,
            Some("VEC2") => 2,
            Some("VEC3") => 3,
            Some("VEC4") => 4,
            Some("MAT4") => 16,
            _ => continue,
        };
        let values = match file.read_accessor(i, width) {
            Ok(v) => v,
            Err(e) => return Some(format!("accessor {i}: {e}")),
        };
        if values.iter().flatten().any(|v| !v.is_finite()) {
            return Some(format!("accessor {i} holds a number that is not finite"));
        }
        for (bound, keep) in [("min", true), ("max", false)] {
            let Some(stated) = a[bound].as_array() else {
                continue;
            };
            if stated.len() != width || stated.iter().any(|v| !v.is_number()) {
                return Some(format!("accessor {i}: its {bound} is not {width} numbers"));
            }
            for (k, s) in stated.iter().enumerate() {
                let s = s.as_f64().unwrap_or(f64::NAN);
                let seen = values.iter().map(|v| v[k]);
                let actual = if keep {
                    seen.fold(f64::INFINITY, f64::min)
                } else {
                    seen.fold(f64::NEG_INFINITY, f64::max)
                };
                // The file holds 32-bit floats; the bound is written from the same numbers.
                if !values.is_empty() && (actual - s).abs() > 1e-6 * s.abs().max(1.0) {
                    return Some(format!(
                        "accessor {i}: {bound} {s} but its values reach {actual}"
                    ));
                }
            }
        }
    }
    for (a, animation) in json["animations"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        for sampler in animation["samplers"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            let Some(input) = sampler["input"].as_u64() else {
                return Some(format!("animation {a}: a sampler without input"));
            };
            let times: Vec<f64> = match file.read_accessor(input as usize, 1) {
                Ok(t) => t.into_iter().map(|v| v[0]).collect(),
                Err(e) => return Some(format!("animation {a}: {e}")),
            };
            let increasing = times.windows(2).all(|w| w[1].total_cmp(&w[0]).is_gt());
            if times.first().is_some_and(|t| *t < 0.0) || !increasing {
                return Some(format!(
                    "animation {a}: its times do not increase from 0 ({:?}…)",
                    &times[..times.len().min(4)]
                ));
            }
        }
    }
    let nodes = json["nodes"].as_array().cloned().unwrap_or_default();
    for (n, node) in nodes.iter().enumerate() {
        for field in ["translation", "rotation", "scale", "matrix"] {
            if let Some(values) = node.get(field)
                && !values
                    .as_array()
                    .is_some_and(|v| v.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)))
            {
                return Some(format!("node {n}: its {field} is not all numbers"));
            }
        }
    }
    None
}

/// What is wrong with a written BVH file, if anything.
fn bvh_fault(bytes: &[u8], skeleton: &Skeleton, frames: usize) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let parsed = match marionette_interchange::bvh::parse::parse(&text) {
        Ok(p) => p,
        Err(e) => return Some(format!("it does not read back: {e}")),
    };
    if parsed.bvh.joints.len() < skeleton.joints().len() || parsed.bvh.frames.len() != frames {
        return Some(format!(
            "{} joints and {} frames read back, {} and {frames} written",
            parsed.bvh.joints.len(),
            parsed.bvh.frames.len(),
            skeleton.joints().len()
        ));
    }
    if !(parsed.bvh.frame_time.is_finite() && parsed.bvh.frame_time > 0.0) {
        return Some(format!("Frame Time {}", parsed.bvh.frame_time));
    }
    None
}

/// What is wrong with a written JSON frames file, if anything.
fn json_fault(bytes: &[u8], frames: usize) -> Option<String> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return Some(format!("it does not read back: {e}")),
    };
    if value["frames"].as_array().map(Vec::len) != Some(frames) {
        return Some(format!("{frames} frames written, not as many read back"));
    }
    fn has_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(has_null),
            Value::Object(o) => o.values().any(has_null),
            _ => false,
        }
    }
    has_null(&value).then(|| "a number came out as null (not finite)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glb_with_infinite_numbers_or_times_that_do_not_increase_is_a_fault() {
        let s = marionette_skeleton::builtin::stickman();
        let rest = marionette_skeleton::Pose::rest(&s).q;
        let (good, _) = marionette_interchange::gltf::to_glb(&s, &[rest.clone(), rest], 24.0, None);
        assert_eq!(glb_fault(&good, 0), None);
        // The same file with its times all at 0 (a frame rate too large for 32-bit floats).
        let mut bad = rest_far_away(&s);
        assert!(glb_fault(&bad, 0).is_some_and(|f| f.contains("not finite")));
        let rest = marionette_skeleton::Pose::rest(&s).q;
        bad = marionette_interchange::gltf::to_glb(&s, &vec![rest; 3], 1e300, None).0;
        assert!(
            glb_fault(&bad, 0).is_some_and(|f| f.contains("times")),
            "{:?}",
            glb_fault(&bad, 0)
        );
    }

    /// The stick figure exported with its root 1e300 m away (what a file beyond the limits
    /// made before they were checked).
    fn rest_far_away(s: &Skeleton) -> Vec<u8> {
        let mut q = marionette_skeleton::Pose::rest(s).q;
        q[0] = 1e300;
        let mut moved = q.clone();
        moved[0] = -1e300;
        marionette_interchange::gltf::to_glb(s, &[q, moved], 24.0, None).0
    }

    #[test]
    fn json_with_a_null_is_a_fault() {
        assert!(json_fault(br#"{"frames": [{"q": null}]}"#, 1).is_some());
        assert_eq!(json_fault(br#"{"frames": [{"q": 1.0}]}"#, 1), None);
        assert!(json_fault(br#"{"frames": []}"#, 1).is_some());
    }
}
