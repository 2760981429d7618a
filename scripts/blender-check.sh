#!/usr/bin/env bash
# Checks Marionette's BVH and glTF exports in a real client: Blender 3.4 (Debian package
# `blender`) imports them headless and every joint's world position is compared with
# Marionette's forward kinematics on every frame, within 1e-5 m (scripts/blender-check.py): the
# humanoid's crouch cycle as BVH and glTF, and an imported character (RiggedFigure, whose file
# has an animation of its own) with a sequence moving every joint, and posed, as its own glTF
# file, the Mixamo-style FBX test figure the same way, every binary test FBX character's rest pose
# against Blender's own FBX importer, and each figure of a stage as BVH placed on the stage, and the whole stage as one glTF. Run before
# releasing an exporter change; it is not part of CI (Blender takes a minute to start here).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v blender >/dev/null || { echo "needs Blender: sudo apt-get install blender python3-numpy" >&2; exit 1; }
cargo build --release -p marionette-cli -p marionette-bench --bins --examples --locked
target="$(cargo metadata --format-version 1 --no-deps --locked |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')/release"
out="${1:-demo-output/blender-check}"
mkdir -p "$out"
skeleton="$PWD/skeletons/humanoid.ron"
"$target"/examples/crouch_document 49 "$out/crouches.marionette.ron" >/dev/null
for format in bvh glb json; do
    "$target"/marionette export "$out/crouches.marionette.ron" --sequence crouches \
        --format "$format" --out "$out/crouches.$format"
done
blender -b --factory-startup --python scripts/blender-check.py -- \
    "$out/crouches.json" "$out/crouches.bvh" "$out/crouches.glb" 2>&1 |
    grep -E "^(BVH|glTF)|Error|error" || true
blender -b --factory-startup --python scripts/blender-check.py -- \
    "$out/crouches.json" "$out/crouches.bvh" "$out/crouches.glb" >/dev/null 2>&1
# Characters: RiggedFigure and the Mixamo-style FBX test figure (in centimetres) imported, a
# sequence moving every joint added, exported as glTF (each its own file with the animation);
# Blender must put every bone where our forward kinematics does.
for character in RiggedFigure.gltf:figure authored/mixamo_apose.fbx:mixamo; do
    source="${character%%:*}" name="${character##*:}"
    cp "crates/interchange/tests/data/characters/$source" "$out/"
    "$target"/marionette import "$out/$(basename "$source")" \
        --skeleton-out "$out/$name.skeleton.ron" --doc-out "$out/$name-rest.ron" >/dev/null
    "$target"/examples/character_sequence "$out/$name-rest.ron" "$out/$name.ron" >/dev/null
    for format in glb json; do
        "$target"/marionette export "$out/$name.ron" --sequence moving \
            --format "$format" --out "$out/$name.$format"
    done
    blender -b --factory-startup --python scripts/blender-check.py -- \
        "$out/$name.json" - "$out/$name.glb" 2>&1 | grep -E "^glTF|Error|error" || true
    blender -b --factory-startup --python scripts/blender-check.py -- \
        "$out/$name.json" - "$out/$name.glb" >/dev/null 2>&1
done
# Every binary test FBX character at rest: Blender's own FBX importer puts each bone's head where
# our import puts the joint (scripts/blender-fbx-check.py; Blender reads no ASCII FBX).
for fbx in crates/interchange/tests/data/characters/authored/mixamo_apose.fbx \
    crates/interchange/tests/data/characters/authored/rigify_tpose_zup.fbx \
    /usr/share/assimp/models/FBX/huesitos.fbx /usr/share/assimp/models/FBX/animation_with_skeleton.fbx; do
    name="$(basename "$fbx" .fbx)"
    "$target"/marionette import "$fbx" --skeleton-out "$out/fbx-$name.skeleton.ron" \
        --doc-out "$out/fbx-$name.ron" >/dev/null
    "$target"/marionette fk "$out/fbx-$name.skeleton.ron" --json >"$out/fbx-$name.joints.json"
    blender -b --factory-startup --python scripts/blender-fbx-check.py -- \
        "$fbx" "$out/fbx-$name.joints.json" 2>&1 | grep -E "^FBX .* joints are bones|Error|error" || true
    blender -b --factory-startup --python scripts/blender-fbx-check.py -- \
        "$fbx" "$out/fbx-$name.joints.json" >/dev/null 2>&1
done
# The same character posed (the document's pose, no sequence): Blender shows the file's first
# animation, which must be the pose (the file's own walk is dropped).
for format in glb json; do
    "$target"/marionette export "$out/figure.ron" --format "$format" --out "$out/figure-pose.$format"
done
blender -b --factory-startup --python scripts/blender-check.py -- \
    "$out/figure-pose.json" - "$out/figure-pose.glb" 2>&1 | grep -E "^glTF|Error|error" || true
blender -b --factory-startup --python scripts/blender-check.py -- \
    "$out/figure-pose.json" - "$out/figure-pose.glb" >/dev/null 2>&1
# A stage: each of the two dancers exported alone (BVH, its root placed on the stage), every joint
# where the stage's JSON export puts it.
stage=crates/motion/tests/data/two-dancers.marionette.ron
for figure in A B; do
    for format in bvh json; do
        "$target"/marionette export "$stage" --sequence sway --figure "$figure" \
            --format "$format" --out "$out/dancer-$figure.$format" >/dev/null
    done
    blender -b --factory-startup --python scripts/blender-check.py -- \
        "$out/dancer-$figure.json" "$out/dancer-$figure.bvh" - 2>&1 | grep -E "^BVH|Error|error" || true
    blender -b --factory-startup --python scripts/blender-check.py -- \
        "$out/dancer-$figure.json" "$out/dancer-$figure.bvh" - >/dev/null 2>&1
done
# The whole stage as one glb: both dancers' joints where their JSON exports put them, and the stick
# where the bake puts it, on every frame.
"$target"/marionette export "$stage" --sequence sway --format glb --out "$out/stage.glb" >/dev/null
blender -b --factory-startup --python scripts/blender-stage-check.py -- \
    "$out/stage.glb" A="$out/dancer-A.json" B="$out/dancer-B.json" 2>&1 | grep -E "^(figure|prop|no )|Error|error" || true
blender -b --factory-startup --python scripts/blender-stage-check.py -- \
    "$out/stage.glb" A="$out/dancer-A.json" B="$out/dancer-B.json" >/dev/null 2>&1
echo "Blender reads every file with every joint where Marionette puts it"
