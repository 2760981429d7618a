#!/usr/bin/env bash
# Makes the pictures of docs/stage.md and checks the stage they show: plays
# scripts/stage-replay.ron in the editor (under Xvfb when there is no display) to build a stage
# of two dancers with replay steps, then bakes it (the joined hands' gap on every frame, the
# stick's moves across the hand-over) and exports it as one glb.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
bin="$(scripts/build-editor.sh)"
mkdir -p demo-output/stage docs/stage
cp crates/interchange/tests/data/characters/RiggedFigure.gltf demo-output/stage/
run=("$bin"/marionette-editor --replay scripts/stage-replay.ron)
if [ -z "${DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${run[@]}"
doc=demo-output/stage/two-dancers.marionette.ron
"$bin"/marionette check "$doc"
"$bin"/marionette bake "$doc" --sequence "Sequence 1" --out demo-output/stage/frames.json --json
"$bin"/marionette export "$doc" --sequence "Sequence 1" --format glb --out demo-output/stage/two-dancers.glb
