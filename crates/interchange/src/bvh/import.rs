//! A BVH file as a skeleton and a document. The hierarchy becomes the skeleton: each joint's
//! OFFSET (× scale) its offset, its rotation channels unlimited hinges about X, Y or Z in the
//! listed order, position channels on the root the root translation and elsewhere slides
//! (applied before the rotations, as BVH readers do), each End Site a site named
//! "JOINT end", and a capsule from each joint towards its first child (or its End Site) so the
//! figure can be seen and picked. The motion becomes one sequence keyed on every frame (or every
//! n-th, and the last), fps = 1 / Frame Time.

use marionette_document::{DocumentFile, Key, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::format::{
    AxisDef, BodyDef, DofDef, JointDef, Node, SiteDef, SkeletonFile,
};
use marionette_skeleton::ordered_map::OrderedMap;
use marionette_skeleton::ron_io::tidy;
use marionette_skeleton::{Pose, ROOT_STATE_LEN, Skeleton};
use nalgebra::Vector3;

use super::{Bvh, Channel};

/// Slides made from position channels may travel this far either way (metres).
const SLIDE_RANGE: f64 = 1000.0;

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The scale is not a positive number.
    #[error("the scale {0} is not a positive number")]
    Scale(f64),
    /// `every` is 0.
    #[error("--every must be at least 1")]
    Every,
    /// The file has no frames to key.
    #[error("the file has no frames of motion")]
    NoFrames,
    /// More frames than a sequence may span.
    #[error(
        "{frames} frames are more than a sequence may span ({max}); cut the capture into parts",
        max = marionette_document::MAX_SPAN
    )]
    TooLong {
        /// The frames in the file.
        frames: usize,
    },
    /// The motion makes a sequence no document can hold (a frame time beyond the fps limits,
    /// a root beyond the largest coordinate).
    #[error("the motion: {0}")]
    Sequence(String),
    /// A joint's position channel goes beyond what its slide may travel.
    #[error(
        "frame {frame}: joint \"{joint}\" moves {value} m along a position channel, beyond ±{SLIDE_RANGE} m"
    )]
    Slide {
        /// The frame (from 0).
        frame: usize,
        /// The joint.
        joint: String,
        /// The value (scaled).
        value: f64,
    },
    /// The skeleton made from the hierarchy is refused (a name used twice, a zero offset …).
    #[error("the hierarchy does not make a valid skeleton: {0}")]
    Skeleton(String),
}

/// What an import makes.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The skeleton file's contents.
    pub skeleton_file: SkeletonFile,
    /// The skeleton.
    pub skeleton: Skeleton,
    /// The sequence: one key per frame (or every n-th).
    pub sequence: Sequence,
}

/// The skeleton and sequence of `bvh`, lengths × `scale`, a key every `every` frames (and on
/// the last); the sequence is named `name`.
pub fn import(bvh: &Bvh, scale: f64, every: usize, name: &str) -> Result<Imported, ImportError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(ImportError::Scale(scale));
    }
    if every == 0 {
        return Err(ImportError::Every);
    }
    if bvh.frames.is_empty() {
        return Err(ImportError::NoFrames);
    }
    if bvh.frames.len() as i64 > marionette_document::MAX_SPAN {
        return Err(ImportError::TooLong {
            frames: bvh.frames.len(),
        });
    }
    let skeleton_file = skeleton_file(bvh, scale, name);
    let skeleton = Skeleton::from_file(skeleton_file.clone(), name)
        .map_err(|e| ImportError::Skeleton(e.to_string()))?;
    let last = bvh.frames.len() - 1;
    let keys = (0..=last)
        .filter(|f| f % every == 0 || *f == last)
        .map(|f| {
            let q = state(bvh, &bvh.frames[f], scale, &skeleton);
            slides_within_range(&skeleton, &q, f)?;
            Ok(Key::new(f as i64, Pose { q }))
        })
        .collect::<Result<Vec<Key>, ImportError>>()?;
    let sequence = Sequence {
        name: name.to_owned(),
        // 1 / 0.0083333 is 120.00048000192001; 12 digits say it (120.000480002).
        fps: tidy(1.0 / bvh.frame_time, 12),
        rotation: RotationInterpolation::Slerp,
        root: RootInterpolation::Linear,
        hold_locks: true,
        keys,
    };
    if let Some(defect) = sequence.defects().into_iter().next() {
        return Err(ImportError::Sequence(defect));
    }
    Ok(Imported {
        skeleton_file,
        skeleton,
        sequence,
    })
}

/// Refuses a frame whose slides (position channels below the root) go beyond their range.
fn slides_within_range(skeleton: &Skeleton, q: &[f64], frame: usize) -> Result<(), ImportError> {
    for (k, dof) in skeleton.dofs().iter().enumerate() {
        let value = q[ROOT_STATE_LEN + k];
        let within = value.is_finite() && value.abs() <= SLIDE_RANGE;
        if dof.kind == marionette_skeleton::DofKind::Slide && !within {
            return Err(ImportError::Slide {
                frame,
                joint: skeleton.joint(dof.joint).name.clone(),
                value,
            });
        }
    }
    Ok(())
}

