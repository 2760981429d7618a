//! The curve editor driven by pointer events in a headless egui context: a free handle's
//! end dragged sets the key's handles with the other side turned in line; two points
//! selected (click, Shift+click) and dragged move together as one edit.

use super::*;
use egui_plot::{PlotMemory, PlotPoint};
use marionette_editing::{Edit, Solving, UndoStep};

/// The egui context, the document and the curve editor's state, run a pass at a time.
struct Harness {
    ctx: egui::Context,
    document: Document,
    joints: Vec<JointId>,
    tracks: CurveTracks,
    state: CurvesUi,
}

impl Harness {
    /// The humanoid keyed whole at 0, 10 and 20, its left elbow bent at 10 with free
    /// handles there; the curve editor on the left elbow and knee.
    fn new() -> Harness {
        let mut document = Document::new(marionette_skeleton::builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        let mut apply = |document: &mut Document, edit: Edit| {
            document.apply(edit, &mut solving).expect("the test's edit");
        };
        apply(&mut document, Edit::SetKey);
        apply(&mut document, Edit::GoToFrame(20));
        apply(&mut document, Edit::SetKey);
        apply(&mut document, Edit::GoToFrame(10));
        let s = document.skeleton().clone();
        let (elbow, knee) = (
            s.joint_by_name("left elbow").expect("elbow"),
            s.joint_by_name("left knee").expect("knee"),
        );
        let e = s.joint_dofs(elbow).next().expect("DOF");
        let bend = Edit::SetDof {
            dof: e,
            value: 1.2,
            undo: UndoStep::New,
        };
        apply(&mut document, bend);
        apply(&mut document, Edit::SetKey);
        let handles = vec![(10, e.state_index(), Some(([-3.0, -0.2], [3.0, 0.2])))];
        apply(&mut document, Edit::SetHandles(handles));
        let joints = vec![elbow, knee];
        let baked = document.interpolate_sequence(0);
        let tracks = CurveTracks {
            source: None,
            curves: curves_of(&document, 0, &joints, &baked),
        };
        let mut h = Harness {
            ctx: egui::Context::default(),
            document,
            joints,
            tracks,
            state: CurvesUi::default(),
        };
        for _ in 0..3 {
            h.pass(Vec::new(), egui::Modifiers::NONE);
        }
        h
    }

    /// One pass with `events`; what the panel asked for.
    fn pass(&mut self, mut events: Vec<egui::Event>, modifiers: egui::Modifiers) -> PanelOutput {
        events.insert(0, egui::Event::ModifiersChanged(modifiers));
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            events,
            ..Default::default()
        };
        let mut out = PanelOutput::default();
        let mut open = true;
        self.ctx.begin_pass(raw);
        curves_window(
            &self.ctx,
            &self.document,
            (&self.tracks, self.joints.clone()),
            &mut self.state,
            &mut open,
            &mut out,
        );
        let mut full = self.ctx.end_pass();
        full.textures_delta.clear();
        out
    }

    /// Where plot point `p` shows on the screen.
    fn screen(&self, p: [f64; 2]) -> egui::Pos2 {
        let memory =
            PlotMemory::load(&self.ctx, egui::Id::new(PLOT_ID)).expect("the plot's memory");
        memory
            .transform()
            .position_from_point(&PlotPoint::new(p[0], p[1]))
    }

    /// A press at `from`, a move to `to` in `steps`, a release there; the edits asked for.
    fn drag(&mut self, from: egui::Pos2, to: egui::Pos2, modifiers: egui::Modifiers) -> Vec<Edit> {
        let button = |pos, pressed| egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers,
        };
        let mut edits = Vec::new();
        edits.extend(
            self.pass(vec![egui::Event::PointerMoved(from)], modifiers)
                .edits,
        );
        edits.extend(self.pass(vec![button(from, true)], modifiers).edits);
        for i in 1..=6 {
            let at = from + (to - from) * (i as f32 / 6.0);
            edits.extend(
                self.pass(vec![egui::Event::PointerMoved(at)], modifiers)
                    .edits,
            );
        }
        edits.extend(self.pass(vec![button(to, false)], modifiers).edits);
        edits.extend(self.pass(Vec::new(), modifiers).edits);
        edits
    }

    /// A click at `at`.
    fn click(&mut self, at: egui::Pos2, modifiers: egui::Modifiers) -> Vec<Edit> {
        self.drag(at, at, modifiers)
    }
}

