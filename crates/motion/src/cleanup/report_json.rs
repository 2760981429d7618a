//! The cleanup's report as the JSON `marionette cleanup --json` prints (docs/file-formats.md),
//! made here so that every front end (the command, the Python package) gives the same object.

use serde_json::{Value, json};

use super::Cleaned;

impl Cleaned {
    /// The report of sequence `sequence`'s cleanup (which took `micros`), millimetres rounded
    /// to a tenth.
    pub fn report_json(&self, sequence: &str, micros: f64) -> Value {
        let mm = |m: f64| (m * 1e4).round() / 10.0;
        let contacts: Vec<_> = self
            .contacts
            .iter()
            .map(|c| {
                json!({"point": c.point, "lock": c.lock, "frames": [c.frames.0, c.frames.1],
                   "slide_before_mm": mm(c.slide_before), "slide_after_mm": mm(c.slide_after),
                   "held": c.held(), "at_limits": c.at_limits,
                   "gave_way_to": c.gave_way_to, "hips_lowered_mm": mm(c.lowered),
                   "let_go": c.let_go.as_ref().map(|l| json!({"from": l.from, "for": l.point,
                                                               "depth_mm": mm(l.depth)}))})
            })
            .collect();
        let steps: Vec<_> = self
            .steps
            .iter()
            .map(|s| {
                json!({"point": s.point, "largest_before_mm": mm(s.largest_before),
                   "largest_at_edges_mm": mm(s.largest_at_edges),
                   "largest_extra_at_edges_mm": mm(s.largest_extra_at_edges),
                   "largest_extra_frame": s.largest_extra_frame})
            })
            .collect();
        json!({"sequence": sequence, "frames": self.frames, "micros": micros,
               "contacts": contacts, "steps": steps, "replaced": self.replaced,
               "held": self.not_held().next().is_none(),
               "hips": {"most_raised_mm": mm(self.most_raised()),
                        "most_lowered_mm": mm(self.most_lowered()),
                        "steepest_step_mm": mm(self.steepest_pelvis_step()),
                        "below_floor_after_mm": mm(self.below_floor)},
               "floor_locks": self.floor_locks})
    }
}
