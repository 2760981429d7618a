//! Gives a document a sequence that moves every joint: keys at frames 0 (the document's pose),
//! 12 (each DOF a third of the way from its rest value towards a limit, at most 40°; the root
//! raised 5 % of the figure) and 24 (the other way); the document's pose becomes frame 12's, so
//! a pose export is not the rest either. `scripts/blender-check.sh` uses it on an
//! imported character to check that Blender puts every bone of the glTF export where our
//! forward kinematics does, over a sequence and not only at rest:
//!
//! ```text
//! marionette import RiggedFigure.gltf --skeleton-out f.skeleton.ron --doc-out f.ron
//! cargo run --release -p marionette-bench --example character_sequence -- f.ron f.moving.ron
//! marionette export f.moving.ron --sequence moving --format glb --out f.glb
//! ```

use marionette_document::{DocumentFile, Key, RootInterpolation, RotationInterpolation, Sequence};
use marionette_skeleton::{DofKind, Pose};

/// The most a DOF moves away from its value in the document, radians.
const MOST: f64 = 40.0 * std::f64::consts::PI / 180.0;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: character_sequence DOC.ron OUT.ron";
    let input = args.next().ok_or(usage)?;
    let output = args.next().ok_or(usage)?;
    let mut doc = DocumentFile::load(&input).map_err(|e| e.to_string())?;
    let start = doc.pose.clone();
    let moved = |sign: f64| {
        let mut q = start.q.clone();
        for (i, dof) in doc.skeleton.dofs().iter().enumerate() {
            if dof.kind != DofKind::Hinge {
                continue;
            }
            let value = &mut q[3 + i];
            // Alternate the direction from DOF to DOF so the figure does not curl up.
            let direction = if i % 2 == 0 { sign } else { -sign };
            let room = if direction > 0.0 {
                dof.max - *value
            } else {
                *value - dof.min
            };
            *value += direction * (room / 3.0).clamp(0.0, MOST);
        }
        q[1] += 0.05 * figure_height(&doc);
        Pose { q }
    };
    let keys = vec![
        Key::new(0, start.clone()),
        Key::new(12, moved(1.0)),
        Key::new(24, moved(-1.0)),
    ];
    doc.pose = moved(1.0);
    doc.sequences.push(Sequence {
        name: "moving".into(),
        fps: 24.0,
        rotation: RotationInterpolation::Squad,
        root: RootInterpolation::CatmullRom,
        hold_locks: true,
        keys,
    });
    doc.save(&output).map_err(|e| e.to_string())?;
    println!("{output}");
    Ok(())
}

/// The figure's height at the document's pose (the spread of its joints in y).
fn figure_height(doc: &DocumentFile) -> f64 {
    let mut fk = marionette_skeleton::Fk::new(&doc.skeleton);
    fk.update(&doc.skeleton, &doc.pose.q);
    let ys: Vec<f64> = doc
        .skeleton
        .joint_ids()
        .map(|j| fk.joint_position(j).y)
        .collect();
    ys.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        - ys.iter().copied().fold(f64::INFINITY, f64::min)
}
