//! The stage document (version 2 of docs/file-formats.md's Document): figures, each with what a
//! version-1 document holds plus a name and a place on the floor, props, links and cues. Loading
//! reads either version ([`StageFile::load`]): a version-1 file is a stage of one figure, written
//! back as version 1 while it stays one. Every defect is listed with the figure, prop, link or cue
//! at fault; nothing is half-loaded.

use std::path::Path;

use marionette_skeleton::{FileError, ron_io};

use super::check::{StageDefect, resolve_stage};
use super::format::{
    CueDef, FigureDef, HoldDef, LinkDef, LinkTargetDef, PropDef, PropKeyDef, StageDef, TrackDef,
};
use crate::file::{DocumentError, DocumentFile, STAGE_VERSION, folder, write_pretty};
use crate::stage::{Hold, LinkTarget, PropContact, SiteRef, Stage};
use crate::version_probe::VersionProbe;

/// Why a stage document could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StageError {
    /// A version-1 document's error.
    #[error(transparent)]
    Document(#[from] DocumentError),
    /// A stage document that cannot be read or does not fit.
    #[error(transparent)]
    Stage(#[from] FileError<StageDefect>),
}

/// A loaded stage document and the version it was read as.
#[derive(Debug, Clone)]
pub struct StageFile {
    /// The stage.
    pub stage: Stage,
}

impl StageFile {
    /// Loads a document of either version, and every skeleton (and prop mesh) it names.
    pub fn load(path: impl AsRef<Path>) -> Result<StageFile, StageError> {
        let path = path.as_ref();
        let file = ron_io::display_path(path);
        let text = ron_io::read_text(path).map_err(|source| FileError::Io {
            file: file.clone(),
            source,
        })?;
        StageFile::from_ron_str(&text, path)
    }

    /// Parses a document's text of either version; `path` is where it lives.
    pub fn from_ron_str(text: &str, path: &Path) -> Result<StageFile, StageError> {
        let file = ron_io::display_path(path);
        let version = VersionProbe::version_of(text);
        if version != Ok(STAGE_VERSION) {
            let document = DocumentFile::from_ron_str(text, path)?;
            return Ok(StageFile {
                stage: Stage::from_document(document),
            });
        }
        let def: StageDef = FileError::<StageDefect>::parse_ron(text, &file)?;
        let (stage, defects) = resolve_stage(def, folder(path));
        match stage {
            Some(stage) if defects.is_empty() => Ok(StageFile { stage }),
            _ => Err(FileError::Invalid { file, defects }.into()),
        }
    }

    /// The document's text, to be saved at `path`: version 1 while the stage is one figure
    /// ([`Stage::is_one_figure`]), else version 2.
    pub fn to_ron_string(&self, path: &Path) -> Result<String, ron::Error> {
        let stage = &self.stage;
        if stage.is_one_figure() {
            return stage.figures[0].document.to_ron_string(path);
        }
        let mut figures = Vec::with_capacity(stage.figures.len());
        for f in &stage.figures {
            let d = f.document.to_def(path)?;
            figures.push(FigureDef {
                name: f.name.clone(),
                skeleton: d.skeleton,
                at: f.placement.at,
                facing: f.placement.facing,
                pose: d.pose,
                locks: d.locks,
                sequences: d.sequences,
                library: d.library,
                body: d.body,
            });
        }
        let figure = |i: usize| stage.figures[i].name.clone();
        let site = |s: SiteRef| {
            stage.figures[s.figure]
                .document
                .skeleton
                .site(s.site)
                .name
                .clone()
        };
        let def = StageDef {
            version: STAGE_VERSION,
            figures,
            props: stage
                .props
                .iter()
                .map(|p| PropDef {
                    name: p.name.clone(),
                    shape: p.shape.clone(),
                    at: p.place.at,
                    rotation: p.place.rotation,
                    mass: p.mass,
                })
                .collect(),
            links: stage
                .links
                .iter()
                .map(|l| LinkDef {
                    name: l.name.clone(),
                    a: (figure(l.a.figure), site(l.a)),
                    b: match l.b {
                        LinkTarget::Site(b) => LinkTargetDef::Site(figure(b.figure), site(b)),
                        LinkTarget::SitePose { site: b, rotation } => {
                            LinkTargetDef::SitePose(figure(b.figure), site(b), rotation)
                        }
                        LinkTarget::Prop {
                            prop,
                            point,
                            contact,
                        } => {
                            let name = stage.props[prop].name.clone();
                            match contact {
                                PropContact::Point => LinkTargetDef::Prop(name, point),
                                PropContact::Plane(n) => LinkTargetDef::PropPlane(name, point, n),
                                PropContact::Line(d) => LinkTargetDef::PropLine(name, point, d),
                                PropContact::Pose(r) => LinkTargetDef::PropPose(name, point, r),
                                PropContact::Turn(r) => LinkTargetDef::PropTurn(name, r),
                            }
                        }
                    },
                    enabled: l.enabled,
                    frames: l.frames,
                })
                .collect(),
            cues: stage
                .cues
                .iter()
                .map(|c| CueDef {
                    sequence: c.sequence.clone(),
                    tracks: c
                        .tracks
                        .iter()
                        .map(|t| TrackDef {
                            prop: stage.props[t.prop].name.clone(),
                            keys: t
                                .keys
                                .iter()
                                .map(|k| PropKeyDef {
                                    frame: k.frame,
                                    at: k.place.at,
                                    rotation: k.place.rotation,
                                })
                                .collect(),
                        })
                        .collect(),
                    holds: c
                        .holds
                        .iter()
                        .map(|h| match *h {
                            Hold::Grip { prop, by, frame } => HoldDef::Grip {
                                prop: stage.props[prop].name.clone(),
                                figure: figure(by.figure),
                                site: site(by),
                                frame,
                            },
                            Hold::Release { prop, frame } => HoldDef::Release {
                                prop: stage.props[prop].name.clone(),
                                frame,
                            },
                        })
                        .collect(),
                })
                .collect(),
        };
        write_pretty(&def)
    }

    /// Saves atomically at `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), StageError> {
        let path = path.as_ref();
        FileError::<StageDefect>::write_text(path, self.to_ron_string(path))?;
        Ok(())
    }
}
