//! Figures tied by links, as one skeleton: the stacked pose vector of every figure of the group
//! and one Jacobian with a block per figure, so a link between two figures (a hand in a hand) is
//! an ordinary goal that both figures' limbs move to meet, each within its limits, by the same
//! solvers as a single figure's locks.
//!
//! The merged skeleton has a fixed root ("stage") and, per figure, a joint at the figure's
//! placement with three slides (the figure's root translation) above the figure's own joints,
//! renamed "figure/joint". A figure's state `[root translation (3)] ++ [its DOFs]` is then a
//! contiguous run of the merged state, and its world is the placement times its own world.

use marionette_document::{
    Cue, Link, LinkTarget, Placement, PropContact, SiteRef, Stage, StageFigure,
};
use marionette_ik::{Goal, GoalKind, TargetShape};
use marionette_skeleton::format::{AxisDef, DofDef, JointDef, Node, SiteDef, SkeletonFile};
use marionette_skeleton::ordered_map::OrderedMap;
use marionette_skeleton::{Chain, JointId, ROOT_STATE_LEN, SiteId, Skeleton};
use nalgebra::{Isometry3, Point3, Vector3};

use super::props::free_place;

/// Where one figure's parts sit in the merged skeleton.
#[derive(Debug, Clone)]
pub struct Slot {
    /// The figure (index into the stage's figures).
    pub figure: usize,
    /// Merged joint id of the figure's joint 0.
    pub joint_base: usize,
    /// Merged site id of the figure's site 0.
    pub site_base: usize,
    /// Merged state index of the figure's state entry 0 (its root translation's x).
    pub state_base: usize,
    /// The figure's state length.
    pub state_len: usize,
    /// The figure's placement.
    pub placement: Isometry3<f64>,
}

/// Several figures as one skeleton.
#[derive(Debug, Clone)]
pub struct Merged {
    /// The merged skeleton.
    pub skeleton: Skeleton,
    /// One slot per figure, in the order given.
    pub slots: Vec<Slot>,
    joint_ids: Vec<JointId>,
    site_ids: Vec<SiteId>,
}

/// The slides' range: the root translation's own limit.
const REACH: f64 = marionette_skeleton::MAX_COORDINATE;

fn renamed(node: &Node, prefix: &str) -> Node {
    match node {
        Node::Joint(name, children) => Node::Joint(
            format!("{prefix}/{name}"),
            children.iter().map(|c| renamed(c, prefix)).collect(),
        ),
        Node::Group(name, children) => Node::Group(
            format!("{prefix}/{name}"),
            children.iter().map(|c| renamed(c, prefix)).collect(),
        ),
    }
}

impl Merged {
    /// The figures `members` (indices into `figures`) as one skeleton.
    pub fn new(figures: &[StageFigure], members: &[usize]) -> Result<Merged, String> {
        let mut joints: Vec<(String, JointDef)> = vec![(
            "stage".into(),
            JointDef {
                mass: 0.0,
                ..JointDef::default()
            },
        )];
        let mut sites: Vec<(String, SiteDef)> = Vec::new();
        let mut children = Vec::new();
        let mut slots = Vec::new();
        let mut state = ROOT_STATE_LEN;
        for &m in members {
            let f = &figures[m];
            let s = &f.document.skeleton;
            let place_name = format!("{}/", f.name);
            let Placement { at, facing } = f.placement;
            joints.push((
                place_name.clone(),
                JointDef {
                    offset: [at[0], 0.0, at[1]],
                    orientation: [0.0, facing, 0.0],
                    dofs: [AxisDef::X, AxisDef::Y, AxisDef::Z]
                        .map(|a| DofDef::Slide(a, -REACH, REACH))
                        .to_vec(),
                    mass: 0.0,
                    ..JointDef::default()
                },
            ));
            slots.push(Slot {
                figure: m,
                joint_base: joints.len(),
                site_base: sites.len(),
                state_base: state,
                state_len: s.state_len(),
                placement: f.placement.isometry(),
            });
            state += s.state_len();
            for j in s.joints() {
                let mut def = j.def.clone();
                def.mirror = None;
                joints.push((format!("{}/{}", f.name, j.name), def));
            }
            for site in s.sites() {
                sites.push((
                    format!("{}/{}", f.name, site.name),
                    SiteDef {
                        joint: format!("{}/{}", f.name, s.joint(site.joint).name),
                        offset: [site.offset.x, site.offset.y, site.offset.z],
                    },
                ));
            }
            children.push(Node::Joint(
                place_name,
                vec![renamed(s.hierarchy(), &f.name)],
            ));
        }
        let file = SkeletonFile {
            version: 1,
            name: "stage".into(),
            hierarchy: Node::Joint("stage".into(), children),
            joints: OrderedMap(joints),
            sites: OrderedMap(sites),
            skin: None,
        };
        let skeleton = Skeleton::from_file(file, "stage").map_err(|e| e.to_string())?;
        debug_assert_eq!(skeleton.state_len(), state);
        Ok(Merged {
            joint_ids: skeleton.joint_ids().collect(),
            site_ids: skeleton.site_ids().collect(),
            skeleton,
            slots,
        })
    }

