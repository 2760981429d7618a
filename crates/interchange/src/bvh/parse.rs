//! Reading BVH files as real ones are written: any whitespace between tokens (tabs, trailing
//! spaces, CR LF line ends), `End Site` blocks, and more data rows than `Frames:` declares (the
//! declared count is read, and [`Parsed::extra_rows`] says how many were left). Anything else
//! wrong is an error naming the line: a missing brace, a number that is not one, a channel count
//! or a row length that does not match, a truncated file.

use std::collections::HashSet;

use marionette_skeleton::{MAX_DEPTH, MAX_JOINTS};
use nalgebra::Vector3;

use super::{Bvh, BvhJoint, Channel};

/// Why a BVH file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct BvhError {
    /// The line at fault (1-based; the last line for a file that ends too soon).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A file read, and what was tolerated.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The file's data.
    pub bvh: Bvh,
    /// Data rows after the declared number of frames (ignored).
    pub extra_rows: usize,
}

struct Tokens<'a> {
    words: Vec<(usize, &'a str)>,
    next: usize,
    last_line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        let words: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .flat_map(|(i, l)| l.split_whitespace().map(move |w| (i + 1, w)))
            .collect();
        let last_line = text.lines().count().max(1);
        Tokens {
            words,
            next: 0,
            last_line,
        }
    }

    fn line(&self) -> usize {
        self.words.get(self.next).map_or(self.last_line, |w| w.0)
    }

    fn error(&self, message: impl Into<String>) -> BvhError {
        BvhError {
            line: self.line(),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).map(|w| w.1)
    }

    fn take(&mut self, what: &str) -> Result<&'a str, BvhError> {
        let w = self
            .peek()
            .ok_or_else(|| self.error(format!("the file ends where {what} should be")))?;
        self.next += 1;
        Ok(w)
    }

    fn expect(&mut self, word: &str) -> Result<(), BvhError> {
        let at = self.line();
        let got = self.take(&format!("\"{word}\""))?;
        if got == word {
            Ok(())
        } else {
            Err(BvhError {
                line: at,
                message: format!("expected \"{word}\", found \"{got}\""),
            })
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, BvhError> {
        let at = self.line();
        let w = self.take(what)?;
        match w.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(BvhError {
                line: at,
                message: format!("{what}: \"{w}\" is not a finite number"),
            }),
        }
    }

    fn vector(&mut self, what: &str) -> Result<Vector3<f64>, BvhError> {
        Ok(Vector3::new(
            self.number(what)?,
            self.number(what)?,
            self.number(what)?,
        ))
    }
}

/// Reads BVH text.
pub fn parse(text: &str) -> Result<Parsed, BvhError> {
    let mut t = Tokens::new(text);
    t.expect("HIERARCHY")?;
    t.expect("ROOT")?;
    let mut joints = Vec::new();
    joint(&mut t, &mut joints, &mut HashSet::new(), (None, 1))?;
    if joints.is_empty() {
        return Err(t.error("no joints"));
    }
    t.expect("MOTION")?;
    t.expect("Frames:")?;
    let at = t.line();
    let declared = t.number("the frame count")?;
    if declared < 0.0 || declared.fract() != 0.0 {
        return Err(BvhError {
            line: at,
            message: format!("Frames: {declared} is not a whole number of frames"),
        });
    }
    let declared = declared as usize;
    t.expect("Frame")?;
    t.expect("Time:")?;
    let at = t.line();
    let frame_time = t.number("the frame time")?;
    if frame_time <= 0.0 {
        return Err(BvhError {
            line: at,
            message: format!("Frame Time: {frame_time} is not a positive number of seconds"),
        });
    }
    let bvh_channels: usize = joints.iter().map(|j: &BvhJoint| j.channels.len()).sum();
    // Rows are lines: one frame per line, each with every channel.
    let rows: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .skip(t.line().saturating_sub(1))
        .map(|(i, l)| (i + 1, l.split_whitespace().collect::<Vec<_>>()))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    // The tokens after "Frame Time: t" start on the line after it (or on the same line).
    let first = rows
        .iter()
        .position(|(line, _)| *line > at)
        .unwrap_or(rows.len());
    let rows = &rows[first..];
    if rows.len() < declared {
        return Err(BvhError {
            line: t.last_line,
            message: format!(
                "Frames: {declared}, but the file ends after {} rows of motion",
                rows.len()
            ),
        });
    }
    let mut frames = Vec::with_capacity(declared);
    for (line, words) in &rows[..declared] {
        if words.len() != bvh_channels {
            return Err(BvhError {
                line: *line,
                message: format!(
                    "a frame has {} values; the hierarchy has {bvh_channels} channels",
                    words.len()
                ),
            });
        }
        let mut row = Vec::with_capacity(bvh_channels);
        for w in words {
            match w.parse::<f64>() {
                Ok(v) if v.is_finite() => row.push(v),
                _ => {
                    return Err(BvhError {
                        line: *line,
                        message: format!("\"{w}\" is not a finite number"),
                    });
                }
            }
        }
        frames.push(row);
    }
    Ok(Parsed {
        bvh: Bvh {
            joints,
            frame_time,
            frames,
        },
        extra_rows: rows.len() - declared,
    })
}

