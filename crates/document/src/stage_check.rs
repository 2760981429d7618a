//! Checking a stage document as it is read: every figure's skeleton loaded and its own part
//! checked as a one-figure document's, names unique among figures and props, every link, track,
//! grip and release naming what is on the stage, frames in order, sizes and places finite. Every
//! defect is listed, each naming the figure, prop, link or cue at fault.

use std::path::Path;

use marionette_skeleton::{Skeleton, ron_io};

use crate::file::{DocumentDef, DocumentDefect, FORMAT_VERSION, resolve};
use crate::sequence::{MAX_SPAN, frame_in_range};
use crate::stage::{
    Cue, Hold, Link, LinkTarget, Placement, Prop, PropContact, PropKey, PropPlace, PropShape,
    PropTrack, SiteRef, Stage, StageFigure,
};
use crate::stage_format::{HoldDef, LinkTargetDef, StageDef};

/// One way a stage document does not fit the format: what a one-figure document may get wrong,
/// per figure, and what the stage adds.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StageDefect {
    /// Something of the file as a whole (its version).
    #[error("{0}")]
    Document(DocumentDefect),
    /// A figure's own part (pose, locks, sequences, library).
    #[error("figure \"{figure}\": {defect}")]
    Figure {
        /// The figure's name.
        figure: String,
        /// What is wrong.
        defect: DocumentDefect,
    },
    /// A figure's skeleton could not be loaded.
    #[error("figure \"{figure}\": skeleton \"{path}\": {message}")]
    Skeleton {
        /// The figure's name.
        figure: String,
        /// The path as written.
        path: String,
        /// Why.
        message: String,
    },
    /// Two figures or props share a name, or a name is empty.
    #[error("{what} \"{name}\": {problem}")]
    Name {
        /// "figure" or "prop".
        what: &'static str,
        /// The name.
        name: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A figure's placement or a prop's shape or place is wrong.
    #[error("{what} \"{name}\": {problem}")]
    Value {
        /// "figure" or "prop".
        what: &'static str,
        /// The name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A link names what is not on the stage, or is wrong otherwise.
    #[error("link \"{link}\": {problem}")]
    Link {
        /// The link's name.
        link: String,
        /// What is wrong.
        problem: String,
    },
    /// A cue names what is not on the stage, or its keys or holds are wrong.
    #[error("cue of sequence \"{sequence}\": {problem}")]
    Cue {
        /// The sequence.
        sequence: String,
        /// What is wrong.
        problem: String,
    },
    /// Figures play a sequence of one name at different rates.
    #[error("sequence \"{sequence}\": figures play it at different rates ({rates})")]
    Rates {
        /// The sequence.
        sequence: String,
        /// "A 24 fps, B 30 fps".
        rates: String,
    },
}

/// The largest prop size (metres): a prop is a thing on a stage.
pub const MAX_PROP_SIZE: f64 = 1000.0;

/// Loads every figure's skeleton and resolves every name; `None` when a figure could not be
/// made at all (its skeleton), with every defect found.
pub(crate) fn resolve_stage(
    def: StageDef,
    folder_path: &Path,
) -> (Option<Stage>, Vec<StageDefect>) {
    let mut defects = Vec::new();
    if def.figures.is_empty() {
        defects.push(StageDefect::Name {
            what: "figure",
            name: String::new(),
            problem: "a stage has at least one figure",
        });
    }
    // Names of figures and props, one namespace.
    let mut taken: Vec<String> = Vec::new();
    let mut check_name = |what: &'static str, name: &str, defects: &mut Vec<StageDefect>| {
        let problem = if name.trim().is_empty() {
            Some("the name is empty")
        } else if taken.iter().any(|t| t == name) {
            Some("the name is taken by another figure or prop on the stage")
        } else {
            None
        };
        if let Some(problem) = problem {
            defects.push(StageDefect::Name {
                what,
                name: name.to_owned(),
                problem,
            });
        }
        taken.push(name.to_owned());
        name.to_owned()
    };
    let mut figures = Vec::with_capacity(def.figures.len());
    let mut complete = true;
    for f in def.figures {
        let name = check_name("figure", &f.name, &mut defects);
        if !f.at.iter().chain([&f.facing]).all(|v| v.is_finite()) {
            defects.push(value(
                "figure",
                &name,
                "its place or facing is not a finite number",
            ));
        } else if f
            .at
            .iter()
            .any(|v| !marionette_skeleton::coordinate_in_range(*v))
        {
            defects.push(value(
                "figure",
                &name,
                "its place is beyond the largest coordinate",
            ));
        }
        let skeleton_path = folder_path.join(&f.skeleton);
        let skeleton = match Skeleton::load(&skeleton_path) {
            Ok(s) => s,
            Err(e) => {
                defects.push(StageDefect::Skeleton {
                    figure: name,
                    path: f.skeleton.clone(),
                    message: e.to_string(),
                });
                complete = false;
                continue;
            }
        };
        let doc_def = DocumentDef {
            version: FORMAT_VERSION,
            skeleton: f.skeleton,
            pose: f.pose,
            locks: f.locks,
            sequences: f.sequences,
            library: f.library,
        };
        let (document, figure_defects) = resolve(doc_def, skeleton_path, skeleton);
        defects.extend(
            figure_defects
                .into_iter()
                .map(|defect| StageDefect::Figure {
                    figure: name.clone(),
                    defect,
                }),
        );
        figures.push(StageFigure {
            name,
            placement: Placement {
                at: f.at,
                facing: f.facing,
            },
            document,
        });
    }
    let mut props = Vec::with_capacity(def.props.len());
    for p in def.props {
        let name = check_name("prop", &p.name, &mut defects);
        if let Some(problem) = shape_problem(&p.shape, folder_path) {
            defects.push(value("prop", &name, &problem));
        }
        if let Some(problem) = place_problem(&p.at, &p.rotation) {
            defects.push(value("prop", &name, &problem));
        }
        props.push(Prop {
            name,
            shape: p.shape,
            place: PropPlace {
                at: p.at,
                rotation: p.rotation,
            },
        });
    }
    if !complete {
        return (None, defects);
    }
    let mut stage = Stage {
        figures,
        props,
        links: Vec::new(),
        cues: Vec::new(),
    };
    let lookup = Lookup { stage: &stage };
    let mut links = Vec::new();
    for l in &def.links {
        let bad = |problem: String| StageDefect::Link {
            link: l.name.clone(),
            problem,
        };
        if l.name.trim().is_empty() {
            defects.push(bad("the name is empty".into()));
            continue;
        }
        if links.iter().any(|k: &Link| k.name == l.name) {
            defects.push(bad("the name appears more than once".into()));
            continue;
        }
        let a = match lookup.site(&l.a.0, &l.a.1) {
            Ok(a) => a,
            Err(e) => {
                defects.push(bad(e));
                continue;
            }
        };
        let b = match &l.b {
            LinkTargetDef::Site(f, s) | LinkTargetDef::SitePose(f, s, _) => {
                let b = match lookup.site(f, s) {
                    Ok(b) if b == a => {
                        defects.push(bad("both ends are the same site".into()));
                        continue;
                    }
                    Ok(b) => b,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                };
                match &l.b {
                    LinkTargetDef::SitePose(_, _, r) => {
                        if !r.iter().all(|a| a.is_finite() && a.abs() <= 1e6) {
                            defects.push(bad(format!(
                                "the rotation ({}, {}, {}) is not finite degrees",
                                r[0], r[1], r[2]
                            )));
                            continue;
                        }
                        LinkTarget::SitePose {
                            site: b,
                            rotation: *r,
                        }
                    }
                    _ => LinkTarget::Site(b),
                }
            }
            LinkTargetDef::Prop(p, point) => {
                match prop_target(&lookup, p, point, PropContact::Point) {
                    Ok(t) => t,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                }
            }
            LinkTargetDef::PropPlane(p, point, normal) => {
                match prop_target(&lookup, p, point, PropContact::Plane(*normal)) {
                    Ok(t) => t,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                }
            }
            LinkTargetDef::PropLine(p, point, direction) => {
                match prop_target(&lookup, p, point, PropContact::Line(*direction)) {
                    Ok(t) => t,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                }
            }
            LinkTargetDef::PropTurn(p, rotation) => {
                match prop_target(&lookup, p, &[0.0; 3], PropContact::Turn(*rotation)) {
                    Ok(t) => t,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                }
            }
            LinkTargetDef::PropPose(p, point, rotation) => {
                match prop_target(&lookup, p, point, PropContact::Pose(*rotation)) {
                    Ok(t) => t,
                    Err(e) => {
                        defects.push(bad(e));
                        continue;
                    }
                }
            }
        };
        if let Some(problem) = l.frames.and_then(frames_problem) {
            defects.push(bad(problem));
            continue;
        }
        links.push(Link {
            name: l.name.clone(),
            a,
            b,
            enabled: l.enabled,
            frames: l.frames,
        });
    }
    let mut cues: Vec<Cue> = Vec::new();
    for c in &def.cues {
        let sequence_known = stage.sequence_names().contains(&c.sequence.as_str());
        let mut bad = |problem: String| {
            defects.push(StageDefect::Cue {
                sequence: c.sequence.clone(),
                problem,
            })
        };
        if !sequence_known {
            bad("no figure has a sequence of that name".into());
            continue;
        }
        if cues.iter().any(|k| k.sequence == c.sequence) {
            bad("the sequence has more than one cue".into());
            continue;
        }
        let mut cue = Cue {
            sequence: c.sequence.clone(),
            tracks: Vec::new(),
            holds: Vec::new(),
        };
        for t in &c.tracks {
            let prop = match lookup.prop(&t.prop) {
                Ok(p) => p,
                Err(e) => {
                    bad(e);
                    continue;
                }
            };
            if cue.tracks.iter().any(|k| k.prop == prop) {
                bad(format!("prop \"{}\" has more than one track", t.prop));
                continue;
            }
            let problem = if t.keys.is_empty() {
                Some("has no keys".to_owned())
            } else if t.keys.windows(2).any(|w| w[0].frame >= w[1].frame) {
                Some("key frames are not strictly increasing".to_owned())
            } else {
                t.keys.iter().find_map(|k| {
                    frames_problem((k.frame, k.frame))
                        .or_else(|| place_problem(&k.at, &k.rotation))
                        .map(|p| format!("key at frame {}: {p}", k.frame))
                })
            };
            if let Some(problem) = problem {
                bad(format!("track of prop \"{}\": {problem}", t.prop));
                continue;
            }
            cue.tracks.push(PropTrack {
                prop,
                keys: t
                    .keys
                    .iter()
                    .map(|k| PropKey {
                        frame: k.frame,
                        place: PropPlace {
                            at: k.at,
                            rotation: k.rotation,
                        },
                    })
                    .collect(),
            });
        }
        for h in &c.holds {
            let made = match h {
                HoldDef::Grip {
                    prop,
                    figure,
                    site,
                    frame,
                } => lookup.prop(prop).and_then(|prop| {
                    Ok(Hold::Grip {
                        prop,
                        by: lookup.site(figure, site)?,
                        frame: *frame,
                    })
                }),
                HoldDef::Release { prop, frame } => lookup.prop(prop).map(|prop| Hold::Release {
                    prop,
                    frame: *frame,
                }),
            };
            match made {
                Ok(hold) => {
                    if let Some(p) = frames_problem((hold.frame(), hold.frame())) {
                        bad(p);
                    } else {
                        cue.holds.push(hold);
                    }
                }
                Err(e) => bad(e),
            }
        }
        for p in 0..stage.props.len() {
            let holds: Vec<&Hold> = cue.holds.iter().filter(|h| h.prop() == p).collect();
            let name = &stage.props[p].name;
            if holds.windows(2).any(|w| w[0].frame() >= w[1].frame()) {
                bad(format!(
                    "the grips and releases of prop \"{name}\" are not in strictly increasing frames"
                ));
            } else if let Some(Hold::Release { frame, .. }) = holds.first() {
                bad(format!(
                    "prop \"{name}\" is released at frame {frame} before anyone grips it"
                ));
            } else if let Some(w) = holds
                .windows(2)
                .find(|w| matches!((w[0], w[1]), (Hold::Release { .. }, Hold::Release { .. })))
            {
                bad(format!(
                    "prop \"{name}\" is released at frame {} while nobody holds it",
                    w[1].frame()
                ));
            }
        }
        cue.holds.sort_by_key(|h| h.frame());
        // A stage's sequence runs from its earliest key, grip or release to its latest: no
        // longer than one sequence may be.
        let cue_frames = cue
            .tracks
            .iter()
            .flat_map(|t| t.keys.iter().map(|k| k.frame))
            .chain(cue.holds.iter().map(|h| h.frame()));
        let key_frames = stage
            .figures
            .iter()
            .filter_map(|f| f.document.sequences.iter().find(|s| s.name == cue.sequence))
            .flat_map(|s| {
                s.keys
                    .first()
                    .into_iter()
                    .chain(s.keys.last())
                    .map(|k| k.frame)
            });
        let all: Vec<i64> = cue_frames.chain(key_frames).collect();
        if let (Some(first), Some(last)) = (all.iter().min(), all.iter().max())
            && last.abs_diff(*first) > MAX_SPAN as u64
        {
            bad(format!(
                "its keys, grips and releases run from frame {first} to {last}, more than the \
                 {MAX_SPAN} frames a sequence may span"
            ));
            continue;
        }
        cues.push(cue);
    }
    for name in stage.sequence_names() {
        let rates: Vec<(String, f64)> = stage
            .figures
            .iter()
            .filter_map(|f| {
                let s = f.document.sequences.iter().find(|s| s.name == name)?;
                Some((f.name.clone(), s.fps))
            })
            .collect();
        if rates.iter().any(|(_, fps)| *fps != rates[0].1) {
            defects.push(StageDefect::Rates {
                sequence: name.to_owned(),
                rates: rates
                    .iter()
                    .map(|(f, fps)| format!("{f} {fps} fps"))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    stage.links = links;
    stage.cues = cues;
    (Some(stage), defects)
}

fn value(what: &'static str, name: &str, problem: &str) -> StageDefect {
    StageDefect::Value {
        what,
        name: name.to_owned(),
        problem: problem.to_owned(),
    }
}

/// A link's target on prop `name`: the point finite, a plane's normal or a line's direction
/// finite and not zero, a pose's rotation finite.
fn prop_target(
    lookup: &Lookup<'_>,
    name: &str,
    point: &[f64; 3],
    contact: PropContact,
) -> Result<LinkTarget, String> {
    let prop = lookup.prop(name)?;
    if !point
        .iter()
        .all(|v| marionette_skeleton::coordinate_in_range(*v))
    {
        return Err("the point on the prop is not a finite coordinate".into());
    }
    let axis = match contact {
        PropContact::Point => None,
        PropContact::Plane(v) => Some(("plane's normal", v)),
        PropContact::Line(v) => Some(("line's direction", v)),
        PropContact::Pose(r) | PropContact::Turn(r) => {
            if !r.iter().all(|a| a.is_finite() && a.abs() <= 1e6) {
                return Err(format!(
                    "the rotation ({}, {}, {}) is not finite degrees",
                    r[0], r[1], r[2]
                ));
            }
            None
        }
    };
    if let Some((what, v)) = axis {
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if !(norm.is_finite() && norm > 1e-9 && v.iter().all(|x| x.abs() <= 1e6)) {
            return Err(format!(
                "the {what} ({}, {}, {}) is not a finite, non-zero vector",
                v[0], v[1], v[2]
            ));
        }
    }
    Ok(LinkTarget::Prop {
        prop,
        point: *point,
        contact,
    })
}

/// What is wrong with a frame range, if anything.
fn frames_problem((first, last): (i64, i64)) -> Option<String> {
    let max = crate::sequence::MAX_FRAME;
    if !(frame_in_range(first) && frame_in_range(last)) {
        Some(format!("frame beyond ±{max}"))
    } else if first > last {
        Some(format!("frames ({first}, {last}) end before they start"))
    } else {
        None
    }
}

/// What is wrong with a placement, if anything.
fn place_problem(at: &[f64; 3], rotation: &[f64; 3]) -> Option<String> {
    if !at
        .iter()
        .all(|v| marionette_skeleton::coordinate_in_range(*v))
    {
        Some("its position is not a finite coordinate within ±1000000 m".into())
    } else if !rotation.iter().all(|v| v.is_finite() && v.abs() <= 1e6) {
        Some("its rotation is not a finite angle".into())
    } else {
        None
    }
}

/// What is wrong with a prop's shape, if anything: a size not positive or too large, a mesh file
/// (relative to `folder_path`) that cannot be read or is not glTF.
pub fn shape_problem(shape: &PropShape, folder_path: &Path) -> Option<String> {
    let size_ok = |v: f64| v.is_finite() && v > 0.0 && v <= MAX_PROP_SIZE;
    match shape {
        PropShape::Box { size } if !size.iter().all(|v| size_ok(*v)) => Some(format!(
            "box sizes must be positive and at most {MAX_PROP_SIZE} m"
        )),
        PropShape::Cylinder { radius, length } if !(size_ok(*radius) && size_ok(*length)) => Some(
            format!("cylinder radius and length must be positive and at most {MAX_PROP_SIZE} m"),
        ),
        PropShape::Sphere { radius } if !size_ok(*radius) => Some(format!(
            "sphere radius must be positive and at most {MAX_PROP_SIZE} m"
        )),
        PropShape::Mesh(file) => {
            mesh_problem(&folder_path.join(file)).map(|p| format!("mesh \"{file}\": {p}"))
        }
        _ => None,
    }
}

/// Why the mesh file at `path` cannot be a prop's, if it cannot: missing, unreadable, or not
/// glTF (a `.glb` starts with the glTF magic; a `.gltf` is a JSON object with an `asset`).
pub fn mesh_problem(path: &Path) -> Option<String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let limit = ron_io::MAX_FILE_BYTES.max(1 << 30);
    let bytes = match ron_io::read_bytes(path, limit, "a prop mesh") {
        Ok(b) => b,
        Err(e) => return Some(format!("cannot be read: {e}")),
    };
    match ext.as_deref() {
        Some("glb") if bytes.starts_with(b"glTF") => None,
        Some("glb") => Some("is not a binary glTF file (no glTF header)".into()),
        Some("gltf") => {
            let text = String::from_utf8_lossy(&bytes);
            (!(text.trim_start().starts_with('{') && text.contains("\"asset\"")))
                .then(|| "is not a glTF JSON file".into())
        }
        _ => Some("is not a .glb or .gltf file".into()),
    }
}

/// Finds names on a stage being resolved.
struct Lookup<'a> {
    stage: &'a Stage,
}

impl Lookup<'_> {
    fn figure(&self, name: &str) -> Result<usize, String> {
        self.stage
            .figure_index(name)
            .ok_or_else(|| format!("there is no figure \"{name}\" on the stage"))
    }

    fn prop(&self, name: &str) -> Result<usize, String> {
        self.stage
            .prop_index(name)
            .ok_or_else(|| format!("there is no prop \"{name}\" on the stage"))
    }

    fn site(&self, figure: &str, site: &str) -> Result<SiteRef, String> {
        let f = self.figure(figure)?;
        let skeleton = &self.stage.figures[f].document.skeleton;
        skeleton
            .site_by_name(site)
            .map(|site| SiteRef { figure: f, site })
            .ok_or_else(|| {
                format!(
                    "figure \"{figure}\" (skeleton \"{}\") has no site \"{site}\"",
                    skeleton.name()
                )
            })
    }
}
