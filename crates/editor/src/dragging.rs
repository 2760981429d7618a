//! Dragging (Welman's figure editor: Welman, "Inverse kinematics and geometric constraints for articulated figure manipulation", MSc thesis, Simon Fraser University, 1993, ch. 6): a press
//! on a body or a site handle starts a drag, every frame the dragged point is pulled towards the
//! cursor ray by the chosen solver, releasing the button ends it as one undo step and Escape
//! cancels it. The press comes from Bevy's picking ([`PickRequest`], written by the scene's
//! observers); the cursor ray from the view under the cursor ([`CursorRay`]). Both are plain data,
//! so headless tests drive this plugin without a window.

use bevy::prelude::*;
use marionette_editing::Ray;
use marionette_skeleton::{Fk, JointId, SiteId};

use crate::state::{Editor, GhostTrack, SolveStatus};

/// What a press landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickTarget {
    /// A joint's body.
    Body(JointId),
    /// A site's handle.
    Site(SiteId),
    /// A joint's origin (a replay's `DragJoint`).
    Joint(JointId),
}

/// A primary-button press on something draggable, with the picking hit.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct PickRequest {
    /// What was hit.
    pub target: PickTarget,
    /// Where (world).
    pub hit: Vec3,
    /// Distance along the ray (nearest wins when several are hit in one frame).
    pub depth: f32,
    /// The camera the press came through (the drag follows the cursor in that view).
    pub camera: Entity,
}

/// How far behind a body's surface a site handle may lie and still win the press: handles sit
/// inside the ends of their bodies (metres).
pub const HANDLE_PREFERENCE: f32 = 0.08;

impl PickRequest {
    /// The press goes to the hit with the smallest value: the nearest, with site handles counted
    /// [`HANDLE_PREFERENCE`] nearer than they are.
    pub fn preference(&self) -> f32 {
        match self.target {
            PickTarget::Site(_) => self.depth - HANDLE_PREFERENCE,
            PickTarget::Body(_) | PickTarget::Joint(_) => self.depth,
        }
    }
}

/// The cursor's ray in world space, in the view the cursor is over (or the view a drag began in);
/// `None` when the cursor is outside every view.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct CursorRay(pub Option<Ray3d>);

/// The camera of the drag in progress.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DragCamera(pub Option<Entity>);

/// System sets of the drag, in order.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum DragSet {
    /// Presses become drags.
    Begin,
    /// One frame of IK.
    Solve,
    /// Release ends, Escape cancels.
    End,
}

/// Starts, runs and ends drags.
pub struct DragPlugin;

impl Plugin for DragPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<PickRequest>()
            .init_resource::<CursorRay>()
            .init_resource::<SolveStatus>()
            .init_resource::<DragCamera>()
            .configure_sets(
                Update,
                (DragSet::Begin, DragSet::Solve, DragSet::End).chain(),
            )
            .add_systems(Update, begin_drag.in_set(DragSet::Begin))
            .add_systems(Update, drag_frame.in_set(DragSet::Solve))
            .add_systems(Update, end_drag.in_set(DragSet::End));
    }
}

/// Turns this frame's presses into a drag: the nearest hit, site handles counted a little nearer
/// ([`PickRequest::preference`]).
#[allow(clippy::too_many_arguments, reason = "a Bevy system's parameters")]
fn begin_drag(
    mut presses: MessageReader<PickRequest>,
    mut editor: ResMut<Editor>,
    mut drag_camera: ResMut<DragCamera>,
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorRay>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    marker: Res<crate::lock_markers::MarkerDrag>,
    mut selection: ResMut<crate::selection::Selection>,
) {
    if marker.0.is_some() {
        // The press went to a lock's marker.
        presses.clear();
        return;
    }
    let best = presses
        .read()
        .copied()
        .min_by(|a, b| a.preference().total_cmp(&b.preference()));
    let Some(press) = best else {
        // A click on empty space in a view clears the selection.
        let over_panel = egui_input.is_some_and(|e| e.wants_any_pointer_input());
        if mouse.just_pressed(MouseButton::Left)
            && cursor.0.is_some()
            && !over_panel
            && editor.document.drag().is_none()
        {
            selection.select(&editor.document, None);
        }
        return;
    };
    if editor.document.drag().is_some() {
        return;
    }
    let mode = editor.chain_mode;
    let started = match press.target {
        PickTarget::Site(site) => editor.document.begin_site_drag(site, mode),
        PickTarget::Joint(joint) => editor.document.begin_joint_drag(joint, mode),
        PickTarget::Body(joint) => {
            let hit = crate::convert::vector(press.hit);
            editor.document.begin_drag(joint, &hit, mode)
        }
    };
    match started {
        Ok(()) => {
            match press.target {
                PickTarget::Site(site) => selection.pick_site(&editor.document, site),
                PickTarget::Body(joint) | PickTarget::Joint(joint) => {
                    selection.select(&editor.document, Some(joint));
                }
            }
            drag_camera.0 = Some(press.camera);
            start_ghosts(&mut editor);
        }
        Err(e) => editor.fail(e.to_string()),
    }
}

