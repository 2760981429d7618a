#!/usr/bin/env bash
# Makes the pictures of docs/stage.md and checks the stage they show: plays
# scripts/stage-replay.ron in the editor (under Xvfb when there is no display) to build a stage
# of two dancers with replay steps, then bakes it (the joined hands' gap on every frame, the
# stick's moves across the hand-over) and exports it as one glb; then plays
# scripts/stage-linked-drag.ron on the test stage of two humanoids hand in hand (a drag of one
# figure that the other follows).
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
# A drag of a figure linked to another (the fourth picture).
linked=("$bin"/marionette-editor crates/motion/tests/data/two-dancers.marionette.ron
    --replay scripts/stage-linked-drag.ron)
if [ -z "${DISPLAY:-}" ]; then
    linked=(xvfb-run -a -s "-screen 0 1280x800x24" "${linked[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${linked[@]}"
doc=demo-output/stage/two-dancers.marionette.ron
"$bin"/marionette check "$doc"
"$bin"/marionette bake "$doc" --sequence "Sequence 1" --out demo-output/stage/frames.json --json
"$bin"/marionette export "$doc" --sequence "Sequence 1" --format glb --out demo-output/stage/two-dancers.glb
