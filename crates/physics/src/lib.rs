//! The physics assistant's core, without Bevy: how much a figure's segments weigh and where
//! ([`masses`], from de Leva's table by humanoid role: [`de_leva`]).

pub mod de_leva;
mod landmarks;
pub mod masses;
pub mod rest;

pub use de_leva::Sex;
pub use masses::{MassError, MassModel, MassSettings, MassSource, Segment};
