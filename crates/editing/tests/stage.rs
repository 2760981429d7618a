//! The stage in the editing core: opening a stage document, editing another figure, adding and
//! removing figures and props, locks between figures, grips and releases, undo of each, and
//! saving (version 2 for a stage, version 1 again for one figure).

mod edits;
use edits::Edits;

mod stage_common;

use std::path::{Path, PathBuf};

use marionette_document::{Hold, LinkTarget, Placement, Prop, PropPlace, PropShape, StageFile};
use marionette_editing::stage::StageEdit;
use marionette_editing::{Document, Edit, EditError, Solving};
use stage_common::two_dancers;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn apply(doc: &mut Document, edit: StageEdit) -> Result<(), EditError> {
    doc.apply(Edit::Stage(edit), &mut Solving::default())
        .map(|_| ())
}

fn at(x: f64, z: f64, facing: f64) -> Placement {
    Placement { at: [x, z], facing }
}

fn stick() -> Prop {
    Prop {
        name: "stick".into(),
        shape: PropShape::Cylinder {
            radius: 0.02,
            length: 1.0,
        },
        place: PropPlace {
            at: [0.4, 0.9, 0.3],
            rotation: [0.0, 0.0, 90.0],
        },
        mass: None,
    }
}

#[test]
fn a_stage_opens_on_its_first_figure_and_another_is_selected_with_its_own_pose() {
    let mut doc = two_dancers();
    assert_eq!(doc.figure_names(), ["A", "B"]);
    assert_eq!(doc.figure_name(), "A");
    assert_eq!(doc.props().len(), 1);
    assert_eq!(doc.links().len(), 1);
    let a_pose = doc.pose().to_vec();
    let b_pose = doc.figures()[1]
        .document()
        .expect("B is not edited")
        .pose()
        .to_vec();
    assert_ne!(a_pose, b_pose);
    apply(&mut doc, StageEdit::SelectFigure("B".into())).expect("B exists");
    assert_eq!(doc.figure_name(), "B");
    assert_eq!(doc.pose(), b_pose.as_slice());
    assert_eq!(doc.sequences().len(), 1, "B's sequence");
    // B stands at (0, 1) turned half round: the stage's origin is 1 m ahead of B.
    let origin = doc.stage_to_figure() * nalgebra::Point3::origin();
    assert!((origin - nalgebra::Point3::new(0.0, 0.0, 1.0)).norm() < 1e-12);
    apply(&mut doc, StageEdit::SelectFigure("A".into())).expect("A exists");
    assert_eq!(doc.pose(), a_pose.as_slice());
    let err = apply(&mut doc, StageEdit::SelectFigure("C".into())).expect_err("no C");
    assert!(err.to_string().contains("no figure \"C\""), "{err}");
}

#[test]
fn figures_are_added_renamed_and_removed_each_one_undo_step() {
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None);
    assert_eq!(doc.figure_names(), ["humanoid"]);
    assert!(!doc.is_stage());
    apply(
        &mut doc,
        StageEdit::AddFigure {
            name: "B".into(),
            file: Some(repo().join("skeletons/humanoid.ron")),
            placement: at(0.0, 1.0, 180.0),
        },
    )
    .expect("adds");
    assert!(doc.is_stage());
    assert_eq!(doc.figure_names(), ["humanoid", "B"]);
    // Names are unique among figures and props, and not empty.
    for bad in ["B", "humanoid", "", " B", "a/b"] {
        let err = apply(
            &mut doc,
            StageEdit::AddFigure {
                name: bad.into(),
                file: None,
                placement: Placement::default(),
            },
        )
        .expect_err(bad);
        assert!(matches!(err, EditError::Stage(_)), "{err}");
    }
    let err = apply(
        &mut doc,
        StageEdit::AddFigure {
            name: "C".into(),
            file: Some("no/such/file.ron".into()),
            placement: Placement::default(),
        },
    )
    .expect_err("missing file");
    assert!(err.to_string().contains("no/such/file.ron"), "{err}");
    assert_eq!(doc.figure_names().len(), 2, "nothing added");
    apply(
        &mut doc,
        StageEdit::RenameFigure {
            from: "B".into(),
            to: "Bea".into(),
        },
    )
    .expect("renames");
    assert_eq!(doc.figure_names(), ["humanoid", "Bea"]);
    // The figure being edited cannot be removed.
    assert!(apply(&mut doc, StageEdit::RemoveFigure("humanoid".into())).is_err());
    apply(&mut doc, StageEdit::RemoveFigure("Bea".into())).expect("removes");
    assert_eq!(doc.figure_names(), ["humanoid"]);
    // Undo: back, renamed, added; redo again.
    doc.undo();
    assert_eq!(doc.figure_names(), ["humanoid", "Bea"]);
    doc.undo();
    assert_eq!(doc.figure_names(), ["humanoid", "B"]);
    doc.undo();
    assert_eq!(doc.figure_names(), ["humanoid"]);
    doc.redo();
    assert_eq!(doc.figure_names(), ["humanoid", "B"]);
    apply(&mut doc, StageEdit::SelectFigure("B".into())).expect("the figure redone is whole");
    assert_eq!(doc.skeleton().name(), "humanoid");
}

