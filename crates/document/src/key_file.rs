//! A key's parts and free handles as the Document file writes them (docs/file-formats.md,
//! *Keys on some joints* and *Free handles*): joints and DOFs by name, values in degrees or
//! metres; read back into [`KeyedParts`] and [`FreeHandles`], refusing what names nothing.

use marionette_skeleton::{DofId, Skeleton};
use serde::{Deserialize, Serialize};

use crate::sequence::{FreeHandles, KeyedParts, MAX_HANDLE_VALUE, MAX_SPAN, handles_fit};

/// The parts a key holds when it holds only some.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Only", deny_unknown_fields)]
pub(crate) struct OnlyDef {
    #[serde(default)]
    pub(crate) joints: Vec<String>,
    /// Single DOFs: the joint and the DOF's place in its list, counted from 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) dofs: Vec<(String, usize)>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) root: bool,
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// A key's free handles on one DOF: the joint, the DOF's place in the joint's list counted
/// from 1, and the two offsets (frames, degrees or metres) from the key's point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Handle", deny_unknown_fields)]
pub(crate) struct HandleDef {
    pub(crate) joint: String,
    pub(crate) dof: usize,
    pub(crate) before: (f64, f64),
    pub(crate) after: (f64, f64),
}

/// DOF `dof` as the file names it: (its joint, its place counted from 1).
pub(crate) fn dof_name(skeleton: &Skeleton, dof: DofId) -> (String, usize) {
    let d = skeleton.dof(dof);
    (skeleton.joint(d.joint).name.clone(), d.index_in_joint + 1)
}

/// The DOF the file names (joint, place from 1), or what is wrong with the name.
fn named_dof(skeleton: &Skeleton, joint: &str, place: usize) -> Result<DofId, String> {
    let j = skeleton
        .joint_by_name(joint)
        .ok_or_else(|| format!("no joint \"{joint}\""))?;
    let count = skeleton.joint_dofs(j).len();
    place
        .checked_sub(1)
        .and_then(|i| skeleton.joint_dofs(j).nth(i))
        .ok_or_else(|| format!("\"{joint}\" has no DOF {place} (it has {count}, counted from 1)"))
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
        .map(|(j, i)| named_dof(skeleton, j, *i).map_err(|e| format!("`only`: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(KeyedParts::new(joints, only.root).with_dofs(skeleton, dofs))
}

/// A key's handles as the file writes them.
pub(crate) fn handle_def(skeleton: &Skeleton, h: &FreeHandles) -> HandleDef {
    let dof = skeleton.dof(h.dof);
    let (joint, place) = dof_name(skeleton, h.dof);
    HandleDef {
        joint,
        dof: place,
        before: (h.before[0], dof.to_written_units(h.before[1])),
        after: (h.after[0], dof.to_written_units(h.after[1])),
    }
}

/// The handles a key's file names, each on a DOF the key holds (`only` as read), in DOF
/// order; the numbers are checked with the sequence.
pub(crate) fn key_handles(
    skeleton: &Skeleton,
    defs: &[HandleDef],
    only: Option<&KeyedParts>,
) -> Result<Vec<FreeHandles>, String> {
    let mut out = Vec::with_capacity(defs.len());
    for h in defs {
        let d = named_dof(skeleton, &h.joint, h.dof).map_err(|e| format!("a handle: {e}"))?;
        let joint = skeleton.dof(d).joint;
        if only.is_some_and(|o| !o.holds_dof(joint, d)) {
            return Err(format!(
                "a handle on \"{}\" DOF {} which the key does not hold",
                h.joint, h.dof
            ));
        }
        let dof = skeleton.dof(d);
        let (before, after) = (
            [h.before.0, dof.from_file_units(h.before.1)],
            [h.after.0, dof.from_file_units(h.after.1)],
        );
        if !handles_fit(before, after) {
            return Err(format!(
                "the handles on \"{}\" DOF {} must be finite, `before` at or before the key (frames ≤ 0) and `after` at or after it (frames ≥ 0), within {MAX_SPAN} frames and ±{MAX_HANDLE_VALUE} radians or metres",
                h.joint, h.dof
            ));
        }
        out.push(FreeHandles {
            dof: d,
            before,
            after,
        });
    }
    out.sort_by_key(|h| h.dof);
    if out.windows(2).any(|w| w[0].dof == w[1].dof) {
        return Err("two handles on one DOF".into());
    }
    Ok(out)
}