/// A joint's block, after ROOT or JOINT: its name, `{`, OFFSET, CHANNELS, children, `}`.
/// `names` holds the names read so far; `depth` counts the joint's ancestors and itself, at most
/// [`MAX_DEPTH`] (what a skeleton file can hold).
fn joint(
    t: &mut Tokens<'_>,
    joints: &mut Vec<BvhJoint>,
    names: &mut HashSet<String>,
    (parent, depth): (Option<usize>, usize),
) -> Result<(), BvhError> {
    let name = t.take("a joint's name")?.to_owned();
    if depth > MAX_DEPTH {
        return Err(t.error(format!(
            "joint \"{name}\" is nested {depth} deep; a skeleton holds at most {MAX_DEPTH}"
        )));
    }
    if joints.len() == MAX_JOINTS {
        return Err(t.error(format!(
            "joint \"{name}\" is one more than the {MAX_JOINTS} joints a skeleton may have"
        )));
    }
    if !names.insert(name.clone()) {
        return Err(t.error(format!("a second joint named \"{name}\"")));
    }
    t.expect("{")?;
    t.expect("OFFSET")?;
    let offset = t.vector("OFFSET")?;
    t.expect("CHANNELS")?;
    let at = t.line();
    let count = t.number("the channel count")?;
    if !(0.0..=6.0).contains(&count) || count.fract() != 0.0 {
        return Err(BvhError {
            line: at,
            message: format!("CHANNELS {count}: a joint has 0 to 6 channels"),
        });
    }
    let mut channels = Vec::with_capacity(count as usize);
    for _ in 0..count as usize {
        let at = t.line();
        let w = t.take("a channel name")?;
        let c = match w {
            "Xposition" => Channel::Position(0),
            "Yposition" => Channel::Position(1),
            "Zposition" => Channel::Position(2),
            "Xrotation" => Channel::Rotation(0),
            "Yrotation" => Channel::Rotation(1),
            "Zrotation" => Channel::Rotation(2),
            other => {
                return Err(BvhError {
                    line: at,
                    message: format!(
                        "\"{other}\" is not a channel (Xposition … Zrotation); CHANNELS says {count}"
                    ),
                });
            }
        };
        if channels.contains(&c) {
            return Err(BvhError {
                line: at,
                message: format!("channel {w} twice in one joint"),
            });
        }
        channels.push(c);
    }
    let index = joints.len();
    joints.push(BvhJoint {
        name,
        parent,
        offset,
        channels,
        end_site: None,
    });
    loop {
        match t.peek() {
            Some("JOINT") => {
                t.take("JOINT")?;
                joint(t, joints, names, (Some(index), depth + 1))?;
            }
            Some("End") => {
                t.take("End")?;
                t.expect("Site")?;
                t.expect("{")?;
                t.expect("OFFSET")?;
                let end = t.vector("End Site OFFSET")?;
                t.expect("}")?;
                joints[index].end_site = Some(end);
            }
            Some("}") => {
                t.take("}")?;
                return Ok(());
            }
            Some(other) if other.ends_with("position") || other.ends_with("rotation") => {
                let count = joints[index].channels.len();
                return Err(t.error(format!(
                    "\"{other}\" is one channel more than CHANNELS {count} says (a wrong channel count)"
                )));
            }
            Some(other) => {
                return Err(t.error(format!(
                    "expected JOINT, End Site or \"}}\", found \"{other}\""
                )));
            }
            None => return Err(t.error("the file ends inside a joint (a \"}\" is missing)")),
        }
    }
}
