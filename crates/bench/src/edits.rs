//! The editor's path for the bench's drags and locks: every change goes to the document as an
//! [`Edit`] through [`Document::apply`], as the editor sends it (a drag begun on a grip, one
//! [`Edit::DragTo`] per frame, the drag ended), so the numbers are the editor's.

use marionette_document::{LockKind, LockPart};
use std::time::Instant;

use marionette_editing::{
    Applied, ChainMode, Document, Edit, EditError, Grip, IkRunner, IkSettings, Ray, SolveOutcome,
    Solving,
};
use marionette_ik::SolverKind;

/// Solving with `runner`, drags moving `mode`'s chain.
pub fn solving(runner: IkRunner, mode: ChainMode) -> Solving {
    Solving {
        runner,
        chain_mode: mode,
        ..Solving::default()
    }
}

/// Solving with `kind`'s default settings, drags moving `mode`'s chain.
pub fn solving_by(kind: SolverKind, mode: ChainMode) -> Solving {
    let settings = IkSettings {
        solver: kind,
        ..IkSettings::default()
    };
    solving(IkRunner::new(settings).expect("default settings"), mode)
}

/// Locks `part` where it is now (panics when refused: the bench's figures are known).
pub fn lock(doc: &mut Document, part: LockPart, kind: LockKind, solving: &mut Solving) {
    doc.apply(Edit::Lock { part, kind }, solving)
        .expect("the bench's lock");
}

/// Begins a drag of `grip` (the chain `solving`'s chain mode says).
pub fn begin(doc: &mut Document, grip: Grip, solving: &mut Solving) -> Result<(), EditError> {
    doc.apply(Edit::BeginDrag(grip), solving).map(drop)
}

/// One frame of the drag: the grip towards `ray`; its solve's outcome (`None`: no drag).
pub fn step(doc: &mut Document, ray: &Ray, solving: &mut Solving) -> Option<SolveOutcome> {
    match doc.apply(Edit::DragTo(*ray), solving) {
        Ok(Applied::Stepped(outcome)) => Some(*outcome),
        _ => None,
    }
}

/// [`step`] timed: its µs pushed onto `micros` (the editor's frame of IK work).
pub fn timed_step(
    doc: &mut Document,
    ray: &Ray,
    solving: &mut Solving,
    micros: &mut Vec<f64>,
) -> Option<SolveOutcome> {
    let began = Instant::now();
    let outcome = step(doc, ray, solving);
    micros.push(began.elapsed().as_secs_f64() * 1e6);
    outcome
}

/// Ends the drag (one undo step).
pub fn end(doc: &mut Document, solving: &mut Solving) {
    doc.apply(Edit::EndDrag, solving)
        .expect("ending a drag is never refused");
}
