#!/usr/bin/env bash
# docs/timing.md's picture and check: plays scripts/follow-through-replay.ron in the editor under
# Xvfb (docs/timing.png, demo-output/follow-through.marionette.ron) with a taller timeline, so
# that the joint lanes show, then bakes the saved document and prints the keys each joint has.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(scripts/build-editor.sh)"
data="$PWD/demo-output/timing-data"
mkdir -p "$data/marionette"
cat > "$data/marionette/panels.ron" <<'RON'
Panels(
    outliner: (shown: true, size: 300.0),
    ik: (shown: true, size: 300.0),
    timeline: (shown: true, size: 300.0),
    locks: (shown: false, size: 170.0),
)
RON
XDG_DATA_HOME="$data" MARIONETTE_NO_NATIVE_DIALOGS=1 \
    xvfb-run -a -s "-screen 0 1280x800x24" "$bin"/marionette-editor \
    --replay scripts/follow-through-replay.ron
"$bin"/marionette bake demo-output/follow-through.marionette.ron --sequence "Sequence 1" \
    --out demo-output/follow-through.frames.json
echo "Keys on some joints:"
grep -A1 'only: Some(Only(' demo-output/follow-through.marionette.ron | grep 'joints:' | sed 's/^ */  /'
echo "Wrote docs/timing.png and demo-output/follow-through.frames.json"
