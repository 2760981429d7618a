//! Links held while editing (issue 32, part 2): a drag of the edited figure moves the figures
//! tied to it by links holding now with it, so joined hands stay joined on every drag as on
//! every baked frame. The figures of the group are solved as one skeleton ([`Merged`]), with
//! the same priorities a single figure's drag has: each figure's locks first, then the links
//! (one level below, as the stage's bake has them), then the drag. A site held to a prop holds
//! too (a hand on a table edge), the edited figure alone then making its group.
//!
//! While a sequence is shown, the other figures start where the stage's bake of the frame has
//! them (what the editor draws); a figure a linked drag moved is drawn as it left it until the
//! timeline shows another frame ([`crate::stage::FigureSlot::linked_pose`]). The whole drag is
//! one undo step of the edited figure's history, every moved figure's pose in it
//! ([`crate::history::Change::Poses`]).

use marionette_document::{GoalSet, Owner, Stage};
use marionette_ik::Goal;
use marionette_motion::BakeSettings;
use marionette_motion::stage::{Merged, StageBaker, StageFrame};
use marionette_skeleton::Chain;

use crate::Document;
use crate::document::held::LinkedGroup;
use crate::solve::{IkRunner, SolveOutcome};

/// One solve of the group: every member's pose after it, the outcome, and the largest error of
/// the locks and links.
pub(crate) struct GroupSolve {
    /// The members' poses, stage index and state, the edited figure's included.
    pub poses: Vec<(usize, Vec<f64>)>,
    /// The runner's outcome.
    pub outcome: SolveOutcome,
    /// The largest error of any lock or link after the solve.
    pub held_error: f64,
}

impl GroupSolve {
    /// Figure `figure`'s pose after the solve, if it is a member.
    pub fn pose_of(&self, figure: usize) -> Option<&[f64]> {
        self.poses
            .iter()
            .find(|(f, _)| *f == figure)
            .map(|(_, q)| q.as_slice())
    }
}

impl Document {
    /// Records a change of the group's poses from `before` (stage index, state) to where they
    /// are now, as one undo step.
    pub(crate) fn record_group_poses(&mut self, label: String, before: Vec<(usize, Vec<f64>)>) {
        let change = self.group_poses_change(label, before);
        self.history.record(change);
    }

    /// The change of the group's poses from `before` (stage index, state) to where they are now.
    pub(crate) fn group_poses_change(
        &self,
        label: String,
        before: Vec<(usize, Vec<f64>)>,
    ) -> crate::history::Change {
        let id_of = |figure: usize| self.stage.figures.get(figure).map(|f| f.id);
        let mut after = Vec::with_capacity(before.len());
        let mut earlier = Vec::with_capacity(before.len());
        for (figure, q) in before {
            let Some(id) = id_of(figure) else { continue };
            let doc = self.stage.figures[figure].document().unwrap_or(self);
            after.push((id, doc.pose.clone()));
            earlier.push((id, q));
        }
        crate::history::Change::Poses {
            label,
            before: earlier,
            after,
        }
    }

    /// The edited figure's links holding now met: the group's figures solved to hold them
    /// (each within its limits, its locks held) until satisfied. Returns every member's pose
    /// before; `None` (nothing moved) when no link holding now ties the edited figure.
    pub(crate) fn settle_links(&mut self, runner: &mut IkRunner) -> Option<Vec<(usize, Vec<f64>)>> {
        let group = self.linked_group(&Chain::default())?;
        self.settle_group(&group, runner);
        Some(group.start)
    }

    /// The links holding now (at the frame locks are judged on) that tie the edited figure,
    /// directly or through other figures, to another figure or to a prop, ascending.
    fn links_now(&self) -> Vec<usize> {
        let frame = self.lock_frame();
        let active = self.stage.active;
        let mut members = vec![active];
        let mut links = Vec::new();
        let mut grew = true;
        while grew {
            grew = false;
            for (l, link) in self.stage.links.iter().enumerate() {
                if links.contains(&l) || !link.active_at(frame) {
                    continue;
                }
                let (a, b) = link.figures();
                let touches = members.contains(&a) || b.is_some_and(|b| members.contains(&b));
                if touches {
                    links.push(l);
                    for f in std::iter::once(a).chain(b) {
                        if !members.contains(&f) {
                            members.push(f);
                        }
                    }
                    grew = true;
                }
            }
        }
        links.sort_unstable();
        links
    }

    /// The stage's bake of the shown sequence at the current frame (every figure, links held),
    /// when a sequence is shown and a link holding on the frame ties the edited figure;
    /// `None` otherwise or when the stage cannot be baked (the figure alone is then shown).
    pub(crate) fn stage_frame(&self) -> Option<StageFrame> {
        if self.sequence.is_none() || self.links_now().is_empty() {
            return None;
        }
        self.shown_stage_frame()
    }

