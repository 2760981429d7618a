//! The stage document's syntax (version 2 of docs/file-formats.md's Document), as serde reads
//! and writes it: names where the model has indices, degrees and tuples as written.

use marionette_skeleton::PoseFile;
use serde::{Deserialize, Serialize};

use crate::file::{LibraryPoseDef, LockDef, SequenceDef};
use crate::stage::PropShape;

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_origin3(v: &[f64; 3]) -> bool {
    *v == [0.0; 3]
}

fn is_origin2(v: &[f64; 2]) -> bool {
    *v == [0.0; 2]
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Figure", deny_unknown_fields)]
pub(crate) struct FigureDef {
    pub(crate) name: String,
    pub(crate) skeleton: String,
    #[serde(default, skip_serializing_if = "is_origin2")]
    pub(crate) at: [f64; 2],
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) facing: f64,
    #[serde(default)]
    pub(crate) pose: Option<PoseFile>,
    #[serde(default)]
    pub(crate) locks: Vec<LockDef>,
    #[serde(default)]
    pub(crate) sequences: Vec<SequenceDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) library: Vec<LibraryPoseDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) body: Option<crate::body::Body>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Prop", deny_unknown_fields)]
pub(crate) struct PropDef {
    pub(crate) name: String,
    pub(crate) shape: PropShape,
    #[serde(default)]
    pub(crate) at: [f64; 3],
    #[serde(default, skip_serializing_if = "is_origin3")]
    pub(crate) rotation: [f64; 3],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) mass: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum LinkTargetDef {
    Site(String, String),
    SitePose(String, String, [f64; 3]),
    Prop(String, [f64; 3]),
    PropPlane(String, [f64; 3], [f64; 3]),
    PropLine(String, [f64; 3], [f64; 3]),
    PropPose(String, [f64; 3], [f64; 3]),
    PropTurn(String, [f64; 3]),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Link", deny_unknown_fields)]
pub(crate) struct LinkDef {
    pub(crate) name: String,
    pub(crate) a: (String, String),
    pub(crate) b: LinkTargetDef,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub(crate) enabled: bool,
    #[serde(default)]
    pub(crate) frames: Option<(i64, i64)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "PropKey", deny_unknown_fields)]
pub(crate) struct PropKeyDef {
    pub(crate) frame: i64,
    pub(crate) at: [f64; 3],
    #[serde(default, skip_serializing_if = "is_origin3")]
    pub(crate) rotation: [f64; 3],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Track", deny_unknown_fields)]
pub(crate) struct TrackDef {
    pub(crate) prop: String,
    pub(crate) keys: Vec<PropKeyDef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum HoldDef {
    Grip {
        prop: String,
        figure: String,
        site: String,
        frame: i64,
    },
    Release {
        prop: String,
        frame: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Cue", deny_unknown_fields)]
pub(crate) struct CueDef {
    pub(crate) sequence: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) tracks: Vec<TrackDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) holds: Vec<HoldDef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Document", deny_unknown_fields)]
pub(crate) struct StageDef {
    pub(crate) version: u32,
    pub(crate) figures: Vec<FigureDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) props: Vec<PropDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) links: Vec<LinkDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) cues: Vec<CueDef>,
}
