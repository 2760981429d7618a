//! Checking a stage document as it is read: every figure's skeleton loaded and its own part
//! checked as a one-figure document's, names unique among figures and props, every link, track,
//! grip and release naming what is on the stage, frames in order, sizes and places finite. Every
//! defect is listed, each naming the figure, prop, link or cue at fault.

use std::path::Path;

use marionette_skeleton::{Skeleton, ron_io};

use super::cues::resolve_cue;
use super::format::StageDef;
use super::links::resolve_link;
use super::lookup::{Lookup, place_problem};
use crate::file::{DocumentDef, DocumentDefect, FORMAT_VERSION, resolve};
use crate::stage::{Cue, Link, Placement, Prop, PropPlace, PropShape, Stage, StageFigure};

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
            body: f.body,
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
        if let Some(problem) = p.mass.and_then(Prop::mass_problem) {
            defects.push(value("prop", &name, &problem));
        }
        props.push(Prop {
            name,
            shape: p.shape,
            place: PropPlace {
                at: p.at,
                rotation: p.rotation,
            },
            mass: p.mass,
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
    let mut links: Vec<Link> = Vec::new();
    for l in &def.links {
        match resolve_link(l, &lookup, &links) {
            Ok(link) => links.push(link),
            Err(problem) => defects.push(StageDefect::Link {
                link: l.name.clone(),
                problem,
            }),
        }
    }
    let mut cues: Vec<Cue> = Vec::new();
    for c in &def.cues {
        let mut bad = |problem: String| {
            defects.push(StageDefect::Cue {
                sequence: c.sequence.clone(),
                problem,
            })
        };
        if let Some(cue) = resolve_cue(c, &stage, &lookup, &cues, &mut bad) {
            cues.push(cue);
        }
    }
    defects.extend(rate_defects(&stage));
    stage.links = links;
    stage.cues = cues;
    (Some(stage), defects)
}

/// One defect per sequence that figures play at different rates.
fn rate_defects(stage: &Stage) -> Vec<StageDefect> {
    let mut defects = Vec::new();
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
    defects
}

fn value(what: &'static str, name: &str, problem: &str) -> StageDefect {
    StageDefect::Value {
        what,
        name: name.to_owned(),
        problem: problem.to_owned(),
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