    /// The edited figure's poses on frames `from ..= to` as the stage's bake makes them, when
    /// links hold now (else `None`: the figure's own bake shows its frames).
    pub(crate) fn stage_poses(&self, from: i64, to: i64) -> Option<Vec<(i64, Vec<f64>)>> {
        if self.sequence.is_none() || self.links_now().is_empty() {
            return None;
        }
        let name = self.shown_name()?;
        let stage = self.to_stage();
        let baker = StageBaker::new(&stage, name, BakeSettings::default()).ok()?;
        let mut scratch = baker.scratch();
        Some(
            (from..=to)
                .filter_map(|f| {
                    let frame = baker.frame(f, &mut scratch);
                    Some((f, frame.figures.into_iter().nth(self.stage.active)?.q))
                })
                .collect(),
        )
    }

    /// The stage's bake of the shown sequence at the current frame (every figure, links held);
    /// `None` without a shown sequence or when the stage cannot be baked.
    pub(crate) fn shown_stage_frame(&self) -> Option<StageFrame> {
        let name = self.shown_name()?;
        let stage = self.to_stage();
        let baker = StageBaker::new(&stage, name, BakeSettings::default()).ok()?;
        Some(baker.frame(self.frame, &mut baker.scratch()))
    }

    /// The group the edited figure's changes move now, ready to solve with an edit moving
    /// `chain` of the edited figure; `None` when no link holding now ties it. The other
    /// members start where the editor draws them.
    pub(crate) fn linked_group(&mut self, chain: &Chain) -> Option<LinkedGroup> {
        let links = self.links_now();
        if links.is_empty() {
            return None;
        }
        let frame = self.lock_frame();
        let active = self.stage.active;
        let mut members: Vec<usize> = links
            .iter()
            .flat_map(|&l| {
                let (a, b) = self.stage.links[l].figures();
                std::iter::once(a).chain(b)
            })
            .chain(std::iter::once(active))
            .collect();
        members.sort_unstable();
        members.dedup();
        self.start_others_where_drawn(&members);
        let stage = self.to_stage();
        let merged = Merged::new(&stage.figures, &members).ok()?;
        let me = merged.slot_of(active)?;
        let stiffness = self.merged_stiffness(&merged);
        let cue = self.shown_name().and_then(|n| stage.cue(n));
        let (held, edit_priority) = self.held_goals(&stage, &merged, &links, (frame, cue), chain);
        let start = members
            .iter()
            .map(|&m| {
                let doc = self.stage.figures[m].document().unwrap_or(self);
                (m, doc.pose.clone())
            })
            .collect();
        Some(LinkedGroup {
            merged,
            me,
            stiffness,
            held,
            edit_priority,
            start,
        })
    }

    /// With a sequence shown, the other members not yet moved by a linked change take the pose
    /// the stage's bake gives them at the frame (where the editor draws them).
    fn start_others_where_drawn(&mut self, members: &[usize]) {
        let active = self.stage.active;
        let waiting = members
            .iter()
            .any(|&m| m != active && !self.stage.figures[m].linked_pose);
        if !waiting {
            return;
        }
        let Some(frame) = self.stage_frame() else {
            return;
        };
        for &m in members {
            let slot = &mut self.stage.figures[m];
            if m == active || slot.linked_pose {
                continue;
            }
            if let Some(doc) = slot.document.as_deref_mut() {
                doc.set_pose_quietly(&frame.figures[m].q);
                slot.linked_pose = true;
            }
        }
        self.stage.linked_poses += 1;
    }

    /// Each joint's weight in the merged skeleton: every figure's own, as edited.
    fn merged_stiffness(&self, merged: &Merged) -> Vec<f64> {
        let mut stiffness: Vec<f64> = merged
            .skeleton
            .joints()
            .iter()
            .map(|j| j.stiffness)
            .collect();
        for (slot, s) in merged.slots.iter().enumerate() {
            let doc = self.stage.figures[s.figure].document().unwrap_or(self);
            for j in doc.skeleton.joint_ids() {
                stiffness[merged.joint(slot, j).index()] = doc.stiffness[j.index()];
            }
        }
        stiffness
    }

