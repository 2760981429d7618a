//! Baking a stage: every figure's frames of a sequence, the links between figures held on each
//! frame together with each figure's own locks, and every prop's pose.
//!
//! Each figure is first baked as it would be alone ([`Baker`]: its keys interpolated, its own
//! locks solved, easing included). Figures tied by links form a group ([`Merged`]); on a frame
//! where some link of the group holds, the group's locks and links are solved once more as one
//! goal set on the merged skeleton, split into the parts whose chains share no column
//! ([`GoalSet::components`]). Only the parts holding a link are solved: the rest are the figures'
//! own locks, already solved. Figures that share no link are never solved together, so the cost
//! grows with the number of figures, not its square; frames are baked in parallel and the result
//! is the same whatever the number of threads.

use marionette_document::{
    GoalSet, Key, Link, LinkTarget, Owner, RootInterpolation, RotationInterpolation, Sequence,
    SiteRef, Stage,
};
use marionette_ik::{Goal, Settings, solve};
use marionette_skeleton::{Chain, Fk, JointId};
use nalgebra::{Isometry3, Translation3};
use rayon::prelude::*;

use super::merged::Merged;
use super::props::prop_track;
use crate::bake::{BakeSettings, BakedFrame, Baker};

/// Figures tied by links, and the links that tie them.
#[derive(Debug)]
struct Group {
    /// Figures (stage indices), ascending.
    members: Vec<usize>,
    /// The links of the group (stage indices).
    links: Vec<usize>,
    /// The members as one skeleton.
    merged: Merged,
    /// Welman's per-joint weights of the merged skeleton.
    stiffness: Vec<f64>,
    /// Every member's locks that the merged skeleton can hold (not a centre of mass), as
    /// (slot, lock index, goal, chain) on the merged skeleton.
    lock_goals: Vec<(usize, usize, Goal, Chain)>,
    /// Every link of the group as (link index, goal, chain) on the merged skeleton, one
    /// priority level below the members' locks (a prop's point is placed on each frame).
    link_goals: Vec<(usize, Goal, Chain)>,
    /// The joints the links read and their ancestors, ascending.
    read_joints: Vec<JointId>,
}

/// What a thread reuses from frame to frame: forward kinematics per figure and per group.
pub struct StageScratch {
    figures: Vec<Fk>,
    groups: Vec<Fk>,
}

/// One baked frame of the stage.
#[derive(Debug, Clone, PartialEq)]
pub struct StageFrame {
    /// The frame number.
    pub frame: i64,
    /// Every figure's frame, in stage order (its own state, its own locks' errors).
    pub figures: Vec<BakedFrame>,
    /// (stage index of the link, its error in metres) for every link holding on the frame.
    pub link_errors: Vec<(usize, f64)>,
}

/// A baked stage sequence.
#[derive(Debug, Clone)]
pub struct StageBake {
    /// Every frame, first to last.
    pub frames: Vec<StageFrame>,
    /// Per prop (stage order), its world pose on every frame.
    pub props: Vec<Vec<Isometry3<f64>>>,
}

/// A stage's sequence made ready to bake.
pub struct StageBaker<'a> {
    stage: &'a Stage,
    sequence: String,
    fps: f64,
    bakers: Vec<Baker<'a>>,
    holds_locks: Vec<bool>,
    groups: Vec<Group>,
    range: (i64, i64),
    settings: BakeSettings,
}

