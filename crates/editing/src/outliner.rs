//! What the outliner and the forward-kinematics panel show (issue 5), without egui: the hierarchy
//! as the file writes it, groups included, one row per joint or group with its depth; and for a
//! joint, one slider per DOF with its limits in the units the user reads (degrees, metres).
//! The egui panels are plain functions over these rows; edits go back through
//! [`crate::Document::set_dof`].

use marionette_skeleton::format::Node;
use marionette_skeleton::{DofId, DofKind, GroupId, JointId, Skeleton};

/// One row of the outliner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutlineItem {
    /// A joint.
    Joint(JointId),
    /// A named group of joints.
    Group(GroupId),
}

/// A row: the item and how deep it sits (the root is 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutlineRow {
    /// What the row shows.
    pub item: OutlineItem,
    /// Nesting depth.
    pub depth: usize,
}

/// The outliner's rows, in the file's order.
pub fn outline(skeleton: &Skeleton) -> Vec<OutlineRow> {
    let mut rows = Vec::with_capacity(skeleton.joints().len() + skeleton.groups().len());
    // An explicit stack, so a deep hierarchy cannot overflow the thread's stack.
    let mut stack = vec![(skeleton.hierarchy(), 0usize)];
    while let Some((node, depth)) = stack.pop() {
        let (item, children) = match node {
            Node::Joint(name, children) => (
                skeleton.joint_by_name(name).map(OutlineItem::Joint),
                children,
            ),
            Node::Group(name, children) => (
                skeleton.group_by_name(name).map(OutlineItem::Group),
                children,
            ),
        };
        if let Some(item) = item {
            rows.push(OutlineRow { item, depth });
        }
        stack.extend(children.iter().rev().map(|c| (c, depth + 1)));
    }
    rows
}

/// One DOF slider.
#[derive(Debug, Clone, PartialEq)]
pub struct DofSlider {
    /// The DOF.
    pub dof: DofId,
    /// "right elbow 1 (hinge)".
    pub label: String,
    /// The value in display units: degrees for hinges, metres for slides.
    pub value: f64,
    /// Limits in display units; a full turn for hinges without limits.
    pub min: f64,
    /// See `min`.
    pub max: f64,
    /// Degrees (hinge) or metres (slide).
    pub unit: &'static str,
}

/// The sliders of `joint`'s DOFs at pose `q`.
pub fn dof_sliders(skeleton: &Skeleton, joint: JointId, q: &[f64]) -> Vec<DofSlider> {
    let name = &skeleton.joint(joint).name;
    skeleton
        .joint_dofs(joint)
        .map(|id| {
            let d = skeleton.dof(id);
            let value = q.get(id.state_index()).copied().unwrap_or(0.0);
            let (scale, unit, kind) = match d.kind {
                DofKind::Hinge => (180.0 / std::f64::consts::PI, "°", "hinge"),
                DofKind::Slide => (1.0, "m", "slide"),
            };
            let (min, max) = if d.unlimited {
                (-180.0, 180.0)
            } else {
                (d.min * scale, d.max * scale)
            };
            DofSlider {
                dof: id,
                label: format!("{name} {} ({kind})", d.index_in_joint + 1),
                value: value * scale,
                min,
                max,
                unit,
            }
        })
        .collect()
}

/// A slider's display value back in the state vector's units.
pub fn from_display(skeleton: &Skeleton, dof: DofId, value: f64) -> f64 {
    match skeleton.dof(dof).kind {
        DofKind::Hinge => value.to_radians(),
        DofKind::Slide => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marionette_skeleton::{Pose, builtin};

    #[test]
    fn the_outline_follows_the_file_with_groups() {
        let s = builtin::humanoid();
        let rows = outline(&s);
        let joints = rows
            .iter()
            .filter(|r| matches!(r.item, OutlineItem::Joint(_)))
            .count();
        let groups = rows.len() - joints;
        assert_eq!((joints, groups), (s.joints().len(), s.groups().len()));
        assert!(groups > 0, "the humanoid's file has groups");
        let root = s.joint_by_name(&s.joints()[0].name).expect("root");
        assert_eq!(
            rows[0],
            OutlineRow {
                item: OutlineItem::Joint(root),
                depth: 0
            }
        );
        // Every joint comes after its parent, deeper than it.
        for (i, row) in rows.iter().enumerate() {
            if let OutlineItem::Joint(j) = row.item
                && let Some(parent) = s.joint(j).parent
            {
                let p = rows
                    .iter()
                    .position(|r| r.item == OutlineItem::Joint(parent))
                    .expect("parent listed");
                assert!(p < i && rows[p].depth < row.depth);
            }
        }
    }

    #[test]
    fn sliders_read_in_degrees_and_write_back_in_radians() {
        let s = builtin::humanoid();
        let elbow = s.joint_by_name("right elbow").expect("elbow");
        let mut q = Pose::rest(&s).q;
        let dof = s.joint_dofs(elbow).next().expect("dof");
        q[dof.state_index()] = 0.5;
        let sliders = dof_sliders(&s, elbow, &q);
        assert_eq!(sliders.len(), s.joint_dofs(elbow).len());
        let first = &sliders[0];
        assert_eq!(first.label, "right elbow 1 (hinge)");
        assert!((first.value - 0.5f64.to_degrees()).abs() < 1e-12);
        assert!((first.max - s.dof(dof).max.to_degrees()).abs() < 1e-12);
        assert!((from_display(&s, dof, first.value) - 0.5).abs() < 1e-15);
    }
}
