#!/usr/bin/env bash
# Makes the pictures of docs/mocap.md: scripts/mocap-replay.ron played in the editor (under Xvfb
# when there is no display): CMU's capture 01_01 (Debian's assimp-testmodels) put onto the
# built-in humanoid from the Sequence menu, and onto a test character with `marionette
# retarget`; the foot contacts found and locked, the motion plot, played and saved. Last, the character's
# cleaned sequence exported as glTF and checked with the Khronos validator when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
bin="$(scripts/build-editor.sh)"
out=demo-output/mocap
mkdir -p "$out" docs/mocap
m="$bin"/marionette
capture=/usr/share/assimp/models/BVH/01_01.bvh
# 01_01's units are about 5.6 cm (the retarget scales the root by the hip heights anyway).
cp crates/interchange/tests/data/characters/authored/mixamo_apose.glb "$out/figure.glb"
"$m" import "$out/figure.glb" --skeleton-out "$out/figure.skeleton.ron" --doc-out "$out/figure.marionette.ron"
"$m" retarget "$capture" --onto "$out/figure.marionette.ron" --scale 0.056 \
    --doc-out "$out/figure-walk.marionette.ron"
run=("$bin"/marionette-editor --replay scripts/mocap-replay.ron)
if [ -z "${DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${run[@]}"
"$m" export "$out/figure-walk-clean.marionette.ron" --sequence 01_01 --format glb --out "$out/figure-walk.glb"
if [ -d tools/gltf-validator/node_modules/gltf-validator ]; then
    node tools/gltf-validator/validate.mjs "$out/figure-walk.glb"
fi