impl Imported {
    /// A document on the skeleton written at `skeleton_path`, at the first key's pose, holding
    /// the sequence.
    pub fn document(&self, skeleton_path: std::path::PathBuf) -> DocumentFile {
        let mut doc = DocumentFile::new(
            skeleton_path,
            self.skeleton.clone(),
            self.sequence.keys[0].pose.clone(),
        );
        doc.sequences = vec![self.sequence.clone()];
        doc
    }
}

/// The skeleton file of the hierarchy.
fn skeleton_file(bvh: &Bvh, scale: f64, name: &str) -> SkeletonFile {
    let mut joints = Vec::with_capacity(bvh.joints.len());
    let mut sites = Vec::new();
    for (i, j) in bvh.joints.iter().enumerate() {
        let mut dofs = Vec::new();
        if j.parent.is_some() {
            for c in &j.channels {
                if let Channel::Position(a) = c {
                    dofs.push(DofDef::Slide(axis(*a), -SLIDE_RANGE, SLIDE_RANGE));
                }
            }
        }
        for c in &j.channels {
            if let Channel::Rotation(a) = c {
                dofs.push(DofDef::Hinge(axis(*a), -180.0, 180.0));
            }
        }
        let first_child = bvh
            .joints
            .iter()
            .find(|c| c.parent == Some(i))
            .map(|c| c.offset);
        let towards = first_child.or(j.end_site).map(|v| scaled(v, scale));
        let object = towards
            .filter(|v| v.norm() > 1e-9)
            .map(|v| BodyDef::Capsule {
                radius: tidy((0.12 * v.norm()).clamp(0.005, 0.06), 12),
                length: tidy(v.norm(), 12),
                at: [0.0; 3],
                axis: Some((v / v.norm()).into()),
            });
        if let Some(end) = j.end_site {
            sites.push((
                format!("{} end", j.name),
                SiteDef {
                    joint: j.name.clone(),
                    offset: scaled(end, scale).into(),
                },
            ));
        }
        joints.push((
            j.name.clone(),
            JointDef {
                offset: scaled(our_offset(j), scale).into(),
                dofs,
                object,
                ..JointDef::default()
            },
        ));
    }
    SkeletonFile {
        version: 1,
        name: name.to_owned(),
        hierarchy: node(bvh, 0),
        joints: OrderedMap(joints),
        sites: OrderedMap(sites),
        skin: None,
    }
}

fn node(bvh: &Bvh, i: usize) -> Node {
    let children = bvh
        .joints
        .iter()
        .enumerate()
        .filter(|(_, c)| c.parent == Some(i))
        .map(|(k, _)| node(bvh, k))
        .collect();
    Node::Joint(bvh.joints[i].name.clone(), children)
}

/// A joint's offset in our skeleton: its OFFSET, except that a joint with position channels
/// has 0 on the axes it has no channel for (BVH readers take the channels as the whole
/// translation), so that its rest pose is the OFFSET.
fn our_offset(j: &super::BvhJoint) -> Vector3<f64> {
    let mut offset = j.offset;
    if j.channels.iter().any(|c| matches!(c, Channel::Position(_))) {
        for a in 0..3 {
            if !j.channels.contains(&Channel::Position(a)) {
                offset[a] = 0.0;
            }
        }
    }
    offset
}

/// A length of the capture in metres: × `scale`, rounded to 12 significant digits so that a
/// file's 15.82 cm is written 0.1582 m, not 0.15820000000000002 (a sub-picometre change).
fn scaled(v: Vector3<f64>, scale: f64) -> Vector3<f64> {
    (v * scale).map(|x| tidy(x, 12))
}

fn axis(a: usize) -> AxisDef {
    [AxisDef::X, AxisDef::Y, AxisDef::Z][a]
}

/// The state vector of one frame's row.
fn state(bvh: &Bvh, row: &[f64], scale: f64, skeleton: &Skeleton) -> Vec<f64> {
    let mut q = vec![0.0; skeleton.state_len()];
    let mut k = 0; // index in the row
    let mut s = ROOT_STATE_LEN; // index in q
    for j in &bvh.joints {
        let values = &row[k..k + j.channels.len()];
        k += j.channels.len();
        let mut position = Vector3::zeros();
        for (c, v) in j.channels.iter().zip(values) {
            if let Channel::Position(a) = c {
                position[*a] = v * scale;
            }
        }
        // Position channels give the whole translation: what the slides (or the root
        // translation) add to the offset.
        let moved = (position - our_offset(j) * scale).map(|v| tidy(v, 12));
        if j.parent.is_none() {
            for c in &j.channels {
                if let Channel::Position(axis) = c {
                    q[*axis] = moved[*axis];
                }
            }
        } else {
            for c in &j.channels {
                if let Channel::Position(axis) = c {
                    q[s] = moved[*axis];
                    s += 1;
                }
            }
        }
        for (c, v) in j.channels.iter().zip(values) {
            if let Channel::Rotation(_) = c {
                q[s] = v.to_radians();
                s += 1;
            }
        }
    }
    q
}
