//! Loading a skeleton: RON text → [`SkeletonFile`] → validated [`Skeleton`].
//!
//! Validation collects every defect before giving up, so one run of `marionette check` shows all
//! of a file's problems. Nothing here can panic on user data: indices come from the tree walk
//! itself, and RON's recursion limit bounds the tree's depth.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use nalgebra::Vector3;

use crate::error::{Defect, SkeletonError};
use crate::format::{FORMAT_VERSION, JointDef, MAX_DEPTH, MAX_JOINTS, Node, SkeletonFile};
use crate::mirror::mirror_def;
use crate::model::{Group, GroupId, Joint, JointId, Site, SiteId, Skeleton, Skin};
use crate::ron_io;
use crate::rotation::orientation_from_degrees;
use crate::validate::{dof_from_def, shape_from_def, validate_def};

impl Skeleton {
    /// Loads and validates a skeleton file.
    pub fn load(path: impl AsRef<Path>) -> Result<Skeleton, SkeletonError> {
        let path = path.as_ref();
        let parsed = SkeletonError::read_ron(path)?;
        Skeleton::from_file(parsed, &ron_io::display_path(path))
    }

    /// Parses and validates skeleton text; `file` is the name used in error messages.
    pub fn from_ron_str(text: &str, file: &str) -> Result<Skeleton, SkeletonError> {
        Skeleton::from_file(SkeletonError::parse_ron(text, file)?, file)
    }

    /// Validates an already parsed skeleton file.
    pub fn from_file(parsed: SkeletonFile, file: &str) -> Result<Skeleton, SkeletonError> {
        let invalid = |defects| SkeletonError::Invalid {
            file: file.to_owned(),
            defects,
        };
        if parsed.version != i64::from(FORMAT_VERSION) {
            return Err(invalid(vec![Defect::UnsupportedVersion {
                found: parsed.version,
                supported: FORMAT_VERSION,
            }]));
        }
        let mut defects = Vec::new();
        let tree = walk_hierarchy(&parsed.hierarchy, &mut defects);
        let defs = resolve_definitions(&parsed, &tree, &mut defects);
        // A mirrored copy of a checked definition is valid exactly when its source is: check each
        // definition once, so a defect is reported once, on the joint that is written out.
        for (name, resolved) in defs.iter().flatten() {
            if resolved.mirrored_from.is_some() {
                continue;
            }
            validate_def(name, &resolved.def, &mut defects);
        }
        check_sites(&parsed, &tree, &mut defects);
        check_skin(&parsed, &tree, &mut defects);
        if !defects.is_empty() {
            return Err(invalid(defects));
        }
        let defs = defs
            .into_iter()
            .flatten()
            .map(|(_, r)| (r.def, r.mirrored_from))
            .collect();
        Ok(build(parsed, tree, defs))
    }
}

/// The hierarchy flattened in depth-first pre-order.
struct Tree {
    names: Vec<String>,
    parents: Vec<Option<usize>>,
    subtree_end: Vec<usize>,
    groups: Vec<Group>,
    index: HashMap<String, usize>,
}

fn walk_hierarchy(root: &Node, defects: &mut Vec<Defect>) -> Tree {
    let mut tree = Tree {
        names: Vec::new(),
        parents: Vec::new(),
        subtree_end: Vec::new(),
        groups: Vec::new(),
        index: HashMap::new(),
    };
    if let Node::Group(name, _) = root {
        defects.push(Defect::RootIsGroup {
            group: name.clone(),
        });
        return tree;
    }
    let mut group_names = HashSet::new();
    visit(root, (None, None, 1), &mut tree, &mut group_names, defects);
    tree
}

