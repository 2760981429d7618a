//! The edits applied to a document: what each changes and its undo step.

use super::*;
use marionette_ik::SolverKind;
use marionette_skeleton::builtin;

fn humanoid() -> (Document, Solving) {
    (
        Document::new(builtin::humanoid(), None).standing(),
        Solving::default(),
    )
}

#[test]
fn a_refused_edit_changes_nothing_and_says_why() {
    let (mut doc, mut solving) = humanoid();
    let before = doc.pose().to_vec();
    let revision = doc.history().revision();
    for edit in [
        Edit::RemoveLock(3),
        Edit::SetLockFrames(0, Some((0, 4))),
        Edit::DeleteKey,
        Edit::RenameSequence(0, "walk".into()),
        Edit::Settings(IkSettings {
            iterations_per_frame: 0,
            ..IkSettings::default()
        }),
    ] {
        let err = doc.apply(edit.clone(), &mut solving).expect_err("refused");
        assert!(!err.to_string().is_empty(), "{edit:?}");
        assert_eq!(doc.pose(), &before[..], "{edit:?}");
        assert_eq!(doc.history().revision(), revision, "{edit:?}");
    }
    assert_eq!(solving.runner.settings().iterations_per_frame, 10);
}

#[test]
fn settings_edits_change_how_solves_run_and_are_not_undone() {
    let (mut doc, mut solving) = humanoid();
    let settings = IkSettings {
        solver: SolverKind::CyclicCoordinateDescent,
        ..IkSettings::default()
    };
    doc.apply(Edit::Settings(settings), &mut solving)
        .expect("valid settings");
    doc.apply(Edit::ChainMode(ChainMode::WholeBody), &mut solving)
        .expect("chain mode");
    assert_eq!(solving.runner.settings().solver, settings.solver);
    assert_eq!(solving.chain_mode, ChainMode::WholeBody);
    assert_eq!(doc.history().next_undo(), None, "nothing to undo");
    assert!(!doc.is_modified(), "a solver setting marks nothing unsaved");
    assert_eq!(
        doc.apply(Edit::Undo, &mut solving),
        Ok(Applied::Said("Nothing to undo".into()))
    );
}

#[test]
fn a_save_makes_the_document_unmodified_and_a_failed_one_says_why() {
    let (mut doc, mut solving) = humanoid();
    let knee = doc.skeleton().joint_by_name("left knee").expect("knee");
    let dof = doc.skeleton().joint_dofs(knee).next().expect("a DOF");
    let bend = Edit::SetDof {
        dof,
        value: 0.3,
        undo: crate::UndoStep::New,
    };
    doc.apply(bend, &mut solving).expect("set");
    assert!(doc.is_modified());
    let dir = tempfile::tempdir().expect("temp dir");
    let nowhere = dir.path().join("missing folder").join("a.marionette.ron");
    let refused = doc.apply(Edit::Save(nowhere.clone()), &mut solving);
    assert!(
        matches!(&refused, Err(EditError::Save(why)) if why.contains("missing folder")),
        "{refused:?}"
    );
    assert!(doc.is_modified(), "still unsaved");
    assert_eq!(doc.file(), None);
    let path = dir.path().join("a.marionette.ron");
    let said = doc.apply(Edit::Save(path.clone()), &mut solving);
    assert!(path.exists());
    assert_eq!(said, Ok(Applied::Said(format!("Saved {}", path.display()))));
    assert!(!doc.is_modified());
    assert_eq!(doc.file(), Some(path.as_path()));
    let revision = doc.history().revision();
    doc.apply(Edit::Save(path), &mut solving)
        .expect("saved again");
    assert_eq!(
        doc.history().revision(),
        revision,
        "a save records no undo step"
    );
}

#[test]
fn a_lock_and_its_undo_are_one_step_each_and_say_so() {
    let (mut doc, mut solving) = humanoid();
    let heel = doc.skeleton().site_by_name("left heel").expect("heel");
    let said = doc
        .apply(
            Edit::Lock {
                part: LockPart::Site(heel),
                kind: LockKind::Pose,
            },
            &mut solving,
        )
        .expect("lock");
    assert_eq!(said, Applied::Said("Locked left heel pose".into()));
    assert_eq!(doc.locks().len(), 1);
    let said = doc.apply(Edit::Undo, &mut solving).expect("undo");
    assert_eq!(said, Applied::Said("Undid: Lock left heel pose".into()));
    assert!(doc.locks().is_empty());
}

#[test]
fn a_slider_drag_extends_one_step() {
    let (mut doc, mut solving) = humanoid();
    let knee = doc.skeleton().joint_by_name("left knee").expect("knee");
    let dof = doc.skeleton().joint_dofs(knee).next().expect("dof");
    let start = doc.pose().to_vec();
    for (k, undo) in [UndoStep::New, UndoStep::Extend, UndoStep::Extend]
        .into_iter()
        .enumerate()
    {
        let value = 0.2 * (k + 1) as f64;
        doc.apply(Edit::SetDof { dof, value, undo }, &mut solving)
            .expect("valid");
    }
    assert!((doc.pose()[dof.state_index()] - 0.6).abs() < 1e-12);
    doc.apply(Edit::Undo, &mut solving).expect("undo");
    assert_eq!(doc.pose(), &start[..], "the whole slider drag was one step");
}
