//! Headless editor tests: `MinimalPlugins` + input + the editor's logic plugin, driven by the same
//! messages the window writes (picking requests, mouse buttons, keys) and a cursor ray.

use bevy::camera::primitives::MeshAabb;
use bevy::input::ButtonState;
use bevy::input::keyboard::Key;
use bevy::picking::mesh_picking::ray_cast::{MeshRayCast, MeshRayCastSettings, RayCastVisibility};
use bevy::prelude::*;
use marionette_editing::{ChainMode, Comparison, Edit, Grip};
use marionette_editor::convert::{quat, vec3};
use marionette_editor::drag::ghosts::Ghosts;
use marionette_editor::messages::{PickRequest, PickTarget};
use marionette_editor::resources::{ActiveDrag, CursorRay};
use marionette_editor::scene::figure::shape_mesh;
use marionette_ik::SolverKind;

mod common;
use common::{
    changed, chord, document, drag_site, front_ray, joint, key, last_solve, mouse,
    press_and_move as drag, release, selected, send, set_solver, settings, site_position,
};

fn app() -> App {
    common::app("")
}

#[test]
fn dragging_a_hand_pulls_it_onto_the_cursor_ray_and_is_one_undo_step() {
    let mut app = app();
    let start_pose = document(&app).pose().to_vec();
    let site = document(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let from = site_position(&app, "right fingertips");
    let to = from + Vec3::new(-0.1, 0.25, 0.0);
    drag(&mut app, PickTarget::Site(site), from, to, 30);
    for _ in 0..20 {
        app.update();
    }
    let hand = site_position(&app, "right fingertips");
    let off_ray = Vec2::new(hand.x - to.x, hand.y - to.y).length();
    assert!(
        off_ray < 1e-3,
        "hand {hand} is {off_ray} m off the ray through {to}"
    );
    assert!(
        document(&app).drag().is_some(),
        "the drag lasts while the button is held"
    );
    assert_eq!(selected(&app), Some(joint(&app, "right wrist")));
    release(&mut app);
    assert!(document(&app).drag().is_none());
    let dragged = document(&app).pose().to_vec();
    assert_ne!(dragged, start_pose);
    assert_eq!(
        document(&app).history().next_undo(),
        Some("Drag right wrist")
    );
    chord(&mut app, false, KeyCode::KeyZ, "z");
    assert_eq!(
        document(&app).pose(),
        start_pose.as_slice(),
        "Ctrl+Z undoes the whole drag"
    );
    chord(&mut app, true, KeyCode::KeyZ, "z");
    assert_eq!(
        document(&app).pose(),
        dragged.as_slice(),
        "Ctrl+Shift+Z redoes it"
    );
}

#[test]
fn undo_mid_drag_clears_the_drag_camera() {
    // A drag begun in a view (its camera), Ctrl+Z with the button still held: the drag is
    // undone, and the cursor's ray no longer goes through the drag's view.
    let mut app = app();
    let camera = app.world_mut().spawn_empty().id();
    let start_pose = document(&app).pose().to_vec();
    let site = document(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let from = site_position(&app, "right fingertips");
    app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(from));
    app.world_mut().write_message(PickRequest {
        target: PickTarget::Site(site),
        hit: from,
        depth: 1.0,
        camera,
    });
    mouse(&mut app, ButtonState::Pressed);
    app.update();
    for k in 1..=5 {
        let at = from + Vec3::Y * 0.02 * k as f32;
        app.world_mut().resource_mut::<CursorRay>().0 = Some(front_ray(at));
        app.update();
    }
    assert_eq!(
        app.world().resource::<ActiveDrag>().camera(),
        Some(camera),
        "the drag follows the cursor through its own view"
    );
    chord(&mut app, false, KeyCode::KeyZ, "z");
    assert!(document(&app).drag().is_none(), "the drag ended");
    assert_eq!(
        document(&app).pose(),
        start_pose.as_slice(),
        "and was undone"
    );
    assert_eq!(
        app.world().resource::<ActiveDrag>().camera(),
        None,
        "the cursor's ray goes through the view under the cursor again"
    );
    // The button still held starts nothing; released, it ends nothing.
    release(&mut app);
    assert_eq!(document(&app).pose(), start_pose.as_slice());
    assert_eq!(
        document(&app).history().next_redo(),
        Some("Drag right wrist")
    );
}

#[test]
fn escape_cancels_a_drag_without_an_undo_step() {
    let mut app = app();
    let start_pose = document(&app).pose().to_vec();
    drag_site(&mut app, "left fingertips", Vec3::Y * 0.2, 10);
    assert_ne!(document(&app).pose(), start_pose.as_slice());
    key(&mut app, KeyCode::Escape, Key::Escape, ButtonState::Pressed);
    app.update();
    assert!(document(&app).drag().is_none());
    assert_eq!(document(&app).pose(), start_pose.as_slice());
    assert_eq!(document(&app).history().next_undo(), None);
}

#[test]
fn chain_modes_choose_what_a_drag_moves() {
    // Selected part only: the forearm's drag turns the elbow alone.
    let mut app = app();
    send(&mut app, Edit::ChainMode(ChainMode::SelectedPart));
    let elbow = joint(&app, "right elbow");
    let start = document(&app).pose().to_vec();
    let wrist = vec3(
        &document(&app)
            .fk()
            .joint_position(joint(&app, "right wrist")),
    );
    drag(
        &mut app,
        PickTarget::Body(elbow),
        wrist,
        wrist + Vec3::new(0.0, 0.1, 0.0),
        10,
    );
    let moved = changed(&start, document(&app).pose());
    let elbow_dofs: Vec<usize> = document(&app)
        .skeleton()
        .joint_dofs(elbow)
        .map(|d| d.state_index())
        .collect();
    assert!(!moved.is_empty());
    assert!(
        moved.iter().all(|i| elbow_dofs.contains(i)),
        "{moved:?} vs {elbow_dofs:?}"
    );

    // Nearest branch (the default): from the clavicle down, never the spine.
    let mut app = self::app();
    let start = document(&app).pose().to_vec();
    drag_site(&mut app, "right fingertips", Vec3::new(0.1, 0.3, 0.0), 10);
    let moved = changed(&start, document(&app).pose());
    let arm: Vec<usize> = [
        "right clavicle",
        "right shoulder",
        "right elbow",
        "right wrist",
    ]
    .iter()
    .flat_map(|n| {
        let s = document(&app).skeleton();
        s.joint_dofs(s.joint_by_name(n).expect("joint"))
            .map(|d| d.state_index())
            .collect::<Vec<_>>()
    })
    .collect();
    assert!(
        !moved.is_empty() && moved.iter().all(|i| arm.contains(i)),
        "{moved:?}"
    );

    // Whole body: the root moves too.
    let mut app = self::app();
    send(&mut app, Edit::ChainMode(ChainMode::WholeBody));
    let start = document(&app).pose().to_vec();
    let from = site_position(&app, "head top");
    let site = document(&app)
        .skeleton()
        .site_by_name("head top")
        .expect("site");
    drag(
        &mut app,
        PickTarget::Site(site),
        from,
        from + Vec3::new(0.3, 0.0, 0.0),
        10,
    );
    let moved = changed(&start, document(&app).pose());
    assert!(moved.iter().any(|&i| i < 3), "the root moves: {moved:?}");
    assert!(moved.iter().any(|&i| !arm.contains(&i) && i >= 3));
}

#[test]
fn switching_solvers_changes_what_runs_and_a_non_limb_falls_back_with_a_reason() {
    let mut app = app();
    let site = document(&app)
        .skeleton()
        .site_by_name("right fingertips")
        .expect("site");
    let from = site_position(&app, "right fingertips");

    set_solver(&mut app, SolverKind::CyclicCoordinateDescent);
    drag(
        &mut app,
        PickTarget::Site(site),
        from,
        from + Vec3::Y * 0.1,
        3,
    );
    release(&mut app);
    let last = last_solve(&app).expect("a solve ran");
    assert_eq!(last.ran, SolverKind::CyclicCoordinateDescent);
    assert!(last.fallback.is_none());
    assert!(
        !app.world()
            .resource::<marionette_editor::resources::SolveStatus>()
            .trace
            .is_empty(),
        "the plot gets the residual of every update of the drag"
    );

    // The analytic solver on shoulder–wrist (a limb) runs itself…
    let shoulder = joint(&app, "right shoulder");
    set_solver(&mut app, SolverKind::AnalyticLimb);
    send(&mut app, Edit::ChainMode(ChainMode::UpToJoint(shoulder)));
    let from = site_position(&app, "right fingertips");
    drag(
        &mut app,
        PickTarget::Site(site),
        from,
        from + Vec3::new(0.05, 0.1, 0.0),
        3,
    );
    release(&mut app);
    let last = last_solve(&app).expect("a solve ran");
    assert_eq!(last.ran, SolverKind::AnalyticLimb, "{:?}", last.fallback);

    // …but from the clavicle (nearest branch) the chain is no limb: DLS runs, and says why.
    send(&mut app, Edit::ChainMode(ChainMode::NearestBranch));
    let from = site_position(&app, "right fingertips");
    drag(
        &mut app,
        PickTarget::Site(site),
        from,
        from + Vec3::X * 0.05,
        3,
    );
    release(&mut app);
    let last = last_solve(&app).expect("a solve ran");
    assert_eq!(last.ran, SolverKind::DampedLeastSquares);
    assert!(last.fallback.is_some_and(|why| why.contains("limb")));
}

#[test]
fn solve_until_satisfied_meets_the_last_goal_as_one_step() {
    let mut app = app();
    let settings = marionette_editing::IkSettings {
        solver: SolverKind::JacobianTranspose,
        iterations_per_frame: 1,
        ..settings(&app)
    };
    send(&mut app, Edit::Settings(settings));
    // One update of Jacobian transpose gets part of the way only.
    drag_site(&mut app, "right fingertips", Vec3::new(0.0, 0.2, 0.0), 1);
    release(&mut app);
    let after_drag = last_solve(&app).expect("solve").report.residual;
    assert!(after_drag > 1e-4, "{after_drag}");
    set_solver(&mut app, SolverKind::DampedLeastSquares);
    send(&mut app, Edit::SolveUntilSatisfied { budget: 2000 });
    let outcome = last_solve(&app).expect("solve");
    assert!(
        outcome.report.converged,
        "residual {}",
        outcome.report.residual
    );
    assert!(outcome.report.residual < after_drag);
    assert_eq!(
        document(&app).history().next_undo(),
        Some("Solve until satisfied")
    );
}

#[test]
fn comparison_ghosts_follow_the_same_drag_with_their_own_solvers() {
    let mut app = app();
    send(
        &mut app,
        Edit::Comparison(Comparison {
            enabled: true,
            solvers: vec![
                SolverKind::JacobianTranspose,
                SolverKind::CyclicCoordinateDescent,
            ],
        }),
    );
    drag_site(&mut app, "right fingertips", Vec3::new(-0.1, 0.2, 0.0), 10);
    let (d, ghosts) = (document(&app), app.world().resource::<Ghosts>());
    assert_eq!(ghosts.tracks.len(), 2);
    for ghost in &ghosts.tracks {
        assert_ne!(ghost.pose, d.pose(), "{} has its own answer", ghost.kind);
        assert!(ghost.residual.is_finite());
    }
    // Only what the drag can move is drawn as a ghost: the arm, not the head or the legs.
    let ghosted =
        |name: &str| ghosts.moves[d.skeleton().joint_by_name(name).expect("joint").index()];
    assert!(ghosted("right wrist") && ghosted("right clavicle"));
    assert!(!ghosted("head") && !ghosted("left knee") && !ghosted("upper spine"));
}

#[test]
fn a_ray_cast_on_the_bodies_picks_the_forearm_and_the_drag_grips_its_axis() {
    // The figure's bodies, placed as the scene places them, under Bevy's mesh ray cast.
    let mut app = app();
    app.add_plugins(TransformPlugin);
    app.insert_resource(Assets::<Mesh>::default());
    let (skeleton, fk) = {
        let d = document(&app);
        (d.skeleton().clone(), d.fk().clone())
    };
    for (id, j) in skeleton.joint_ids().zip(skeleton.joints()) {
        let Some((mesh, local)) = j.shape.as_ref().and_then(shape_mesh) else {
            continue;
        };
        let aabb = mesh.compute_aabb().expect("bounds");
        let handle = app.world_mut().resource_mut::<Assets<Mesh>>().add(mesh);
        let frame = Transform::from_translation(vec3(&fk.joint_position(id)))
            .with_rotation(quat(fk.joint_rotation(id)));
        app.world_mut().spawn((
            Mesh3d(handle),
            frame.mul_transform(local),
            aabb,
            Visibility::Visible,
            marionette_editor::scene::Body(id),
        ));
    }
    app.update();
    let elbow = joint(&app, "right elbow");
    let wrist = joint(&app, "right wrist");
    let mid = (vec3(&fk.joint_position(elbow)) + vec3(&fk.joint_position(wrist))) * 0.5;
    let ray = front_ray(mid);
    let hit = app
        .world_mut()
        .run_system_cached_with(
            |In(ray): In<Ray3d>,
             mut cast: MeshRayCast,
             bodies: Query<&marionette_editor::scene::Body>| {
                let settings =
                    MeshRayCastSettings::default().with_visibility(RayCastVisibility::Any);
                cast.cast_ray(ray, &settings)
                    .first()
                    .map(|(entity, hit)| (bodies.get(*entity).map(|b| b.0).ok(), hit.point))
            },
            ray,
        )
        .expect("system ran")
        .expect("the ray hits a body");
    assert_eq!(hit.0, Some(elbow), "the forearm is the right elbow's body");
    assert!((hit.1.z - mid.z) > 0.0, "hit on the front surface");
    // Starting a drag there grips the forearm's axis, not its surface.
    let hit_point =
        nalgebra::Vector3::new(f64::from(hit.1.x), f64::from(hit.1.y), f64::from(hit.1.z));
    send(
        &mut app,
        Edit::BeginDrag(Grip::Body {
            joint: elbow,
            hit: hit_point,
        }),
    );
    let d = document(&app);
    let gripped = vec3(&d.drag().expect("drag").effector(d.fk()));
    let axis = (vec3(&fk.joint_position(wrist)) - vec3(&fk.joint_position(elbow))).normalize();
    let from_elbow = gripped - vec3(&fk.joint_position(elbow));
    let off_axis = (from_elbow - axis * from_elbow.dot(axis)).length();
    assert!(
        off_axis < 0.02,
        "gripped {off_axis} m off the forearm's axis"
    );
}