/// Adds `node` (at `depth`, under `parent_joint` and `parent_group`) and what it holds to
/// `tree`; nothing deeper than [`MAX_DEPTH`] is visited.
fn visit(
    node: &Node,
    (parent_joint, parent_group, depth): (Option<usize>, Option<usize>, usize),
    tree: &mut Tree,
    group_names: &mut HashSet<String>,
    defects: &mut Vec<Defect>,
) {
    if depth > MAX_DEPTH {
        let mut deepest = node;
        while let Node::Group(_, children) = deepest {
            match children.first() {
                Some(child) => deepest = child,
                None => break,
            }
        }
        let (Node::Joint(name, _) | Node::Group(name, _)) = deepest;
        defects.push(Defect::TooDeep {
            joint: name.clone(),
            depth,
        });
        return;
    }
    match node {
        Node::Joint(name, children) => {
            let id = tree.names.len();
            if id == MAX_JOINTS {
                defects.push(Defect::TooManyJoints {
                    joint: name.clone(),
                });
            }
            if id >= MAX_JOINTS {
                return;
            }
            if name.is_empty() {
                defects.push(Defect::EmptyName { kind: "joint" });
            }
            if tree.index.insert(name.clone(), id).is_some() {
                defects.push(Defect::DuplicateJoint {
                    joint: name.clone(),
                });
            }
            tree.names.push(name.clone());
            tree.parents.push(parent_joint);
            tree.subtree_end.push(id + 1);
            for child in children {
                let at = (Some(id), parent_group, depth + 1);
                visit(child, at, tree, group_names, defects);
            }
            tree.subtree_end[id] = tree.names.len();
        }
        Node::Group(name, children) => {
            if name.is_empty() {
                defects.push(Defect::EmptyName { kind: "group" });
            }
            if !group_names.insert(name.clone()) {
                defects.push(Defect::DuplicateGroup {
                    group: name.clone(),
                });
            }
            let gid = tree.groups.len();
            tree.groups.push(Group {
                name: name.clone(),
                // The root is a joint, so every group has an enclosing joint.
                joint: JointId(parent_joint.unwrap_or(0)),
                parent: parent_group.map(GroupId),
                joints: Vec::new(),
            });
            let first = tree.names.len();
            for child in children {
                let at = (parent_joint, Some(gid), depth + 1);
                visit(child, at, tree, group_names, defects);
            }
            tree.groups[gid].joints = (first..tree.names.len()).map(JointId).collect();
        }
    }
}

/// A joint's effective definition and where it came from.
struct Resolved {
    def: JointDef,
    mirrored_from: Option<JointId>,
}

/// One effective definition per hierarchy joint (`None` where it is missing), in hierarchy order.
fn resolve_definitions(
    parsed: &SkeletonFile,
    tree: &Tree,
    defects: &mut Vec<Defect>,
) -> Vec<Option<(String, Resolved)>> {
    let mut own: Vec<Option<&JointDef>> = vec![None; tree.names.len()];
    for (name, def) in parsed.joints.iter() {
        match tree.index.get(name) {
            Some(&id) if own[id].is_some() => defects.push(Defect::DuplicateDefinition {
                joint: name.to_owned(),
                how: String::new(),
            }),
            Some(&id) => own[id] = Some(def),
            None => defects.push(Defect::UnknownJoint {
                joint: name.to_owned(),
            }),
        }
    }
    let mut mirrored: Vec<Option<Resolved>> = (0..tree.names.len()).map(|_| None).collect();
    for (name, def) in parsed.joints.iter() {
        let Some(target) = &def.mirror else { continue };
        let Some(&tid) = tree.index.get(target) else {
            defects.push(Defect::UnknownMirror {
                joint: name.to_owned(),
                mirror: target.clone(),
            });
            continue;
        };
        if own[tid].is_some() {
            continue; // the joint's own entry wins
        }
        if mirrored[tid].is_some() {
            defects.push(Defect::DuplicateDefinition {
                joint: target.clone(),
                how: format!(" (also by the mirror of \"{name}\")"),
            });
            continue;
        }
        mirrored[tid] = Some(Resolved {
            def: mirror_def(def),
            mirrored_from: tree.index.get(name).map(|&i| JointId(i)),
        });
    }
    let mut out = Vec::with_capacity(tree.names.len());
    for (id, name) in tree.names.iter().enumerate() {
        let resolved = match (own[id], mirrored[id].take()) {
            (Some(def), _) => Some(Resolved {
                def: def.clone(),
                mirrored_from: None,
            }),
            (None, Some(m)) => Some(m),
            (None, None) => {
                defects.push(Defect::MissingDefinition {
                    joint: name.clone(),
                });
                None
            }
        };
        out.push(resolved.map(|r| (name.clone(), r)));
    }
    out
}

fn check_sites(parsed: &SkeletonFile, tree: &Tree, defects: &mut Vec<Defect>) {
    for dup in parsed.sites.duplicate_keys() {
        defects.push(Defect::DuplicateSite {
            site: dup.to_owned(),
        });
    }
    for (name, site) in parsed.sites.iter() {
        if name.is_empty() {
            defects.push(Defect::EmptyName { kind: "site" });
        }
        if !tree.index.contains_key(&site.joint) {
            defects.push(Defect::SiteOnUnknownJoint {
                site: name.to_owned(),
                joint: site.joint.clone(),
            });
        }
        if site.offset.iter().any(|v| !v.is_finite()) {
            defects.push(Defect::NonFinite {
                owner: format!("site \"{name}\""),
                field: "offset".to_owned(),
            });
        } else {
            crate::validate::beyond_range(
                &format!("site \"{name}\""),
                "offset",
                &site.offset,
                defects,
            );
        }
    }
}

