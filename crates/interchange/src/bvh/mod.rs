//! BVH (Biovision hierarchy) motion files: the data of a file ([`Bvh`]), read with errors that
//! give the line ([`parse`]), written from a skeleton's baked frames ([`mod@write`]) and turned into
//! a skeleton and a document ([`import`]).
//!
//! Conventions, as Blender and three.js read them: a joint's transform from its parent is
//! translate(p) · R, where p is its OFFSET, or the vector of its position channels when it has
//! them (they give the whole translation, OFFSET included), and R the product of its rotation
//! channels in the order listed (`Zrotation Xrotation Yrotation` = Rz·Rx·Ry), angles in degrees.

pub mod import;
pub mod parse;
pub mod write;

use marionette_skeleton::rotation::coordinate_axis_rotation;
use nalgebra::{Matrix3, Vector3};

/// One channel of a joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// Translation along an axis (0 = X, 1 = Y, 2 = Z).
    Position(usize),
    /// Rotation about an axis, degrees.
    Rotation(usize),
}

impl Channel {
    /// The name a BVH file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Position(0) => "Xposition",
            Channel::Position(1) => "Yposition",
            Channel::Position(_) => "Zposition",
            Channel::Rotation(0) => "Xrotation",
            Channel::Rotation(1) => "Yrotation",
            Channel::Rotation(_) => "Zrotation",
        }
    }
}

/// One joint of a BVH hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct BvhJoint {
    /// Its name.
    pub name: String,
    /// Its parent's index (joints are in file order, parents first).
    pub parent: Option<usize>,
    /// OFFSET from the parent.
    pub offset: Vector3<f64>,
    /// CHANNELS, in order.
    pub channels: Vec<Channel>,
    /// The OFFSET of its End Site, if it has one.
    pub end_site: Option<Vector3<f64>>,
}

/// A whole BVH file.
#[derive(Debug, Clone, PartialEq)]
pub struct Bvh {
    /// The joints, parents before children.
    pub joints: Vec<BvhJoint>,
    /// Seconds per frame.
    pub frame_time: f64,
    /// One row of channel values per frame, joints' channels in file order.
    pub frames: Vec<Vec<f64>>,
}

impl Bvh {
    /// The number of channels of a frame.
    pub fn channel_count(&self) -> usize {
        self.joints.iter().map(|j| j.channels.len()).sum()
    }

    /// Every joint's world position on frame `frame` (in the file's units).
    pub fn world_positions(&self, frame: usize) -> Vec<Vector3<f64>> {
        let row = &self.frames[frame];
        let mut frames: Vec<(Matrix3<f64>, Vector3<f64>)> = Vec::with_capacity(self.joints.len());
        let mut k = 0;
        for joint in &self.joints {
            let mut translation = joint.offset;
            let mut has_position = false;
            let mut rotation = Matrix3::identity();
            for &c in &joint.channels {
                let v = row[k];
                k += 1;
                match c {
                    Channel::Position(axis) => {
                        if !has_position {
                            translation = Vector3::zeros();
                            has_position = true;
                        }
                        translation[axis] = v;
                    }
                    Channel::Rotation(axis) => {
                        rotation *= coordinate_axis_rotation(axis, v.to_radians());
                    }
                }
            }
            let (r, t) = match joint.parent {
                Some(p) => {
                    let (pr, pt) = frames[p];
                    (pr * rotation, pt + pr * translation)
                }
                None => (rotation, translation),
            };
            frames.push((r, t));
        }
        frames.into_iter().map(|(_, t)| t).collect()
    }
}

/// A skeleton joint's name as BVH writes it: every run of whitespace replaced by `_`.
pub fn bvh_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut in_space = false;
    for c in name.chars() {
        if c.is_whitespace() {
            if !in_space {
                out.push('_');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}
