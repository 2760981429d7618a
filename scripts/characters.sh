#!/usr/bin/env bash
# Makes the pictures of docs/characters.md: copies a test character into demo-output/, plays
# scripts/characters-replay.ron in the editor on it (under Xvfb when there is no display), then
# bakes the saved document and checks the exported glTF with the Khronos validator.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
bin="$(scripts/build-editor.sh)"
mkdir -p demo-output/characters docs/characters
cp crates/interchange/tests/data/characters/RiggedFigure.gltf demo-output/characters/
run=("$bin"/marionette-editor demo-output/characters/RiggedFigure.gltf
    --replay scripts/characters-replay.ron)
if [ -z "${DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${run[@]}"
"$bin"/marionette bake demo-output/characters/figure.marionette.ron \
    --sequence "Sequence 1" --out demo-output/characters/figure.frames.json
if [ -d tools/gltf-validator/node_modules/gltf-validator ]; then
    node tools/gltf-validator/validate.mjs demo-output/characters/figure.glb
fi
