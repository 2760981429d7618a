//! What the FBX readers share about ufbx's nodes: the nodes that join a skeleton's bones into one
//! tree, and a node's matrix as nalgebra's.

/// The nodes (not among `bones`) that join `bones` into one tree: where the bones hang from
/// several places, their deepest common ancestor below ufbx's root and every node between it and
/// them.
pub(super) fn joining_nodes<'a>(bones: &[&'a ufbx::Node]) -> Vec<&'a ufbx::Node> {
    let ids: std::collections::HashSet<u32> = bones.iter().map(|b| b.element.typed_id).collect();
    // Each bone's ancestors, nearest first, up to (not including) ufbx's root.
    let ancestors = |node: &'a ufbx::Node| -> Vec<&'a ufbx::Node> {
        let mut out = Vec::new();
        let mut at = node.parent.as_deref();
        while let Some(n) = at.filter(|n| !n.is_root) {
            out.push(n);
            at = n.parent.as_deref();
        }
        out
    };
    let tops: Vec<&ufbx::Node> = bones
        .iter()
        .copied()
        .filter(|b| {
            !ancestors(b)
                .iter()
                .any(|a| ids.contains(&a.element.typed_id))
        })
        .collect();
    if tops.len() < 2 {
        return Vec::new();
    }
    let first = ancestors(tops[0]);
    let Some(common) = first.iter().find(|a| {
        tops[1..].iter().all(|t| {
            ancestors(t)
                .iter()
                .any(|b| b.element.typed_id == a.element.typed_id)
        })
    }) else {
        return Vec::new();
    };
    let mut out: Vec<&ufbx::Node> = vec![common];
    for top in &tops {
        for a in ancestors(top) {
            if a.element.typed_id == common.element.typed_id {
                break;
            }
            if !out.iter().any(|o| o.element.typed_id == a.element.typed_id) {
                out.push(a);
            }
        }
    }
    out
}

/// A ufbx affine matrix as a 4 × 4 one.
pub(super) fn matrix_of(m: &ufbx::Matrix) -> nalgebra::Matrix4<f64> {
    nalgebra::Matrix4::new(
        m.m00, m.m01, m.m02, m.m03, m.m10, m.m11, m.m12, m.m13, m.m20, m.m21, m.m22, m.m23, 0.0,
        0.0, 0.0, 1.0,
    )
}
