//! A stage: several figures and props in one document, with links between them (a hand in a
//! hand, a hand on a table) and cues that say what the props do in each sequence (their keys,
//! who grips them from which frame, when they are let go). The file is version 2 of the Document
//! format ([`crate::stage::file`]); a version-1 document is a stage of one figure
//! ([`Stage::from_document`]) and is written back as version 1 while it stays one
//! ([`Stage::is_one_figure`]).
//!
//! Each figure keeps its own document (skeleton, pose, locks, sequences, pose library), all in
//! the figure's own frame; its [`Placement`] on the floor puts that frame on the stage. A sequence
//! of the stage is every figure's sequence of that name played together (a figure without one
//! keeps its pose) with the cue of that name for the props.

pub mod check;
mod cues;
pub mod file;
mod format;
mod links;
mod lookup;

use marionette_skeleton::SiteId;
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use crate::file::DocumentFile;

/// Where a figure stands: its own frame moved to `at` on the floor (x, z) and turned `facing`
/// degrees about the vertical (+Y), counter-clockwise seen from above.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Placement {
    /// (x, z) in metres.
    pub at: [f64; 2],
    /// Degrees about +Y.
    pub facing: f64,
}

impl Placement {
    /// The rigid motion from the figure's frame to the stage's.
    pub fn isometry(&self) -> Isometry3<f64> {
        Isometry3::from_parts(
            Translation3::new(self.at[0], 0.0, self.at[1]),
            UnitQuaternion::from_axis_angle(&Vector3::y_axis(), self.facing.to_radians()),
        )
    }

    /// Whether the figure's frame is the stage's (a version-1 document's figure).
    pub fn is_identity(&self) -> bool {
        self.at == [0.0, 0.0] && self.facing == 0.0
    }
}

/// One figure on the stage.
#[derive(Debug, Clone)]
pub struct StageFigure {
    /// Unique on the stage (among figures and props), not empty.
    pub name: String,
    /// Where it stands.
    pub placement: Placement,
    /// Its skeleton, pose, locks (in its own frame), sequences and pose library.
    pub document: DocumentFile,
}

/// A prop's shape, in its own frame (centred on its origin).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum PropShape {
    /// A box of these full sizes along x, y, z (metres).
    Box {
        /// Full extents.
        size: [f64; 3],
    },
    /// A cylinder along the prop's y axis.
    Cylinder {
        /// Radius in metres.
        radius: f64,
        /// Length in metres.
        length: f64,
    },
    /// A sphere.
    Sphere {
        /// Radius in metres.
        radius: f64,
    },
    /// A glTF mesh file (`.glb` or `.gltf`), relative to the document's folder.
    Mesh(String),
}

/// A prop's placement: a position and a rotation Rx·Ry·Rz in degrees, as the file writes it
/// (kept as written, so a document reads and writes back byte for byte).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PropPlace {
    /// Position of the prop's origin on the stage (metres).
    pub at: [f64; 3],
    /// Rotation Rx·Ry·Rz in degrees.
    pub rotation: [f64; 3],
}

impl PropPlace {
    /// The rigid motion from the prop's frame to the stage's.
    pub fn isometry(&self) -> Isometry3<f64> {
        let r = marionette_skeleton::rotation::orientation_from_degrees(self.rotation);
        Isometry3::from_parts(
            Translation3::new(self.at[0], self.at[1], self.at[2]),
            marionette_skeleton::rotation::quaternion_of(&r),
        )
    }
}

/// A rigid object on the stage.
#[derive(Debug, Clone, PartialEq)]
pub struct Prop {
    /// Unique on the stage (among figures and props), not empty.
    pub name: String,
    /// What it looks like.
    pub shape: PropShape,
    /// Where it is when no sequence moves it.
    pub place: PropPlace,
    /// Its mass in kilograms (`None`: [`Prop::DEFAULT_MASS`]), counted in a figure's centre of
    /// mass while the figure grips it.
    pub mass: Option<f64>,
}

impl Prop {
    /// A prop's mass when its document gives none (kg).
    pub const DEFAULT_MASS: f64 = 1.0;
    /// The heaviest prop a document may give (kg): more is a typing slip.
    pub const HEAVIEST: f64 = 10_000.0;

    /// Its mass in kilograms.
    pub fn mass_kg(&self) -> f64 {
        self.mass.unwrap_or(Prop::DEFAULT_MASS)
    }

