//! The Problem file of docs/file-formats.md (what `marionette solve` reads) and its resolution into a
//! skeleton, a start pose, a chain and goals. Paths inside the file are relative to it; every
//! error names the goal by its index and kind, or the joint or site at fault.

use std::path::{Path, PathBuf};

use marionette_skeleton::{
    Chain, FileError, JointId, Pose, PoseError, Skeleton, SkeletonError, orientation_from_degrees,
};
use nalgebra::Vector3;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::goal::{Goal, GoalKind, TargetShape};

/// A world axis as problem files name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AxisName {
    /// x
    X,
    /// y
    Y,
    /// z
    Z,
}

fn one() -> f64 {
    1.0
}

fn all_axes() -> Vec<AxisName> {
    vec![AxisName::X, AxisName::Y, AxisName::Z]
}

fn is_one(w: &f64) -> bool {
    *w == 1.0
}

fn is_zero(p: &u32) -> bool {
    *p == 0
}

fn is_all_axes(axes: &[AxisName]) -> bool {
    axes == all_axes()
}

/// A goal as written in a problem file or a document's lock (targets in metres, orientations in
/// degrees). Saved files leave out a weight of 1, priority 0 and all three axes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs, reason = "fields are documented in docs/file-formats.md")]
pub enum GoalDef {
    Position {
        site: String,
        target: [f64; 3],
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Orientation {
        joint: String,
        target: [f64; 3],
        #[serde(default = "all_axes", skip_serializing_if = "is_all_axes")]
        axes: Vec<AxisName>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Aim {
        site: String,
        axis: [f64; 3],
        at: [f64; 3],
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Plane {
        site: String,
        point: [f64; 3],
        normal: [f64; 3],
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Line {
        site: String,
        point: [f64; 3],
        direction: [f64; 3],
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Point {
        joint: String,
        #[serde(default)]
        offset: [f64; 3],
        target: [f64; 3],
        /// When given, the point need only reach the plane through `target` with this normal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        normal: Option<[f64; 3]>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Pose {
        site: String,
        target: [f64; 3],
        rotation: [f64; 3],
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    Coincide {
        a: String,
        b: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
    CenterOfMass {
        target: [f64; 3],
        #[serde(default = "all_axes", skip_serializing_if = "is_all_axes")]
        axes: Vec<AxisName>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        weight: f64,
        #[serde(default, skip_serializing_if = "is_zero")]
        priority: u32,
    },
}

/// The Problem file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename = "Problem", deny_unknown_fields)]
pub struct ProblemFile {
    /// Skeleton file, relative to the problem file.
    pub skeleton: String,
    /// Start pose file, relative to the problem file; default the rest pose.
    #[serde(default)]
    pub start: Option<String>,
    /// Only DOFs between this joint and the goals' joints move.
    #[serde(default)]
    pub base: Option<String>,
    /// Whether the root translation moves.
    #[serde(default)]
    pub move_root: bool,
    /// Joints that must not move.
    #[serde(default)]
    pub frozen: Vec<String>,
    /// The goals.
    pub goals: Vec<GoalDef>,
}

/// One way a problem does not fit its skeleton.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
#[expect(
    missing_docs,
    reason = "fields are the goal's index and kind and the name at fault"
)]
pub enum ProblemDefect {
    /// A goal names a site the skeleton lacks.
    #[error("goal {index} ({kind}): site \"{site}\" is not in skeleton \"{skeleton}\"")]
    UnknownSite {
        index: usize,
        kind: &'static str,
        site: String,
        skeleton: String,
    },
    /// A goal names a joint the skeleton lacks.
    #[error("goal {index} ({kind}): joint \"{joint}\" is not in skeleton \"{skeleton}\"")]
    UnknownGoalJoint {
        index: usize,
        kind: &'static str,
        joint: String,
        skeleton: String,
    },
    /// `base` or a `frozen` entry names a joint the skeleton lacks.
    #[error("{field}: joint \"{joint}\" is not in skeleton \"{skeleton}\"")]
    UnknownJoint {
        field: &'static str,
        joint: String,
        skeleton: String,
    },
    /// The goal's joint is not below the base joint.
    #[error(
        "goal {index} ({kind}): joint \"{joint}\" is not below base joint \"{base}\", so the chain cannot move it"
    )]
    NotBelowBase {
        index: usize,
        kind: &'static str,
        joint: String,
        base: String,
    },
    /// A number is NaN or infinite, or a weight is not positive.
    #[error("goal {index} ({kind}): {what}")]
    BadValue {
        index: usize,
        kind: &'static str,
        what: String,
    },
    /// Nothing can move.
    #[error("no DOF can move: the base, frozen joints and move_root leave an empty chain")]
    EmptyChain,
    /// No goals.
    #[error("the problem has no goals")]
    NoGoals,
}

/// Why a problem could not be loaded: its own file, or the skeleton or start pose it names.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The problem file itself.
    #[error(transparent)]
    Problem(#[from] FileError<ProblemDefect>),
    /// The skeleton file it names.
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
    /// The start pose it names.
    #[error(transparent)]
    Start(#[from] PoseError),
}

/// A loaded problem, ready to solve.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The skeleton.
    pub skeleton: Skeleton,
    /// The start pose.
    pub start: Pose,
    /// The DOFs that move.
    pub chain: Chain,
    /// The goals, in file order.
    pub goals: Vec<Goal>,
}

fn relative_to(problem: &Path, path: &str) -> PathBuf {
    problem.parent().unwrap_or(Path::new(".")).join(path)
}

impl Problem {
    /// Loads a problem file and everything it names.
    pub fn load(path: impl AsRef<Path>) -> Result<Problem, ProblemError> {
        let path = path.as_ref();
        let file: ProblemFile = FileError::<ProblemDefect>::read_ron(path)?;
        Problem::from_file(path, &file)
    }

    /// A problem from the text of the file at `path` (read already, as
    /// `marionette_interchange::open` does); the files it names are read relative to `path`.
    pub fn from_ron_str(text: &str, path: &Path) -> Result<Problem, ProblemError> {
        let name = marionette_skeleton::ron_io::display_path(path);
        let file: ProblemFile = FileError::<ProblemDefect>::parse_ron(text, &name)?;
        Problem::from_file(path, &file)
    }

    /// A parsed problem file at `path` with the skeleton and start pose it names.
    fn from_file(path: &Path, file: &ProblemFile) -> Result<Problem, ProblemError> {
        let skeleton = Skeleton::load(relative_to(path, &file.skeleton))?;
        let start = match &file.start {
            Some(p) => Pose::load(&skeleton, relative_to(path, p))?,
            None => Pose::rest(&skeleton),
        };
        let (chain, goals) = resolve(&skeleton, file).map_err(|defects| FileError::Invalid {
            file: path.display().to_string(),
            defects,
        })?;
        Ok(Problem {
            skeleton,
            start,
            chain,
            goals,
        })
    }
}

fn axes_mask(axes: &[AxisName]) -> [bool; 3] {
    [AxisName::X, AxisName::Y, AxisName::Z].map(|a| axes.contains(&a))
}

/// Resolves names into ids and checks values; returns the chain and the goals.
pub fn resolve(
    skeleton: &Skeleton,
    file: &ProblemFile,
) -> Result<(Chain, Vec<Goal>), Vec<ProblemDefect>> {
    let what = Moving {
        base: file.base.as_deref(),
        move_root: file.move_root,
        frozen: &file.frozen,
    };
    resolve_goals(skeleton, file.goals.iter(), what)
}

/// What moves in a solve, as a problem file says it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Moving<'a> {
    /// Only DOFs between this joint and the goals' joints move (`None`: every DOF).
    pub base: Option<&'a str>,
    /// Whether the root translation moves.
    pub move_root: bool,
    /// Joints that must not move.
    pub frozen: &'a [String],
}

/// [`resolve`] of goals held anywhere (a problem file's, a script's), without copying them.
pub fn resolve_goals<'g>(
    skeleton: &Skeleton,
    goals: impl ExactSizeIterator<Item = &'g GoalDef>,
    what: Moving<'_>,
) -> Result<(Chain, Vec<Goal>), Vec<ProblemDefect>> {
    let mut defects = Vec::new();
    let skel_name = skeleton.name().to_owned();
    let joint = |field: &'static str, name: &str, defects: &mut Vec<ProblemDefect>| {
        let j = skeleton.joint_by_name(name);
        if j.is_none() {
            defects.push(ProblemDefect::UnknownJoint {
                field,
                joint: name.to_owned(),
                skeleton: skel_name.clone(),
            });
        }
        j
    };
    let base = what.base.and_then(|b| joint("base", b, &mut defects));
    let frozen: Vec<JointId> = what
        .frozen
        .iter()
        .filter_map(|f| joint("frozen", f, &mut defects))
        .collect();
    if goals.len() == 0 {
        defects.push(ProblemDefect::NoGoals);
    }
    let defs = goals;
    let mut goals = Vec::with_capacity(defs.len());
    for (index, def) in defs.enumerate() {
        if let Some(goal) = resolve_goal(skeleton, index, def, &mut defects) {
            goals.push(goal);
        }
    }
    if !defects.is_empty() {
        return Err(defects);
    }
    let mut chain = match base {
        None => Chain::whole(skeleton, false),
        Some(base) => {
            let mut chain = Chain::default();
            for (index, goal) in goals.iter().enumerate() {
                // The centre of mass depends on every joint below the base.
                let joints = goal
                    .kind
                    .joints(skeleton)
                    .unwrap_or_else(|| skeleton.subtree(base).collect());
                for j in joints {
                    match Chain::between(skeleton, base, j) {
                        Ok(c) => chain = chain.union(&c),
                        Err(_) => defects.push(ProblemDefect::NotBelowBase {
                            index,
                            kind: goal.kind.label(),
                            joint: skeleton.joint(j).name.clone(),
                            base: skeleton.joint(base).name.clone(),
                        }),
                    }
                }
            }
            chain
        }
    };
    if what.move_root {
        chain = chain.with_root();
    }
    if !frozen.is_empty() {
        chain = chain.without_joints(skeleton, &frozen);
    }
    if defects.is_empty() && chain.is_empty() {
        defects.push(ProblemDefect::EmptyChain);
    }
    if defects.is_empty() {
        Ok((chain, goals))
    } else {
        Err(defects)
    }
}

