//! The editor's document: every edit checked, clamped and undoable as one step.

mod edits;

use edits::Edits;
use marionette_editing::pose_read::ReadPose;
use marionette_editing::{ChainMode, Document, EditError, IkRunner, IkSettings, Ray, UndoStep};
use marionette_skeleton::builtin;
use nalgebra::Vector3;

fn humanoid() -> Document {
    Document::new(builtin::humanoid(), None)
}

#[test]
fn a_dof_edit_is_clamped_and_undoable() {
    let mut doc = humanoid();
    let elbow = doc.skeleton().joint_by_name("right elbow").expect("elbow");
    let dof = doc.skeleton().joint_dofs(elbow).next().expect("dof");
    let max = doc.skeleton().dof(dof).max;
    let rest = doc.pose().to_vec();
    doc.set_dof(dof, max + 1.0, UndoStep::New)
        .expect("a number");
    assert_eq!(doc.pose()[dof.state_index()], max, "clamped to the limit");
    assert_eq!(doc.history().next_undo(), Some("Set right elbow DOF 1"));
    let err = doc
        .set_dof(dof, f64::NAN, UndoStep::New)
        .expect_err("not a number");
    assert!(matches!(err, EditError::NotANumber { .. }), "{err}");
    assert_eq!(
        doc.pose()[dof.state_index()],
        max,
        "a refused edit changes nothing"
    );
    assert_eq!(doc.undo().as_deref(), Some("Set right elbow DOF 1"));
    assert_eq!(doc.pose(), &rest[..]);
    assert_eq!(doc.redo().as_deref(), Some("Set right elbow DOF 1"));
    assert_eq!(doc.pose()[dof.state_index()], max);
    // Forward kinematics follows every edit.
    let hand = doc
        .skeleton()
        .site_by_name("right fingertips")
        .expect("hand");
    let mut fk = marionette_skeleton::Fk::new(doc.skeleton());
    fk.update(doc.skeleton(), doc.pose());
    assert_eq!(fk.site_position(hand), doc.fk().site_position(hand));
}

#[test]
fn stiffness_edits_are_checked_used_and_undoable() {
    let mut doc = humanoid();
    let elbow = doc.skeleton().joint_by_name("right elbow").expect("elbow");
    for bad in [0.0, -0.5, 1.5, f64::NAN] {
        let err = doc
            .set_stiffness(elbow, bad, UndoStep::New)
            .expect_err("outside (0, 1]");
        assert!(err.to_string().contains("right elbow"), "{err}");
    }
    let before = doc.stiffness()[elbow.index()];
    doc.set_stiffness(elbow, 0.25, UndoStep::New)
        .expect("valid");
    let chain = marionette_editing::chain_for(doc.skeleton(), elbow, ChainMode::SelectedPart)
        .expect("chain");
    // What every solve does: the edit's goal on its chain, with the document's stiffness.
    let goal = marionette_ik::Goal::new(marionette_ik::GoalKind::Point {
        joint: elbow,
        offset: Vector3::zeros(),
        target: doc.fk().joint_position(elbow),
        shape: marionette_ik::TargetShape::Point,
    });
    let set = doc.goal_set(&[goal], &chain);
    let system = set.system(doc.skeleton(), doc.stiffness());
    assert_eq!(system.stiffness(), &[0.25]);
    assert_eq!(doc.undo().as_deref(), Some("Stiffness of right elbow"));
    assert_eq!(doc.stiffness()[elbow.index()], before);
}