fn check_skin(parsed: &SkeletonFile, tree: &Tree, defects: &mut Vec<Defect>) {
    let Some(skin) = &parsed.skin else {
        return;
    };
    if skin.file.trim().is_empty() {
        defects.push(Defect::SkinWithoutFile);
    }
    for dup in skin.nodes.duplicate_keys() {
        defects.push(Defect::SkinDuplicate {
            what: format!("joint \"{dup}\""),
        });
    }
    let mut seen = HashSet::new();
    for (joint, &node) in skin.nodes.iter() {
        if !tree.index.contains_key(joint) {
            defects.push(Defect::SkinOnUnknownJoint {
                joint: joint.to_owned(),
                node,
            });
        }
        if !seen.insert(node) {
            defects.push(Defect::SkinDuplicate {
                what: format!("node {node}"),
            });
        }
    }
}

/// Builds the model from a hierarchy and definitions that passed validation.
fn build(parsed: SkeletonFile, tree: Tree, defs: Vec<(JointDef, Option<JointId>)>) -> Skeleton {
    let n = tree.names.len();
    let offsets: Vec<[f64; 3]> = defs.iter().map(|(d, _)| d.offset).collect();
    let mut joints = Vec::with_capacity(n);
    let mut dofs = Vec::new();
    for (id, (def, mirrored_from)) in defs.into_iter().enumerate() {
        let children: Vec<JointId> = (id + 1..tree.subtree_end[id])
            .filter(|&c| tree.parents[c] == Some(id))
            .map(JointId)
            .collect();
        let first_child_offset = children.first().map(|c| offsets[c.0]);
        let first = dofs.len();
        for (k, d) in def.dofs.iter().enumerate() {
            let rest = def.rest.get(k).copied().unwrap_or(0.0);
            let preferred = def.preferred.get(k).copied();
            dofs.push(dof_from_def(JointId(id), k, d, rest, preferred));
        }
        let shape = def
            .object
            .as_ref()
            .map(|b| shape_from_def(b, first_child_offset));
        let mass_center = def.mass_center.map_or_else(
            || shape.as_ref().map_or_else(Vector3::zeros, |s| s.center()),
            Vector3::from,
        );
        joints.push(Joint {
            name: tree.names[id].clone(),
            parent: tree.parents[id].map(JointId),
            children,
            offset: Vector3::from(def.offset),
            orientation: orientation_from_degrees(def.orientation),
            orientation_is_identity: def.orientation == [0.0; 3],
            dofs: first..dofs.len(),
            subtree_end: tree.subtree_end[id],
            stiffness: def.stiffness,
            mass: def.mass,
            shape,
            mass_center,
            def,
            mirrored_from,
        });
    }
    let sites: Vec<Site> = parsed
        .sites
        .iter()
        .filter_map(|(name, s)| {
            Some(Site {
                name: name.to_owned(),
                joint: JointId(*tree.index.get(&s.joint)?),
                offset: Vector3::from(s.offset),
            })
        })
        .collect();
    let total_mass: f64 = joints.iter().map(|j| j.mass).sum();
    let com_mass: Vec<f64> = if total_mass > 0.0 {
        joints.iter().map(|j| j.mass).collect()
    } else {
        vec![1.0; n]
    };
    let mut subtree_mass = com_mass.clone();
    for id in (1..n).rev() {
        if let Some(p) = tree.parents[id] {
            subtree_mass[p] += subtree_mass[id];
        }
    }
    let skin = parsed.skin.map(|s| Skin {
        nodes: s
            .nodes
            .iter()
            .filter_map(|(name, &node)| Some((JointId(*tree.index.get(name)?), node)))
            .collect(),
        file: s.file,
    });
    Skeleton {
        name: parsed.name,
        hierarchy: parsed.hierarchy,
        skin,
        joint_names: tree
            .index
            .iter()
            .map(|(k, &v)| (k.clone(), JointId(v)))
            .collect(),
        site_names: sites
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), SiteId(i)))
            .collect(),
        group_names: tree
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| (g.name.clone(), GroupId(i)))
            .collect(),
        groups: tree.groups,
        joints,
        dofs,
        sites,
        com_mass,
        subtree_mass,
        total_mass,
    }
}
