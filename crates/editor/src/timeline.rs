//! The timeline's logic (runs headless): what the timeline panel, the shortcuts and replays ask
//! for arrives as [`TimelineAction`] messages and is carried out on the document
//! ([`marionette_editing::timeline`]); playback advances the current frame, each frame shown as
//! a bake makes it (interpolated, locks re-solved); the violation strip is re-baked when the
//! sequence or the locks change. K sets a key, Alt+K deletes it, Space plays or pauses,
//! Left/Right step a frame, Home/End go to the first or last key.

use bevy::prelude::*;
use marionette_document::{Clip, Lock, Sequence};

use crate::state::Editor;

/// Something the timeline asks of the document.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum TimelineAction {
    /// Go to a frame.
    SetFrame(i64),
    /// Step by this many frames.
    Step(i64),
    /// Go to the previous key (−1), the next (+1).
    ToKey(i64),
    /// Go to the first key (false) or the last (true).
    ToEnd(bool),
    /// Set a key at the current frame.
    SetKey,
    /// Delete the key at the current frame.
    DeleteKey,
    /// Move the key at `from` to `to`.
    MoveKey {
        /// Its frame.
        from: i64,
        /// The new frame.
        to: i64,
    },
    /// Play (true) or pause.
    Play(bool),
    /// Show this sequence (or none).
    Select(Option<usize>),
    /// A new sequence keyed with the current pose.
    NewSequence,
    /// Rename a sequence.
    Rename(usize, String),
    /// Duplicate a sequence.
    Duplicate(usize),
    /// Delete a sequence.
    Delete(usize),
    /// Copy the selected range of frames.
    Copy,
    /// Cut the selected range.
    Cut,
    /// Paste the clipboard at the current frame.
    Paste,
    /// Insert this many empty frames at the current frame.
    InsertFrames(i64),
    /// Delete the selected range of frames.
    DeleteFrames,
    /// Stretch or shrink the selected range to this many frames.
    Retime(i64),
    /// Slide the selected range's keys by this many frames.
    Slide(i64),
    /// Set lock `index`'s frame range.
    LockFrames(usize, Option<(i64, i64)>),
    /// Change the shown sequence's settings.
    Settings(SequenceSettings),
}

/// A shown sequence's settings, as the panel edits them.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceSettings {
    /// Frames per second.
    pub fps: f64,
    /// Rotation interpolation.
    pub rotation: marionette_document::RotationInterpolation,
    /// Root interpolation.
    pub root: marionette_document::RootInterpolation,
    /// Whether frames hold their locks.
    pub hold_locks: bool,
}

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
pub struct FrameSelection(pub Option<(i64, i64)>);

/// Frames copied or cut.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct FrameClipboard(pub Option<Clip>);

/// Whether the figures at the previous and next keys are drawn.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct OnionSkin(pub bool);

impl Default for OnionSkin {
    fn default() -> Self {
        OnionSkin(true)
    }
}

/// Every frame's largest lock error of the shown sequence, baked when the sequence or the locks
/// change (for the violation strip and the flipbook).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct BakedStrip {
    /// What it was baked from: the document, the sequence and the locks.
    source: Option<(u64, Sequence, Vec<Lock>)>,
    /// (frame, largest lock error) for every frame from the first key to the last.
    pub errors: Vec<(i64, f64)>,
    /// Every frame's pose (for the flipbook and onion skins).
    pub poses: Vec<Vec<f64>>,
}

/// The timeline's logic.
pub struct TimelinePlugin;

impl Plugin for TimelinePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TimelineAction>()
            .init_resource::<Playback>()
            .init_resource::<FrameSelection>()
            .init_resource::<FrameClipboard>()
            .init_resource::<OnionSkin>()
            .init_resource::<BakedStrip>()
            .add_systems(
                Update,
                (timeline_keys, carry_out, advance_playback, rebake_strip)
                    .chain()
                    .before(crate::dragging::DragSet::Begin),
            );
    }
}

