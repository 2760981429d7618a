//! A key's parts and free handles as the Document file writes them (docs/file-formats.md,
//! *Keys on some joints* and *Free handles*): joints by name, DOFs and curves by their curve
//! names ([`crate::curve_name`]: "left shoulder 2", "root y"), values in degrees or metres;
//! read back into [`KeyedParts`] and [`FreeHandles`], refusing what names nothing.

use marionette_skeleton::{DofId, Skeleton};
use serde::{Deserialize, Serialize};

use crate::curve_name::{curve_name, curve_state};
use crate::sequence::{FreeHandles, KeyedParts, MAX_HANDLE_VALUE, MAX_SPAN, handles_fit};

/// The parts a key holds when it holds only some.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Only", deny_unknown_fields)]
pub(crate) struct OnlyDef {
    #[serde(default)]
    pub(crate) joints: Vec<String>,
    /// Single DOFs, by their curve names ("left shoulder 2").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) dofs: Vec<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) root: bool,
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// A key's free handles on one curve: its curve name and the two offsets (frames, degrees or
/// metres) from the key's point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Handle", deny_unknown_fields)]
pub(crate) struct HandleDef {
    pub(crate) curve: String,
    pub(crate) before: (f64, f64),
    pub(crate) after: (f64, f64),
}

/// The DOF a curve name names (not a root coordinate).
fn named_dof(skeleton: &Skeleton, name: &str) -> Result<DofId, String> {
    let state = curve_state(skeleton, name)?;
    skeleton.dof_at_state(state).ok_or_else(|| {
        format!("\"{name}\" is the root translation's, which `root: true` holds (all three)")
    })
}

/// The parts an `Only` names.
pub(crate) fn keyed_parts(skeleton: &Skeleton, only: &OnlyDef) -> Result<KeyedParts, String> {
    let joints = only
        .joints
        .iter()
        .map(|n| {
            skeleton
                .joint_by_name(n)
                .ok_or_else(|| format!("`only` names no joint \"{n}\""))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let dofs = only
        .dofs
        .iter()
        .map(|n| named_dof(skeleton, n).map_err(|e| format!("`only`: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(KeyedParts::new(joints, only.root).with_dofs(skeleton, dofs))
}

/// A value of curve `state` in file units (degrees for a hinge, metres otherwise) from state
/// units, as files write it.
fn to_file(skeleton: &Skeleton, state: usize, value: f64) -> f64 {
    match skeleton.dof_at_state(state) {
        Some(d) => skeleton.dof(d).to_written_units(value),
        None => value,
    }
}

/// A value of curve `state` in state units from file units.
fn from_file(skeleton: &Skeleton, state: usize, value: f64) -> f64 {
    match skeleton.dof_at_state(state) {
        Some(d) => skeleton.dof(d).from_file_units(value),
        None => value,
    }
}

/// A key's handles as the file writes them.
pub(crate) fn handle_def(skeleton: &Skeleton, h: &FreeHandles) -> HandleDef {
    HandleDef {
        curve: curve_name(skeleton, h.state),
        before: (h.before[0], to_file(skeleton, h.state, h.before[1])),
        after: (h.after[0], to_file(skeleton, h.state, h.after[1])),
    }
}

/// The handles a key's file names, each on a curve the key holds (`only` as read), in state
/// order.
pub(crate) fn key_handles(
    skeleton: &Skeleton,
    defs: &[HandleDef],
    only: Option<&KeyedParts>,
) -> Result<Vec<FreeHandles>, String> {
    let mut out = Vec::with_capacity(defs.len());
    for h in defs {
        let state = curve_state(skeleton, &h.curve).map_err(|e| format!("a handle: {e}"))?;
        let held = |o: &KeyedParts| match skeleton.dof_at_state(state) {
            Some(d) => o.holds_dof(skeleton.dof(d).joint, d),
            None => o.root,
        };
        if !only.is_none_or(held) {
            return Err(format!(
                "a handle on \"{}\", which the key does not hold",
                h.curve
            ));
        }
        let (before, after) = (
            [h.before.0, from_file(skeleton, state, h.before.1)],
            [h.after.0, from_file(skeleton, state, h.after.1)],
        );
        if !handles_fit(before, after) {
            return Err(format!(
                "the handles on \"{}\" must be finite, `before` at or before the key (frames ≤ 0) and `after` at or after it (frames ≥ 0), within {MAX_SPAN} frames and ±{MAX_HANDLE_VALUE} radians or metres",
                h.curve
            ));
        }
        out.push(FreeHandles {
            state,
            before,
            after,
        });
    }
    out.sort_by_key(|h| h.state);
    if out.windows(2).any(|w| w[0].state == w[1].state) {
        return Err("two handles on one curve".into());
    }
    Ok(out)
}
