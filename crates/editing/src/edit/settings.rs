//! The edits that change only how solves run ([`Solving::apply_setting`]): not the document.

use super::Edit;
use crate::EditError;
use crate::solve::Solving;

impl Solving {
    /// Applies `edit` when it changes only how solves run (the solver and its settings, what a
    /// drag moves, the comparison), which is not part of the document: `None` for every other
    /// edit. A refused setting changes nothing.
    pub fn apply_setting(&mut self, edit: &Edit) -> Option<Result<(), EditError>> {
        Some(match edit {
            Edit::Settings(settings) => self
                .runner
                .set_settings(*settings)
                .map_err(EditError::Settings),
            Edit::ChainMode(mode) => {
                self.chain_mode = *mode;
                Ok(())
            }
            Edit::Comparison(comparison) => {
                self.comparison = comparison.clone();
                Ok(())
            }
            _ => return None,
        })
    }
}