    /// What is wrong with mass `kg` for a prop, if anything.
    pub fn mass_problem(kg: f64) -> Option<String> {
        (!(kg.is_finite() && kg > 0.0 && kg <= Prop::HEAVIEST)).then(|| {
            format!(
                "its mass {kg} kg is not above 0 and at most {} kg",
                Prop::HEAVIEST
            )
        })
    }
}

/// A prop's placement at a frame of a sequence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PropKey {
    /// The frame.
    pub frame: i64,
    /// The placement.
    pub place: PropPlace,
}

/// A prop's keys in one sequence (strictly increasing frames, at least one).
#[derive(Debug, Clone, PartialEq)]
pub struct PropTrack {
    /// The prop (index into [`Stage::props`]).
    pub prop: usize,
    /// The keys.
    pub keys: Vec<PropKey>,
}

/// A site of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteRef {
    /// The figure (index into [`Stage::figures`]).
    pub figure: usize,
    /// The site, in that figure's skeleton.
    pub site: SiteId,
}

/// A change of who holds a prop, from a frame on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Hold {
    /// From `frame` on, the prop follows the site, keeping the offset it has to the site at
    /// that frame (a grip while another site holds it is a hand-over).
    Grip {
        /// The prop.
        prop: usize,
        /// The site that holds it.
        by: SiteRef,
        /// The first frame it is held.
        frame: i64,
    },
    /// From `frame` on, the prop stays where it is at that frame.
    Release {
        /// The prop.
        prop: usize,
        /// The frame it is let go.
        frame: i64,
    },
}

impl Hold {
    /// The prop it concerns.
    pub fn prop(&self) -> usize {
        match *self {
            Hold::Grip { prop, .. } | Hold::Release { prop, .. } => prop,
        }
    }

    /// The frame it happens on.
    pub fn frame(&self) -> i64 {
        match *self {
            Hold::Grip { frame, .. } | Hold::Release { frame, .. } => frame,
        }
    }
}

/// What the props do in one sequence: their keys and holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Cue {
    /// The sequence's name (a sequence of at least one figure).
    pub sequence: String,
    /// Props moved by keys (before their first grip).
    pub tracks: Vec<PropTrack>,
    /// Grips and releases, sorted by frame (per prop, strictly increasing).
    pub holds: Vec<Hold>,
}

impl Cue {
    /// The site holding prop `prop` on `frame`: the last grip or release of it at or before
    /// the frame, when a grip.
    pub fn holder_at(&self, prop: usize, frame: i64) -> Option<SiteRef> {
        self.holds
            .iter()
            .rfind(|h| h.prop() == prop && h.frame() <= frame)
            .and_then(|h| match *h {
                Hold::Grip { by, .. } => Some(by),
                Hold::Release { .. } => None,
            })
    }
}

/// What a link holds a figure's site to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LinkTarget {
    /// Another figure's site: both figures move to meet (both limbs within their limits).
    Site(SiteRef),
    /// Another figure's site, the two sites' joints also keeping a relative orientation (two
    /// hands clasped): the first site's joint frame turned as `rotation` (Rx·Ry·Rz degrees) in
    /// the second's.
    SitePose {
        /// The other figure's site.
        site: SiteRef,
        /// The first site's joint frame in the second's (degrees).
        rotation: [f64; 3],
    },
    /// A point, plane or line fixed in a prop's frame (the prop's own motion carries it).
    Prop {
        /// The prop.
        prop: usize,
        /// The point (on the plane or line), in the prop's frame (metres).
        point: [f64; 3],
        /// What of the prop holds the site.
        contact: PropContact,
    },
}

impl LinkTarget {
    /// The other figure's site, for a link between two figures.
    pub fn site(&self) -> Option<SiteRef> {
        match self {
            LinkTarget::Site(s) | LinkTarget::SitePose { site: s, .. } => Some(*s),
            LinkTarget::Prop { .. } => None,
        }
    }

    /// The other figure's site, to renumber it.
    pub fn site_mut(&mut self) -> Option<&mut SiteRef> {
        match self {
            LinkTarget::Site(s) | LinkTarget::SitePose { site: s, .. } => Some(s),
            LinkTarget::Prop { .. } => None,
        }
    }
}