    /// A figure's joint in the merged skeleton.
    pub fn joint(&self, slot: usize, joint: JointId) -> JointId {
        self.joint_ids[self.slots[slot].joint_base + joint.index()]
    }

    /// A figure's site in the merged skeleton.
    pub fn site(&self, slot: usize, site: SiteId) -> SiteId {
        self.site_ids[self.slots[slot].site_base + site.index()]
    }

    /// A figure's chain (state columns of its own skeleton) in the merged skeleton.
    pub fn chain(&self, slot: usize, own: &Skeleton, chain: &Chain) -> Chain {
        Chain::from_joints(
            &self.skeleton,
            chain.joints(own).into_iter().map(|j| self.joint(slot, j)),
        )
    }

    /// A figure's chain by its state columns (its root translation included) in the merged
    /// skeleton: the same entries of the figure's run of the merged state.
    pub fn columns(&self, slot: usize, chain: &Chain) -> Chain {
        let base = self.slots[slot].state_base;
        Chain::from_columns(chain.columns().iter().map(|c| base + c))
    }

    /// A figure's goal (its ids, its frame) in the merged skeleton (its ids, the stage's frame);
    /// `None` for a centre of mass, which the merged skeleton would take over every figure.
    pub fn goal(&self, slot: usize, goal: &Goal) -> Option<Goal> {
        let p = &self.slots[slot].placement;
        let point = |v: &Vector3<f64>| (p * Point3::from(*v)).coords;
        let dir = |v: &Vector3<f64>| p.rotation * v;
        let rot = |m: &nalgebra::Matrix3<f64>| p.rotation.to_rotation_matrix().matrix() * m;
        let site = |s: &SiteId| self.site(slot, *s);
        let kind = match &goal.kind {
            GoalKind::Position { site: s, target } => GoalKind::Position {
                site: site(s),
                target: point(target),
            },
            GoalKind::Point {
                joint,
                offset,
                target,
                shape,
            } => GoalKind::Point {
                joint: self.joint(slot, *joint),
                offset: *offset,
                target: point(target),
                shape: match shape {
                    TargetShape::Point => TargetShape::Point,
                    TargetShape::Line(d) => TargetShape::Line(dir(d)),
                    TargetShape::Plane(n) => TargetShape::Plane(dir(n)),
                },
            },
            GoalKind::Orientation {
                joint,
                target,
                axes,
            } => GoalKind::Orientation {
                joint: self.joint(slot, *joint),
                target: rot(target),
                axes: *axes,
            },
            GoalKind::Aim { site: s, axis, at } => GoalKind::Aim {
                site: site(s),
                axis: *axis,
                at: point(at),
            },
            GoalKind::Plane {
                site: s,
                point: o,
                normal,
            } => GoalKind::Plane {
                site: site(s),
                point: point(o),
                normal: dir(normal),
            },
            GoalKind::Line {
                site: s,
                point: o,
                direction,
            } => GoalKind::Line {
                site: site(s),
                point: point(o),
                direction: dir(direction),
            },
            GoalKind::Coincide { a, b } => GoalKind::Coincide {
                a: site(a),
                b: site(b),
            },
            GoalKind::CoincidePose { a, b, relative } => GoalKind::CoincidePose {
                a: site(a),
                b: site(b),
                relative: *relative,
            },
            GoalKind::Pose {
                site: s,
                target,
                rotation,
            } => GoalKind::Pose {
                site: site(s),
                target: point(target),
                rotation: rot(rotation),
            },
            GoalKind::CenterOfMass { .. } => return None,
        };
        Some(Goal { kind, ..*goal })
    }