fn resolve_goal(
    skeleton: &Skeleton,
    index: usize,
    def: &GoalDef,
    defects: &mut Vec<ProblemDefect>,
) -> Option<Goal> {
    let kind_name = match def {
        GoalDef::Position { .. } => "position",
        GoalDef::Orientation { .. } => "orientation",
        GoalDef::Aim { .. } => "aim",
        GoalDef::Plane { .. } => "plane",
        GoalDef::Line { .. } => "line",
        GoalDef::Point { .. } => "point",
        GoalDef::Pose { .. } => "pose",
        GoalDef::Coincide { .. } => "coincide",
        GoalDef::CenterOfMass { .. } => "center_of_mass",
    };
    let before = defects.len();
    let bad = |what: String, defects: &mut Vec<ProblemDefect>| {
        defects.push(ProblemDefect::BadValue {
            index,
            kind: kind_name,
            what,
        });
    };
    let site = |name: &str, defects: &mut Vec<ProblemDefect>| {
        let s = skeleton.site_by_name(name);
        if s.is_none() {
            defects.push(ProblemDefect::UnknownSite {
                index,
                kind: kind_name,
                site: name.to_owned(),
                skeleton: skeleton.name().to_owned(),
            });
        }
        s
    };
    let goal_joint = |name: &str, defects: &mut Vec<ProblemDefect>| {
        let j = skeleton.joint_by_name(name);
        if j.is_none() {
            defects.push(ProblemDefect::UnknownGoalJoint {
                index,
                kind: kind_name,
                joint: name.to_owned(),
                skeleton: skeleton.name().to_owned(),
            });
        }
        j
    };
    let finite = |field: &str, v: &[f64; 3], defects: &mut Vec<ProblemDefect>| {
        if v.iter()
            .all(|x| marionette_skeleton::coordinate_in_range(*x))
        {
            Some(Vector3::from(*v))
        } else {
            bad(
                format!("{field} is not a finite vector within ±1000000"),
                defects,
            );
            None
        }
    };
    let unit = |field: &str, v: &[f64; 3], defects: &mut Vec<ProblemDefect>| {
        let v = finite(field, v, defects)?;
        let n = v.try_normalize(1e-12);
        if n.is_none() {
            bad(format!("{field} is the zero vector"), defects);
        }
        n
    };
    let (kind, weight, priority) = match def {
        GoalDef::Position {
            site: s,
            target,
            weight,
            priority,
        } => {
            let (s, t) = (site(s, defects), finite("target", target, defects));
            (
                s.zip(t)
                    .map(|(site, target)| GoalKind::Position { site, target }),
                *weight,
                *priority,
            )
        }
        GoalDef::Orientation {
            joint,
            target,
            axes,
            weight,
            priority,
        } => {
            let j = goal_joint(joint, defects);
            let t = finite("target", target, defects).map(|t| orientation_from_degrees(t.into()));
            if axes.is_empty() {
                bad("axes is empty".into(), defects);
            }
            (
                j.zip(t).map(|(joint, target)| GoalKind::Orientation {
                    joint,
                    target,
                    axes: axes_mask(axes),
                }),
                *weight,
                *priority,
            )
        }
        GoalDef::Aim {
            site: s,
            axis,
            at,
            weight,
            priority,
        } => {
            let (s, a, t) = (
                site(s, defects),
                unit("axis", axis, defects),
                finite("at", at, defects),
            );
            (
                s.zip(a)
                    .zip(t)
                    .map(|((site, axis), at)| GoalKind::Aim { site, axis, at }),
                *weight,
                *priority,
            )
        }
        GoalDef::Plane {
            site: s,
            point,
            normal,
            weight,
            priority,
        } => {
            let (s, p, n) = (
                site(s, defects),
                finite("point", point, defects),
                unit("normal", normal, defects),
            );
            (
                s.zip(p)
                    .zip(n)
                    .map(|((site, point), normal)| GoalKind::Plane {
                        site,
                        point,
                        normal,
                    }),
                *weight,
                *priority,
            )
        }
        GoalDef::Line {
            site: s,
            point,
            direction,
            weight,
            priority,
        } => {
            let (s, p, d) = (
                site(s, defects),
                finite("point", point, defects),
                unit("direction", direction, defects),
            );
            (
                s.zip(p)
                    .zip(d)
                    .map(|((site, point), direction)| GoalKind::Line {
                        site,
                        point,
                        direction,
                    }),
                *weight,
                *priority,
            )
        }
        GoalDef::Point {
            joint,
            offset,
            target,
            normal,
            weight,
            priority,
        } => {
            let j = goal_joint(joint, defects);
            let (o, t) = (
                finite("offset", offset, defects),
                finite("target", target, defects),
            );
            let shape = match normal {
                None => Some(TargetShape::Point),
                Some(n) => unit("normal", n, defects).map(TargetShape::Plane),
            };
            (
                j.zip(o)
                    .zip(t)
                    .zip(shape)
                    .map(|(((joint, offset), target), shape)| GoalKind::Point {
                        joint,
                        offset,
                        target,
                        shape,
                    }),
                *weight,
                *priority,
            )
        }
        GoalDef::Pose {
            site: s,
            target,
            rotation,
            weight,
            priority,
        } => {
            let (s, t, r) = (
                site(s, defects),
                finite("target", target, defects),
                finite("rotation", rotation, defects).map(|r| orientation_from_degrees(r.into())),
            );
            (
                s.zip(t)
                    .zip(r)
                    .map(|((site, target), rotation)| GoalKind::Pose {
                        site,
                        target,
                        rotation,
                    }),
                *weight,
                *priority,
            )
        }
        GoalDef::Coincide {
            a,
            b,
            weight,
            priority,
        } => {
            let (a, b) = (site(a, defects), site(b, defects));
            (
                a.zip(b).map(|(a, b)| GoalKind::Coincide { a, b }),
                *weight,
                *priority,
            )
        }
        GoalDef::CenterOfMass {
            target,
            axes,
            weight,
            priority,
        } => {
            if axes.is_empty() {
                bad("axes is empty".into(), defects);
            }
            let t = finite("target", target, defects);
            (
                t.map(|target| GoalKind::CenterOfMass {
                    target,
                    axes: axes_mask(axes),
                }),
                *weight,
                *priority,
            )
        }
    };
    if !(weight.is_finite() && weight > 0.0) {
        bad(format!("weight {weight} is not a positive number"), defects);
    }
    if defects.len() > before {
        return None;
    }
    kind.map(|kind| Goal {
        kind,
        weight,
        priority,
    })
}

