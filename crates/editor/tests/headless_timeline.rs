//! The timeline in the headless editor (`MinimalPlugins` + input + the editor's logic): K and
//! Alt+K, the actions the panel sends, playback, the violation strip re-baked when the sequence
//! changes.

use bevy::input::keyboard::Key;
use bevy::prelude::*;
use marionette_editor::Editor;
use marionette_editor::timeline::{BakedStrip, FrameSelection, Playback, TimelineAction};

mod common;
use common::editor;

fn app() -> App {
    common::app("-timeline")
}

/// K pressed for a frame and released (with Alt held: Alt+K).
fn press_k(app: &mut App, alt: bool) {
    let held = [(KeyCode::AltLeft, Key::Alt)];
    common::tap(app, if alt { &held[..] } else { &[] }, KeyCode::KeyK, "k");
}

fn act(app: &mut App, action: TimelineAction) {
    app.world_mut().write_message(action);
    app.update();
}

fn keys(app: &App) -> Vec<i64> {
    marionette_editor::timeline::key_frames(editor(app))
}

#[test]
fn k_keys_alt_k_deletes_and_the_panel_actions_edit_the_sequence() {
    let mut app = app();
    press_k(&mut app, false);
    assert_eq!(keys(&app), [0], "K made a sequence keyed at 0");
    act(&mut app, TimelineAction::SetFrame(20));
    press_k(&mut app, false);
    act(&mut app, TimelineAction::SetFrame(10));
    press_k(&mut app, false);
    assert_eq!(keys(&app), [0, 10, 20]);
    press_k(&mut app, true);
    assert_eq!(keys(&app), [0, 20], "Alt+K deleted the key at 10");
    act(&mut app, TimelineAction::MoveKey { from: 20, to: 30 });
    assert_eq!(keys(&app), [0, 30]);
    // A range edit without a range is refused with a message, nothing changes.
    act(&mut app, TimelineAction::DeleteFrames);
    assert!(
        editor(&app)
            .notices
            .iter()
            .any(|n| n.is_error && n.text.contains("range"))
    );
    app.world_mut().resource_mut::<FrameSelection>().0 = Some((0, 9));
    act(&mut app, TimelineAction::Copy);
    act(&mut app, TimelineAction::SetFrame(0));
    act(&mut app, TimelineAction::Paste);
    assert_eq!(keys(&app), [0, 10, 40], "ten frames pasted at 0");
    act(&mut app, TimelineAction::Retime(5));
    assert_eq!(keys(&app), [0, 5, 35]);
    act(&mut app, TimelineAction::ToKey(1));
    assert_eq!(editor(&app).document.frame(), 5);
    act(&mut app, TimelineAction::ToEnd(true));
    assert_eq!(editor(&app).document.frame(), 35);
    // Every edit one undo step.
    app.world_mut().resource_mut::<Editor>().undo();
    assert_eq!(keys(&app), [0, 10, 40]);
}

#[test]
fn playback_advances_a_frame_per_update_with_a_fixed_step_and_loops() {
    let mut app = app();
    press_k(&mut app, false);
    act(&mut app, TimelineAction::SetFrame(4));
    press_k(&mut app, false);
    act(&mut app, TimelineAction::SetFrame(0));
    app.world_mut().resource_mut::<Playback>().fixed_step = true;
    act(&mut app, TimelineAction::Play(true));
    let mut seen = vec![editor(&app).document.frame()];
    for _ in 0..6 {
        app.update();
        seen.push(editor(&app).document.frame());
    }
    assert_eq!(seen, [1, 2, 3, 4, 0, 1, 2], "played 0–4, looped");
    act(&mut app, TimelineAction::Play(false));
    let at = editor(&app).document.frame();
    app.update();
    assert_eq!(editor(&app).document.frame(), at, "paused");
    // A selected range is what plays.
    app.world_mut().resource_mut::<FrameSelection>().0 = Some((1, 2));
    act(&mut app, TimelineAction::Play(true));
    let mut seen = vec![editor(&app).document.frame()];
    for _ in 0..4 {
        app.update();
        seen.push(editor(&app).document.frame());
    }
    assert_eq!(seen, [1, 2, 1, 2, 1], "played 1–2, looped");
}

#[test]
fn the_violation_strip_is_rebaked_when_the_sequence_changes() {
    let mut app = app();
    press_k(&mut app, false);
    act(&mut app, TimelineAction::SetFrame(12));
    press_k(&mut app, false);
    app.update();
    assert_eq!(app.world().resource::<BakedStrip>().errors.len(), 13);
    act(&mut app, TimelineAction::MoveKey { from: 12, to: 24 });
    app.update();
    let strip = app.world().resource::<BakedStrip>();
    assert_eq!(strip.errors.len(), 25);
    assert_eq!(strip.poses.len(), 25);
}
