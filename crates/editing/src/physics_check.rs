//! One physics check of a take, whatever asks for it (`marionette physics check`, the Python
//! package): a capture's poses or a document's sequence baked with its locks held, weighed,
//! tracked (props held counted) and checked ([`marionette_physics::check`]), and the report as
//! the JSON docs/file-formats.md gives (*Physics check*).

use marionette_document::{Body, Stage};
use marionette_interchange::capture::{Capture, KNOWN_UNITS};
use marionette_motion::{BakeSettings, Baker, bake_with_threads};
use marionette_physics::check::{Report, check};
use marionette_physics::supports::SupportRule;
use marionette_physics::track::Track;
use marionette_physics::{MassModel, MassSettings};
use marionette_skeleton::Skeleton;
use nalgebra::Vector3;
use serde_json::{Value, json};

use crate::physics_carried::{CarriedProp, carried_props};
use crate::physics_view::{document_rule, held_points, mass_settings};

/// A take to check: the figure, its poses, its fps, and how a capture's scale was chosen.
#[derive(Debug, Clone)]
pub struct CheckTake {
    /// The figure.
    pub skeleton: Skeleton,
    /// Its state on every frame.
    pub poses: Vec<Vec<f64>>,
    /// Frames per second.
    pub fps: f64,
    /// A capture's scale (metres a unit) and why it was chosen; `None` for a document.
    pub scale: Option<(f64, String)>,
    /// Per frame, the points a document's locks hold in the world (empty for a capture).
    pub held: Vec<Vec<Vector3<f64>>>,
    /// The body a document gives its figure.
    pub body: Option<Body>,
    /// The props a stage figure grips in the sequence (empty for a capture).
    pub carried: Vec<CarriedProp>,
}

/// A checked take: its track, its masses and the report.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The centre of mass and momentum per frame.
    pub track: Track,
    /// The masses.
    pub model: MassModel,
    /// What the check found.
    pub report: Report,
}

impl CheckTake {
    /// A capture read (`scale_given`: whether its scale was asked for, else guessed).
    pub fn of_capture(capture: &Capture, scale_given: bool) -> CheckTake {
        let why = if scale_given {
            "given".to_owned()
        } else if capture.takes.is_some() {
            "an FBX file's own metres".to_owned()
        } else {
            let unit = KNOWN_UNITS
                .iter()
                .find(|(u, _)| *u == capture.scale)
                .map_or("a person's height", |(_, name)| name);
            format!("guessed: {unit}")
        };
        let sequence = &capture.imported.sequence;
        CheckTake {
            poses: sequence.keys.iter().map(|k| k.pose.q.clone()).collect(),
            fps: sequence.fps,
            skeleton: capture.imported.skeleton.clone(),
            scale: Some((capture.scale, why)),
            held: Vec::new(),
            body: None,
            carried: Vec::new(),
        }
    }

    /// Figure `figure`'s sequence `sequence` of `stage`, baked with its locks held (the error
    /// names a sequence the figure lacks).
    pub fn of_document(stage: &Stage, figure: usize, sequence: &str) -> Result<CheckTake, String> {
        let doc = &stage.figures[figure].document;
        let sequence = doc
            .sequences
            .iter()
            .find(|s| s.name == sequence)
            .ok_or_else(|| {
                marionette_interchange::stage::document_export::no_sequence(
                    &doc.sequences,
                    sequence,
                )
            })?;
        let baker = Baker::new(&doc.skeleton, sequence, &doc.locks, BakeSettings::default());
        let frames = bake_with_threads(&baker, 0, &|| {})
            .map_err(|e| format!("cannot start the baking threads: {e}"))?;
        let first = frames.first().map_or(0, |f| f.frame);
        let poses: Vec<Vec<f64>> = frames.into_iter().map(|f| f.q).collect();
        let held = held_points(&doc.skeleton, &doc.locks, first, &poses);
        let carried = carried_props(stage, figure, &sequence.name, (first, poses.len()))?;
        Ok(CheckTake {
            skeleton: doc.skeleton.clone(),
            poses,
            fps: sequence.fps,
            scale: None,
            held,
            body: doc.body,
            carried,
        })
    }

    /// The masses `settings` say (else the figure's own body, else 75 kg, male), the track with
    /// the props held counted, and the check; the error says why the figure cannot be weighed.
    pub fn check(&self, settings: Option<MassSettings>) -> Result<Checked, String> {
        let settings = settings.unwrap_or_else(|| mass_settings(self.body));
        let model = MassModel::of(&self.skeleton, settings).map_err(|e| e.to_string())?;
        let loads: Vec<_> = self.carried.iter().map(|c| c.carried.clone()).collect();
        let track = Track::of(
            &self.skeleton,
            &model,
            self.poses.iter().map(Vec::as_slice),
            self.fps,
        )
        .carrying(model.total, &loads);
        let rule = match self.scale {
            None => document_rule(),
            Some(_) => SupportRule::default(),
        };
        let report = check(&track, &rule, &self.held);
        Ok(Checked {
            track,
            model,
            report,
        })
    }

    /// The JSON of `physics check --json` (docs/file-formats.md).
    pub fn json(&self, checked: &Checked) -> Value {
        let Checked {
            track,
            model,
            report,
        } = checked;
        let point = |v: &Vector3<f64>| json!([v.x, v.y, v.z]);
        let spans: Vec<Value> = report
            .spans
            .iter()
            .map(|s| {
                json!({
                    "from": s.from, "to": s.to, "kind": s.kind.key(), "g": s.g,
                    "residual_m": s.residual_m, "horizontal_accel": s.horizontal_accel,
                    "momentum_spread": s.momentum_spread,
                })
            })
            .collect();
        let balance = &report.balance;
        let height = marionette_physics::rest::at_rest(&self.skeleton, model).height;
        json!({
            "fps": track.fps,
            "frames": track.len(),
            "mass_kg": model.total,
            "mass_model": model.source.key(),
            "height_m": height,
            "com": track.com.iter().map(point).collect::<Vec<_>>(),
            "support": report.supports.iter().map(Vec::len).collect::<Vec<_>>(),
            "spans": spans,
            "balance": {
                "quiet_frames": balance.quiet_frames,
                "inside": balance.inside,
                "median_margin_m": balance.median_margin_m,
                "frames": balance.frames.iter()
                    .map(|(f, m)| json!({"frame": f, "margin_m": m}))
                    .collect::<Vec<_>>(),
            },
            "scale": self.scale.as_ref().map(|s| s.0),
            "carried": self.carried.iter().filter_map(|c| {
                let (from, to) = c.held_span()?;
                Some(json!({"prop": c.name, "mass_kg": c.carried.mass, "from": from, "to": to,
                    "frames": c.carried.held.iter().filter(|&&h| h).count()}))
            }).collect::<Vec<_>>(),
            "unit_hint": report.unit_hint.map(|(factor, g)| json!({
                "scale": self.scale.as_ref().map_or(factor, |s| s.0 * factor), "median_g": g,
            })),
        })
    }
}