/// K, Alt+K, Space, Left/Right, Home/End.
fn timeline_keys(
    keys: Res<ButtonInput<KeyCode>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    playback: Res<Playback>,
    mut actions: MessageWriter<TimelineAction>,
) {
    if egui_input.is_some_and(|e| e.wants_any_keyboard_input()) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let alt = keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]);
    if ctrl {
        return;
    }
    for &key in keys.get_just_pressed() {
        let action = match (key, alt) {
            (KeyCode::KeyK, false) => TimelineAction::SetKey,
            (KeyCode::KeyK, true) => TimelineAction::DeleteKey,
            (KeyCode::Space, _) => TimelineAction::Play(!playback.playing),
            (KeyCode::ArrowLeft, false) => TimelineAction::Step(-1),
            (KeyCode::ArrowRight, false) => TimelineAction::Step(1),
            (KeyCode::ArrowLeft, true) => TimelineAction::ToKey(-1),
            (KeyCode::ArrowRight, true) => TimelineAction::ToKey(1),
            (KeyCode::Home, _) => TimelineAction::ToEnd(false),
            (KeyCode::End, _) => TimelineAction::ToEnd(true),
            _ => continue,
        };
        actions.write(action);
    }
}

/// The shown sequence's key frames.
pub fn key_frames(editor: &Editor) -> Vec<i64> {
    editor
        .document
        .current_sequence()
        .and_then(|i| editor.document.sequences().get(i))
        .map(|s| s.keys.iter().map(|k| k.frame).collect())
        .unwrap_or_default()
}

/// Carries out the actions of this frame.
fn carry_out(
    mut actions: MessageReader<TimelineAction>,
    mut editor: ResMut<Editor>,
    mut playback: ResMut<Playback>,
    mut selection: ResMut<FrameSelection>,
    mut clipboard: ResMut<FrameClipboard>,
) {
    for action in actions.read() {
        if let Err(e) = apply(
            action,
            &mut editor,
            &mut playback,
            &mut selection,
            &mut clipboard,
        ) {
            editor.fail(e);
        }
    }
}

/// One action; the error text for the user when it was refused.
pub fn apply(
    action: &TimelineAction,
    editor: &mut Editor,
    playback: &mut Playback,
    selection: &mut FrameSelection,
    clipboard: &mut FrameClipboard,
) -> Result<(), String> {
    let frame = editor.document.frame();
    let keys = key_frames(editor);
    let doc = &mut editor.document;
    let range = || {
        selection
            .0
            .ok_or("select a range of frames on the ruler first")
    };
    let err = |e: marionette_editing::EditError| e.to_string();
    match action {
        TimelineAction::SetFrame(f) => doc.go_to_frame(*f),
        TimelineAction::Step(d) => doc.go_to_frame(frame + d),
        TimelineAction::ToKey(dir) => {
            let target = if *dir < 0 {
                keys.iter().rev().find(|&&k| k < frame)
            } else {
                keys.iter().find(|&&k| k > frame)
            };
            if let Some(&k) = target {
                doc.go_to_frame(k);
            }
        }
        TimelineAction::ToEnd(last) => {
            let target = if *last { keys.last() } else { keys.first() };
            if let Some(&k) = target {
                doc.go_to_frame(k);
            }
        }
        TimelineAction::SetKey => doc.set_key(),
        TimelineAction::DeleteKey => doc.delete_key().map_err(err)?,
        TimelineAction::MoveKey { from, to } => doc.move_key(*from, *to).map_err(err)?,
        TimelineAction::Play(play) => {
            if *play && keys.is_empty() {
                return Err("nothing to play: set a key first (K)".into());
            }
            playback.playing = *play;
            playback.position = frame as f64;
        }
        TimelineAction::Select(index) => {
            playback.playing = false;
            doc.select_sequence(*index).map_err(err)?;
        }
        TimelineAction::NewSequence => {
            doc.new_sequence("Sequence 1");
        }
        TimelineAction::Rename(i, name) => doc.rename_sequence(*i, name).map_err(err)?,
        TimelineAction::Duplicate(i) => {
            doc.duplicate_sequence(*i).map_err(err)?;
        }
        TimelineAction::Delete(i) => {
            playback.playing = false;
            doc.delete_sequence(*i).map_err(err)?;
        }
        TimelineAction::Copy => {
            let (a, b) = range()?;
            clipboard.0 = Some(doc.copy_frames(a, b).map_err(err)?);
        }
        TimelineAction::Cut => {
            let (a, b) = range()?;
            clipboard.0 = Some(doc.cut_frames(a, b).map_err(err)?);
            selection.0 = None;
        }
        TimelineAction::Paste => {
            let clip = clipboard.0.clone().ok_or("nothing copied yet")?;
            doc.paste_frames(frame, &clip).map_err(err)?;
        }
        TimelineAction::InsertFrames(n) => doc.insert_frames(frame, *n).map_err(err)?,
        TimelineAction::DeleteFrames => {
            let (a, b) = range()?;
            doc.delete_frames(a, b).map_err(err)?;
            selection.0 = None;
        }
        TimelineAction::Retime(length) => {
            let (a, b) = range()?;
            doc.retime_frames(a, b, *length).map_err(err)?;
            selection.0 = Some((a, a + length - 1));
        }
        TimelineAction::Slide(d) => {
            let (a, b) = range()?;
            doc.slide_frames(a, b, *d).map_err(err)?;
            selection.0 = Some((a + d, b + d));
        }
        TimelineAction::LockFrames(i, frames) => {
            doc.set_lock_frames(*i, *frames).map_err(err)?;
        }
        TimelineAction::Settings(s) => {
            let s = s.clone();
            doc.set_sequence_settings("Sequence settings".into(), move |seq| {
                seq.fps = s.fps;
                seq.rotation = s.rotation;
                seq.root = s.root;
                seq.hold_locks = s.hold_locks;
            })
            .map_err(err)?;
        }
    }
    Ok(())
}