impl<'a> StageBaker<'a> {
    /// A baker of the stage's sequence `name` (every figure's sequence of that name; a figure
    /// without one keeps its pose, its locks held). Refused with a message naming the culprit:
    /// no figure has the sequence, a link targets a prop that someone holds in it, or a group of
    /// linked figures is larger than a skeleton may be.
    pub fn new(
        stage: &'a Stage,
        name: &str,
        settings: BakeSettings,
    ) -> Result<StageBaker<'a>, String> {
        let own: Vec<Option<&Sequence>> = stage
            .figures
            .iter()
            .map(|f| f.document.sequences.iter().find(|s| s.name == name))
            .collect();
        let Some(fps) = own.iter().flatten().map(|s| s.fps).next() else {
            return Err(format!("no figure on the stage has a sequence \"{name}\""));
        };
        let cue = stage.cue(name);
        let mut frames: Vec<i64> = own
            .iter()
            .flatten()
            .flat_map(|s| [s.keys[0].frame, s.keys[s.keys.len() - 1].frame])
            .collect();
        if let Some(cue) = cue {
            frames.extend(
                cue.tracks
                    .iter()
                    .flat_map(|t| t.keys.iter().map(|k| k.frame)),
            );
            frames.extend(cue.holds.iter().map(|h| h.frame()));
        }
        let range = (
            *frames.iter().min().expect("a sequence has keys"),
            *frames.iter().max().expect("a sequence has keys"),
        );
        for link in &stage.links {
            if let LinkTarget::Prop { prop, .. } = link.b
                && cue.is_some_and(|c| c.holds.iter().any(|h| h.prop() == prop))
            {
                return Err(format!(
                    "link \"{}\" holds a site to prop \"{}\", which is gripped in sequence \
                     \"{name}\": a prop someone carries cannot also hold a site",
                    link.name, stage.props[prop].name
                ));
            }
        }
        let bakers = stage
            .figures
            .iter()
            .zip(&own)
            .map(|(f, s)| {
                let still;
                let sequence = match s {
                    Some(s) => *s,
                    None => {
                        still = Sequence {
                            name: name.to_owned(),
                            fps,
                            rotation: RotationInterpolation::default(),
                            root: RootInterpolation::default(),
                            hold_locks: true,
                            keys: vec![Key::new(range.0, f.document.pose.clone())],
                        };
                        &still
                    }
                };
                Baker::new(&f.document.skeleton, sequence, &f.document.locks, settings)
            })
            .collect();
        let holds_locks = own.iter().map(|s| s.is_none_or(|s| s.hold_locks)).collect();
        let mut baker = StageBaker {
            stage,
            sequence: name.to_owned(),
            fps,
            bakers,
            holds_locks,
            groups: groups(stage)?,
            range,
            settings,
        };
        baker.prepare_groups();
        Ok(baker)
    }

    /// Each group's locks and links as goals of its merged skeleton, made once.
    fn prepare_groups(&mut self) {
        let stage = self.stage;
        let prepared: Vec<_> = self
            .groups
            .iter()
            .map(|group| {
                let merged = &group.merged;
                let mut lock_goals = Vec::new();
                let mut lowest = 0;
                for (slot, &m) in group.members.iter().enumerate() {
                    let doc = &stage.figures[m].document;
                    for (i, lock) in doc.locks.iter().enumerate() {
                        if let Some(goal) = merged.goal(slot, lock.goal()) {
                            lowest = lowest.max(goal.priority + 1);
                            let chain = merged.chain(slot, &doc.skeleton, lock.limb());
                            lock_goals.push((slot, i, goal, chain));
                        }
                    }
                }
                let link_goals: Vec<(usize, Goal, Chain)> = group
                    .links
                    .iter()
                    .map(|&l| {
                        let (goal, chain) = self.link_goal(group, &stage.links[l], self.range.0);
                        (
                            l,
                            Goal {
                                priority: lowest,
                                ..goal
                            },
                            chain,
                        )
                    })
                    .collect();
                let mut read_joints: Vec<JointId> = Vec::new();
                for goal in link_goals.iter().map(|g| &g.1) {
                    for j in goal.kind.joints(&merged.skeleton).unwrap_or_default() {
                        read_joints.extend(merged.skeleton.path_to_root(j));
                    }
                }
                read_joints.sort_unstable();
                read_joints.dedup();
                (lock_goals, link_goals, read_joints)
            })
            .collect();
        for (group, (lock_goals, link_goals, read_joints)) in self.groups.iter_mut().zip(prepared) {
            group.lock_goals = lock_goals;
            group.link_goals = link_goals;
            group.read_joints = read_joints;
        }
    }

    /// The sequence's name.
    pub fn sequence(&self) -> &str {
        &self.sequence
    }

    /// Frames per second (every figure's sequence of the name plays at one rate).
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// The frames a bake covers: the earliest key, grip or release of any figure or prop to the
    /// latest, inclusive.
    pub fn range(&self) -> (i64, i64) {
        self.range
    }

    /// Scratch space for [`StageBaker::frame`] (one per thread).
    pub fn scratch(&self) -> StageScratch {
        StageScratch {
            figures: self
                .stage
                .figures
                .iter()
                .map(|f| Fk::new(&f.document.skeleton))
                .collect(),
            groups: self
                .groups
                .iter()
                .map(|g| Fk::new(&g.merged.skeleton))
                .collect(),
        }
    }

    /// One frame: every figure baked alone, then each group's links solved with its locks.
    pub fn frame(&self, frame: i64, scratch: &mut StageScratch) -> StageFrame {
        let mut figures: Vec<BakedFrame> = self
            .bakers
            .iter()
            .zip(scratch.figures.iter_mut())
            .map(|(b, fk)| b.frame(frame, fk))
            .collect();
        let link_errors = self.links(frame, &mut figures, scratch);
        StageFrame {
            frame,
            figures,
            link_errors,
        }
    }

    /// The links holding on `frame` solved, group by group, from every figure's own frame;
    /// their errors, in link order.
    fn links(
        &self,
        frame: i64,
        figures: &mut [BakedFrame],
        scratch: &mut StageScratch,
    ) -> Vec<(usize, f64)> {
        let mut link_errors = Vec::new();
        for (group, merged_fk) in self.groups.iter().zip(scratch.groups.iter_mut()) {
            self.solve_group(
                group,
                frame,
                figures,
                (&mut scratch.figures, merged_fk),
                &mut link_errors,
            );
        }
        link_errors.sort_by_key(|(i, _)| *i);
        link_errors
    }

    /// The group's links holding on `frame`, solved with its members' locks from their frames;
    /// the members' lock errors measured again.
    fn solve_group(
        &self,
        group: &Group,
        frame: i64,
        figures: &mut [BakedFrame],
        (fks, merged_fk): (&mut [Fk], &mut Fk),
        link_errors: &mut Vec<(usize, f64)>,
    ) {
        let active: Vec<(usize, Goal, &Chain)> = group
            .link_goals
            .iter()
            .filter(|(l, _, _)| self.stage.links[*l].active_at(Some(frame)))
            .map(|(l, goal, chain)| {
                let goal = match self.stage.links[*l].b {
                    // A prop's point moves with the prop's keys.
                    LinkTarget::Prop { .. } => Goal {
                        priority: goal.priority,
                        ..self.link_goal(group, &self.stage.links[*l], frame).0
                    },
                    LinkTarget::Site(_) | LinkTarget::SitePose { .. } => goal.clone(),
                };
                (*l, goal, chain)
            })
            .collect();
        if active.is_empty() {
            return;
        }
        let merged = &group.merged;
        let states: Vec<&[f64]> = group.members.iter().map(|&m| &figures[m].q[..]).collect();
        let mut q = merged.state(&states);
        // Where the figures' own frames already hold every link (on keys made with the links in
        // place, say), nothing is solved.
        merged_fk.update_joints(&merged.skeleton, &q, &group.read_joints);
        let errors: Vec<(usize, f64)> = active
            .iter()
            .map(|(l, goal, _)| (*l, goal.kind.error(&merged.skeleton, merged_fk)))
            .collect();
        if errors.iter().all(|(_, e)| *e <= self.settings.tolerance) {
            link_errors.extend(errors);
            return;
        }
        let mut set = GoalSet::default();
        for (slot, lock, goal, chain) in &group.lock_goals {
            let m = group.members[*slot];
            if self.holds_locks[m]
                && self.stage.figures[m].document.locks[*lock].active_at(Some(frame))
            {
                set.push(goal.clone(), (*chain).clone(), Owner::Lock(*lock));
            }
        }
        for (l, goal, chain) in active {
            set.push(goal, chain.clone(), Owner::Link(l));
        }
        for part in set.components() {
            if !part.owners().iter().any(|o| matches!(o, Owner::Link(_))) {
                continue;
            }
            let mut system = part.system(&merged.skeleton, &group.stiffness);
            // The link's part reads a few limbs of figures merged whole.
            system.limit_fk_to_goals();
            let mut solver = self.settings.solver.build();
            solve(
                solver.as_mut(),
                &mut system,
                &mut q,
                Settings {
                    tolerance: self.settings.tolerance,
                    max_iterations: self.settings.max_iterations,
                },
            );
        }
        merged_fk.update_joints(&merged.skeleton, &q, &group.read_joints);
        for (goal, owner) in set.goals().iter().zip(set.owners()) {
            if let Owner::Link(l) = owner {
                link_errors.push((*l, goal.kind.error(&merged.skeleton, merged_fk)));
            }
        }
        for (slot, &m) in group.members.iter().enumerate() {
            let own = merged.figure_state(slot, &q);
            if own == &figures[m].q[..] {
                continue;
            }
            let doc = &self.stage.figures[m].document;
            let fk = &mut fks[m];
            fk.update(&doc.skeleton, own);
            let out = &mut figures[m];
            for (i, error) in &mut out.lock_errors {
                *error = doc.locks[*i].goal().kind.error(&doc.skeleton, fk);
            }
            out.q = own.to_vec();
        }
    }

    /// A link as a goal of the group's merged skeleton on `frame` ([`Merged::link_goal`]).
    fn link_goal(&self, group: &Group, link: &Link, frame: i64) -> (Goal, Chain) {
        group
            .merged
            .link_goal(self.stage, link, self.stage.cue(&self.sequence), frame)
    }

    /// Every frame (in parallel on the current rayon pool), then every prop's track.
    pub fn bake(&self, progress: &(dyn Fn() + Sync)) -> StageBake {
        let (first, last) = self.range;
        // Figure by figure (each one's keys and locks stay in cache), every frame in parallel…
        let mut by_figure: Vec<std::vec::IntoIter<BakedFrame>> = self
            .bakers
            .iter()
            .zip(&self.stage.figures)
            .map(|(baker, figure)| {
                (first..=last)
                    .into_par_iter()
                    .map_init(
                        || Fk::new(&figure.document.skeleton),
                        |fk, f| baker.frame(f, fk),
                    )
                    .collect::<Vec<_>>()
                    .into_iter()
            })
            .collect();
        let own: Vec<(i64, Vec<BakedFrame>)> = (first..=last)
            .map(|f| {
                let figures = by_figure
                    .iter_mut()
                    .map(|frames| frames.next().expect("a frame per figure"))
                    .collect();
                (f, figures)
            })
            .collect();
        // …then the links, frame by frame in parallel.
        let frames: Vec<StageFrame> = own
            .into_par_iter()
            .map_init(
                || self.scratch(),
                |scratch, (f, mut figures)| {
                    let frame = self.links(f, &mut figures, scratch);
                    progress();
                    StageFrame {
                        frame: f,
                        figures,
                        link_errors: frame,
                    }
                },
            )
            .collect();
        let props = self.props(&frames);
        StageBake { frames, props }
    }

    /// [`StageBaker::bake`] on a pool of `threads` threads (0: one per core).
    pub fn bake_with_threads(
        &self,
        threads: usize,
        progress: &(dyn Fn() + Sync),
    ) -> Result<StageBake, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        Ok(pool.install(|| self.bake(progress)))
    }

    /// Every prop's pose on every frame of `frames` (consecutive frames of a bake from its
    /// first: holds after the last are not reached).
    pub fn props(&self, frames: &[StageFrame]) -> Vec<Vec<Isometry3<f64>>> {
        let stage = self.stage;
        let site_frame = |site: SiteRef, frame: i64| -> Isometry3<f64> {
            let f = &stage.figures[site.figure];
            let s = &f.document.skeleton;
            let start = frames.first().map_or(0, |f| f.frame);
            let at = (frame - start).clamp(0, frames.len() as i64 - 1) as usize;
            let mut fk = Fk::new(s);
            fk.update(s, &frames[at].figures[site.figure].q);
            let joint = s.site(site.site).joint;
            let rotation = nalgebra::Rotation3::from_matrix_unchecked(*fk.joint_rotation(joint));
            f.placement.isometry()
                * Isometry3::from_parts(
                    Translation3::from(fk.site_position(site.site)),
                    nalgebra::UnitQuaternion::from_rotation_matrix(&rotation),
                )
        };
        let cue = stage.cue(&self.sequence);
        let (Some(first), Some(last)) = (frames.first(), frames.last()) else {
            return vec![Vec::new(); stage.props.len()];
        };
        let range = (first.frame, last.frame);
        (0..stage.props.len())
            .into_par_iter()
            .map(|p| prop_track(p, &stage.props[p], cue, range, &site_frame))
            .collect()
    }
}