fn axis_names(axes: &[bool; 3]) -> Vec<AxisName> {
    [AxisName::X, AxisName::Y, AxisName::Z]
        .into_iter()
        .zip(axes)
        .filter(|(_, held)| **held)
        .map(|(a, _)| a)
        .collect()
}

impl GoalDef {
    /// The goal as a file writes it (names for ids, degrees for rotations); `None` for a drag's
    /// goal along a ray and for two sites meeting turned (a stage's link, which the document
    /// writes as a link), which no problem file holds.
    pub fn from_goal(skeleton: &Skeleton, goal: &Goal) -> Option<GoalDef> {
        let site = |s: &marionette_skeleton::SiteId| skeleton.site(*s).name.clone();
        let v = |p: &Vector3<f64>| [p.x, p.y, p.z];
        let (weight, priority) = (goal.weight, goal.priority);
        Some(match &goal.kind {
            GoalKind::Position { site: s, target } => GoalDef::Position {
                site: site(s),
                target: v(target),
                weight,
                priority,
            },
            GoalKind::Point {
                joint,
                offset,
                target,
                shape,
            } => GoalDef::Point {
                joint: skeleton.joint(*joint).name.clone(),
                offset: v(offset),
                target: v(target),
                normal: match shape {
                    TargetShape::Point => None,
                    TargetShape::Plane(n) => Some(v(n)),
                    TargetShape::Line(_) => return None,
                },
                weight,
                priority,
            },
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } => GoalDef::Orientation {
                joint: skeleton.joint(*joint).name.clone(),
                target: marionette_skeleton::degrees_from_orientation(target),
                axes: axis_names(axes),
                weight,
                priority,
            },
            GoalKind::Aim { site: s, axis, at } => GoalDef::Aim {
                site: site(s),
                axis: v(axis),
                at: v(at),
                weight,
                priority,
            },
            GoalKind::Plane {
                site: s,
                point,
                normal,
            } => GoalDef::Plane {
                site: site(s),
                point: v(point),
                normal: v(normal),
                weight,
                priority,
            },
            GoalKind::Line {
                site: s,
                point,
                direction,
            } => GoalDef::Line {
                site: site(s),
                point: v(point),
                direction: v(direction),
                weight,
                priority,
            },
            GoalKind::Pose {
                site: s,
                target,
                rotation,
            } => GoalDef::Pose {
                site: site(s),
                target: v(target),
                rotation: marionette_skeleton::degrees_from_orientation(rotation),
                weight,
                priority,
            },
            GoalKind::Coincide { a, b } => GoalDef::Coincide {
                a: site(a),
                b: site(b),
                weight,
                priority,
            },
            GoalKind::CoincidePose { .. } => return None,
            GoalKind::CenterOfMass { target, axes } => GoalDef::CenterOfMass {
                target: v(target),
                axes: axis_names(axes),
                weight,
                priority,
            },
        })
    }

    /// Resolves one goal against `skeleton`; the defects name it as goal `index`.
    pub fn resolve(&self, skeleton: &Skeleton, index: usize) -> Result<Goal, Vec<ProblemDefect>> {
        let mut defects = Vec::new();
        match resolve_goal(skeleton, index, self, &mut defects) {
            Some(goal) if defects.is_empty() => Ok(goal),
            _ => Err(defects),
        }
    }
}