/// While playing, the current frame advances (by the sequence's fps in real time, or one frame
/// per editor frame with `fixed_step`) from the first key to the last, or over the range
/// selected on the ruler, looping or stopping at its end.
fn advance_playback(
    time: Res<Time>,
    selection: Res<FrameSelection>,
    mut playback: ResMut<Playback>,
    mut editor: ResMut<Editor>,
) {
    if !playback.playing {
        return;
    }
    let keys = key_frames(&editor);
    let (Some(&first), Some(&last)) = (keys.first(), keys.last()) else {
        playback.playing = false;
        return;
    };
    // A range selected on the ruler is what plays.
    let (first, last) = selection.0.unwrap_or((first, last));
    if playback.position < first as f64 {
        playback.position = first as f64 - 1.0;
    }
    let fps = editor
        .document
        .current_sequence()
        .and_then(|i| editor.document.sequences().get(i))
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
    if frame != editor.document.frame() {
        editor.document.go_to_frame(frame);
    }
}

/// Re-bakes the shown sequence when it, its locks or the document changed.
fn rebake_strip(editor: Res<Editor>, mut strip: ResMut<BakedStrip>) {
    let doc = &editor.document;
    let Some(index) = doc.current_sequence() else {
        if strip.source.is_some() {
            *strip = BakedStrip::default();
        }
        return;
    };
    let Some(seq) = doc.sequences().get(index) else {
        return;
    };
    let unchanged = strip
        .source
        .as_ref()
        .is_some_and(|(id, s, l)| *id == doc.id() && s == seq && l == doc.locks());
    if unchanged {
        return;
    }
    let frames = doc.bake_sequence(index);
    *strip = BakedStrip {
        source: Some((doc.id(), seq.clone(), doc.locks().to_vec())),
        errors: frames
            .iter()
            .map(|f| {
                let worst = f.lock_errors.iter().map(|e| e.1).fold(0.0, f64::max);
                (f.frame, worst)
            })
            .collect(),
        poses: frames.into_iter().map(|f| f.q).collect(),
    };
}
