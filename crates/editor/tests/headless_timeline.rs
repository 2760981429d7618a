//! The timeline in the headless editor (`MinimalPlugins` + input + the editor's logic): K and
//! Alt+K, the edits and requests the panel sends, playback, the violation strip re-baked when the
//! sequence changes.

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use marionette_editing::Edit;
use marionette_editor::derived::BakedStrip;
use marionette_editor::messages::TimelineRequest;
use marionette_editor::timeline::{FrameRange, Playback};

mod common;
use common::{document, notices, send};

fn app() -> App {
    common::app("-timeline")
}

/// K pressed for a frame and released (with Alt held: Alt+K).
fn press_k(app: &mut App, alt: bool) {
    let held = [(KeyCode::AltLeft, Key::Alt)];
    common::tap(app, if alt { &held[..] } else { &[] }, KeyCode::KeyK, "k");
}

/// A timeline request (the transport, the clipboard), and a frame.
fn request(app: &mut App, request: TimelineRequest) {
    app.world_mut().write_message(request);
    app.update();
}

fn keys(app: &App) -> Vec<i64> {
    marionette_editor::timeline::key_frames(document(app))
}

/// The range selected on the ruler.
fn range(app: &App) -> (i64, i64) {
    app.world().resource::<FrameRange>().0.expect("a range")
}

#[test]
fn k_keys_alt_k_deletes_and_the_panel_actions_edit_the_sequence() {
    let mut app = app();
    press_k(&mut app, false);
    assert_eq!(keys(&app), [0], "K made a sequence keyed at 0");
    send(&mut app, Edit::GoToFrame(20));
    press_k(&mut app, false);
    send(&mut app, Edit::GoToFrame(10));
    press_k(&mut app, false);
    assert_eq!(keys(&app), [0, 10, 20]);
    press_k(&mut app, true);
    assert_eq!(keys(&app), [0, 20], "Alt+K deleted the key at 10");
    send(&mut app, Edit::MoveKey { from: 20, to: 30 });
    assert_eq!(keys(&app), [0, 30]);
    // A range request without a range is refused with a message, nothing changes.
    request(&mut app, TimelineRequest::Copy);
    assert!(
        notices(&app)
            .all()
            .iter()
            .any(|n| n.is_error && n.text.contains("range"))
    );
    app.world_mut().resource_mut::<FrameRange>().0 = Some((0, 9));
    request(&mut app, TimelineRequest::Copy);
    send(&mut app, Edit::GoToFrame(0));
    let clip = app
        .world()
        .resource::<marionette_editor::timeline::FrameClipboard>()
        .0
        .clone()
        .expect("copied");
    send(&mut app, Edit::PasteFrames { at: 0, clip });
    assert_eq!(keys(&app), [0, 10, 40], "ten frames pasted at 0");
    let (first, last) = range(&app);
    send(
        &mut app,
        Edit::RetimeFrames {
            first,
            last,
            length: 5,
        },
    );
    assert_eq!(keys(&app), [0, 5, 35]);
    assert_eq!(range(&app), (0, 4), "the range follows the retime");
    request(&mut app, TimelineRequest::ToKey(1));
    assert_eq!(document(&app).frame(), 5);
    request(&mut app, TimelineRequest::ToEnd(true));
    assert_eq!(document(&app).frame(), 35);
    // Every edit one undo step.
    send(&mut app, Edit::Undo);
    assert_eq!(keys(&app), [0, 10, 40]);
}

#[test]
fn playback_advances_a_frame_per_update_with_a_fixed_step_and_loops() {
    let mut app = app();
    press_k(&mut app, false);
    send(&mut app, Edit::GoToFrame(4));
    press_k(&mut app, false);
    send(&mut app, Edit::GoToFrame(0));
    app.world_mut().resource_mut::<Playback>().fixed_step = true;
    request(&mut app, TimelineRequest::Play(true));
    let mut seen = vec![document(&app).frame()];
    for _ in 0..6 {
        app.update();
        seen.push(document(&app).frame());
    }
    assert_eq!(seen, [1, 2, 3, 4, 0, 1, 2], "played 0–4, looped");
    request(&mut app, TimelineRequest::Play(false));
    let at = document(&app).frame();
    app.update();
    assert_eq!(document(&app).frame(), at, "paused");
    // A selected range is what plays.
    app.world_mut().resource_mut::<FrameRange>().0 = Some((1, 2));
    request(&mut app, TimelineRequest::Play(true));
    let mut seen = vec![document(&app).frame()];
    for _ in 0..4 {
        app.update();
        seen.push(document(&app).frame());
    }
    assert_eq!(seen, [1, 2, 1, 2, 1], "played 1–2, looped");
}

#[test]
fn the_violation_strip_is_rebaked_when_the_sequence_changes() {
    let mut app = app();
    press_k(&mut app, false);
    send(&mut app, Edit::GoToFrame(12));
    press_k(&mut app, false);
    app.update();
    assert_eq!(app.world().resource::<BakedStrip>().errors.len(), 13);
    send(&mut app, Edit::MoveKey { from: 12, to: 24 });
    app.update();
    let strip = app.world().resource::<BakedStrip>();
    assert_eq!(strip.errors.len(), 25);
    assert_eq!(strip.poses.len(), 25);
}