#[test]
fn a_figure_removed_takes_its_links_and_grips_and_undo_brings_back_its_pose() {
    let mut doc = two_dancers();
    apply(&mut doc, StageEdit::SelectFigure("B".into())).expect("B");
    let b_pose = doc.pose().to_vec();
    apply(&mut doc, StageEdit::SelectFigure("A".into())).expect("A");
    assert_eq!(doc.cues()[0].holds.len(), 3);
    apply(&mut doc, StageEdit::RemoveFigure("B".into())).expect("removes B");
    assert!(doc.links().is_empty(), "the hand-in-hand link went with B");
    assert!(
        doc.cues()[0]
            .holds
            .iter()
            .all(|h| !matches!(h, Hold::Grip { by, .. } if by.figure != 0)),
        "B's grip went with it"
    );
    doc.undo();
    assert_eq!(doc.figure_names(), ["A", "B"]);
    assert_eq!(doc.links().len(), 1);
    assert_eq!(doc.cues()[0].holds.len(), 3);
    apply(&mut doc, StageEdit::SelectFigure("B".into())).expect("B back");
    assert_eq!(doc.pose(), b_pose.as_slice());
}

#[test]
fn a_lock_between_figures_names_the_sites_and_refuses_what_is_not_there() {
    let mut doc = two_dancers();
    let lock = |a: (&str, &str), b: (&str, &str)| StageEdit::LockBetween {
        a: (a.0.to_owned(), a.1.to_owned()),
        b: (b.0.to_owned(), b.1.to_owned()),
        turned: false,
    };
    apply(
        &mut doc,
        lock(("A", "left fingertips"), ("B", "right fingertips")),
    )
    .expect("locks");
    assert_eq!(doc.links().len(), 2);
    let link = &doc.links()[1];
    assert_eq!(link.a.figure, 0);
    assert!(matches!(link.b, LinkTarget::Site(s) if s.figure == 1));
    let err = apply(&mut doc, lock(("A", "left heel"), ("B", "tail"))).expect_err("no tail");
    assert!(
        err.to_string()
            .contains("figure \"B\" has no site \"tail\""),
        "{err}"
    );
    let err = apply(&mut doc, lock(("Z", "head"), ("B", "head"))).expect_err("no Z");
    assert!(err.to_string().contains("no figure \"Z\""), "{err}");
    assert_eq!(doc.links().len(), 2, "nothing added");
    doc.undo();
    assert_eq!(doc.links().len(), 1);
}

#[test]
fn grips_and_releases_are_timed_in_the_shown_sequence_and_kept_in_order() {
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None);
    apply(&mut doc, StageEdit::AddProp(stick())).expect("adds the stick");
    let grip = |frame| StageEdit::Grip {
        prop: "stick".into(),
        figure: "humanoid".into(),
        site: "right fingertips".into(),
        frame,
    };
    let err = apply(&mut doc, grip(5)).expect_err("no sequence shown");
    assert!(err.to_string().contains("show a sequence first"), "{err}");
    doc.apply(Edit::NewSequence, &mut Solving::default())
        .expect("a sequence");
    let release = |frame| StageEdit::Release {
        prop: "stick".into(),
        frame,
    };
    let err = apply(&mut doc, release(3)).expect_err("not gripped yet");
    assert!(
        err.to_string().contains("not gripped before frame 3"),
        "{err}"
    );
    apply(&mut doc, grip(5)).expect("grips");
    apply(&mut doc, release(20)).expect("releases");
    assert!(apply(&mut doc, release(30)).is_err(), "released already");
    apply(&mut doc, grip(12)).expect("a grip between");
    let frames: Vec<i64> = doc.cues()[0].holds.iter().map(|h| h.frame()).collect();
    assert_eq!(frames, [5, 12, 20]);
    assert!(apply(&mut doc, grip(12)).is_err(), "one hold per frame");
    // A prop removed takes its holds.
    apply(&mut doc, StageEdit::RemoveProp("stick".into())).expect("removes");
    assert!(doc.cues().is_empty());
    doc.undo();
    assert_eq!(doc.cues()[0].holds.len(), 3);
    // A prop's shape is checked.
    let mut bad = stick();
    bad.name = "bad".into();
    bad.shape = PropShape::Mesh("no-such.glb".into());
    let err = apply(&mut doc, StageEdit::AddProp(bad)).expect_err("no mesh");
    assert!(err.to_string().contains("prop \"bad\""), "{err}");
}

