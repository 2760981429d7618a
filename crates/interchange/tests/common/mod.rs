//! What the retarget and cleanup tests share: the captures (CMU's 01_01 and Boxing_Toes, from
//! Debian's assimp-testmodels) and the figures they go onto.

use std::path::Path;

use marionette_interchange::bvh::import::import;
use marionette_interchange::bvh::parse::parse;
use marionette_interchange::character::Character;
use marionette_skeleton::{Pose, Skeleton, builtin};

/// The figures captures go onto: the built-in humanoid and every test character that is a
/// humanoid, each at its rest.
pub fn targets() -> Vec<(Skeleton, Vec<f64>)> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/characters");
    let mut out = vec![(builtin::humanoid(), Pose::rest(&builtin::humanoid()).q)];
    // Welman's stick figure: arms and legs of two segments, no hand or foot joints.
    let stickman =
        Skeleton::load(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons/stickman.ron"))
            .expect("the stick figure");
    let rest = Pose::rest(&stickman).q;
    out.push((stickman, rest));
    for file in [
        "RiggedFigure.gltf",
        "authored/mixamo_apose.glb",
        "authored/rigify_tpose.glb",
        "authored/ue_armsdown_tail.glb",
        "authored/vroid_tpose.vrm",
    ] {
        let character = Character::open(&data.join(file)).expect("the character");
        let imported = character.import(file, file).expect("imports");
        let rest = Pose::rest(&imported.skeleton).q;
        out.push((imported.skeleton, rest));
    }
    out
}

pub const CAPTURES: [&str; 2] = [
    "/usr/share/assimp/models/BVH/01_01.bvh",
    "/usr/share/assimp/models/BVH/Boxing_Toes.bvh",
];

/// The capture as our skeleton and its frames.
pub fn capture(path: &str) -> (Skeleton, Vec<Vec<f64>>, f64) {
    let text = std::fs::read_to_string(path).expect("the capture (assimp-testmodels)");
    let bvh = parse(&text).expect("parses").bvh;
    let imported = import(&bvh, 0.01, 1, "take").expect("imports");
    let frames = imported
        .sequence
        .keys
        .iter()
        .map(|k| k.pose.q.clone())
        .collect();
    (imported.skeleton, frames, imported.sequence.fps)
}
