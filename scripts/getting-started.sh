#!/usr/bin/env bash
# Makes the pictures of docs/getting-started.md: plays scripts/getting-started-replay.ron in the
# editor (under Xvfb when there is no display), then bakes the saved document.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
bin="$(scripts/build-editor.sh)"
mkdir -p demo-output docs/getting-started
run=("$bin"/marionette-editor --replay scripts/getting-started-replay.ron)
if [ -z "${DISPLAY:-}" ]; then
    run=(xvfb-run -a -s "-screen 0 1280x800x24" "${run[@]}")
fi
XDG_DATA_HOME="$PWD/demo-output/data" MARIONETTE_NO_NATIVE_DIALOGS=1 "${run[@]}"
"$bin"/marionette bake demo-output/getting-started.marionette.ron \
    --sequence "Sequence 1" --out demo-output/getting-started.frames.json
