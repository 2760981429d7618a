//! The stage in the outliner: its figures and props listed ([`list`]), the links made between
//! figures and to props ([`link_maker`]), and the props' grips and releases ([`holds`]).

pub mod holds;
pub mod link_maker;
pub mod list;