/// The figures tied by links (a prop's link ties its one figure), each group as one skeleton.
fn groups(stage: &Stage) -> Result<Vec<Group>, String> {
    let mut out: Vec<Group> = Vec::new();
    for members in linked_groups(stage) {
        let links: Vec<usize> = (0..stage.links.len())
            .filter(|&l| members.contains(&stage.links[l].a.figure))
            .collect();
        if links.is_empty() {
            continue;
        }
        let merged = Merged::new(&stage.figures, &members).map_err(|e| {
            let names: Vec<&str> = members
                .iter()
                .map(|&m| stage.figures[m].name.as_str())
                .collect();
            format!(
                "the linked figures {} cannot be solved together: {e}",
                names.join(", ")
            )
        })?;
        out.push(Group {
            members,
            links,
            stiffness: merged
                .skeleton
                .joints()
                .iter()
                .map(|j| j.stiffness)
                .collect(),
            merged,
            lock_goals: Vec::new(),
            link_goals: Vec::new(),
            read_joints: Vec::new(),
        });
    }
    Ok(out)
}

/// The figures in groups: figures tied by links (a link to a prop ties its one figure) in one
/// group, each group's members ascending, groups by their first member.
pub fn linked_groups(stage: &Stage) -> Vec<Vec<usize>> {
    let n = stage.figures.len();
    let mut part: Vec<usize> = (0..n).collect();
    fn find(part: &[usize], mut i: usize) -> usize {
        while part[i] != i {
            i = part[i];
        }
        i
    }
    for link in &stage.links {
        if let (a, Some(b)) = link.figures() {
            let (ra, rb) = (find(&part, a), find(&part, b));
            part[ra.max(rb)] = ra.min(rb);
        }
    }
    (0..n)
        .filter(|&root| find(&part, root) == root)
        .map(|root| (0..n).filter(|&m| find(&part, m) == root).collect())
        .collect()
}