#[test]
fn a_stage_saves_as_version_2_and_opens_again_and_one_figure_saves_as_version_1() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("duet.marionette.ron");
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None).standing();
    apply(
        &mut doc,
        StageEdit::AddFigure {
            name: "B".into(),
            file: None,
            placement: at(0.0, 1.2, 180.0),
        },
    )
    .expect("adds B");
    apply(&mut doc, StageEdit::AddProp(stick())).expect("stick");
    apply(
        &mut doc,
        StageEdit::LockBetween {
            a: ("humanoid".into(), "right fingertips".into()),
            b: ("B".into(), "left fingertips".into()),
            turned: false,
        },
    )
    .expect("hand in hand");
    assert!(doc.is_modified());
    doc.save_document(&path).expect("saves");
    assert!(!doc.is_modified());
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("version: 2"), "{text}");
    // Each built-in figure's skeleton is written beside the document.
    assert!(dir.path().join("duet.humanoid.skeleton.ron").exists());
    assert!(dir.path().join("duet.B.skeleton.ron").exists());
    let back = StageFile::load(&path).expect("reads back").stage;
    assert_eq!(back.figures.len(), 2);
    assert_eq!(back.figures[1].placement, at(0.0, 1.2, 180.0));
    assert_eq!(back.props, vec![stick()]);
    assert_eq!(back.links.len(), 1);
    let mut reopened = Document::open_document(&path).expect("opens");
    assert_eq!(reopened.figure_names(), ["humanoid", "B"]);
    // Saved again unchanged: the same bytes.
    let again = dir.path().join("again.marionette.ron");
    reopened.save_document(&again).expect("saves");
    let text_again = std::fs::read_to_string(&again)
        .expect("written")
        .replace("again.", "duet.");
    assert_eq!(text_again, text);
    // Back to one figure: version 1 again.
    apply(&mut reopened, StageEdit::RemoveProp("stick".into())).expect("prop");
    apply(&mut reopened, StageEdit::RemoveFigure("B".into())).expect("figure");
    let one = dir.path().join("one.marionette.ron");
    reopened.save_document(&one).expect("saves");
    let text = std::fs::read_to_string(&one).expect("written");
    assert!(text.contains("version: 1,"), "{text}");
}

