//! Several figures and props baked together: figures tied by links solved as one skeleton
//! ([`merged`]), props carried from grip to release ([`props`]), the whole stage frame by frame
//! ([`bake`]).

pub mod bake;
pub mod frames_file;
pub mod merged;
pub mod props;

pub use bake::{StageBake, StageBaker, StageFrame, StageScratch, linked_groups};
pub use frames_file::{StageSummary, write_stage_frames};
pub use merged::Merged;