#[test]
fn a_whole_drag_is_one_undo_step_and_escape_cancels_one() {
    let mut doc = humanoid();
    let mut runner = IkRunner::new(IkSettings::default()).expect("settings");
    let forearm = doc.skeleton().joint_by_name("right elbow").expect("elbow");
    let rest = doc.pose().to_vec();
    let hit = doc.fk().point(forearm, &Vector3::new(0.02, -0.2, 0.0));
    doc.begin_drag(forearm, &hit, ChainMode::NearestBranch)
        .expect("drag");
    // The cursor ray of a front view, moving up over 20 frames.
    for frame in 1..=20 {
        let ray = Ray::new(
            hit + Vector3::new(0.0, 0.01 * f64::from(frame), 3.0),
            -Vector3::z(),
        )
        .expect("ray");
        let outcome = doc.drag_step(&ray, &mut runner).expect("dragging");
        assert!(outcome.report.residual.is_finite());
    }
    let dragged = doc.pose().to_vec();
    assert_ne!(dragged, rest);
    doc.end_drag();
    assert_eq!(doc.history().next_undo(), Some("Drag right elbow"));
    assert_eq!(doc.undo().as_deref(), Some("Drag right elbow"));
    assert_eq!(doc.pose(), &rest[..], "one step back to before the drag");
    assert_eq!(doc.undo(), None, "and only one step");
    doc.redo();
    assert_eq!(doc.pose(), &dragged[..]);
    // Escape puts the figure back and records nothing.
    let hit = doc.fk().point(forearm, &Vector3::new(0.0, -0.2, 0.0));
    doc.begin_drag(forearm, &hit, ChainMode::NearestBranch)
        .expect("drag");
    let ray = Ray::new(hit + Vector3::new(0.1, 0.1, 3.0), -Vector3::z()).expect("ray");
    doc.drag_step(&ray, &mut runner);
    doc.cancel_drag();
    assert_eq!(doc.pose(), &dragged[..]);
    assert_eq!(doc.history().next_undo(), Some("Drag right elbow"));
    assert!(doc.drag_step(&ray, &mut runner).is_none(), "no drag now");
}

#[test]
fn poses_save_and_load_and_bad_files_change_nothing() {
    let dir = std::env::temp_dir().join(format!("marionette-document-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut doc = humanoid();
    let knee = doc.skeleton().joint_by_name("left knee").expect("knee");
    let dof = doc.skeleton().joint_dofs(knee).next().expect("dof");
    doc.set_dof(dof, 0.7, UndoStep::New).expect("valid");
    let saved = doc.pose().to_vec();
    let file = dir.join("bent.ron");
    doc.save_pose(&file).expect("saved");
    doc.undo();
    // Opened as the editor opens it: read once, then an edit, one undo step.
    let mut solving = marionette_editing::Solving::default();
    let read = ReadPose::read(&file).expect("read");
    let applied = doc
        .apply(marionette_editing::Edit::OpenPose(read), &mut solving)
        .expect("loaded");
    assert!(
        matches!(&applied, marionette_editing::Applied::Said(s) if s.contains("bent.ron")),
        "{applied:?}"
    );
    assert_eq!(doc.pose(), &saved[..]);
    assert_eq!(doc.history().next_undo(), Some("Open pose bent.ron"));
    // A file that does not parse is refused when read, naming it.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, "Pose(version: 1, skeleton: ").expect("write");
    let err = ReadPose::read(&broken).expect_err("syntax error");
    assert!(err.to_string().contains("broken.ron"), "{err}");
    // A pose of another skeleton is refused by the edit, naming the file; nothing changes.
    let alien = dir.join("alien.ron");
    std::fs::write(&alien, "Pose(joints: {\"no such joint\": [1.0]})").expect("write");
    let read = ReadPose::read(&alien).expect("parses");
    let err = doc
        .apply(marionette_editing::Edit::OpenPose(read), &mut solving)
        .expect_err("unknown joint");
    assert!(err.to_string().contains("alien.ron"), "{err}");
    assert!(err.to_string().contains("no such joint"), "{err}");
    // Another kind of file is not a pose.
    let skeleton_file = dir.join("figure.skeleton.ron");
    let text = doc.skeleton().to_ron_string().expect("text");
    std::fs::write(&skeleton_file, text).expect("write");
    let err = ReadPose::read(&skeleton_file).expect_err("a skeleton");
    assert!(err.to_string().contains("figure.skeleton.ron"), "{err}");
    assert!(err.to_string().contains("this is a skeleton"), "{err}");
    assert_eq!(doc.pose(), &saved[..]);
    assert_eq!(doc.history().next_undo(), Some("Open pose bent.ron"));
    std::fs::remove_dir_all(&dir).ok();
}