#[test]
fn a_free_handle_dragged_sets_both_sides_in_line() {
    let mut h = Harness::new();
    let curve = h
        .tracks
        .curves
        .iter()
        .find(|c| c.name == "left elbow 1")
        .expect("curve")
        .clone();
    let i = curve
        .keys
        .iter()
        .position(|k| k[0] == 10.0)
        .expect("key 10");
    let (k, handles) = (curve.keys[i], curve.handles[i]);
    assert!(handles.free);
    let end = [k[0] + handles.after[0], k[1] + handles.after[1]];
    let from = h.screen(end);
    let edits = h.drag(from, from + egui::vec2(0.0, -30.0), egui::Modifiers::NONE);
    let [Edit::SetHandles(set)] = edits.as_slice() else {
        panic!("{edits:?}");
    };
    let [(10, state, Some((before, after)))] = set[..] else {
        panic!("{set:?}");
    };
    assert_eq!(state, curve.state);
    // Dragged up: the handle out of the key now climbs more steeply; the one into it
    // turned to stay in line (opposite direction, its own length kept).
    assert!(after[1] > handles.after[1] / curve.scale, "{after:?}");
    let (a, b) = (
        [after[0], after[1] * curve.scale],
        [before[0], before[1] * curve.scale],
    );
    let cross = a[0] * b[1] - a[1] * b[0];
    assert!(
        cross.abs() < 1e-6 * a[0].hypot(a[1]) * b[0].hypot(b[1]),
        "{a:?} {b:?}"
    );
    assert!(a[0] * b[0] + a[1] * b[1] < 0.0);
    let old = handles.before[0].hypot(handles.before[1]);
    assert!((b[0].hypot(b[1]) - old).abs() < 1e-9 * old.max(1.0));
}

#[test]
fn two_selected_points_drag_together() {
    let mut h = Harness::new();
    let point = |h: &Harness, name: &str, frame: f64| {
        let c = h.tracks.curves.iter().find(|c| c.name == name).expect(name);
        let k = c.keys.iter().find(|k| k[0] == frame).expect("key");
        (c.state, h.screen(*k))
    };
    let (elbow, at_elbow) = point(&h, "left elbow 1", 20.0);
    let (knee, at_knee) = point(&h, "left knee 1", 20.0);
    assert!(h.click(at_elbow, egui::Modifiers::NONE).is_empty());
    assert!(h.click(at_knee, egui::Modifiers::SHIFT).is_empty());
    assert_eq!(h.state.selected, [(elbow, 20), (knee, 20)]);
    let edits = h.drag(
        at_knee,
        at_knee + egui::vec2(0.0, -40.0),
        egui::Modifiers::NONE,
    );
    let [Edit::DragCurvePoints { points, frames, by }] = edits.as_slice() else {
        panic!("{edits:?}");
    };
    assert_eq!(points, &[(elbow, 20), (knee, 20)]);
    assert_eq!(*frames, 0);
    assert!(*by > 0.0, "{by}");
}

#[test]
fn f_frames_the_selected_points() {
    let mut h = Harness::new();
    let (state, at) = {
        let c = h
            .tracks
            .curves
            .iter()
            .find(|c| c.name == "left knee 1")
            .expect("knee");
        let k = c.keys.iter().find(|k| k[0] == 20.0).expect("key");
        (c.state, h.screen(*k))
    };
    let before = *PlotMemory::load(&h.ctx, egui::Id::new(PLOT_ID))
        .expect("memory")
        .bounds();
    assert!(h.click(at, egui::Modifiers::NONE).is_empty());
    assert_eq!(h.state.selected, [(state, 20)]);
    let key = |pressed| egui::Event::Key {
        key: egui::Key::F,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    h.pass(
        vec![egui::Event::PointerMoved(at), key(true)],
        egui::Modifiers::NONE,
    );
    h.pass(vec![key(false)], egui::Modifiers::NONE);
    h.pass(Vec::new(), egui::Modifiers::NONE);
    let after = *PlotMemory::load(&h.ctx, egui::Id::new(PLOT_ID))
        .expect("memory")
        .bounds();
    // Around the knee's key at 20, a few frames wide instead of the whole sequence.
    assert!(after.min()[0] < 20.0 && after.max()[0] > 20.0, "{after:?}");
    assert!(
        after.width() < before.width() / 2.0,
        "{before:?} → {after:?}"
    );
}
