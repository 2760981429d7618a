//! The stage's protocols (issue 32): several figures baked together ([`bake`]), and the
//! editor's work per frame while a figure linked to another is dragged ([`drag`]).

pub mod bake;
pub mod drag;