/// How a prop holds a site: at a point (a hand on a handle), on a plane through the point (a
/// foot on a step: it may slide over it), or on a line through it (a hand along a table's edge).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PropContact {
    /// At the point.
    Point,
    /// On the plane through the point with this normal (in the prop's frame, not zero).
    Plane([f64; 3]),
    /// On the line through the point along this direction (in the prop's frame, not zero).
    Line([f64; 3]),
    /// At the point, the site's joint turned as this rotation (Rx·Ry·Rz degrees) in the prop's
    /// frame: position and orientation held (a hand gripping a bar, a foot flat on a step).
    Pose([f64; 3]),
    /// Only the site's joint turned as this rotation (Rx·Ry·Rz degrees) in the prop's frame,
    /// wherever the site is (a hand kept level with a tray); the point is not used.
    Turn([f64; 3]),
}

/// A lock between two things on the stage: a figure's site held to another figure's site or to
/// a point of a prop.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Unique among the links, not empty.
    pub name: String,
    /// The site held.
    pub a: SiteRef,
    /// What it is held to.
    pub b: LinkTarget,
    /// Off links hold nothing.
    pub enabled: bool,
    /// The frames it holds on in sequences (inclusive); `None`: every frame.
    pub frames: Option<(i64, i64)>,
}

impl Link {
    /// Whether it holds at `frame` (`None`: the pose being edited).
    pub fn active_at(&self, frame: Option<i64>) -> bool {
        self.enabled
            && match (frame, self.frames) {
                (Some(f), Some((first, last))) => first <= f && f <= last,
                _ => true,
            }
    }

    /// The figures it ties together (one or two).
    pub fn figures(&self) -> (usize, Option<usize>) {
        match self.b {
            LinkTarget::Site(b) | LinkTarget::SitePose { site: b, .. } => {
                (self.a.figure, Some(b.figure))
            }
            LinkTarget::Prop { .. } => (self.a.figure, None),
        }
    }
}

/// Several figures and props, the links between them and the props' cues.
#[derive(Debug, Clone)]
pub struct Stage {
    /// At least one.
    pub figures: Vec<StageFigure>,
    /// The props.
    pub props: Vec<Prop>,
    /// The links.
    pub links: Vec<Link>,
    /// Per sequence, what the props do.
    pub cues: Vec<Cue>,
}

impl Stage {
    /// A version-1 document as a stage: its one figure, named after its skeleton, standing at
    /// the origin.
    pub fn from_document(document: DocumentFile) -> Stage {
        Stage {
            figures: vec![StageFigure {
                name: document.skeleton.name().to_owned(),
                placement: Placement::default(),
                document,
            }],
            props: Vec::new(),
            links: Vec::new(),
            cues: Vec::new(),
        }
    }

    /// Whether the stage is what a version-1 document holds (one figure named after its
    /// skeleton at the origin, no props, links or cues), and is written as one.
    pub fn is_one_figure(&self) -> bool {
        matches!(self.figures.as_slice(), [f] if f.placement.is_identity()
            && f.name == f.document.skeleton.name())
            && self.props.is_empty()
            && self.links.is_empty()
            && self.cues.is_empty()
    }

    /// The one figure's document when the stage is what a version-1 document holds
    /// ([`Stage::is_one_figure`]); else the stage itself, for the commands that take stages.
    pub fn into_one_figure(self) -> Result<DocumentFile, Stage> {
        if self.is_one_figure() {
            Ok(self
                .figures
                .into_iter()
                .next()
                .expect("one figure")
                .document)
        } else {
            Err(self)
        }
    }

    /// Every figure's name, quoted and joined (`"A", "B"`), as messages list them.
    pub fn figure_list(&self) -> String {
        self.figures
            .iter()
            .map(|f| format!("\"{}\"", f.name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The figure named `name`.
    pub fn figure_index(&self, name: &str) -> Option<usize> {
        self.figures.iter().position(|f| f.name == name)
    }

    /// The prop named `name`.
    pub fn prop_index(&self, name: &str) -> Option<usize> {
        self.props.iter().position(|p| p.name == name)
    }

    /// Every sequence name of any figure, in order of first appearance.
    pub fn sequence_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for f in &self.figures {
            for s in &f.document.sequences {
                if !names.contains(&s.name.as_str()) {
                    names.push(&s.name);
                }
            }
        }
        names
    }

    /// The cue of sequence `name`, if the props do anything in it.
    pub fn cue(&self, name: &str) -> Option<&Cue> {
        self.cues.iter().find(|c| c.sequence == name)
    }

    /// A site's name, "figure: site", as messages and reports write it.
    pub fn site_label(&self, site: SiteRef) -> String {
        let f = &self.figures[site.figure];
        format!(
            "{}: {}",
            f.name,
            f.document.skeleton.site(site.site).name.as_str()
        )
    }
}