/// The stage's replay steps as the issue spells them, each resolved against the document open
/// when it is taken and applied as the editor's player applies an edit.
#[test]
fn the_stage_replay_steps_read_as_spelled_and_build_the_stage() {
    use marionette_editing::Script;
    use marionette_editing::replay::{Action, ReplayContext};
    let humanoid = repo().join("skeletons/humanoid.ron");
    let text = format!(
        r#"Replay([
        Press,
        Release,
        AddFigure(name: "B", file: "{}", at: (0.0, 1.2), facing: 180.0),
        LockBetween(a: ("humanoid", "right fingertips"), b: ("B", "left fingertips")),
        AddProp(name: "stick", shape: Cylinder(radius: 0.02, length: 1.0), at: (0.3, 1.0, 0.6)),
        AddProp(name: "crate", shape: Box(size: (0.4, 0.3, 0.5)), at: (1.0, 0.15, 0.0), rotation: (0.0, 30.0, 0.0)),
        AddProp(name: "ball", shape: Sphere(radius: 0.1), at: (-1.0, 0.1, 0.0)),
        SelectFigure("B"),
        Grip(prop: "stick", figure: "B", site: "right fingertips", frame: 10),
        Release (prop: "stick", frame: 30),
    ])"#,
        humanoid.display()
    );
    let script = Script::parse(&text, "stage.ron").expect("reads");
    assert_eq!(script.steps[1], marionette_editing::Step::Release);
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None);
    let mut solving = Solving::default();
    let context = ReplayContext {
        selected: &[],
        retarget: None,
        beside: &marionette_editing::beside::Beside::default(),
    };
    for (k, step) in script.steps.iter().enumerate().skip(2) {
        if k == 8 {
            // A grip is timed: B shows a sequence first.
            doc.apply(Edit::NewSequence, &mut solving)
                .expect("sequence");
        }
        match step.resolve(&doc, context).expect("resolves") {
            Action::Edit { edit, .. } => {
                doc.apply(edit, &mut solving)
                    .unwrap_or_else(|e| panic!("step {}: {e}", k + 1));
            }
            other => panic!("step {}: {other:?}", k + 1),
        }
    }
    assert_eq!(doc.figure_name(), "B");
    assert_eq!(doc.figure_names(), ["humanoid", "B"]);
    assert_eq!(doc.props().len(), 3);
    assert_eq!(doc.links().len(), 1);
    assert_eq!(doc.cues()[0].holds.len(), 2);
    // A drag's target is on the stage: for B (at (0, 1.2), turned half round) the stage's
    // point (0, 1, 1.2) is B's (0, 1, 0).
    let drag = marionette_editing::Step::DragSite {
        site: "right fingertips".into(),
        to: (0.0, 1.0, 1.2),
        frames: 5,
    };
    match drag.resolve(&doc, context).expect("resolves") {
        Action::Drag { to, .. } => {
            assert!((to - nalgebra::Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-12)
        }
        other => panic!("{other:?}"),
    }
    // A step naming what is not there fails naming it.
    let bad = Script::parse(
        r#"Replay([LockBetween(a: ("B", "tail"), b: ("humanoid", "head top"))])"#,
        "bad.ron",
    )
    .expect("reads");
    let Action::Edit { edit, .. } = bad.steps[0].resolve(&doc, context).expect("resolves") else {
        panic!("an edit");
    };
    let err = doc.apply(edit, &mut solving).expect_err("no tail");
    assert!(
        err.to_string()
            .contains("figure \"B\" has no site \"tail\""),
        "{err}"
    );
}

#[test]
fn a_figure_moved_by_a_drag_on_its_numbers_is_one_undo_step_and_numbers_only() {
    use marionette_editing::UndoStep;
    let mut doc = two_dancers();
    let place = |x: f64, undo| StageEdit::PlaceFigure {
        name: "B".into(),
        placement: at(x, 1.0, 180.0),
        undo,
    };
    apply(&mut doc, place(0.1, UndoStep::New)).expect("moves");
    apply(&mut doc, place(0.2, UndoStep::Extend)).expect("moves on");
    apply(&mut doc, place(0.3, UndoStep::Extend)).expect("moves on");
    assert_eq!(doc.figures()[1].placement, at(0.3, 1.0, 180.0));
    let err = apply(&mut doc, place(f64::NAN, UndoStep::New)).expect_err("not a number");
    assert!(matches!(err, EditError::Stage(_)), "{err}");
    assert_eq!(
        doc.figures()[1].placement,
        at(0.3, 1.0, 180.0),
        "nothing changed"
    );
    doc.undo();
    assert_eq!(
        doc.figures()[1].placement,
        at(0.0, 1.0, 180.0),
        "the whole drag undone"
    );
    // The edited figure moves too: the stage's frame seen from it moves with it.
    apply(
        &mut doc,
        StageEdit::PlaceFigure {
            name: "A".into(),
            placement: at(0.5, 0.0, 90.0),
            undo: UndoStep::New,
        },
    )
    .expect("moves A");
    let origin = doc.figure_to_stage() * nalgebra::Point3::origin();
    assert!((origin - nalgebra::Point3::new(0.5, 0.0, 0.0)).norm() < 1e-12);
}

#[test]
fn the_editor_s_export_of_a_stage_is_the_whole_stage_as_glb_and_the_edited_figure_as_json() {
    use marionette_editing::exchange::ExportFormat;
    let dir = tempfile::tempdir().expect("temp");
    let mut doc = two_dancers();
    doc.select_figure("B").expect("B");
    doc.apply(Edit::SelectSequence(Some(0)), &mut Solving::default())
        .expect("B's sway");
    let glb = dir.path().join("stage.glb");
    let written = doc
        .export_job(ExportFormat::Glb, &glb, None)
        .run(&|| {})
        .expect("exports");
    assert_eq!((written.frames, written.what.as_str()), (49, "sway"));
    let bytes = std::fs::read(&glb).expect("written");
    let text = String::from_utf8_lossy(&bytes);
    for node in ["\"A/pelvis\"", "\"B/pelvis\"", "\"stick\""] {
        assert!(text.contains(node), "the glb has node {node}");
    }
    let json = dir.path().join("b.json");
    doc.export_job(ExportFormat::Json, &json, None)
        .run(&|| {})
        .expect("exports");
    let frames: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
    let frame = &frames["frames"][24];
    assert!(frame["props"]["stick"]["position"].is_array(), "{frame}");
    // B's joints on the stage: it stands at z = 1 facing A, so its pelvis is near z = 1.
    let pelvis_z = frame["joints_world"]["pelvis"][2].as_f64().expect("z");
    assert!((pelvis_z - 1.0).abs() < 0.2, "{pelvis_z}");
}

