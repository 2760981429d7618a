//! The edits of the stage ([`crate::stage`]): figures added (a skeleton file, a character file
//! or the built-in humanoid), removed, duplicated, renamed and moved on the floor; props added,
//! removed and moved; a lock between two figures' sites (a [`Link`]); grips and releases are in
//! [`super::holds`]. Each is checked first (names unique among figures and props, sites that
//! exist) and changes nothing when refused; each is one undo step of the selected figure
//! ([`Change::Stage`]).

use std::path::Path;
use std::sync::Arc;

use marionette_document::{
    DocumentFile, Hold, Link, LinkTarget, Placement, Prop, PropPlace, SiteRef,
};

use super::{FigureSlot, StageLayout, refused};
use crate::history::{Change, UndoStep};
use crate::solve::IkRunner;
use crate::{Document, EditError};

/// Whether `value` is a finite number.
fn finite(values: &[f64]) -> bool {
    values.iter().all(|v| v.is_finite())
}

impl Document {
    /// The figure named `name`, or an error listing the figures.
    pub(super) fn figure_named(&self, name: &str) -> Result<usize, EditError> {
        self.stage
            .figures
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| {
                refused(format!(
                    "there is no figure \"{name}\" (figures: {})",
                    self.figure_names().join(", ")
                ))
            })
    }

    /// The prop named `name`.
    pub(super) fn prop_named(&self, name: &str) -> Result<usize, EditError> {
        self.stage
            .props
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| refused(format!("there is no prop \"{name}\"")))
    }

    /// Refuses a name that is empty or already a figure's or prop's (`except` may keep its own).
    fn check_new_name(&self, name: &str, except: Option<&str>) -> Result<(), EditError> {
        let name_trimmed = name.trim();
        if name_trimmed.is_empty() || name_trimmed != name || name.contains('/') {
            return Err(refused(format!(
                "\"{name}\" cannot name a figure or prop: it must not be empty, start or end \
                 with a space, or hold a slash"
            )));
        }
        let taken = self.stage.figures.iter().any(|f| f.name == name)
            || self.stage.props.iter().any(|p| p.name == name);
        if taken && except != Some(name) {
            return Err(refused(format!(
                "a figure or prop is already named \"{name}\"; names on a stage are unique"
            )));
        }
        Ok(())
    }

    /// A document of figure `k` (the edited one's is `self`).
    pub(super) fn figure_document(&self, k: usize) -> &Document {
        match self.stage.figures[k].document.as_deref() {
            Some(d) => d,
            None => self,
        }
    }

    /// The site `site` of figure `figure`, as a link names it.
    pub(super) fn site_ref(&self, figure: &str, site: &str) -> Result<SiteRef, EditError> {
        let k = self.figure_named(figure)?;
        let skeleton = self.figure_document(k).skeleton();
        let site_id = skeleton.site_by_name(site).ok_or_else(|| {
            refused(format!(
                "figure \"{figure}\" has no site \"{site}\" (skeleton \"{}\")",
                skeleton.name()
            ))
        })?;
        Ok(SiteRef {
            figure: k,
            site: site_id,
        })
    }

    /// Records the stage edit from `before` to what the stage is now.
    pub(super) fn record_stage(&mut self, label: String, before: StageLayout, undo: UndoStep) {
        let after = self.stage.layout();
        self.record_stage_layouts(label, before, after, undo);
    }

    fn record_stage_layouts(
        &mut self,
        label: String,
        before: StageLayout,
        after: StageLayout,
        undo: UndoStep,
    ) {
        self.history.record_as(
            Change::Stage {
                label,
                before: Box::new(before),
                after: Box::new(after),
            },
            undo,
        );
    }

    /// The document `file` names as a new figure: a skeleton file, a rigged character file
    /// (`.glb`, `.gltf`, `.vrm`: imported, its skeleton written beside it) or, for `None`,
    /// the built-in humanoid; standing.
    pub fn figure_from_file(file: Option<&Path>) -> Result<Document, EditError> {
        use marionette_interchange::open::{Opened, open};
        let Some(path) = file else {
            return Ok(Document::new(marionette_skeleton::builtin::humanoid(), None).standing());
        };
        match open(path, Default::default()) {
            Ok(Opened::Skeleton(skeleton)) => {
                Ok(Document::new(*skeleton, Some(path.to_path_buf())).standing())
            }
            Ok(Opened::Character(character)) => {
                let (imported, _) = Document::character_document(*character, path)
                    .map_err(|e| refused(e.to_string()))?;
                let mut doc = imported.document;
                doc.saved_revision = 0;
                Ok(doc)
            }
            Ok(other) => Err(refused(format!(
                "{}: a figure is a skeleton or a character file, not {}",
                path.display(),
                other.kind().describe()
            ))),
            Err(e) => Err(refused(e.to_string())),
        }
    }

    /// Adds a figure named `name`, made from `file` ([`Document::figure_from_file`]), standing
    /// at `placement`.
    pub(crate) fn add_figure(
        &mut self,
        name: &str,
        file: Option<&Path>,
        placement: Placement,
    ) -> Result<(), EditError> {
        self.check_new_name(name, None)?;
        check_placement(&placement)?;
        let document = Document::figure_from_file(file)?;
        let snapshot = document.snapshot();
        self.push_figure(
            name,
            placement,
            document,
            snapshot,
            format!("Add figure {name}"),
        );
        Ok(())
    }

    /// Adds a copy of figure `name` (its pose, locks, keys and library) named `copy`, standing
    /// at `placement`.
    pub(crate) fn duplicate_figure(
        &mut self,
        name: &str,
        copy: &str,
        placement: Placement,
    ) -> Result<(), EditError> {
        let k = self.figure_named(name)?;
        self.check_new_name(copy, None)?;
        check_placement(&placement)?;
        let snapshot = self.figure_document(k).snapshot();
        let document = Document::from_file(snapshot.clone());
        let label = format!("Duplicate figure {name} as {copy}");
        self.push_figure(copy, placement, document, snapshot, label);
        Ok(())
    }

    /// Puts `document` on the stage as figure `name` at `placement`, one undo step that carries
    /// `snapshot` (the figure as a file holds it) so a redo can make it again.
    fn push_figure(
        &mut self,
        name: &str,
        placement: Placement,
        document: Document,
        snapshot: DocumentFile,
        label: String,
    ) {
        let before = self.stage.layout();
        self.stage
            .figures
            .push(FigureSlot::new(name.to_owned(), placement, Some(document)));
        let mut after = self.stage.layout();
        if let Some(last) = after.figures.last_mut() {
            last.file = Some(Arc::new(snapshot));
        }
        self.record_stage_layouts(label, before, after, UndoStep::New);
    }

    /// Removes figure `name` with its links and holds. The figure being edited cannot be
    /// removed (select another first); the last figure cannot either.
    pub(crate) fn remove_figure(&mut self, name: &str) -> Result<(), EditError> {
        let k = self.figure_named(name)?;
        if k == self.stage.active {
            return Err(refused(format!(
                "figure \"{name}\" is being edited; select another figure to remove it"
            )));
        }
        let mut before = self.stage.layout();
        before.figures[k].file = Some(Arc::new(self.figure_document(k).snapshot()));
        let stage = &mut self.stage;
        stage.figures.remove(k);
        if stage.active > k {
            stage.active -= 1;
        }
        let moved = |f: usize| if f > k { f - 1 } else { f };
        stage
            .links
            .retain(|l| l.a.figure != k && l.b.site().is_none_or(|s| s.figure != k));
        for link in &mut stage.links {
            link.a.figure = moved(link.a.figure);
            if let Some(s) = link.b.site_mut() {
                s.figure = moved(s.figure);
            }
        }
        for cue in &mut stage.cues {
            super::holds::remove_holds_of(cue, k);
        }
        self.record_stage(format!("Remove figure {name}"), before, UndoStep::New);
        Ok(())
    }

    /// Renames figure `name` to `new`.
    pub(crate) fn rename_figure(&mut self, name: &str, new: &str) -> Result<(), EditError> {
        let k = self.figure_named(name)?;
        self.check_new_name(new, Some(name))?;
        let before = self.stage.layout();
        self.stage.figures[k].name = new.to_owned();
        self.record_stage(
            format!("Rename figure {name} to {new}"),
            before,
            UndoStep::New,
        );
        Ok(())
    }

    /// Moves figure `name` on the floor (a handle's drag extends one step).
    pub(crate) fn place_figure(
        &mut self,
        name: &str,
        placement: Placement,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        let k = self.figure_named(name)?;
        check_placement(&placement)?;
        let before = self.stage.layout();
        self.stage.figures[k].placement = placement;
        self.record_stage(format!("Move figure {name}"), before, undo);
        Ok(())
    }

    /// Adds a prop; its mesh file, if any, is read now (relative to the document's folder,
    /// else the working directory).
    pub(crate) fn add_prop(&mut self, prop: Prop) -> Result<(), EditError> {
        self.check_new_name(&prop.name, None)?;
        check_prop_place(&prop.name, &prop.place)?;
        if let Some(why) = prop.mass.and_then(Prop::mass_problem) {
            return Err(refused(format!("prop \"{}\": {why}", prop.name)));
        }
        let folder = self.folder();
        if let Some(why) = marionette_document::stage::check::shape_problem(&prop.shape, &folder) {
            return Err(refused(format!("prop \"{}\": {why}", prop.name)));
        }
        let before = self.stage.layout();
        let label = format!("Add prop {}", prop.name);
        self.stage.props.push(prop);
        self.record_stage(label, before, UndoStep::New);
        Ok(())
    }

    /// Sets prop `name`'s mass (`None`: the default), as one undo step; a mass that is not one is
    /// refused, naming the prop.
    pub(crate) fn set_prop_mass(&mut self, name: &str, mass: Option<f64>) -> Result<(), EditError> {
        let k = self.prop_named(name)?;
        if let Some(why) = mass.and_then(Prop::mass_problem) {
            return Err(refused(format!("prop \"{name}\": {why}")));
        }
        let before = self.stage.layout();
        self.stage.props[k].mass = mass;
        self.record_stage(format!("Weigh prop {name}"), before, UndoStep::New);
        Ok(())
    }

    /// Removes prop `name`, with its links, keys and holds.
    pub(crate) fn remove_prop(&mut self, name: &str) -> Result<(), EditError> {
        let k = self.prop_named(name)?;
        let before = self.stage.layout();
        let stage = &mut self.stage;
        stage.props.remove(k);
        let moved = |p: usize| if p > k { p - 1 } else { p };
        stage
            .links
            .retain(|l| !matches!(l.b, LinkTarget::Prop { prop, .. } if prop == k));
        for link in &mut stage.links {
            if let LinkTarget::Prop { prop, .. } = &mut link.b {
                *prop = moved(*prop);
            }
        }
        for cue in &mut stage.cues {
            cue.tracks.retain(|t| t.prop != k);
            for t in &mut cue.tracks {
                t.prop = moved(t.prop);
            }
            cue.holds.retain(|h| h.prop() != k);
            for h in &mut cue.holds {
                match h {
                    Hold::Grip { prop, .. } | Hold::Release { prop, .. } => *prop = moved(*prop),
                }
            }
        }
        stage
            .cues
            .retain(|c| !c.tracks.is_empty() || !c.holds.is_empty());
        self.record_stage(format!("Remove prop {name}"), before, UndoStep::New);
        Ok(())
    }

    /// Moves prop `name` (where it is when no sequence moves it).
    pub(crate) fn place_prop(
        &mut self,
        name: &str,
        place: PropPlace,
        undo: UndoStep,
    ) -> Result<(), EditError> {
        let k = self.prop_named(name)?;
        check_prop_place(name, &place)?;
        if self.move_or_key_prop(name, k, place, undo)? {
            return Ok(());
        }
        let before = self.stage.layout();
        self.stage.props[k].place = place;
        self.record_stage(format!("Move prop {name}"), before, undo);
        Ok(())
    }

    /// Locks site `a.1` of figure `a.0` to site `b.1` of figure `b.0` (two figures, or two
    /// sites of one): both move to meet; `turned`: their joints also keep the relative
    /// orientation they have now (two hands clasped).
    pub(crate) fn lock_between(
        &mut self,
        a: (&str, &str),
        b: (&str, &str),
        turned: bool,
        runner: &mut IkRunner,
    ) -> Result<(), EditError> {
        let first = self.site_ref(a.0, a.1)?;
        let second = self.site_ref(b.0, b.1)?;
        if first == second {
            return Err(refused(format!(
                "\"{}: {}\" cannot be locked to itself",
                a.0, a.1
            )));
        }
        let name = self
            .stage
            .free_link_name(format!("{} {} - {} {}", a.0, a.1, b.0, b.1));
        let before = self.stage.layout();
        self.stage.links.push(Link {
            name: name.clone(),
            a: first,
            b: if turned {
                LinkTarget::SitePose {
                    site: second,
                    rotation: self.relative_turn(first, second),
                }
            } else {
                LinkTarget::Site(second)
            },
            enabled: true,
            frames: None,
        });
        let label = format!("Lock {name}");
        if self.sequence.is_some() {
            // The frame shown is the stage's bake of it, the link now held in it.
            self.record_stage(label, before, UndoStep::New);
            self.show_frame();
            return Ok(());
        }
        let linked = Change::Stage {
            label: label.clone(),
            before: Box::new(before),
            after: Box::new(self.stage.layout()),
        };
        match self.settle_links(runner) {
            Some(poses) => {
                let met = self.group_poses_change(label.clone(), poses);
                self.history.record(Change::Steps {
                    label,
                    steps: vec![linked, met],
                });
            }
            None => self.history.record(linked),
        }
        Ok(())
    }

    /// Removes the link named `name`.
    pub(crate) fn remove_link(&mut self, name: &str) -> Result<(), EditError> {
        let k = self
            .stage
            .links
            .iter()
            .position(|l| l.name == name)
            .ok_or_else(|| refused(format!("there is no link \"{name}\"")))?;
        let before = self.stage.layout();
        self.stage.links.remove(k);
        self.record_stage(format!("Remove link {name}"), before, UndoStep::New);
        Ok(())
    }
}

/// Refuses a placement that is not finite numbers.
fn check_placement(placement: &Placement) -> Result<(), EditError> {
    if finite(&placement.at) && placement.facing.is_finite() {
        Ok(())
    } else {
        Err(refused("a figure's place and facing must be numbers"))
    }
}

/// Refuses a prop place that is not finite numbers.
fn check_prop_place(name: &str, place: &PropPlace) -> Result<(), EditError> {
    if finite(&place.at) && finite(&place.rotation) {
        Ok(())
    } else {
        Err(refused(format!(
            "prop \"{name}\": its place and rotation must be numbers"
        )))
    }
}
