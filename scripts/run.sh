#!/usr/bin/env bash
# The main job: Marionette's editor on the built-in humanoid. With a display it opens the window
# (extra arguments go to the editor, e.g. `--skeleton FILE`). Without one (a server, CI) it plays
# scripts/demo-replay.ron in the real editor under Xvfb with Mesa's software Vulkan driver: the
# right hand is dragged up in the front view, the left foot in the perspective view, and the pose
# and screenshots are written to demo-output/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-system-packages.sh
# Only the editor and the command are built here (scripts/build-editor.sh): the tests' build
# (scripts/test.sh) shares every dependency built here, Bevy included, and adds what it needs.
bin="$(scripts/build-editor.sh)"
"$bin/marionette" check skeletons/*.ron
if [ -n "${DISPLAY:-}" ]; then
    exec "$bin/marionette-editor" "$@"
fi
echo "No display: playing scripts/demo-replay.ron in the editor under Xvfb"
mkdir -p demo-output
cd demo-output
# The demo's autosaves stay in demo-output/, away from the user's own recovery files.
XDG_DATA_HOME="$PWD/data" xvfb-run -a -s "-screen 0 1280x800x24" "$bin/marionette-editor" --replay ../scripts/demo-replay.ron "$@"
echo "Wrote demo-output/pose.ron and the screenshots front.png, side.png and four-views.png"