/// The frames of the keys of `doc`'s sequence named `name`.
fn key_frames(doc: &Document, name: &str) -> Vec<i64> {
    doc.sequences()
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.keys.iter().map(|k| k.frame).collect())
        .unwrap_or_default()
}

#[test]
fn choosing_another_figure_keeps_the_frame_and_the_shown_sequence() {
    let mut doc = two_dancers();
    let edit = |doc: &mut Document, e: Edit| {
        doc.apply(e, &mut Solving::default())
            .unwrap_or_else(|err| panic!("{err}"));
    };
    // A gets a sequence named as B's ("sway"), keyed at 0 where it stands.
    edit(&mut doc, Edit::NewSequence);
    edit(&mut doc, Edit::RenameSequence(0, "sway".into()));
    edit(&mut doc, Edit::GoToFrame(36));
    edit(&mut doc, Edit::SetKey);
    apply(&mut doc, StageEdit::SelectFigure("B".into())).expect("B exists");
    assert_eq!(doc.frame(), 36, "the frame stays");
    let shown = doc
        .current_sequence()
        .map(|i| doc.sequences()[i].name.clone());
    assert_eq!(
        shown.as_deref(),
        Some("sway"),
        "B shows its sequence of the same name"
    );
    edit(&mut doc, Edit::SetKey);
    assert_eq!(key_frames(&doc, "sway"), [0, 24, 36, 48], "B's keys");
    apply(&mut doc, StageEdit::SelectFigure("A".into())).expect("A exists");
    assert_eq!(doc.frame(), 36);
    assert_eq!(key_frames(&doc, "sway"), [0, 36], "A's keys");
}

/// A prop's mass is set as one undo step, saved and read back; a mass that is not one is
/// refused naming the prop, the document unchanged.
#[test]
fn a_prop_s_mass_is_one_undo_step_saved_and_a_bad_one_refused() {
    let dir = tempfile::tempdir().expect("temp");
    let mut doc = Document::new(marionette_skeleton::builtin::humanoid(), None).standing();
    apply(&mut doc, StageEdit::AddProp(stick())).expect("stick");
    assert_eq!(doc.props()[0].mass_kg(), Prop::DEFAULT_MASS);
    let set = |mass| StageEdit::SetPropMass {
        name: "stick".into(),
        mass,
    };
    apply(&mut doc, set(Some(2.5))).expect("2.5 kg");
    assert_eq!(doc.props()[0].mass, Some(2.5));
    let revision = doc.history().revision();
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e6] {
        let err = apply(&mut doc, set(Some(bad))).expect_err("refused");
        assert!(err.to_string().contains("stick"), "{err}");
        assert_eq!(doc.props()[0].mass, Some(2.5));
        assert_eq!(doc.history().revision(), revision, "nothing recorded");
    }
    let err = apply(
        &mut doc,
        StageEdit::SetPropMass {
            name: "pole".into(),
            mass: Some(1.0),
        },
    )
    .expect_err("no such prop");
    assert!(err.to_string().contains("pole"), "{err}");
    let path = dir.path().join("weighed.marionette.ron");
    doc.save_document(&path).expect("saves");
    assert!(
        std::fs::read_to_string(&path)
            .expect("written")
            .contains("mass: Some(2.5)")
    );
    let back = StageFile::load(&path).expect("reads back").stage;
    assert_eq!(back.props[0].mass, Some(2.5));
    doc.apply(Edit::Undo, &mut Solving::default())
        .expect("undo");
    assert_eq!(doc.props()[0].mass, None, "undo: the default again");
    let mut heavy = stick();
    heavy.name = "anvil".into();
    heavy.mass = Some(-3.0);
    let err = apply(&mut doc, StageEdit::AddProp(heavy)).expect_err("refused");
    assert!(err.to_string().contains("anvil"), "{err}");
    assert_eq!(doc.props().len(), 1);
}