/// The comparison ghosts start from the pose the drag starts from.
fn start_ghosts(editor: &mut Editor) {
    editor.ghosts.clear();
    editor.ghost_generation = editor.ghost_generation.wrapping_add(1);
    if !editor.compare {
        return;
    }
    let chosen = editor.runner.settings().solver;
    let skeleton = editor.skeleton().clone();
    let pose = editor.document.pose().to_vec();
    let tracks: Vec<GhostTrack> = editor
        .compared
        .iter()
        .filter(|&&kind| kind != chosen)
        .map(|&kind| {
            let mut fk = Fk::new(&skeleton);
            fk.update(&skeleton, &pose);
            GhostTrack {
                kind,
                pose: pose.clone(),
                fk,
                residual: f64::NAN,
            }
        })
        .collect();
    editor.ghosts = tracks;
    editor.ghosted = moved_joints(editor);
}

/// Per joint: whether the drag's chain moves it (a DOF of its own or of an ancestor is in the
/// chain, or the root's translation is).
fn moved_joints(editor: &Editor) -> Vec<bool> {
    let skeleton = editor.skeleton();
    let Some(drag) = editor.document.drag() else {
        return vec![false; skeleton.joints().len()];
    };
    let columns = drag.chain.columns();
    let root_moves = columns.iter().any(|&c| skeleton.dof_at_state(c).is_none());
    let mut moved = vec![root_moves; skeleton.joints().len()];
    // Hierarchy order: a parent comes before its children.
    for (id, joint) in skeleton.joint_ids().zip(skeleton.joints()) {
        let own = skeleton
            .joint_dofs(id)
            .any(|d| columns.binary_search(&d.state_index()).is_ok());
        let inherited = joint.parent.is_some_and(|p| moved[p.index()]);
        moved[id.index()] = moved[id.index()] || own || inherited;
    }
    moved
}

pub use crate::convert::ray as to_core_ray;

/// One frame of IK towards the cursor ray, for the pose and for every ghost (not in the frame
/// the button is released: the drag ends as it was last shown).
fn drag_frame(
    mut editor: ResMut<Editor>,
    mut status: ResMut<SolveStatus>,
    cursor: Res<CursorRay>,
    mouse: Res<ButtonInput<MouseButton>>,
) {
    if editor.document.drag().is_none() || !mouse.pressed(MouseButton::Left) {
        return;
    }
    let Some(ray) = cursor.0.as_ref().and_then(to_core_ray) else {
        return;
    };
    let editor = &mut *editor;
    let started = std::time::Instant::now();
    advance_ghosts(editor, &ray);
    if mouse.just_pressed(MouseButton::Left) {
        // The drag began this frame: the plot starts afresh.
        status.trace.clear();
    }
    if let Some(outcome) = editor.document.drag_frame(&ray, &mut editor.runner) {
        status.frame(editor.document.id(), outcome, started.elapsed());
    }
}

/// Each ghost takes one frame of its own solver from its own pose towards the same cursor ray.
fn advance_ghosts(editor: &mut Editor, ray: &Ray) {
    let document = &editor.document;
    let Some(drag) = document.drag() else {
        return;
    };
    let runner = &mut editor.runner;
    for ghost in &mut editor.ghosts {
        let goal = drag.goal(&ghost.fk, ray);
        let set = document.goal_set(std::slice::from_ref(&goal), &drag.chain);
        let mut system = set.system(document.skeleton(), document.stiffness());
        if let Some(result) = runner
            .compare(&mut system, &ghost.pose, &[ghost.kind])
            .pop()
        {
            ghost.pose = result.pose;
            ghost.residual = result.report.residual;
            ghost.fk.update(document.skeleton(), &ghost.pose);
        }
    }
}

/// Releasing the primary button ends the drag (one undo step); Escape cancels it.
fn end_drag(
    mut editor: ResMut<Editor>,
    mut drag_camera: ResMut<DragCamera>,
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
) {
    if editor.document.drag().is_none() {
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        editor.document.cancel_drag();
        editor.ghosts.clear();
        editor.inform("Drag cancelled");
        drag_camera.0 = None;
    } else if !mouse.pressed(MouseButton::Left) {
        editor.document.end_drag();
        drag_camera.0 = None;
    }
}