    /// The slot of stage figure `figure`, if it is a member.
    pub fn slot_of(&self, figure: usize) -> Option<usize> {
        self.slots.iter().position(|s| s.figure == figure)
    }

    /// A link of `stage` as a goal of this merged skeleton on `frame` (a prop's point where the
    /// prop is on that frame, free of holders: its keys in `cue`, else its place), and the
    /// chain that keeps it: both sites' limbs (two figures meet), or the site's limb (a prop's
    /// point). The link's figures must be members.
    pub fn link_goal(
        &self,
        stage: &Stage,
        link: &Link,
        cue: Option<&Cue>,
        frame: i64,
    ) -> (Goal, Chain) {
        let slot = |f: usize| self.slot_of(f).expect("a link's figures are in its group");
        let limb = |s: SiteRef| {
            let skeleton = &stage.figures[s.figure].document.skeleton;
            let own = Chain::limb(skeleton, skeleton.site(s.site).joint);
            self.chain(slot(s.figure), skeleton, &own)
        };
        let a = self.site(slot(link.a.figure), link.a.site);
        match link.b {
            LinkTarget::Site(b) => (
                Goal::new(GoalKind::Coincide {
                    a,
                    b: self.site(slot(b.figure), b.site),
                }),
                limb(link.a).union(&limb(b)),
            ),
            LinkTarget::SitePose { site: b, rotation } => (
                Goal::new(GoalKind::CoincidePose {
                    a,
                    b: self.site(slot(b.figure), b.site),
                    relative: marionette_skeleton::rotation::orientation_from_degrees(rotation),
                }),
                limb(link.a).union(&limb(b)),
            ),
            LinkTarget::Prop {
                prop,
                point,
                contact,
            } => {
                let place = free_place(prop, &stage.props[prop], cue, frame);
                let point = (place * Point3::from(Vector3::from(point))).coords;
                let axis = |v: [f64; 3]| (place.rotation * Vector3::from(v)).normalize();
                let kind = match contact {
                    PropContact::Point => GoalKind::Position {
                        site: a,
                        target: point,
                    },
                    PropContact::Plane(n) => GoalKind::Plane {
                        site: a,
                        point,
                        normal: axis(n),
                    },
                    PropContact::Line(d) => GoalKind::Line {
                        site: a,
                        point,
                        direction: axis(d),
                    },
                    PropContact::Turn(r) => GoalKind::Orientation {
                        joint: self.joint(
                            slot(link.a.figure),
                            stage.figures[link.a.figure]
                                .document
                                .skeleton
                                .site(link.a.site)
                                .joint,
                        ),
                        target: place.rotation.to_rotation_matrix().into_inner()
                            * marionette_skeleton::rotation::orientation_from_degrees(r),
                        axes: [true; 3],
                    },
                    PropContact::Pose(r) => GoalKind::Pose {
                        site: a,
                        target: point,
                        rotation: place.rotation.to_rotation_matrix().into_inner()
                            * marionette_skeleton::rotation::orientation_from_degrees(r),
                    },
                };
                (Goal::new(kind), limb(link.a))
            }
        }
    }

    /// The merged state from every figure's state (in slot order).
    pub fn state(&self, figure_states: &[&[f64]]) -> Vec<f64> {
        let mut q = vec![0.0; self.skeleton.state_len()];
        for (slot, own) in self.slots.iter().zip(figure_states) {
            q[slot.state_base..slot.state_base + slot.state_len].copy_from_slice(own);
        }
        q
    }

    /// One figure's state out of the merged state.
    pub fn figure_state<'q>(&self, slot: usize, q: &'q [f64]) -> &'q [f64] {
        let s = &self.slots[slot];
        &q[s.state_base..s.state_base + s.state_len]
    }
}
