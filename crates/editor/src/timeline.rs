//! The timeline's transport and clipboard (runs headless): which frame is shown and playing,
//! the range of frames selected on the ruler, and the frames copied. What the panel, the keys and
//! replays ask that is not an edit arrives as a [`TimelineRequest`]; going to a frame is sent on
//! as `Edit::GoToFrame`, which shows the frame exactly as a bake makes it (interpolated, locks
//! re-solved). The sequences' edits themselves are `Edit`s, applied with every other edit.

use bevy::prelude::*;
use marionette_document::Clip;
use marionette_editing::{Document, Edit};

use crate::EditorSet;
use crate::messages::{EditRequest, TimelineRequest};
use crate::resources::{Notices, OpenDocument};

/// Playback.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Playback {
    /// Playing.
    pub playing: bool,
    /// Back to the first key after the last.
    pub looping: bool,
    /// One frame of the sequence per frame of the editor, whatever the time (replays, so
    /// that a run is the same on any machine); otherwise the sequence's fps in real time.
    pub fixed_step: bool,
    /// Where playback is between frames (fractional frame).
    position: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            playing: false,
            looping: true,
            fixed_step: false,
            position: 0.0,
        }
    }
}

/// The range of frames selected on the ruler (inclusive), if any.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameRange(pub Option<(i64, i64)>);

/// Frames copied or cut.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct FrameClipboard(pub Option<Clip>);

/// The timeline's transport and clipboard.
pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TimelineRequest>()
            .init_resource::<Playback>()
            .init_resource::<FrameRange>()
            .init_resource::<FrameClipboard>()
            .add_systems(
                Update,
                (carry_out_requests, advance_playback)
                    .chain()
                    .in_set(EditorSet::Input),
            );
    }
}

/// The shown sequence's key frames.
pub fn key_frames(document: &Document) -> Vec<i64> {
    document
        .current_sequence()
        .and_then(|i| document.sequences().get(i))
        .map(|s| s.keys.iter().map(|k| k.frame).collect())
        .unwrap_or_default()
}

/// Carries out this frame's requests.
fn carry_out_requests(
    mut requests: MessageReader<TimelineRequest>,
    document: Res<OpenDocument>,
    range: Res<FrameRange>,
    mut playback: ResMut<Playback>,
    mut clipboard: ResMut<FrameClipboard>,
    mut notices: ResMut<Notices>,
    mut edits: MessageWriter<EditRequest>,
) {
    let frame = document.frame();
    let keys = key_frames(&document);
    let go = |f: i64| EditRequest(Edit::GoToFrame(f));
    for &request in requests.read() {
        match request {
            TimelineRequest::Step(d) => {
                edits.write(go(frame + d));
            }
            TimelineRequest::ToKey(dir) => {
                let target = if dir < 0 {
                    keys.iter().rev().find(|&&k| k < frame)
                } else {
                    keys.iter().find(|&&k| k > frame)
                };
                if let Some(&k) = target {
                    edits.write(go(k));
                }
            }
            TimelineRequest::ToEnd(last) => {
                if let Some(&k) = if last { keys.last() } else { keys.first() } {
                    edits.write(go(k));
                }
            }
            TimelineRequest::Play(play) => {
                play_or_pause(play, frame, &keys, &mut playback, &mut notices)
            }
            TimelineRequest::TogglePlay => {
                let play = !playback.playing;
                play_or_pause(play, frame, &keys, &mut playback, &mut notices);
            }
            TimelineRequest::Copy | TimelineRequest::Cut => {
                let Some((first, last)) = range.0 else {
                    notices.error("select a range of frames on the ruler first");
                    continue;
                };
                match document.copy_frames(first, last) {
                    Ok(clip) => clipboard.0 = Some(clip),
                    Err(e) => {
                        notices.error(e.to_string());
                        continue;
                    }
                }
                if request == TimelineRequest::Cut {
                    edits.write(EditRequest(Edit::CutFrames { first, last }));
                }
            }
        }
    }
}

fn play_or_pause(
    play: bool,
    frame: i64,
    keys: &[i64],
    playback: &mut Playback,
    notices: &mut Notices,
) {
    if play && keys.is_empty() {
        notices.error("nothing to play: set a key first (K)");
        return;
    }
    playback.playing = play;
    playback.position = frame as f64;
}

/// While playing, the current frame advances (by the sequence's fps in real time, or one frame
/// per editor frame with `fixed_step`) from the first key to the last, or over the range
/// selected on the ruler, looping or stopping at its end.
fn advance_playback(
    time: Res<Time>,
    range: Res<FrameRange>,
    document: Res<OpenDocument>,
    mut playback: ResMut<Playback>,
    mut edits: MessageWriter<EditRequest>,
) {
    if !playback.playing {
        return;
    }
    let keys = key_frames(&document);
    let (Some(&first), Some(&last)) = (keys.first(), keys.last()) else {
        playback.playing = false;
        return;
    };
    // A range selected on the ruler is what plays.
    let (first, last) = range.0.unwrap_or((first, last));
    if playback.position < first as f64 {
        playback.position = first as f64 - 1.0;
    }
    let fps = document
        .current_sequence()
        .and_then(|i| document.sequences().get(i))
        .map_or(24.0, |s| s.fps);
    let step = if playback.fixed_step {
        1.0
    } else {
        time.delta_secs_f64() * fps
    };
    let mut position = playback.position + step;
    if position > last as f64 {
        if playback.looping && last > first {
            position =
                first as f64 + (position - last as f64 - 1.0).rem_euclid((last - first + 1) as f64);
        } else {
            position = last as f64;
            playback.playing = false;
        }
    }
    playback.position = position;
    let frame = position.floor() as i64;
    if frame != document.frame() {
        edits.write(EditRequest(Edit::GoToFrame(frame)));
    }
}
