//! Why an edit was refused: every edit of the [`crate::Document`] either applies whole or
//! returns one of these, naming the joint, lock, sequence or file at fault, and changes nothing.

/// An edit that was refused; nothing changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// A DOF value that is not a number.
    #[error("joint \"{joint}\": {value} is not a valid DOF value")]
    NotANumber {
        /// The joint.
        joint: String,
        /// The value given.
        value: f64,
    },
    /// A stiffness outside (0, 1].
    #[error("joint \"{joint}\": stiffness {value} is outside (0, 1]")]
    Stiffness {
        /// The joint.
        joint: String,
        /// The value given.
        value: f64,
    },
    /// A drag that could not begin (for example, up to a joint that is not above the picked one).
    #[error("cannot drag joint \"{joint}\": {why}")]
    Drag {
        /// The picked joint.
        joint: String,
        /// Why.
        why: String,
    },
    /// A lock edit that was refused.
    #[error(transparent)]
    Lock(#[from] marionette_document::LockError),
    /// Another lock already has the name.
    #[error("a lock named \"{0}\" already exists; lock names must be unique")]
    DuplicateLock(String),
    /// No lock at that index.
    #[error("there is no lock number {0}")]
    NoSuchLock(usize),
    /// A key or range edit that was refused.
    #[error(transparent)]
    Key(#[from] marionette_document::KeyEditError),
    /// No sequence at that index (or none chosen).
    #[error("there is no sequence number {0}")]
    NoSuchSequence(usize),
    /// A capture could not be put onto the figure (the file and why).
    #[error("cannot retarget {0}")]
    Retarget(String),
    /// The document could not be saved (the file and why).
    #[error("Could not save the document: {0}")]
    Save(String),
    /// A pose file could not be opened (the file and why).
    #[error("Could not open the pose: {0}")]
    PoseFile(String),
    /// A pose tool (mirror, paste, the pose library) was refused: why.
    #[error("{0}")]
    PoseTool(String),
    /// Foot contacts could not be found (no sequence shown, no feet, or the bake failed).
    #[error("cannot find foot contacts: {0}")]
    FootContacts(String),
    /// The figure's body is not one.
    #[error("the figure's body: {0}")]
    Body(String),
    /// The physics ghost could not be made or accepted.
    #[error("physics ghost: {0}")]
    Ghost(String),
    /// Another sequence already has the name, or the name is empty.
    #[error("a sequence needs a name of its own; \"{0}\" is empty or taken")]
    SequenceName(String),
    /// A sequence setting out of range (fps, spline parameters).
    #[error("sequence \"{sequence}\": {what}")]
    SequenceValue {
        /// The sequence.
        sequence: String,
        /// What is wrong.
        what: String,
    },
    /// The swivel could not be set (not a number, or the limb solver could not serve the limb).
    #[error("swivel: {0}")]
    Swivel(String),
    /// A stage edit (figures, props, links, grips) that was refused: why.
    #[error("{0}")]
    Stage(String),
    /// IK settings that do not fit together.
    #[error("IK settings refused: {0}")]
    Settings(String),
    /// An edit on the selected joints with none selected.
    #[error("{0}: no joint is selected (click one, Shift+click for more)")]
    NoSelection(&'static str),
}
