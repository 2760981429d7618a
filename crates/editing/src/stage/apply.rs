//! A stage edit as one value ([`StageEdit`], sent inside [`crate::Edit::Stage`]) and its
//! application: what the outliner, the File menu, the floor handles and the replay steps send.

use marionette_document::{Placement, Prop, PropPlace};

use crate::history::UndoStep;
use crate::{Document, EditError};

/// One stage edit, as the editor's panels and the replay steps send it inside
/// [`crate::Edit::Stage`].
#[derive(Debug, Clone, PartialEq)]
pub enum StageEdit {
    /// Edit another figure (not recorded: selection is not work).
    SelectFigure(String),
    /// Add a figure from a skeleton or character file (`None`: the built-in humanoid).
    AddFigure {
        /// Its name.
        name: String,
        /// The file.
        file: Option<std::path::PathBuf>,
        /// Where it stands.
        placement: Placement,
    },
    /// Add a copy of a figure.
    DuplicateFigure {
        /// The figure copied.
        name: String,
        /// The copy's name.
        copy: String,
        /// Where the copy stands.
        placement: Placement,
    },
    /// Remove a figure (not the one being edited).
    RemoveFigure(String),
    /// Rename a figure.
    RenameFigure {
        /// Its name now.
        from: String,
        /// Its new name.
        to: String,
    },
    /// Move a figure on the floor.
    PlaceFigure {
        /// The figure.
        name: String,
        /// Where it stands.
        placement: Placement,
        /// A step of its own, or a handle drag's extended.
        undo: UndoStep,
    },
    /// Add a prop.
    AddProp(Prop),
    /// Remove a prop.
    RemoveProp(String),
    /// Set a prop's mass (kg; `None`: the default, 1 kg), counted in a figure's centre of mass
    /// while the figure grips it.
    SetPropMass {
        /// The prop.
        name: String,
        /// Its mass.
        mass: Option<f64>,
    },
    /// Move a prop.
    PlaceProp {
        /// The prop.
        name: String,
        /// Where it is.
        place: PropPlace,
        /// A step of its own, or a handle drag's extended.
        undo: UndoStep,
    },
    /// Lock a site of one figure to a site of another: (figure, site) each.
    LockBetween {
        /// The first figure's site: (figure, site).
        a: (String, String),
        /// The second figure's site: (figure, site).
        b: (String, String),
        /// Whether their joints also keep the relative orientation they have now (two hands
        /// clasped).
        turned: bool,
    },
    /// Hold a figure's site to a prop where the site is now.
    LockToProp {
        /// The figure.
        figure: String,
        /// Its site.
        site: String,
        /// The prop.
        prop: String,
        /// How.
        hold: super::PropHold,
    },
    /// Remove a link.
    RemoveLink(String),
    /// Grip a prop with a site from a frame of the shown sequence.
    Grip {
        /// The prop.
        prop: String,
        /// The figure.
        figure: String,
        /// Its site.
        site: String,
        /// The frame.
        frame: i64,
    },
    /// Key a prop at the current frame of the shown sequence where it is now.
    KeyProp(String),
    /// Remove a prop's key at a frame of the shown sequence.
    RemovePropKey {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
    /// Remove a prop's grip or release at a frame of the shown sequence.
    RemoveHold {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
    /// Release a prop from a frame of the shown sequence.
    Release {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
}

impl Document {
    /// Applies a stage edit; what to tell the user.
    pub(crate) fn apply_stage(
        &mut self,
        edit: StageEdit,
        runner: &mut crate::IkRunner,
    ) -> Result<crate::Applied, EditError> {
        let said = match edit {
            StageEdit::SelectFigure(name) => {
                self.select_figure(&name)?;
                format!("Editing figure {name}")
            }
            StageEdit::AddFigure {
                name,
                file,
                placement,
            } => {
                self.add_figure(&name, file.as_deref(), placement)?;
                format!("Added figure {name}")
            }
            StageEdit::DuplicateFigure {
                name,
                copy,
                placement,
            } => {
                self.duplicate_figure(&name, &copy, placement)?;
                format!("Duplicated figure {name} as {copy}")
            }
            StageEdit::RemoveFigure(name) => {
                self.remove_figure(&name)?;
                format!("Removed figure {name}")
            }
            StageEdit::RenameFigure { from, to } => {
                self.rename_figure(&from, &to)?;
                format!("Renamed figure {from} to {to}")
            }
            StageEdit::PlaceFigure {
                name,
                placement,
                undo,
            } => {
                self.place_figure(&name, placement, undo)?;
                return Ok(crate::Applied::Quietly);
            }
            StageEdit::AddProp(prop) => {
                let name = prop.name.clone();
                self.add_prop(prop)?;
                format!("Added prop {name}")
            }
            StageEdit::RemoveProp(name) => {
                self.remove_prop(&name)?;
                format!("Removed prop {name}")
            }
            StageEdit::SetPropMass { name, mass } => {
                self.set_prop_mass(&name, mass)?;
                format!(
                    "Prop {name} weighs {} kg",
                    mass.unwrap_or(marionette_document::Prop::DEFAULT_MASS)
                )
            }
            StageEdit::PlaceProp { name, place, undo } => {
                self.place_prop(&name, place, undo)?;
                return Ok(crate::Applied::Quietly);
            }
            StageEdit::LockBetween { a, b, turned } => {
                self.lock_between((&a.0, &a.1), (&b.0, &b.1), turned, runner)?;
                let how = if turned { ", turned as now" } else { "" };
                format!("Locked {}: {} to {}: {}{how}", a.0, a.1, b.0, b.1)
            }
            StageEdit::LockToProp {
                figure,
                site,
                prop,
                hold,
            } => {
                self.lock_to_prop(&figure, &site, &prop, hold)?;
                format!("Locked {figure}: {site} to {prop}, {}", hold.label())
            }
            StageEdit::RemoveLink(name) => {
                self.remove_link(&name)?;
                format!("Removed link {name}")
            }
            StageEdit::Grip {
                prop,
                figure,
                site,
                frame,
            } => {
                self.grip(&prop, &figure, &site, frame)?;
                format!("{figure} grips {prop} with {site} from frame {frame}")
            }
            StageEdit::KeyProp(prop) => {
                self.key_prop(&prop)?;
                format!("Keyed {prop} at frame {}", self.frame())
            }
            StageEdit::RemovePropKey { prop, frame } => {
                self.remove_prop_key(&prop, frame)?;
                format!("Removed {prop}'s key at frame {frame}")
            }
            StageEdit::RemoveHold { prop, frame } => {
                self.remove_hold(&prop, frame)?;
                format!("Removed {prop}'s grip or release at frame {frame}")
            }
            StageEdit::Release { prop, frame } => {
                self.release(&prop, frame)?;
                format!("{prop} released at frame {frame}")
            }
        };
        Ok(crate::Applied::Said(said))
    }
}
