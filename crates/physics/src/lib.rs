//! The physics assistant's core, without Bevy: how much a figure's segments weigh and where
//! ([`masses`], from de Leva's table by humanoid role: [`de_leva`]), a take read as physics
//! reads it ([`track`]: centre of mass, body points, angular momentum), its supports
//! ([`supports`]), flights ([`flight`]) and balance ([`balance`]), checked together
//! ([`check`]).

pub mod balance;
pub mod check;
pub mod de_leva;
pub mod fix;
pub mod flight;
mod landmarks;
pub mod masses;
pub mod momentum;
pub mod rest;
pub mod supports;
pub mod track;
pub mod weigh;

pub use de_leva::Sex;
pub use masses::{BodyPoint, MassError, MassModel, MassSettings, MassSource, Segment};
