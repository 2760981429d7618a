//! The steps of a replay script as a script writes them, read directly by serde. Names (of
//! views, solvers, keys, joints, sites, bones) stay text here: [`Step::defect`] checks what can
//! be checked without a document (every step, so a script's defects are reported at once), and
//! [`Step::resolve`] turns a step into what the editor's player does, against the document open
//! when the step is taken.

use std::path::PathBuf;

use serde::Deserialize;

/// One step of a script.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum Step {
    /// Let this many frames pass.
    Wait(u32),
    /// Move the cursor to window pixel (x, y), from the top left.
    Move(f32, f32),
    /// Press the left mouse button where the cursor is.
    Press,
    /// Release the left mouse button.
    Release,
    /// Press and release a key chord, written like `"ctrl+shift+z"` or `"f"`.
    Key(String),
    /// Type text into the focused text field (each character pressed and released).
    Type(String),
    /// Put a view in the large viewport (`"perspective"`, `"front"`, `"side"`, `"top"`).
    SetView(String),
    /// Choose the IK solver by its short name (`"dls"`, `"ccd"`, …).
    SetSolver(String),
    /// Press on a site's handle, move the cursor in a straight line to the screen projection of
    /// the world point `to` over `frames` frames, then release.
    DragSite {
        /// The site's name.
        site: String,
        /// World target (metres).
        to: (f64, f64, f64),
        /// Frames the drag lasts (at least 1).
        frames: u32,
    },
    /// Save a screenshot of the window.
    Screenshot(PathBuf),
    /// Save the current pose (docs/file-formats.md).
    SavePose(PathBuf),
    /// Check that the last solve (a drag's last frame) left every goal within this many
    /// millimetres (or milliradians); the run fails, naming the solver and why the goal is
    /// unmet, when it did not.
    CheckResidual(f64),
    /// Lock a site where it is (the Locks panel's buttons).
    LockSite {
        /// The site's name.
        site: String,
        /// What is held.
        kind: ReplayLockKind,
    },
    /// Lock a joint (its origin, or its frame) where it is.
    LockJoint {
        /// The joint's name.
        joint: String,
        /// What is held.
        kind: ReplayLockKind,
    },
    /// Press on a joint's origin (gripping it, as `DragSite` grips a site), move the cursor to
    /// the screen projection of `to` over `frames` frames, then release.
    DragJoint {
        /// The joint's name.
        joint: String,
        /// World target (metres).
        to: (f64, f64, f64),
        /// Frames the drag lasts (at least 1).
        frames: u32,
    },
    /// Check that every lock holding now (enabled, and on the current frame while a sequence is
    /// shown) is within this many millimetres (or milliradians).
    CheckLocks(f64),
    /// Save the document (docs/file-formats.md, Document).
    SaveDocument(PathBuf),
    /// Open a document.
    OpenDocument(PathBuf),
    /// Answer the offer of unsaved work found at start: recover it (`true`) or discard it; the
    /// run fails when nothing is offered.
    Recover(bool),
    /// Go to a frame of the timeline (the shown sequence's pose there).
    SetFrame(i64),
    /// Set a key at the current frame (K).
    SetKey,
    /// Delete the key at the current frame (Alt+K).
    DeleteKey,
    /// Set a key at the current frame on the selected joints only (Shift+K).
    KeySelectedJoints,
    /// Open the curve editor (Sequence ▸ Curves) on the selected joints.
    ShowCurves,
    /// View ▸ Physics: show (true) or hide the physics assistant's overlays (the centre of
    /// mass, the support polygon, the angular momentum, the support strip).
    ShowPhysics(bool),
    /// View ▸ Physics of every figure: on a stage, the overlays of every figure (true also shows
    /// the overlays), or (false) the edited figure's alone.
    ShowStagePhysics(bool),
    /// Sequence ▸ Physics ghost on the flight `from ..= to` of the shown sequence (its first
    /// and last frames with no support): the centre of mass on the parabola under g
    /// (`ballistic`), the angular momentum held (`momentum`, fitted to the keyed root at up to
    /// four `marks`), the flight as long as a rise of `apex` metres needs; shown beside the
    /// take until accepted or discarded.
    PhysicsGhost {
        /// The flight's first frame.
        from: i64,
        /// Its last.
        to: i64,
        /// The parabola.
        #[serde(default)]
        ballistic: bool,
        /// The momentum.
        #[serde(default)]
        momentum: bool,
        /// The apex (metres above the take-off), or none.
        #[serde(default)]
        apex: Option<f64>,
        /// Frames whose keyed root orientation the momentum is fitted to.
        #[serde(default)]
        marks: Vec<i64>,
    },
    /// The ghost's Accept: written into the sequence as one undo step.
    AcceptGhost,
    /// The ghost's Discard.
    DiscardGhost,
    /// Mark frames `from ..= to` of the shown sequence as standing: their ghost brings the
    /// centre of mass over the support polygon where it is not (accepted or discarded as any
    /// ghost).
    MarkStanding {
        /// First frame.
        from: i64,
        /// Last frame.
        to: i64,
    },
    /// Show the motion trail of a site (or a joint) over frames `from ..= to` of the shown
    /// sequence.
    ShowTrail {
        /// The site's (or joint's) name.
        site: String,
        /// First frame.
        from: i64,
        /// Last frame.
        to: i64,
    },
    /// Drag the shown trail's dot at `frame` to where the world point `to` shows in the large
    /// view: the timeline goes to that frame, the point is posed there by IK (locks held), and
    /// a key at that frame holds the joints the drag moved.
    DragTrail {
        /// The trail's site (or joint).
        site: String,
        /// The dot's frame.
        frame: i64,
        /// Where it is dropped (world, metres).
        to: (f64, f64, f64),
        /// Frames of the move (default 20).
        #[serde(default = "twenty")]
        frames: u32,
    },
    /// Move one joint's key from frame `from` to `to` (its marker dragged on the joint's lane of
    /// the timeline); the key's other parts stay.
    MoveKeys {
        /// The joint.
        joint: String,
        /// The key's frame.
        from: i64,
        /// The new frame.
        to: i64,
    },
    /// Key one DOF of the shown sequence at `frame`: a curve of the curve editor ("left
    /// shoulder 2", its second DOF; "root y") at `value` in its units (degrees for hinges,
    /// millimetres for slides and the root), the key holding that DOF alone.
    KeyDof {
        /// The curve's name.
        curve: String,
        /// The frame.
        frame: i64,
        /// The value (degrees or millimetres).
        value: f64,
    },
    /// Give a curve's key at `frame` free handles, each (frames, value) from the key's point
    /// in the curve editor's units: `before` into the key (frames ≤ 0), `after` out of it.
    SetHandles {
        /// The curve's name.
        curve: String,
        /// The key's frame.
        frame: i64,
        /// The handle into the key.
        before: (f64, f64),
        /// The handle out of the key.
        after: (f64, f64),
    },
    /// Give a curve's key at `frame` back to its span's own tangents.
    AutoHandles {
        /// The curve's name.
        curve: String,
        /// The key's frame.
        frame: i64,
    },
    /// Drag curve points, (curve, key frame) each, by (frames, value in the curve editor's
    /// units) together, as the curve editor drags its selected points.
    DragCurvePoints {
        /// The points.
        points: Vec<(String, i64)>,
        /// By how much: (frames, degrees or millimetres).
        by: (i64, f64),
    },
    /// Sequence ▸ Find foot contacts on the shown sequence.
    FindFootContacts,
    /// Play the shown sequence for this many editor frames, one sequence frame each, then
    /// pause.
    Play {
        /// Editor frames (at least 1).
        frames: u32,
    },
    /// Click the middle of a joint's bone (from its origin to its first child) where it is
    /// drawn in the large view now.
    ClickBone(String),
    /// Sequence ▸ Retarget a capture onto this figure, on this BVH file: the map window opens
    /// with the map found ([`Step::MapBone`], [`Step::UnmapBone`] change it,
    /// [`Step::ConfirmRetarget`] runs it).
    RetargetCapture(PathBuf),
    /// How the span after the shown sequence's key at `frame` goes (a right-click on its
    /// marker on the ruler).
    SetKeyInterpolation {
        /// The key's frame.
        frame: i64,
        /// Its own interpolation (`Sequence`: the sequence's).
        interpolation: ReplayInterpolation,
        /// Ease in and out (0 … 1).
        #[serde(default)]
        ease: f64,
    },
    /// Turn a joint's hinge by its rotate handle: the ring pressed in the large view and the
    /// mouse moved round it by `degrees`.
    RotateJoint {
        /// The joint.
        joint: String,
        /// Its DOF, counted from 0 (a hinge).
        dof: usize,
        /// How far (degrees; positive turns the hinge's value up).
        degrees: f64,
    },
    /// Show or hide a panel (`outliner`, `ik`, `timeline` or `locks`), as its corner button
    /// and View ▸ Panels do.
    SetPanel {
        /// The panel.
        panel: String,
        /// Shown, or hidden to a thin strip.
        shown: bool,
    },
    /// Select this joint alone, as a click on its name in the outliner does.
    SelectJoint(String),
    /// Add this joint to the selection (or take it out), as Shift+click does.
    AddToSelection(String),
    /// Pose ▸ Mirror pose.
    MirrorPose,
    /// Pose ▸ Mirror selected limb to the other side.
    MirrorLimb,
    /// Pose ▸ Copy pose (the selected joints, or the whole pose when none is).
    CopyPose,
    /// Pose ▸ Paste pose, or Paste flipped.
    PastePose {
        /// Onto the other side, mirrored.
        flipped: bool,
    },
    /// Save the current pose in the pose library under this name (the library window opens).
    SavePoseToLibrary(String),
    /// Apply the library pose of this name to the whole figure (the window's Apply at full
    /// blend).
    ApplyLibraryPose(String),
    /// In the retarget map window: map a humanoid bone (VRM's name) to these joints.
    MapBone {
        /// The humanoid bone (`leftHand`, `hips`, …).
        bone: String,
        /// Its joint in the capture.
        capture: String,
        /// Its joint in the figure.
        target: String,
    },
    /// In the retarget map window: leave this humanoid bone unmapped.
    UnmapBone(String),
    /// The retarget map window's Retarget button.
    ConfirmRetarget,
    /// Show the sequence of this name on the timeline.
    ShowSequence(String),
    /// Open the motion plot (Sequence ▸ Motion plot) on this site.
    MotionPlot(String),
    /// Check that this joint is the one selected.
    CheckSelection(String),
    /// Export the shown sequence (or the pose) as File ▸ Export does; the format follows the
    /// file's extension (`.bvh`, `.glb`, `.json`), and the step waits until it is written.
    Export(PathBuf),
    /// Add a figure to the stage: a skeleton or character file, standing at `at` (x, z) on the
    /// floor, turned `facing` degrees about the vertical.
    AddFigure {
        /// Its name (unique among figures and props).
        name: String,
        /// The skeleton (`.ron`) or character (`.glb`, `.gltf`, `.vrm`) file.
        file: PathBuf,
        /// Where it stands on the floor (x, z), metres.
        #[serde(default)]
        at: (f64, f64),
        /// Degrees about +Y, counter-clockwise seen from above.
        #[serde(default)]
        facing: f64,
    },
    /// Edit another figure: the steps after it that name joints and sites act on it.
    SelectFigure(String),
    /// Lock a site of one figure to a site of another: `(figure, site)` each.
    LockBetween {
        /// The first figure's site.
        a: (String, String),
        /// The second figure's site.
        b: (String, String),
        /// Whether their joints also keep the relative orientation they have now (default
        /// false: positions only).
        #[serde(default)]
        turned: bool,
    },
    /// Hold a figure's site to a prop where the site is now: at a point of it, on its top
    /// plane, or along its long axis.
    LockToProp {
        /// The figure.
        figure: String,
        /// Its site.
        site: String,
        /// The prop.
        prop: String,
        /// How (`Point`, `Plane`, `Line`; default `Point`).
        #[serde(default)]
        hold: crate::stage::PropHold,
    },
    /// Add a prop at `at` (metres), turned `rotation` (Rx·Ry·Rz degrees).
    AddProp {
        /// Its name (unique among figures and props).
        name: String,
        /// Its shape, written as a stage document writes it: `Box(size: (x, y, z))`,
        /// `Cylinder(radius, length)`, `Sphere(radius)`, `Mesh("file.glb")`.
        shape: marionette_document::PropShape,
        /// Where its origin is.
        at: (f64, f64, f64),
        /// Its rotation in degrees.
        #[serde(default)]
        rotation: (f64, f64, f64),
        /// Its mass in kilograms (`None`: 1 kg), counted in a figure's centre of mass while held.
        #[serde(default)]
        mass: Option<f64>,
    },
    /// From `frame` of the shown sequence, the figure's site holds the prop.
    Grip {
        /// The prop.
        prop: String,
        /// The figure.
        figure: String,
        /// Its site.
        site: String,
        /// The frame.
        frame: i64,
    },
    /// The prop keyed at the current frame of the shown sequence, where it is now.
    KeyProp(String),
    /// The prop's key at `frame` of the shown sequence removed.
    RemovePropKey {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
    /// The prop's grip or release at `frame` of the shown sequence removed (a release it leaves
    /// without a grip goes too).
    RemoveHold {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
    /// From `frame` of the shown sequence, the prop stays where it is. Scripts write it
    /// `Release(prop: "stick", frame: 30)` (the bare `Release` is the mouse button's).
    ReleaseProp {
        /// The prop.
        prop: String,
        /// The frame.
        frame: i64,
    },
    /// Close the editor.
    Exit,
}

/// The script's text with each `Release(` (the prop step, whatever spaces before its
/// parenthesis) spelled `ReleaseProp(`, so that both `Release` steps read; text in strings is
/// left alone. Lines stay where they are, so errors point at the script's own lines.
pub(crate) fn spell_prop_release(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = c != '"' || escaped;
            escaped = c == '\\' && !escaped;
        } else if c == '"' {
            in_string = true;
        } else if let Some(after) = rest.strip_prefix("Release")
            && !out.ends_with(|p: char| p.is_alphanumeric() || p == '_')
            && after.trim_start().starts_with('(')
        {
            out.push_str("ReleaseProp");
            rest = after;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A key's interpolation as a replay writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplayInterpolation {
    /// Hold the key's pose until the next key.
    Step,
    /// Slerp, the root in a line.
    Linear,
    /// Squad, the root by Catmull-Rom.
    Smooth,
    /// As the sequence says.
    Sequence,
}

impl ReplayInterpolation {
    /// The key's own interpolation, if any.
    pub fn key(self) -> Option<marionette_document::KeyInterpolation> {
        use marionette_document::KeyInterpolation;
        match self {
            ReplayInterpolation::Step => Some(KeyInterpolation::Step),
            ReplayInterpolation::Linear => Some(KeyInterpolation::Linear),
            ReplayInterpolation::Smooth => Some(KeyInterpolation::Smooth),
            ReplayInterpolation::Sequence => None,
        }
    }
}

/// What a replay's lock step holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ReplayLockKind {
    /// The point's position.
    Position,
    /// The joint frame's orientation.
    Orientation,
    /// Position and orientation.
    Pose,
    /// The horizontal plane through the point.
    Plane,
}

impl ReplayLockKind {
    /// The lock kind it makes.
    pub fn kind(self) -> marionette_document::LockKind {
        use marionette_document::LockKind;
        match self {
            ReplayLockKind::Position => LockKind::Position,
            ReplayLockKind::Orientation => LockKind::Orientation,
            ReplayLockKind::Pose => LockKind::Pose,
            ReplayLockKind::Plane => LockKind::Plane,
        }
    }
}

/// Frames of a trail drag's move when the step does not say.
fn twenty() -> u32 {
    20
}