    /// The links holding now and the locks of every member they can disturb (the edited
    /// figure's own also those `chain` can), on the merged skeleton; the priority below them
    /// all.
    fn held_goals(
        &self,
        stage: &Stage,
        merged: &Merged,
        links: &[usize],
        (frame, cue): (Option<i64>, Option<&marionette_document::Cue>),
        chain: &Chain,
    ) -> (GoalSet, u32) {
        let link_goals: Vec<(usize, Goal, Chain)> = links
            .iter()
            .map(|&l| {
                let (goal, chain) =
                    merged.link_goal(stage, &stage.links[l], cue, frame.unwrap_or(self.frame));
                (l, goal, chain)
            })
            .collect();
        let mut set = GoalSet::default();
        let mut lowest = 0;
        for (slot, s) in merged.slots.iter().enumerate() {
            let doc = self.stage.figures[s.figure].document().unwrap_or(self);
            // What this figure's links move, and the drag's chain for the edited figure.
            let mut moving = if slot == self.merged_me(merged) {
                chain.clone()
            } else {
                Chain::default()
            };
            for &l in links {
                let link = &stage.links[l];
                let sites = std::iter::once(link.a).chain(link.b.site());
                for site in sites.filter(|site| site.figure == s.figure) {
                    let joint = doc.skeleton.site(site.site).joint;
                    moving = moving.union(&Chain::limb(&doc.skeleton, joint));
                }
            }
            let locks = doc.locks_disturbed_at(&moving, frame);
            for owner in locks.owners() {
                let Owner::Lock(i) = *owner else { continue };
                let lock = &doc.locks[i];
                if let Some(goal) = merged.goal(slot, lock.goal()) {
                    lowest = lowest.max(goal.priority + 1);
                    let chain = merged.columns(slot, lock.limb());
                    set.push(goal, chain, Owner::Lock(i));
                }
            }
        }
        for (l, goal, chain) in link_goals {
            set.push(
                Goal {
                    priority: lowest,
                    ..goal
                },
                chain,
                Owner::Link(l),
            );
        }
        (set, lowest + 1)
    }

    /// The edited figure's slot in `merged`.
    fn merged_me(&self, merged: &Merged) -> usize {
        merged.slot_of(self.stage.active).unwrap_or(0)
    }

    /// One solve of `group` (by `runner`, one step's budget) with `edit` moving `chain` of the
    /// edited figure, from every member's current pose. Nothing changes in the document.
    pub(crate) fn solve_group(
        &self,
        group: &LinkedGroup,
        edit: Option<(&Goal, &Chain)>,
        runner: &mut IkRunner,
        until_satisfied: Option<usize>,
    ) -> GroupSolve {
        let merged = &group.merged;
        let poses: Vec<&[f64]> = merged
            .slots
            .iter()
            .map(|s| {
                self.stage.figures[s.figure]
                    .document()
                    .unwrap_or(self)
                    .pose
                    .as_slice()
            })
            .collect();
        let mut q = merged.state(&poses);
        let mut set = group.held.clone();
        if let Some((goal, chain)) = edit
            && let Some(goal) = merged.goal(group.me, goal)
        {
            set.push(
                Goal {
                    priority: goal.priority.max(group.edit_priority),
                    ..goal
                },
                merged.columns(group.me, chain),
                Owner::Edit,
            );
        }
        let outcome = {
            let mut system = set.system(&merged.skeleton, &group.stiffness);
            system.limit_fk_to_goals();
            match until_satisfied {
                Some(max) => runner.until_satisfied(&mut system, &mut q, max),
                None => runner.step(&mut system, &mut q),
            }
        };
        let held_error = outcome
            .report
            .goal_errors
            .iter()
            .zip(set.owners())
            .filter(|(_, o)| !matches!(o, Owner::Edit))
            .fold(0.0_f64, |a, (e, _)| a.max(*e));
        let poses = merged
            .slots
            .iter()
            .enumerate()
            .map(|(slot, s)| (s.figure, merged.figure_state(slot, &q).to_vec()))
            .collect();
        GroupSolve {
            poses,
            outcome,
            held_error,
        }
    }

    /// The group's locks and links met where they are not (a link just made, a drag beginning
    /// on figures whose link is not yet met, or ending with it lagging behind a fast cursor),
    /// by `runner` until satisfied, the edit's goal left out.
    pub(crate) fn settle_group(&mut self, group: &LinkedGroup, runner: &mut IkRunner) {
        let solved = self.solve_group(group, None, runner, Some(crate::lock_edits::SETTLE_UPDATES));
        if solved.outcome.report.iterations > 0 {
            self.take_group_poses(solved.poses);
        }
    }

    /// Puts a group solve's poses into the document: the edited figure's pose, and each other
    /// member's (drawn as it is until the timeline shows another frame).
    pub(crate) fn take_group_poses(&mut self, poses: Vec<(usize, Vec<f64>)>) {
        let active = self.stage.active;
        for (figure, q) in poses {
            if figure == active {
                self.set_pose_quietly(&q);
            } else if let Some(slot) = self.stage.figures.get_mut(figure)
                && let Some(doc) = slot.document.as_deref_mut()
            {
                doc.set_pose_quietly(&q);
                slot.linked_pose = true;
            }
        }
        self.stage.linked_poses += 1;
    }

    /// Sets the pose without recording anything (a step of a gesture recorded at its end).
    pub(crate) fn set_pose_quietly(&mut self, q: &[f64]) {
        if q.len() == self.pose.len() {
            self.pose.copy_from_slice(q);
            self.fk.update(&self.skeleton, &self.pose);
        }
    }
}
